#include "policy/validate/references.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "policy/common/suggest.h"
#include "policy/validate/messages.h"

namespace draguard::validate {
namespace {

using Key = std::pair<std::string, std::string>;  // namespace, name

Key KeyOf(const k8s::ObjectMeta& meta) {
  return {meta.name_space.empty() ? "default" : meta.name_space, meta.name};
}

// The names a container claim's `request` may use: every request, and "req/sub".
std::set<std::string> RequestNames(const k8s::DeviceClaim& claim) {
  std::set<std::string> names;
  for (const k8s::DeviceRequest& request : claim.requests) {
    names.insert(request.name);
    for (const k8s::DeviceSubRequest& sub : request.first_available) {
      names.insert(request.name + "/" + sub.name);
    }
  }
  return names;
}

// Every definition of one (namespace, name), with the group it came from.
using Candidates = std::vector<std::pair<size_t, const k8s::DeviceClaim*>>;

struct Index {
  std::map<Key, Candidates> claims;
  std::map<Key, Candidates> templates;
  std::set<std::string> classes;
};

Index BuildIndex(const ReferenceInputs& in) {
  Index index;
  for (const auto& c : in.claims) {
    index.claims[KeyOf(c.object->metadata)].emplace_back(c.group, &c.object->spec.devices);
  }
  for (const auto& t : in.templates) {
    index.templates[KeyOf(t.object->metadata)].emplace_back(t.group,
                                                            &t.object->spec.devices);
  }
  for (const auto& c : in.classes) index.classes.insert(c.object->metadata.name);
  return index;
}

// The definition a reference from `group` means: the one in the same group, else the only
// one; nullptr when several other groups define it (ambiguous).
const k8s::DeviceClaim* Pick(const Candidates& candidates, size_t group) {
  for (const auto& [g, spec] : candidates) {
    if (g == group) return spec;
  }
  return candidates.size() == 1 ? candidates.front().second : nullptr;
}

Diagnostic& Tag(Diagnostic& d, const ObjectRef& ref) {
  d.object = ref;
  return d;
}

// Resolves one pod claim entry; returns the referenced spec when it is among the inputs.
const k8s::DeviceClaim* ResolvePodClaim(const k8s::PodResourceClaim& pc, const std::string& ns,
                                        const FieldPath& at, const Index& index,
                                        const ObjectRef& ref, size_t group, Diagnostics& d) {
  bool is_claim = pc.resource_claim_name.has_value();
  if (!is_claim && !pc.resource_claim_template_name.has_value()) return nullptr;
  const std::string& name = is_claim ? *pc.resource_claim_name : *pc.resource_claim_template_name;
  const auto& map = is_claim ? index.claims : index.templates;
  auto it = map.find({ns, name});
  if (it != map.end()) return Pick(it->second, group);
  std::string kind = is_claim ? "ResourceClaim" : "ResourceClaimTemplate";
  Tag(d.Warning(is_claim ? "refs.pod.claim.not-found" : "refs.pod.claim-template.not-found",
                at.Child(is_claim ? "resourceClaimName" : "resourceClaimTemplateName"),
                kind + " \"" + name + "\" is not among the inputs; it must exist in namespace \"" +
                    ns + "\" before the pod can be scheduled"),
      ref);
  return nullptr;
}

void CheckWorkload(const ObjectInput<k8s::Workload>& w, const Index& index, Diagnostics& d) {
  const k8s::PodSpecRefs& pod = w.object->pod;
  std::string ns = KeyOf(w.object->metadata).first;
  FieldPath spec(pod.spec_path);
  std::map<std::string, const k8s::DeviceClaim*> entries;
  std::vector<std::string_view> entry_names;
  for (size_t i = 0; i < pod.resource_claims.size(); ++i) {
    const k8s::PodResourceClaim& pc = pod.resource_claims[i];
    entries[pc.name] =
        ResolvePodClaim(pc, ns, spec.Child("resourceClaims").Index(i), index, w.ref, w.group, d);
    entry_names.push_back(pc.name);
  }
  size_t container_index = 0, init_index = 0;
  for (const k8s::ContainerClaims& c : pod.containers) {
    size_t idx = c.init_container ? init_index++ : container_index++;
    FieldPath claims = spec.Child(c.init_container ? "initContainers" : "containers")
                           .Index(idx)
                           .Child("resources")
                           .Child("claims");
    for (size_t k = 0; k < c.claims.size(); ++k) {
      const k8s::ContainerResourceClaim& cc = c.claims[k];
      auto entry = entries.find(cc.name);
      if (entry == entries.end()) {
        Diagnostic& diag =
            Tag(d.Error("refs.container.claim.unknown", claims.Index(k).Child("name"),
                        NotFoundMessage(FieldValue::String(cc.name))),
                w.ref);
        if (auto m = ClosestMatch(cc.name, entry_names)) diag.suggestion = *m;
        continue;
      }
      if (cc.request.empty() || entry->second == nullptr) continue;
      std::set<std::string> requests = RequestNames(*entry->second);
      if (requests.count(cc.request) != 0) continue;
      std::vector<std::string_view> candidates(requests.begin(), requests.end());
      Diagnostic& diag =
          Tag(d.Error("refs.container.claim.request.unknown", claims.Index(k).Child("request"),
                      "request \"" + cc.request +
                          "\" does not exist in the claim referenced by "
                          "pod resource claim \"" +
                          cc.name + "\""),
              w.ref);
      if (auto m = ClosestMatch(cc.request, candidates)) diag.suggestion = *m;
    }
  }
}

void CheckClasses(const k8s::DeviceClaim& claim, const FieldPath& devices, const ObjectRef& ref,
                  const Index& index, Diagnostics& d) {
  std::vector<std::string_view> known(index.classes.begin(), index.classes.end());
  auto check = [&](const std::string& name, const FieldPath& at) {
    if (name.empty() || index.classes.count(name) != 0) return;
    Diagnostic& diag = Tag(d.Warning("refs.device-class.not-found", at,
                                     "DeviceClass \"" + name +
                                         "\" is not among the inputs; allocation waits "
                                         "until a DeviceClass of that name exists"),
                           ref);
    if (auto m = ClosestMatch(name, known)) diag.suggestion = *m;
  };
  FieldPath requests = devices.Child("requests");
  for (size_t i = 0; i < claim.requests.size(); ++i) {
    const k8s::DeviceRequest& req = claim.requests[i];
    if (req.exactly.has_value()) {
      check(req.exactly->device_class_name,
            requests.Index(i).Child("exactly").Child("deviceClassName"));
    }
    for (size_t j = 0; j < req.first_available.size(); ++j) {
      check(req.first_available[j].device_class_name,
            requests.Index(i).Child("firstAvailable").Index(j).Child("deviceClassName"));
    }
  }
}

}  // namespace

void CheckReferences(const ReferenceInputs& inputs, Diagnostics& diagnostics) {
  Index index = BuildIndex(inputs);
  for (const auto& w : inputs.workloads) CheckWorkload(w, index, diagnostics);
  if (index.classes.empty()) return;
  for (const auto& c : inputs.claims) {
    CheckClasses(c.object->spec.devices, FieldPath("spec.devices"), c.ref, index, diagnostics);
  }
  for (const auto& t : inputs.templates) {
    CheckClasses(t.object->spec.devices, FieldPath("spec.spec.devices"), t.ref, index, diagnostics);
  }
}

}  // namespace draguard::validate
