#include "policy/pipeline/references_stage.h"

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <variant>

#include "policy/validate/references.h"

namespace draguard::pipeline {
namespace {

using RefKey = std::tuple<std::string, std::string, std::string, std::string>;

RefKey KeyOf(const ObjectRef& ref) {
  return {ref.api_version, ref.kind, ref.name_space, ref.name};
}

template <typename T>
void AddIfIs(const k8s::DecodedObject& object, size_t file,
             std::vector<validate::ObjectInput<T>>& into) {
  if (const T* typed = std::get_if<T>(&object.object)) into.push_back({typed, object.ref, file});
}

}  // namespace

std::vector<Diagnostic> CheckReferencesStage(const std::vector<k8s::DecodeResult>& decoded,
                                             const inventory::ClusterObjects* snapshot) {
  validate::ReferenceInputs inputs;
  if (snapshot != nullptr) {
    inputs.cluster_classes = &snapshot->classes;
    inputs.cluster_claims = &snapshot->claims;
  }
  std::map<RefKey, const k8s::DecodedObject*> by_ref;
  for (size_t file = 0; file < decoded.size(); ++file) {
    for (const k8s::DecodedObject& object : decoded[file].objects) {
      by_ref.emplace(KeyOf(object.ref), &object);
      AddIfIs(object, file, inputs.workloads);
      AddIfIs(object, file, inputs.claims);
      AddIfIs(object, file, inputs.templates);
      AddIfIs(object, file, inputs.classes);
    }
  }
  Diagnostics found;
  validate::CheckReferences(inputs, found);
  std::vector<Diagnostic> out;
  for (Diagnostic& d : found.mutable_items()) {
    if (auto it = by_ref.find(KeyOf(d.object)); it != by_ref.end()) it->second->Locate(d);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace draguard::pipeline
