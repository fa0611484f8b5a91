// The attribute schema: which attributes (int, bool, string, version) and capacities
// (quantities) each driver domain publishes, on which device types, and since or until which
// driver version. Selector and constraint checks (check.h) read it.
//
// A Schema merges three sources, in this order (a later source adds to and may override an
// earlier one, attribute by attribute):
//   1. the built-in catalog (policy/schema/catalog/*.yaml, embedded at build time) of real
//      drivers and the standard `resource.kubernetes.io` attributes;
//   2. user schema files (`--schema FILE`, same YAML format, see docs/schema.md);
//   3. what ResourceSlices actually publish (ClusterObjects::slices). Observed attributes are
//      added; an attribute published with two different types is reported as
//      `schema.slice.type-conflict`, and a type that differs from the catalog or user file as
//      `schema.slice.type-mismatch` (the observed type wins: it is what CEL will see).
//
// Building never throws. Malformed catalog or user files are diagnostics (`schema.file.*`)
// positioned in that file; BuildSchema returns a Status only when the embedded catalog is
// broken (a build defect).
//
// A built Schema is immutable and thread safe to read; share it as
// std::shared_ptr<const Schema> between lint workers or webhook requests.
#ifndef DRAGUARD_POLICY_SCHEMA_SCHEMA_H_
#define DRAGUARD_POLICY_SCHEMA_SCHEMA_H_

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "policy/common/bounded_cache.h"
#include "policy/common/strings.h"
#include "policy/common/diagnostic.h"
#include "policy/common/source.h"
#include "policy/common/status_or.h"
#include "policy/inventory/cluster_objects.h"

namespace draguard::schema {

// CEL-visible value types. kQuantity is only for capacities.
enum class ValueType { kInt, kBool, kString, kVersion, kQuantity };

// "int", "bool", "string", "version", "quantity".
std::string_view ValueTypeName(ValueType type);
std::optional<ValueType> ParseValueType(std::string_view name);

// Where a schema entry came from (messages say it).
enum class Origin { kCatalog, kUserFile, kSlice };

// One attribute or capacity of a domain.
struct Entry {
  // The identifier (the part after the domain). A name ending in "<N>" (`partition<N>`)
  // stands for that prefix followed by decimal digits.
  std::string name;
  ValueType type = ValueType::kString;
  std::vector<std::string> examples;
  // When non-empty, the complete set of values devices publish (e.g. NVIDIA `type`).
  std::vector<std::string> closed_values;
  // Device types that publish it; empty means every device type of the domain.
  std::vector<std::string> device_types;
  // Published only sometimes on those types (e.g. only with a feature gate or when known).
  bool optional = false;
  // Removed from the driver: the driver version that dropped it and what to use instead.
  std::optional<std::string> removed_in;
  // Still published but deprecated by the driver.
  bool deprecated = false;
  std::string replaced_by;  // "" or a name in the same domain, or "domain/name"
  std::string note;         // one sentence for messages ("deprecated since v0.11")
  Origin origin = Origin::kCatalog;
  // The type a catalog or user file declares (`type` may be replaced by what slices publish).
  std::optional<ValueType> declared_type;
  // What ResourceSlices publish, per driver (the first type each driver was seen with).
  std::map<std::string, ValueType, std::less<>> published_types;
  // Some ResourceSlice publishes it as a list of `type` (DRAListTypeAttributes, 1.36: `ints`,
  // `bools`, `strings`, `versions`): compared with a scalar it is never equal.
  bool list = false;
  // Equal entries: the webhook keeps the schema in force when a new snapshot's is equal.
  bool operator==(const Entry&) const = default;
};

// One attribute domain (a driver's own domain or a shared one such as
// resource.kubernetes.io).
struct DomainSchema {
  std::string domain;
  // The attribute telling device types apart ("type"), or "" when the domain has one kind.
  std::string type_attribute;
  // Every device type of the domain (values of type_attribute); empty when not typed.
  std::vector<std::string> device_types;
  // The drivers whose devices publish this domain ("gpu.nvidia.com" publishes
  // resource.kubernetes.io too). Empty for shared domains that any driver may publish.
  std::vector<std::string> drivers;
  std::map<std::string, Entry, std::less<>> attributes;
  std::map<std::string, Entry, std::less<>> capacities;
  // True when the attribute list is complete (catalog or user file said so, or observed in
  // slices); false for a domain known only by name (then unknown names are only warnings).
  bool complete = true;

