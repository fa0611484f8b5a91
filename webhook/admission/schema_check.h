// SchemaCheck: the selectors and constraints of an admitted object type-checked against the
// attribute schema (policy/schema), as `draguard lint` does: the built-in catalog plus, when an
// inventory is configured, what its ResourceSlices publish, with its DeviceClasses narrowing
// the devices a request can reach.
//
// The schema is built once per inventory snapshot (once in all without an inventory) and
// shared by concurrent requests; a request keeps the schema it started with. Findings have
// the severities of policy/schema/check.h: errors deny, warnings are returned.
//
// Thread-safe: Check may run concurrently.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_SCHEMA_CHECK_H_
#define DRAGUARD_WEBHOOK_ADMISSION_SCHEMA_CHECK_H_

#include <memory>
#include <mutex>
#include <string>

#include "policy/cel/compiler.h"
#include "policy/common/diagnostic.h"
#include "policy/k8s/decode.h"
#include "webhook/inventory_source.h"

namespace draguard::webhook {

struct SchemaCheckOptions {
  // Off: no schema checks at all.
  bool enabled = true;
  // The embedded attribute catalog (--no-builtin-schema turns it off).
  bool builtin_catalog = true;
  // Unknown attributes, capacities and constraint names are errors (--strict-schema).
  bool strict = false;
  // Observed attributes and DeviceClasses; null: the catalog alone. Not owned.
  InventorySource* source = nullptr;
  // As schema::CheckOptions::compiled and compiled_env: where parsed selectors come from.
  std::shared_ptr<cel::SelectorCache> compiled;
  cel::EnvOptions compiled_env;
};

class SchemaCheck {
 public:
  explicit SchemaCheck(SchemaCheckOptions options);
  ~SchemaCheck();
  SchemaCheck(const SchemaCheck&) = delete;
  SchemaCheck& operator=(const SchemaCheck&) = delete;

  // Appends the schema findings about `object` (claim, template or class) to `out`, with
  // field paths from the object's root. Problems building the schema itself (a broken
  // catalog) are logged once through the status of the first build and leave the check off.
  void Check(const k8s::ObjectVariant& object, Diagnostics& out);

  // The schema in force, as an opaque token: findings made by a Check() after taking it hold
  // as long as Token() returns the same pointer (each inventory snapshot has its schema).
  // Null when the check is off.
  std::shared_ptr<const void> Token();

  // The schema in force's memo of domain suggestions (schema::Schema::domain_memo_stats).
  CacheStats domain_memo_stats();

 private:
  struct Built;
  std::shared_ptr<const Built> Current();

  SchemaCheckOptions options_;
  std::mutex mu_;
  std::shared_ptr<const Built> built_;
};

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_SCHEMA_CHECK_H_
