#include "webhook/server/metrics.h"

#include <cstdio>

namespace draguard::webhook {
namespace {

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// Label values escape backslash, quote and newline.
std::string Label(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

void Header(std::string& out, std::string_view name, std::string_view type,
            std::string_view help) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

void Sample(std::string& out, std::string_view name, double value) {
  out += name;
  out += ' ';
  out += Number(value);
  out += '\n';
}

// The kind label: one of the kinds the webhook is registered for, or "other". The request's
// kind is the client's text, and every distinct label value is a series kept forever.
std::string_view KindLabel(std::string_view kind) {
  static constexpr std::string_view kKnown[] = {"",
                                                "ResourceClaim",
                                                "ResourceClaimTemplate",
                                                "DeviceClass",
                                                "ResourceSlice",
                                                "DeviceTaintRule"};
  for (std::string_view known : kKnown) {
    if (kind == known) return known;
  }
  return "other";
}

void RenderCaches(std::string& out, const std::vector<NamedCacheStats>& caches) {
  if (caches.empty()) return;
  struct Series {
    const char* name;
    const char* type;
    const char* help;
    uint64_t (*value)(const CacheStats&);
  };
  static constexpr Series kSeries[] = {
      {"draguard_cache_entries", "gauge", "Entries held by each bounded cache.",
       [](const CacheStats& s) -> uint64_t { return s.entries; }},
      {"draguard_cache_bytes", "gauge",
       "Estimated heap bytes held by each bounded cache (keys and values).",
       [](const CacheStats& s) -> uint64_t { return s.bytes; }},
      {"draguard_cache_max_entries", "gauge", "Entry limit of each bounded cache.",
       [](const CacheStats& s) -> uint64_t { return s.limits.max_entries; }},
      {"draguard_cache_max_bytes", "gauge", "Byte limit of each bounded cache.",
       [](const CacheStats& s) -> uint64_t { return s.limits.max_bytes; }},
      {"draguard_cache_evictions_total", "counter",
       "Entries forgotten to stay within the limits, by cache.",
       [](const CacheStats& s) -> uint64_t { return s.evictions; }},
      {"draguard_cache_hits_total", "counter", "Lookups that found their entry, by cache.",
       [](const CacheStats& s) -> uint64_t { return s.hits; }},
      {"draguard_cache_misses_total", "counter", "Lookups that did not, by cache.",
       [](const CacheStats& s) -> uint64_t { return s.misses; }},
  };
  for (const Series& series : kSeries) {
    Header(out, series.name, series.type, series.help);
    for (const NamedCacheStats& cache : caches) {
      out += series.name;
      out += "{cache=\"";
      out += Label(cache.name);
      out += "\"} ";
      out += std::to_string(series.value(cache.stats));
      out += '\n';
    }
  }
}

// One metric without labels: its header and its sample.
void Metric(std::string& out, std::string_view name, std::string_view type,
            std::string_view help, double value) {
  Header(out, name, type, help);
  Sample(out, name, value);
}

void RenderInventory(const InventoryStats& inventory, std::string& out) {
  Metric(out, "draguard_inventory_synced", "gauge", "1 once the inventory is usable.",
         inventory.synced ? 1 : 0);
  Metric(out, "draguard_inventory_objects", "gauge", "Objects in the inventory.",
         static_cast<double>(inventory.objects));
  Metric(out, "draguard_inventory_age_seconds", "gauge",
         "Seconds since the inventory last changed or was confirmed current.",
         inventory.age_seconds);
  Metric(out, "draguard_inventory_files_failing", "gauge",
         "Inventory files whose last good content is in use because they cannot be read now.",
         static_cast<double>(inventory.files_failing));
  Metric(out, "draguard_inventory_stale_seconds", "gauge",
         "Seconds since the longest-failing inventory file started failing (0 when none is).",
         inventory.stale_seconds);
  Metric(out, "draguard_inventory_file_failures_total", "counter",
         "Failures to read or parse an inventory file, each counted once until it recovers.",
         static_cast<double>(inventory.file_failures));
}

void RenderMemory(const ProcessMemory& memory, std::string& out) {
  if (memory.resident_bytes) {
    Metric(out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
           static_cast<double>(*memory.resident_bytes));
  }
  if (!memory.heap_in_use_bytes || !memory.heap_free_bytes) return;
  Header(out, "draguard_heap_bytes", "gauge",
         "The memory allocator's heap: bytes allocated (in_use) and freed but kept resident "
         "by the allocator (free); RSS well above in_use means fragmentation.");
  out += "draguard_heap_bytes{state=\"in_use\"} " + std::to_string(*memory.heap_in_use_bytes) +
         '\n';
  out += "draguard_heap_bytes{state=\"free\"} " + std::to_string(*memory.heap_free_bytes) + '\n';
}

}  // namespace

void Metrics::RecordRequest(std::string_view endpoint, std::string_view kind,
                            std::string_view verdict, double seconds) {
  std::lock_guard lock(mu_);
  const RequestKeyView key{endpoint, KindLabel(kind), verdict};
  if (auto it = requests_.find(key); it != requests_.end()) {
    ++it->second;
  } else {
    requests_.emplace(RequestKey(key), 1);
  }
  auto histogram = latency_.find(endpoint);
  if (histogram == latency_.end()) histogram = latency_.emplace(endpoint, Histogram{}).first;
  Histogram& h = histogram->second;
  for (size_t i = 0; i < kBuckets.size(); ++i) {
    if (seconds <= kBuckets[i]) ++h.counts[i];
  }
  ++h.count;
  h.sum += seconds;
}

void Metrics::RenderRequests(std::string& out) const {
  std::lock_guard lock(mu_);
  Header(out, "draguard_admission_requests_total", "counter",
         "Admission requests by endpoint, object kind and verdict.");
  for (const auto& [key, count] : requests_) {
    const auto& [endpoint, kind, verdict] = key;
    out += "draguard_admission_requests_total{endpoint=\"" + Label(endpoint) + "\",kind=\"" +
           Label(kind) + "\",verdict=\"" + Label(verdict) + "\"} " + std::to_string(count) + '\n';
  }
  Header(out, "draguard_admission_request_duration_seconds", "histogram",
         "Time to answer an admission request, from full request to response built.");
  for (const auto& [endpoint, h] : latency_) {
    std::string prefix =
        "draguard_admission_request_duration_seconds_bucket{endpoint=\"" + Label(endpoint) + "\",le=\"";
    for (size_t i = 0; i < kBuckets.size(); ++i) {
      out += prefix + Number(kBuckets[i]) + "\"} " + std::to_string(h.counts[i]) + '\n';
    }
    out += prefix + "+Inf\"} " + std::to_string(h.count) + '\n';
    std::string labels = "{endpoint=\"" + Label(endpoint) + "\"} ";
    out += "draguard_admission_request_duration_seconds_sum" + labels + Number(h.sum) + '\n';
    out += "draguard_admission_request_duration_seconds_count" + labels +
           std::to_string(h.count) + '\n';
  }
}

std::string Metrics::Render(const MetricsGauges& g) const {
  std::string out;
  RenderRequests(out);
  Header(out, "draguard_connections_active", "gauge", "Open client connections.");
  Sample(out, "draguard_connections_active", static_cast<double>(active_connections_.load()));
  Header(out, "draguard_connections_rejected_total", "counter",
         "Connections closed at once because max_connections was reached.");
  Sample(out, "draguard_connections_rejected_total", static_cast<double>(rejected_connections_));
  Header(out, "draguard_connections_evicted_total", "counter",
         "Connections closed at the limit to make room: the oldest without a completed request.");
  Sample(out, "draguard_connections_evicted_total", static_cast<double>(evicted_connections_));
  Header(out, "draguard_request_bodies_refused_total", "counter",
         "Requests answered 503 because the bodies in flight reached max_inflight_body_bytes.");
  Sample(out, "draguard_request_bodies_refused_total", static_cast<double>(bodies_refused_));
  Header(out, "draguard_tls_handshake_failures_total", "counter", "Failed TLS handshakes.");
  Sample(out, "draguard_tls_handshake_failures_total", static_cast<double>(handshake_failures_));
  Header(out, "draguard_certificate_reloads_total", "counter",
         "Serving certificate reloads after a change on disk, by result.");
  out += "draguard_certificate_reloads_total{result=\"success\"} " +
         std::to_string(cert_reloads_ok_.load()) + '\n';
  out += "draguard_certificate_reloads_total{result=\"failure\"} " +
         std::to_string(cert_reloads_failed_.load()) + '\n';
  if (g.cert_not_after_unix.has_value()) {
    Header(out, "draguard_certificate_expiry_seconds", "gauge",
           "Seconds until the serving certificate expires (negative once expired).");
    Sample(out, "draguard_certificate_expiry_seconds",
           static_cast<double>(*g.cert_not_after_unix - g.now_unix));
  }
  Header(out, "draguard_ready", "gauge", "1 when /readyz answers 200.");
  Sample(out, "draguard_ready", g.ready ? 1 : 0);
  if (!g.release.release.empty()) {
    Header(out, "draguard_kubernetes_release_info", "gauge",
           "The Kubernetes release whose API server and scheduler the checks reproduce, and "
           "where it came from (flag, config, apiserver, default).");
    out += "draguard_kubernetes_release_info{release=\"" + Label(g.release.release) +
           "\",source=\"" + Label(g.release.source) + "\"} 1\n";
  }
  if (g.inventory.configured) RenderInventory(g.inventory, out);
  if (g.spec_memo.has_value()) {
    Header(out, "draguard_spec_memo_entries", "gauge",
           "Claim and template specs whose findings are remembered.");
    Sample(out, "draguard_spec_memo_entries", static_cast<double>(g.spec_memo->entries));
    Header(out, "draguard_spec_memo_lookups_total", "counter",
           "Lookups of a claim's or template's spec in the memo, by result.");
    out += "draguard_spec_memo_lookups_total{result=\"hit\"} " +
           std::to_string(g.spec_memo->hits) + '\n';
    out += "draguard_spec_memo_lookups_total{result=\"miss\"} " +
           std::to_string(g.spec_memo->misses) + '\n';
    Header(out, "draguard_spec_memo_first_sights_total", "counter",
           "Misses of a spec not seen among the latest misses: its findings are not "
           "remembered (a spec is remembered from its second miss).");
    out += "draguard_spec_memo_first_sights_total " +
           std::to_string(g.spec_memo->first_sights) + '\n';
  }
  RenderCaches(out, g.caches);
  RenderMemory(g.memory, out);
  return out;
}

}  // namespace draguard::webhook
