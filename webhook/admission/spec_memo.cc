#include "webhook/admission/spec_memo.h"

#include <functional>
#include <utility>

namespace draguard::webhook {

// An entry owns a copy of its key, so that a hash collision is told from a hit.
struct SpecMemo::Entry {
  std::string kind, version, name_space;
  bool admin_access_allowed = false;
  std::string spec;
  std::shared_ptr<const SpecFindings> findings;

  bool Matches(const SpecKey& key) const {
    return admin_access_allowed == key.admin_access_allowed && spec == key.spec &&
           kind == key.kind && version == key.version && name_space == key.name_space;
  }
};

SpecMemo::SpecMemo(SpecMemoOptions options) : options_(options) {}

uint64_t SpecMemo::Hash(const SpecKey& key) {
  const std::hash<std::string_view> hash;
  uint64_t h = hash(key.spec);
  for (std::string_view part : {key.kind, key.version, key.name_space}) {
    h = (h ^ hash(part)) * 0x9E3779B97F4A7C15ULL;
  }
  return h ^ (key.admin_access_allowed ? 0x5bd1e995ULL : 0);
}

std::shared_ptr<const SpecFindings> SpecMemo::Find(const SpecKey& key,
                                                   const void* schema_token) const {
  if (!Accepts(key)) return nullptr;
  const uint64_t h = Hash(key);
  std::shared_ptr<const Entry> entry;
  {
    std::lock_guard lock(mu_);
    if (auto it = entries_.find(h); it != entries_.end()) entry = it->second;
  }
  // Compared outside the lock: entries are immutable once inserted.
  if (entry == nullptr || !entry->Matches(key) ||
      entry->findings->schema_token.get() != schema_token) {
    misses_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  hits_.fetch_add(1, std::memory_order_relaxed);
  return entry->findings;
}

void SpecMemo::Insert(const SpecKey& key, std::shared_ptr<const SpecFindings> findings) {
  if (!Accepts(key) || findings == nullptr) return;
  auto entry = std::make_shared<Entry>(Entry{.kind = std::string(key.kind),
                                             .version = std::string(key.version),
                                             .name_space = std::string(key.name_space),
                                             .admin_access_allowed = key.admin_access_allowed,
                                             .spec = std::string(key.spec),
                                             .findings = std::move(findings)});
  const uint64_t h = Hash(key);
  std::lock_guard lock(mu_);
  const bool inserted = entries_.insert_or_assign(h, std::move(entry)).second;
  if (!inserted) return;  // replaced in place: its place in the order stays
  order_.push_back(h);
  while (entries_.size() > options_.entries) {
    entries_.erase(order_.front());
    order_.pop_front();
  }
}

size_t SpecMemo::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

SpecMemoStats SpecMemo::stats() const {
  return {.entries = size(),
          .hits = hits_.load(std::memory_order_relaxed),
          .misses = misses_.load(std::memory_order_relaxed)};
}

bool IsSpecField(std::string_view field) {
  constexpr std::string_view kSpec = "spec";
  if (field.substr(0, kSpec.size()) != kSpec) return false;
  return field.size() == kSpec.size() || field[kSpec.size()] == '.' ||
         field[kSpec.size()] == '[';
}

}  // namespace draguard::webhook
