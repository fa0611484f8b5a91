#include "policy/pipeline/schema_stage.h"

#include <map>
#include <string>
#include <utility>
#include <variant>

#include "policy/pipeline/parallel.h"
#include "policy/schema/check.h"
#include "policy/schema/schema.h"

namespace draguard::pipeline {
namespace {

// Observes the input slices; a finding is located in the slice it names.
void ObserveInputSlices(const std::vector<k8s::DecodeResult>& decoded, schema::Schema& schema,
                        std::vector<Diagnostic>& out) {
  SharedList<k8s::ResourceSlice> slices;
  std::map<std::string, const k8s::DecodedObject*> by_name;
  for (const k8s::DecodeResult& file : decoded) {
    for (const k8s::DecodedObject& object : file.objects) {
      if (const auto* slice = std::get_if<k8s::ResourceSlice>(&object.object)) {
        slices.push_back(*slice);
        by_name.emplace(slice->metadata.name, &object);
      }
    }
  }
  if (slices.empty()) return;
  Diagnostics found;
  schema::ObserveSlices(slices, schema, found);
  for (Diagnostic& d : found.mutable_items()) {
    if (auto it = by_name.find(d.object.name); it != by_name.end()) it->second->Locate(d);
    out.push_back(std::move(d));
  }
}

}  // namespace

struct SchemaPhase::Built {
  schema::Schema schema;
  schema::CheckOptions check;
};

SchemaPhase::SchemaPhase(const std::vector<k8s::DecodeResult>& context,
                         const inventory::ClusterObjects* inventory,
                         const SchemaPhaseOptions& options) {
  if (!options.enabled) return;
  schema::SchemaSources sources;
  sources.builtin_catalog = options.builtin_catalog;
  sources.user_files = options.files;
  sources.cluster = inventory;
  StatusOr<schema::BuildResult> built = schema::BuildSchema(sources);
  if (!built.ok()) {
    Diagnostic d;
    d.code = "schema.file.invalid";
    d.message = built.status().message();
    diagnostics_.push_back(std::move(d));
    return;
  }
  for (const Diagnostic& d : built->diagnostics) diagnostics_.push_back(d);
  ObserveInputSlices(context, built->schema, diagnostics_);
  built_ = std::make_unique<Built>();
  built_->schema = std::move(built->schema);
  built_->check.strict = options.strict;
  // Templates repeat a few selector shapes: each is analysed once per run.
  built_->check.memo = std::make_shared<schema::SelectorMemo>();
  built_->check.memo_generation = built_->check.memo->NewGeneration();
  for (const k8s::DecodeResult& file : context) {
    for (const k8s::DecodedObject& object : file.objects) {
      if (const auto* c = std::get_if<k8s::DeviceClass>(&object.object)) {
        built_->check.classes.push_back(c);
      }
    }
  }
  if (inventory != nullptr) {
    for (const k8s::DeviceClass& c : inventory->classes) built_->check.classes.push_back(&c);
  }
}

SchemaPhase::~SchemaPhase() = default;

void SchemaPhase::CheckObject(const k8s::DecodedObject& object,
                              std::vector<Diagnostic>& out) const {
  if (built_ == nullptr) return;
  Diagnostics found;
  schema::CheckObject(object.object, built_->schema, built_->check, found);
  for (Diagnostic& d : found.mutable_items()) {
    object.Locate(d);
    out.push_back(std::move(d));
  }
}

std::vector<Diagnostic> CheckSchemaPhase(const std::vector<k8s::DecodeResult>& decoded,
                                         const inventory::ClusterObjects* inventory,
                                         const SchemaPhaseOptions& options, size_t jobs) {
  const SchemaPhase phase(decoded, inventory, options);
  std::vector<Diagnostic> out = phase.diagnostics();
  std::vector<std::vector<Diagnostic>> per_file(decoded.size());
  ParallelFor(decoded.size(), jobs, [&](size_t i) {
    for (const k8s::DecodedObject& object : decoded[i].objects) {
      phase.CheckObject(object, per_file[i]);
    }
  });
  for (std::vector<Diagnostic>& file : per_file) {
    for (Diagnostic& d : file) out.push_back(std::move(d));
  }
  return out;
}

}  // namespace draguard::pipeline
