#include "webhook/admission/schema_check.h"

#include <utility>

#include "policy/schema/check.h"
#include "policy/schema/schema.h"

namespace draguard::webhook {

// The schema of one inventory snapshot (null: the catalog alone) and the classes it holds.
struct SchemaCheck::Built {
  std::shared_ptr<const inventory::ClusterObjects> snapshot;
  schema::Schema schema;
  schema::CheckOptions options;
  bool usable = false;  // false when the catalog could not be read: the check stays off
};

SchemaCheck::SchemaCheck(SchemaCheckOptions options) : options_(std::move(options)) {}

SchemaCheck::~SchemaCheck() = default;

std::shared_ptr<const SchemaCheck::Built> SchemaCheck::Current() {
  std::shared_ptr<const inventory::ClusterObjects> snapshot =
      options_.source != nullptr ? options_.source->Current() : nullptr;
  // Built under the lock: it happens once per snapshot, and concurrent requests would only
  // build the same schema again.
  std::lock_guard lock(mu_);
  if (built_ != nullptr && built_->snapshot == snapshot) return built_;
  auto built = std::make_shared<Built>();
  built->snapshot = snapshot;
  StatusOr<schema::BuildResult> result = schema::BuildSchema(
      {.builtin_catalog = options_.builtin_catalog, .user_files = {}, .cluster = snapshot.get()});
  if (result.ok()) {
    built->schema = std::move(result->schema);
    built->usable = true;
  }
  built->options.strict = options_.strict;
  built->options.compiled = options_.compiled;
  built->options.compiled_env = options_.compiled_env;
  if (snapshot != nullptr) {
    for (const k8s::DeviceClass& c : snapshot->classes) built->options.classes.push_back(&c);
  }
  built_ = std::move(built);
  return built_;
}

std::shared_ptr<const void> SchemaCheck::Token() {
  if (!options_.enabled) return nullptr;
  return Current();
}

CacheStats SchemaCheck::domain_memo_stats() {
  if (!options_.enabled) return {};
  return Current()->schema.domain_memo_stats();
}

void SchemaCheck::Check(const k8s::ObjectVariant& object, Diagnostics& out) {
  if (!options_.enabled) return;
  std::shared_ptr<const Built> built = Current();
  if (!built->usable) return;
  schema::CheckObject(object, built->schema, built->options, out);
}

}  // namespace draguard::webhook