  const Entry* FindAttribute(std::string_view name) const;
  const Entry* FindCapacity(std::string_view name) const;
  bool operator==(const DomainSchema&) const = default;
};

struct SchemaSources {
  // Load the embedded catalog (`--no-builtin-schema` turns it off).
  bool builtin_catalog = true;
  // User schema files (`--schema FILE`), already read.
  std::vector<SourceText> user_files;
  // Cluster state whose ResourceSlices contribute observed attributes; may be null.
  const inventory::ClusterObjects* cluster = nullptr;
};

class Schema {
 public:
  Schema() = default;
  // A copy has its own index (views of its own domains); a move takes the domains' nodes,
  // and the index viewing them, along.
  Schema(const Schema& other);
  Schema& operator=(const Schema& other);
  Schema(Schema&&) noexcept = default;
  Schema& operator=(Schema&&) noexcept = default;
  ~Schema() = default;

  const DomainSchema* FindDomain(std::string_view domain) const;
  // The domains whose devices come from `driver` (its own domain and shared ones).
  std::vector<const DomainSchema*> DomainsOfDriver(std::string_view driver) const;
  const std::map<std::string, DomainSchema, std::less<>>& domains() const { return domains_; }
  bool empty() const { return domains_.empty(); }
  // The known domain that `domain` is most likely a typo of (ClosestMatch over domains()),
  // and the edit distance between the two ignoring letter case (0 without a name).
  struct DomainSuggestion {
    std::optional<std::string> name;
    size_t folded_distance = 0;
  };
  // Remembered per schema: the webhook is asked about the same private domains on every
  // request, and the comparison with every known domain costs more than the rest of a
  // selector's checks. Thread safe.
  DomainSuggestion ClosestDomain(std::string_view domain) const;
  // What ClosestDomain remembers (bounded in entries and bytes).
  CacheStats domain_memo_stats() const;

  // Adds or merges a domain (catalog, user file or slice observations).
  DomainSchema& MutableDomain(std::string_view domain);

 private:
  struct Memo;

  std::map<std::string, DomainSchema, std::less<>> domains_;
  // domains_ by hash: FindDomain is called for every attribute a selector reads, and the
  // map's string comparisons over a few dozen similar names cost ~250 instructions a lookup.
  std::unordered_map<std::string_view, const DomainSchema*, StringHash, std::equal_to<>> index_;
  // Replaced, not cleared, when a domain is added: a copy of the schema keeps its own.
  std::shared_ptr<Memo> memo_;
};

struct BuildResult {
  Schema schema;
  // schema.file.* (positioned in the user file) and schema.slice.* (field path in the slice,
  // object set; not positioned: the caller may locate them).
  Diagnostics diagnostics;
};

// Builds the merged schema. A non-OK status only when the embedded catalog cannot be read.
StatusOr<BuildResult> BuildSchema(const SchemaSources& sources);

// Parses one schema file (catalog or user format) into `into`, reporting problems as
// positioned `schema.file.*` diagnostics. Exposed for tests and the catalog loader.
void LoadSchemaFile(const SourceText& file, Origin origin, Schema& into, Diagnostics& out);

// Adds what `slices` publish to `into`; conflicts become schema.slice.* diagnostics.
void ObserveSlices(const SharedList<k8s::ResourceSlice>& slices, Schema& into,
                   Diagnostics& out);

}  // namespace draguard::schema

#endif  // DRAGUARD_POLICY_SCHEMA_SCHEMA_H_
