#include "webhook/admission/schema_check.h"

#include <utility>
#include <vector>

#include "policy/schema/check.h"
#include "policy/schema/schema.h"

namespace draguard::webhook {
namespace {

// What schema::CheckObject reads of the DeviceClasses it is given (CheckOptions::classes):
// each class's name and its selectors' expressions, in order (the first class of a name
// wins). Two lists equal in these give the same findings.
bool SameClassFacts(const SharedList<k8s::DeviceClass>& a,
                    const SharedList<k8s::DeviceClass>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].metadata.name != b[i].metadata.name) return false;
    const auto& sa = a[i].spec.selectors;
    const auto& sb = b[i].spec.selectors;
    if (sa.size() != sb.size()) return false;
    for (size_t k = 0; k < sa.size(); ++k) {
      if (sa[k].cel.has_value() != sb[k].cel.has_value()) return false;
      if (sa[k].cel && sa[k].cel->expression != sb[k].cel->expression) return false;
    }
  }
  return true;
}

}  // namespace

// The schema of one inventory snapshot (without one: the catalog alone) and the classes it
// holds (shared with the snapshot, so that the schema may outlive it without keeping the
// rest of it alive).
struct SchemaCheck::Built {
  schema::Schema schema;
  SharedList<k8s::DeviceClass> classes;
  schema::CheckOptions options;  // options.classes point into `classes`
  bool usable = false;  // false when the catalog could not be read: the check stays off

  // Checks made with either give the same findings.
  bool SameFindings(const Built& other) const {
    return usable == other.usable && schema.domains() == other.schema.domains() &&
           SameClassFacts(classes, other.classes);
  }
};

SchemaCheck::SchemaCheck(SchemaCheckOptions options)
    : options_(std::move(options)),
      memo_(std::make_shared<schema::SelectorMemo>(options_.selector_memo)) {
  // Off, the check has nothing to build: a build the other checks asked for skips it.
  if (options_.builder != nullptr && options_.enabled) {
    step_ = options_.builder->AddStep([this](const Snapshot& snapshot) {
      std::lock_guard build(build_mu_);
      BuildLocked(snapshot);
    });
  }
}

SchemaCheck::~SchemaCheck() {
  if (step_ != 0) options_.builder->RemoveStep(step_);
}

std::shared_ptr<const SchemaCheck::Built> SchemaCheck::Build(const Snapshot& snapshot) const {
  auto built = std::make_shared<Built>();
  StatusOr<schema::BuildResult> result = schema::BuildSchema(
      {.builtin_catalog = options_.builtin_catalog, .user_files = {}, .cluster = snapshot.get()});
  if (result.ok()) {
    built->schema = std::move(result->schema);
    built->usable = true;
  }
  built->options.strict = options_.strict;
  built->options.compiled = options_.compiled;
  built->options.compiled_env = options_.compiled_env;
  // A schema of its own: what the memo holds of the others is never served to it. (An equal
  // schema that replaces none keeps the generation in force: BuildLocked.)
  built->options.memo = memo_;
  built->options.memo_generation = memo_->NewGeneration();
  if (snapshot != nullptr) built->classes = snapshot->classes;
  for (const k8s::DeviceClass& c : built->classes) built->options.classes.push_back(&c);
  return built;
}

std::shared_ptr<const SchemaCheck::Built> SchemaCheck::BuildLocked(const Snapshot& snapshot) {
  std::shared_ptr<const Built> previous;
  {
    std::lock_guard lock(mu_);
    if (built_ != nullptr && built_for_ == snapshot) return built_;
    previous = built_;
  }
  std::shared_ptr<const Built> built = Build(snapshot);
  // An equal schema keeps the one in force, its token and the memo's findings with it.
  if (previous != nullptr && previous->SameFindings(*built)) built = std::move(previous);
  Snapshot replaced_snapshot;
  {
    std::lock_guard lock(mu_);
    ++builds_;
    previous = std::exchange(built_, built);
    replaced_snapshot = std::exchange(built_for_, snapshot);
  }
  // The snapshot replaced, when this was its last holder (tens of MB of objects), and the
  // schema replaced are freed here, outside mu_, which every request takes.
  return built;
}

std::shared_ptr<const SchemaCheck::Built> SchemaCheck::Current() {
  Snapshot snapshot = options_.source != nullptr ? options_.source->Current() : nullptr;
  {
    std::lock_guard lock(mu_);
    if (built_ != nullptr && built_for_ == snapshot) return built_;
    // Building takes tens of milliseconds for thousands of devices: requests answer from the
    // schema in force meanwhile.
    if (built_ != nullptr && options_.builder != nullptr) {
      options_.builder->Request(std::move(snapshot));
      return built_;
    }
  }
  // Under the build lock: concurrent requests would only build the same schema again.
  std::lock_guard build(build_mu_);
  return BuildLocked(snapshot);
}

void SchemaCheck::Warm() {
  if (!options_.enabled) return;
  Snapshot snapshot = options_.source != nullptr ? options_.source->Current() : nullptr;
  std::lock_guard build(build_mu_);
  BuildLocked(snapshot);
}

size_t SchemaCheck::builds() const {
  std::lock_guard lock(mu_);
  return builds_;
}

std::shared_ptr<const void> SchemaCheck::Token() {
  if (!options_.enabled) return nullptr;
  return Current();
}

CacheStats SchemaCheck::domain_memo_stats() {
  if (!options_.enabled) return {};
  return Current()->schema.domain_memo_stats();
}

void SchemaCheck::Check(const k8s::ObjectVariant& object, Diagnostics& out,
                        cel::CompiledSelectors* known) {
  if (!options_.enabled) return;
  std::shared_ptr<const Built> built = Current();
  if (!built->usable) return;
  schema::CheckObject(object, built->schema, built->options, out, known);
}

}  // namespace draguard::webhook
