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
  std::vector<k8s::ResourceSlice> slices;
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

std::vector<Diagnostic> CheckSchemaPhase(const std::vector<k8s::DecodeResult>& decoded,
                                         const inventory::ClusterObjects* inventory,
                                         const SchemaPhaseOptions& options, size_t jobs) {
  std::vector<Diagnostic> out;
  if (!options.enabled) return out;
  schema::SchemaSources sources;
  sources.builtin_catalog = options.builtin_catalog;
  sources.user_files = options.files;
  sources.cluster = inventory;
  StatusOr<schema::BuildResult> built = schema::BuildSchema(sources);
  if (!built.ok()) {
    Diagnostic d;
    d.code = "schema.file.invalid";
    d.message = built.status().message();
    out.push_back(std::move(d));
    return out;
  }
  for (const Diagnostic& d : built->diagnostics) out.push_back(d);
  ObserveInputSlices(decoded, built->schema, out);

  schema::CheckOptions check;
  check.strict = options.strict;
  for (const k8s::DecodeResult& file : decoded) {
    for (const k8s::DecodedObject& object : file.objects) {
      if (const auto* c = std::get_if<k8s::DeviceClass>(&object.object)) check.classes.push_back(c);
    }
  }
  if (inventory != nullptr) {
    for (const k8s::DeviceClass& c : inventory->classes) check.classes.push_back(&c);
  }
  std::vector<std::vector<Diagnostic>> per_file(decoded.size());
  ParallelFor(decoded.size(), jobs, [&](size_t i) {
    for (const k8s::DecodedObject& object : decoded[i].objects) {
      Diagnostics found;
      schema::CheckObject(object.object, built->schema, check, found);
      for (Diagnostic& d : found.mutable_items()) {
        object.Locate(d);
        per_file[i].push_back(std::move(d));
      }
    }
  });
  for (std::vector<Diagnostic>& file : per_file) {
    for (Diagnostic& d : file) out.push_back(std::move(d));
  }
  return out;
}

}  // namespace draguard::pipeline
