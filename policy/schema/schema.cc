#include "policy/schema/schema.h"

#include <algorithm>
#include <utility>

#include "policy/common/suggest.h"
#include "policy/schema/catalog.h"

namespace draguard::schema {
namespace {

constexpr std::string_view kNumberedSuffix = "<N>";

// `partition<N>` matches `partition2`: the prefix then one or more digits.
bool MatchesNumbered(std::string_view pattern, std::string_view name) {
  if (!pattern.ends_with(kNumberedSuffix)) return false;
  const std::string_view prefix = pattern.substr(0, pattern.size() - kNumberedSuffix.size());
  if (!name.starts_with(prefix) || name.size() == prefix.size()) return false;
  const std::string_view digits = name.substr(prefix.size());
  return std::all_of(digits.begin(), digits.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

const Entry* FindEntry(const std::map<std::string, Entry, std::less<>>& entries,
                       std::string_view name) {
  if (auto it = entries.find(name); it != entries.end()) return &it->second;
  for (const auto& [pattern, entry] : entries) {
    if (MatchesNumbered(pattern, name)) return &entry;
  }
  return nullptr;
}

}  // namespace

std::string_view ValueTypeName(ValueType type) {
  switch (type) {
    case ValueType::kInt:
      return "int";
    case ValueType::kBool:
      return "bool";
    case ValueType::kString:
      return "string";
    case ValueType::kVersion:
      return "version";
    case ValueType::kQuantity:
      return "quantity";
  }
  return "unknown";
}

std::optional<ValueType> ParseValueType(std::string_view name) {
  for (ValueType t : {ValueType::kInt, ValueType::kBool, ValueType::kString, ValueType::kVersion,
                      ValueType::kQuantity}) {
    if (ValueTypeName(t) == name) return t;
  }
  return std::nullopt;
}

const Entry* DomainSchema::FindAttribute(std::string_view name) const {
  return FindEntry(attributes, name);
}

const Entry* DomainSchema::FindCapacity(std::string_view name) const {
  return FindEntry(capacities, name);
}

Schema::Schema(const Schema& other) : domains_(other.domains_), memo_(other.memo_) {
  for (const auto& [name, domain] : domains_) index_.emplace(name, &domain);
}

Schema& Schema::operator=(const Schema& other) {
  if (this == &other) return *this;
  domains_ = other.domains_;
  memo_ = other.memo_;
  index_.clear();
  for (const auto& [name, domain] : domains_) index_.emplace(name, &domain);
  return *this;
}

const DomainSchema* Schema::FindDomain(std::string_view domain) const {
  auto it = index_.find(domain);
  return it == index_.end() ? nullptr : it->second;
}

std::vector<const DomainSchema*> Schema::DomainsOfDriver(std::string_view driver) const {
  std::vector<const DomainSchema*> out;
  for (const auto& [name, domain] : domains_) {
    if (domain.drivers.empty() ||
        std::find(domain.drivers.begin(), domain.drivers.end(), driver) != domain.drivers.end()) {
      out.push_back(&domain);
    }
  }
  return out;
}

// Domains come from clients' selectors (up to 10 KB each): bounded in entries and bytes.
struct Schema::Memo {
  static constexpr CacheLimits kLimits{.max_entries = 1024, .max_bytes = 1 << 20};
  std::mutex mu;
  BoundedCache<Schema::DomainSuggestion> closest{kLimits};
};

CacheStats Schema::domain_memo_stats() const {
  const std::shared_ptr<Memo> memo = memo_;
  if (memo == nullptr) return CacheStats{.limits = Memo::kLimits};
  std::lock_guard lock(memo->mu);
  return memo->closest.stats();
}

Schema::DomainSuggestion Schema::ClosestDomain(std::string_view domain) const {
  const std::shared_ptr<Memo> memo = memo_;
  if (memo != nullptr) {
    std::lock_guard lock(memo->mu);
    if (const DomainSuggestion* known = memo->closest.Find(domain)) return *known;
  }
  std::vector<std::string_view> candidates;
  candidates.reserve(domains_.size());
  for (const auto& [name, d] : domains_) candidates.push_back(name);
  DomainSuggestion suggestion{.name = ClosestMatch(domain, candidates)};
  if (suggestion.name) {
    suggestion.folded_distance = FoldedEditDistance(domain, *suggestion.name);
  }
  if (memo != nullptr) {
    const size_t bytes = sizeof(suggestion) + (suggestion.name ? HeapBytes(*suggestion.name) : 0);
    std::lock_guard lock(memo->mu);
    memo->closest.Insert(domain, suggestion, bytes);
  }
  return suggestion;
}

DomainSchema& Schema::MutableDomain(std::string_view domain) {
  auto it = domains_.find(domain);
  if (it == domains_.end()) {
    memo_ = std::make_shared<Memo>();  // suggestions depend on the set of domain names only
    it = domains_.emplace(std::string(domain), DomainSchema{}).first;
    it->second.domain = std::string(domain);
    index_.emplace(it->first, &it->second);
  }
  return it->second;
}

StatusOr<BuildResult> BuildSchema(const SchemaSources& sources) {
  BuildResult result;
  if (sources.builtin_catalog) {
    Diagnostics catalog_problems;
    for (const CatalogFile& file : EmbeddedCatalog()) {
      LoadSchemaFile(SourceText(std::string(file.name), std::string(file.text)),
                     Origin::kCatalog, result.schema, catalog_problems);
    }
    if (catalog_problems.has_errors()) {
      const Diagnostic& first = *std::find_if(catalog_problems.begin(), catalog_problems.end(),
                                              [](const Diagnostic& d) { return d.is_error(); });
      return InternalError("built-in schema catalog " + first.file + ":" +
                           std::to_string(first.position.line) + ": " + first.message);
    }
  }
  for (const SourceText& file : sources.user_files) {
    LoadSchemaFile(file, Origin::kUserFile, result.schema, result.diagnostics);
  }
  if (sources.cluster != nullptr) {
    ObserveSlices(sources.cluster->slices, result.schema, result.diagnostics);
  }
  return result;
}

}  // namespace draguard::schema
