// SchemaCheck: the selectors and constraints of an admitted object type-checked against the
// attribute schema (policy/schema), as `draguard lint` does: the built-in catalog plus, when an
// inventory is configured, what its ResourceSlices publish, with its DeviceClasses narrowing
// the devices a request can reach.
//
// The schema is built once per inventory snapshot (once in all without an inventory) and
// shared by concurrent requests; a request keeps the schema it started with. With a
// `builder` (the server) a new snapshot's schema is built on the builder's thread while
// requests keep answering from the previous schema; otherwise the first request that sees the
// snapshot builds it. A schema equal to the one in force (same domains
// and entries, same DeviceClass names and selectors), as when slices only changed their
// generation or devices the schema does not tell apart, is not installed: the one in force
// stays, with its Token(), so the findings remembered under it (the spec memo) stay valid.
// Findings have the severities of policy/schema/check.h: errors deny, warnings are returned.
//
// Thread-safe: Check may run concurrently.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_SCHEMA_CHECK_H_
#define DRAGUARD_WEBHOOK_ADMISSION_SCHEMA_CHECK_H_

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>

#include "policy/cel/compiler.h"
#include "policy/common/diagnostic.h"
#include "policy/k8s/decode.h"
#include "policy/schema/check.h"
#include "webhook/admission/snapshot_builder.h"
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
  // Where a new snapshot's schema is built, requests answering from the previous schema
  // until it is ready (`draguard serve`); not owned, must outlive the check. Null: the
  // request that sees a new snapshot builds its schema (deterministic: tests). The first
  // schema is always built by the first request (or Token()) that asks, as there is nothing
  // to answer from before it.
  SnapshotBuilder* builder = nullptr;
  // The memo of selectors' findings (schema::SelectorMemo), shared by the schemas of all
  // snapshots, each its own generation: a rebuilt schema never answers from an older one's.
  CacheLimits selector_memo = schema::SelectorMemo::kDefaultLimits;
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
  // `known` (may be null): the compile results validation looked up for this very object.
  void Check(const k8s::ObjectVariant& object, Diagnostics& out,
             cel::CompiledSelectors* known = nullptr);

  // The schema in force, as an opaque token: findings made by a Check() after taking it hold
  // as long as Token() returns the same pointer (each inventory snapshot has its schema).
  // Null when the check is off.
  std::shared_ptr<const void> Token();

  // The schema in force's memo of domain suggestions (schema::Schema::domain_memo_stats).
  CacheStats domain_memo_stats();
  // The memo of selectors' findings, over all schemas.
  CacheStats selector_memo_stats() const { return memo_->stats(); }

  // Builds the schema of the source's current snapshot now, on the calling thread, unless it
  // is in force (also when a background build is under way: then waits for it).
  void Warm();

  // Schemas built so far (an equal schema that was not installed counts too), for tests.
  size_t builds() const;

 private:
  struct Built;
  using Snapshot = std::shared_ptr<const inventory::ClusterObjects>;
  // The schema for the source's current snapshot, or the previous one while the current one
  // is built in the background.
  std::shared_ptr<const Built> Current();
  // Builds and installs the schema of `snapshot` unless it is installed; holds build_mu_.
  std::shared_ptr<const Built> BuildLocked(const Snapshot& snapshot);
  std::shared_ptr<const Built> Build(const Snapshot& snapshot) const;

  SchemaCheckOptions options_;
  std::shared_ptr<schema::SelectorMemo> memo_;
  mutable std::mutex mu_;  // guards built_, built_for_, builds_
  std::shared_ptr<const Built> built_;
  // The snapshot built_ was built (or found equal) for. A Built holds no snapshot: the memo's
  // tokens keep schemas alive, and must not keep whole inventories alive with them.
  Snapshot built_for_;
  size_t builds_ = 0;
  std::mutex build_mu_;  // one build at a time
  SnapshotBuilder::StepId step_ = 0;  // this check's step in options_.builder; 0: none
};

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_SCHEMA_CHECK_H_
