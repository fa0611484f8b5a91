// The built-in catalog: YAML schema files from policy/schema/catalog, embedded at build time
// (embed_catalog.cmake generates the definition). Internal to draguard_schema.
#ifndef DRAGUARD_POLICY_SCHEMA_CATALOG_H_
#define DRAGUARD_POLICY_SCHEMA_CATALOG_H_

#include <span>
#include <string_view>

namespace draguard::schema {

struct CatalogFile {
  std::string_view name;  // e.g. "nvidia.yaml"
  std::string_view text;
};

// Every catalog file, sorted by name.
std::span<const CatalogFile> EmbeddedCatalog();

}  // namespace draguard::schema

#endif  // DRAGUARD_POLICY_SCHEMA_CATALOG_H_
