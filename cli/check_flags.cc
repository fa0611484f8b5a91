#include "cli/check_flags.h"

#include <algorithm>
#include <utility>

#include "policy/common/status_macros.h"
#include "policy/pipeline/pipeline.h"

namespace draguard::cli {

void CheckFlags::Register(FlagSet& flags, std::string_view budget_help,
                          bool all_namespaces_flag) {
  flags.AddString("output", &output, "FORMAT", "Output format: text or json");
  flags.AddShort('o', "output");
  cluster.Register(flags);
  kube.Register(flags, all_namespaces_flag);
  flags.AddList("inventory", &inventory, "PATH",
                "More cluster objects (e.g. a kubectl export); repeatable");
  flags.AddString("budget", &budget, "DURATION", std::string(budget_help));
}

StatusOr<CheckSettings> ResolveCheckFlags(const CheckFlags& flags, std::ostream& err) {
  if (flags.output != "text" && flags.output != "json") {
    return InvalidArgumentError("invalid value \"" + flags.output +
                                "\" for --output: expected text or json");
  }
  DRAGUARD_ASSIGN_OR_RETURN(ClusterSettings cluster, ResolveClusterFlags(flags.cluster, err));
  CheckSettings out{.allocator = cluster.allocator, .validation = cluster.Validation()};
  DRAGUARD_ASSIGN_OR_RETURN(out.allocator.time_budget, ParseDuration("budget", flags.budget));
  return out;
}

bool IsPodArgument(const std::string& arg, std::string& name) {
  for (std::string_view prefix : {"pod/", "pods/", "po/"}) {
    if (arg.rfind(prefix, 0) == 0) {
      name = arg.substr(prefix.size());
      return true;
    }
  }
  return false;
}

bool WantsLiveCluster(const CheckFlags& flags, bool names_live_objects,
                      const std::vector<k8s::DecodeResult>& decoded) {
  if (names_live_objects || flags.kube.NamesCluster()) return true;
  if (!flags.inventory.empty()) return false;
  if (!pipeline::MergeClusterObjects(nullptr, decoded).empty()) return false;
  return DefaultClusterExists();
}

void ListingProgress::Update(const std::string& resource, size_t listed) {
  if (!enabled_) return;
  auto it = std::find_if(counts_.begin(), counts_.end(),
                         [&](const auto& entry) { return entry.first == resource; });
  if (it == counts_.end()) {
    counts_.emplace_back(resource, listed);
  } else {
    it->second = listed;
  }
  std::string line = "listing";
  for (const auto& [name, count] : counts_) {
    line += (line.size() == 7 ? " " : ", ") + std::to_string(count) + " " +
            name.substr(0, name.find('.'));
  }
  err_ << "\r\x1b[K" << line << std::flush;
  drawn_ = true;
}

void ListingProgress::Clear() {
  if (!drawn_) return;
  err_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
}

void LiveCluster::DoneListing() {
  if (progress) progress->Clear();
}

StatusOr<LiveCluster> OpenLiveCluster(const CheckFlags& flags, const CheckSettings& settings,
                                      CommandContext& context, std::string_view command,
                                      bool progress) {
  if (!flags.inventory.empty()) {
    return InvalidArgumentError("--inventory cannot be combined with a live cluster (pod/NAME, "
                                "--pending, --kubeconfig, --context)");
  }
  LiveCluster live;
  DRAGUARD_ASSIGN_OR_RETURN(live.config, LoadSelectedCluster(flags.kube));
  if (live.config.insecure_skip_tls_verify) {
    context.err << "draguard " << command << ": warning: " << live.config.origin
                << " skips TLS verification (insecure-skip-tls-verify)\n";
  }
  live.progress = std::make_shared<ListingProgress>(context.err, progress && context.err_is_tty);
  webhook::kube::ClusterReaderOptions options;
  options.release = settings.validation.version;
  options.on_page = [lines = live.progress](const std::string& resource, size_t listed) {
    lines->Update(resource, listed);
  };
  live.reader = std::make_unique<webhook::kube::ClusterReader>(live.config, std::move(options));
  StatusOr<webhook::kube::ClusterSnapshot> snapshot = live.reader->LoadSnapshot();
  if (!snapshot.ok()) {
    live.progress->Clear();
    return snapshot.status();
  }
  live.snapshot = std::move(*snapshot);
  return live;
}

}  // namespace draguard::cli
