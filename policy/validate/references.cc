#include "policy/validate/references.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "policy/common/suggest.h"
#include "policy/validate/device_claim.h"
#include "policy/validate/messages.h"

namespace draguard::validate {
namespace {

using Key = std::pair<std::string, std::string>;  // namespace, name

Key KeyOf(const k8s::ObjectMeta& meta) {
  return {meta.name_space.empty() ? "default" : meta.name_space, meta.name};
}

// Every definition of one (namespace, name), with the group it came from and the names its
// requests may be referred to by.
using RequestNames = internal::RequestNames;
using Candidates = std::vector<std::pair<size_t, RequestNames>>;

}  // namespace

struct ReferenceIndex::Data {
  std::map<Key, Candidates> claims;
  std::map<Key, Candidates> templates;
  std::set<std::string> classes;
  // The inventory (a cluster export) holds every object of the kind: a missing name is missing.
  bool all_claims_known = false;
  bool all_classes_known = false;
};

namespace references_internal {

// References to a kind of which nothing is known: counted, and reported once (see header).
struct Unchecked {
  // Literals (not strings: lint's two-pass run keeps four of these per input file).
  const char* code;
  const char* kind;
  const char* kinds;  // plural
  size_t count = 0;
  std::set<std::string> names;
  std::string first_field;
  ObjectRef first_ref;

  void Add(const std::string& name, const FieldPath& at, const ObjectRef& ref) {
    if (count++ == 0) {
      first_field = at.String();
      first_ref = ref;
    }
    names.insert(name);
  }
  // Folds in the references counted after this one's.
  void Merge(const Unchecked& later) {
    if (later.count == 0) return;
    if (count == 0) {
      first_field = later.first_field;
      first_ref = later.first_ref;
    }
    count += later.count;
    names.insert(later.names.begin(), later.names.end());
  }
  void Report(Diagnostics& d) const {
    if (count == 0) return;
    std::string listed;
    size_t shown = 0;
    for (const std::string& name : names) {
      if (shown++ == 5) {
        listed += ", ...";
        break;
      }
      listed += (listed.empty() ? "\"" : ", \"") + name + "\"";
    }
    const bool one = count == 1;
    Diagnostic& diag = d.Info(
        code, FieldPath(first_field),
        std::to_string(count) +
            (one ? std::string(" reference names a ") + kind
                 : std::string(" references name ") + kinds) +
            " that neither the inputs nor --inventory hold (" + listed + "); " +
            (one ? "it was" : "they were") +
            " not checked and may exist in the cluster (a driver's chart installs its "
            "DeviceClasses; claims and templates often live elsewhere)",
        std::string("lint together with the ") + kind +
            " manifests, or give --inventory with the cluster's");
    diag.object = first_ref;
  }
};

struct UncheckedRefs {
  Unchecked claims{"refs.pod.claim.unchecked", "ResourceClaim", "ResourceClaims"};
  Unchecked templates{"refs.pod.claim-template.unchecked", "ResourceClaimTemplate",
                      "ResourceClaimTemplates"};
  // Counted apart for claims and templates: CheckReferences checks every claim before any
  // template, so a summary's first reference is a claim's when there is one.
  Unchecked classes_of_claims{"refs.device-class.unchecked", "DeviceClass", "DeviceClasses"};
  Unchecked classes_of_templates{"refs.device-class.unchecked", "DeviceClass", "DeviceClasses"};

  // In ReferenceChecker's order of kinds.
  const Unchecked& kind(unsigned k) const {
    const Unchecked* kinds[] = {&claims, &templates, &classes_of_claims, &classes_of_templates};
    return *kinds[k];
  }
  unsigned started() const {
    return (claims.count > 0 ? 1u : 0u) | (templates.count > 0 ? 2u : 0u) |
           (classes_of_claims.count > 0 ? 4u : 0u) | (classes_of_templates.count > 0 ? 8u : 0u);
  }
  void Merge(const UncheckedRefs& later) {
    claims.Merge(later.claims);
    templates.Merge(later.templates);
    classes_of_claims.Merge(later.classes_of_claims);
    classes_of_templates.Merge(later.classes_of_templates);
  }
  void Report(Diagnostics& d) const {
    claims.Report(d);
    templates.Report(d);
    Unchecked classes = classes_of_claims;
    classes.Merge(classes_of_templates);
    classes.Report(d);
  }
};

}  // namespace references_internal

using references_internal::UncheckedRefs;
using references_internal::Unchecked;

namespace {

using Index = ReferenceIndex::Data;

// The group of cluster objects: never the group of an input.
constexpr size_t kClusterGroup = static_cast<size_t>(-1);

// The definition a reference from `group` means: the one in the same group, else the only
// one; nullptr when several other groups define it (ambiguous).
const RequestNames* Pick(const Candidates& candidates, size_t group) {
  for (const auto& [g, names] : candidates) {
    if (g == group) return &names;
  }
  return candidates.size() == 1 ? &candidates.front().second : nullptr;
}

Diagnostic& Tag(Diagnostic& d, const ObjectRef& ref) {
  d.object = ref;
  return d;
}

// The names of `map`'s objects in namespace `ns`, for suggestions.
std::vector<std::string_view> NamesIn(const std::map<Key, Candidates>& map, const std::string& ns) {
  std::vector<std::string_view> names;
  for (const auto& [key, candidates] : map) {
    if (key.first == ns) names.push_back(key.second);
  }
  return names;
}

// Another namespace that has an object named `name`, or "".
std::string NamespaceWith(const std::map<Key, Candidates>& map, const std::string& name) {
  for (const auto& [key, candidates] : map) {
    if (key.second == name) return key.first;
  }
  return {};
}

// Resolves one pod claim entry; returns the referenced spec's request names when it is among
// the inputs. A
// missing name is a warning when the inventory knows every claim, when the name is a likely
// typo of one in the namespace, or when it exists in another namespace; otherwise it may well
// exist in the cluster and is only counted (see the header).
const RequestNames* ResolvePodClaim(const k8s::PodResourceClaim& pc, const std::string& ns,
                                        const FieldPath& at, const Index& index,
                                        const ObjectRef& ref, size_t group, Diagnostics& d,
                                        UncheckedRefs& unchecked) {
  bool is_claim = pc.resource_claim_name.has_value();
  if (!is_claim && !pc.resource_claim_template_name.has_value()) return nullptr;
  const std::string& name = is_claim ? *pc.resource_claim_name : *pc.resource_claim_template_name;
  const auto& map = is_claim ? index.claims : index.templates;
  auto it = map.find({ns, name});
  if (it != map.end()) return Pick(it->second, group);
  const FieldPath field = at.Child(is_claim ? "resourceClaimName" : "resourceClaimTemplateName");
  const std::optional<std::string> close = ClosestMatch(name, NamesIn(map, ns));
  const std::string elsewhere = NamespaceWith(map, name);
  if (!close && elsewhere.empty() && !(is_claim && index.all_claims_known)) {
    (is_claim ? unchecked.claims : unchecked.templates).Add(name, field, ref);
    return nullptr;
  }
  std::string kind = is_claim ? "ResourceClaim" : "ResourceClaimTemplate";
  std::string message = kind + " \"" + name + "\" is not among the inputs; it must exist in namespace \"" +
                        ns + "\" before the pod can be scheduled";
  if (!elsewhere.empty()) message += " (one of that name is in namespace \"" + elsewhere + "\")";
  Diagnostic& diag =
      Tag(d.Warning(is_claim ? "refs.pod.claim.not-found" : "refs.pod.claim-template.not-found",
                    field, std::move(message)),
          ref);
  if (close) diag.suggestion = *close;
  return nullptr;
}

void CheckWorkload(const ObjectInput<k8s::Workload>& w, const Index& index, Diagnostics& d,
                   UncheckedRefs& unchecked) {
  const k8s::PodSpecRefs& pod = w.object->pod;
  std::string ns = KeyOf(w.object->metadata).first;
  FieldPath spec(pod.spec_path);
  std::map<std::string, const RequestNames*> entries;
  std::vector<std::string_view> entry_names;
  for (size_t i = 0; i < pod.resource_claims.size(); ++i) {
    const k8s::PodResourceClaim& pc = pod.resource_claims[i];
    entries[pc.name] =
        ResolvePodClaim(pc, ns, spec.Child("resourceClaims").Index(i), index, w.ref, w.group, d,
                        unchecked);
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
      const RequestNames& requests = *entry->second;
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
                  const Index& index, Diagnostics& d, Unchecked& unchecked) {
  std::vector<std::string_view> known(index.classes.begin(), index.classes.end());
  auto check = [&](const std::string& name, const FieldPath& at) {
    if (name.empty() || index.classes.count(name) != 0) return;
    // Only the inventory knows every class; among the inputs, a missing name is a likely typo
    // only when it is close to one of theirs.
    const std::optional<std::string> close = ClosestMatch(name, known);
    if (!close && !index.all_classes_known) return unchecked.Add(name, at, ref);
    Diagnostic& diag = Tag(d.Warning("refs.device-class.not-found", at,
                                     "DeviceClass \"" + name +
                                         "\" is not among the inputs; allocation waits "
                                         "until a DeviceClass of that name exists"),
                           ref);
    if (close) diag.suggestion = *close;
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

ReferenceIndex::ReferenceIndex() = default;
ReferenceIndex::~ReferenceIndex() = default;
ReferenceIndex::ReferenceIndex(ReferenceIndex&&) noexcept = default;
ReferenceIndex& ReferenceIndex::operator=(ReferenceIndex&&) noexcept = default;

ReferenceIndex::Data& ReferenceIndex::data() {
  if (data_ == nullptr) data_ = std::make_unique<Data>();
  return *data_;
}

const ReferenceIndex::Data& ReferenceIndex::data() const {
  static const Data kEmpty;
  return data_ != nullptr ? *data_ : kEmpty;
}

void ReferenceIndex::AddClaim(const k8s::ResourceClaim& claim, size_t group) {
  data().claims[KeyOf(claim.metadata)].emplace_back(
      group, internal::CollectRequestNames(claim.spec.devices));
}

void ReferenceIndex::AddTemplate(const k8s::ResourceClaimTemplate& claim_template,
                                 size_t group) {
  data().templates[KeyOf(claim_template.metadata)].emplace_back(
      group, internal::CollectRequestNames(claim_template.spec.devices));
}

void ReferenceIndex::AddClass(const k8s::DeviceClass& device_class) {
  data().classes.insert(device_class.metadata.name);
}

void ReferenceIndex::Merge(ReferenceIndex&& later) {
  auto append = [](std::map<Key, Candidates>& into, std::map<Key, Candidates>& from) {
    for (auto& [key, candidates] : from) {
      Candidates& to = into[key];
      for (auto& candidate : candidates) to.push_back(std::move(candidate));
    }
  };
  if (later.data_ == nullptr) return;
  if (data_ == nullptr) {
    data_ = std::move(later.data_);
    return;
  }
  append(data_->claims, later.data_->claims);
  append(data_->templates, later.data_->templates);
  data_->classes.merge(later.data_->classes);
  data_->all_claims_known = data_->all_claims_known || later.data_->all_claims_known;
  data_->all_classes_known = data_->all_classes_known || later.data_->all_classes_known;
  later.data_.reset();
}

void ReferenceIndex::AddCluster(const SharedList<k8s::DeviceClass>* classes,
                                const SharedList<k8s::ResourceClaim>* claims) {
  if (claims != nullptr) {
    for (const k8s::ResourceClaim& c : *claims) AddClaim(c, kClusterGroup);
    data().all_claims_known = !claims->empty();
  }
  if (classes != nullptr) {
    for (const k8s::DeviceClass& c : *classes) AddClass(c);
    data().all_classes_known = !classes->empty();
  }
}

struct ReferenceChecker::Summaries : references_internal::UncheckedRefs {};

ReferenceChecker::ReferenceChecker(const ReferenceIndex& index) : index_(&index) {}
ReferenceChecker::~ReferenceChecker() = default;
ReferenceChecker::ReferenceChecker(ReferenceChecker&&) noexcept = default;
ReferenceChecker& ReferenceChecker::operator=(ReferenceChecker&&) noexcept = default;

ReferenceChecker::Summaries& ReferenceChecker::summaries() {
  if (summaries_ == nullptr) summaries_ = std::make_unique<Summaries>();
  return *summaries_;
}

void ReferenceChecker::CheckWorkload(const ObjectInput<k8s::Workload>& workload,
                                     Diagnostics& diagnostics) {
  validate::CheckWorkload(workload, index_->data(), diagnostics, summaries());
}

void ReferenceChecker::CheckClaim(const ObjectInput<k8s::ResourceClaim>& claim,
                                  Diagnostics& diagnostics) {
  CheckClasses(claim.object->spec.devices, FieldPath("spec.devices"), claim.ref, index_->data(),
               diagnostics, summaries().classes_of_claims);
}

void ReferenceChecker::CheckTemplate(const ObjectInput<k8s::ResourceClaimTemplate>& claim_template,
                                     Diagnostics& diagnostics) {
  CheckClasses(claim_template.object->spec.devices, FieldPath("spec.spec.devices"),
               claim_template.ref, index_->data(), diagnostics,
               summaries().classes_of_templates);
}

void ReferenceChecker::Merge(ReferenceChecker&& later) {
  if (later.summaries_ == nullptr) return;
  if (summaries_ == nullptr) {
    summaries_ = std::move(later.summaries_);
    return;
  }
  summaries_->Merge(*later.summaries_);
  later.summaries_.reset();
}

unsigned ReferenceChecker::started_summaries() const {
  return summaries_ != nullptr ? summaries_->started() : 0;
}

const std::string& ReferenceChecker::first_field(unsigned kind) const {
  static const std::string kNone;
  if (summaries_ == nullptr || kind >= kSummaryKinds) return kNone;
  return summaries_->kind(kind).first_field;
}

void ReferenceChecker::Report(Diagnostics& diagnostics) const {
  if (summaries_ != nullptr) summaries_->Report(diagnostics);
}

void CheckReferences(const ReferenceInputs& inputs, Diagnostics& diagnostics) {
  // The index as it always was: input claims, the cluster's claims, input templates, classes
  // (the order of the candidates of one name).
  ReferenceIndex index;
  for (const auto& c : inputs.claims) index.AddClaim(*c.object, c.group);
  for (const auto& t : inputs.templates) index.AddTemplate(*t.object, t.group);
  for (const auto& c : inputs.classes) index.AddClass(*c.object);
  index.AddCluster(inputs.cluster_classes, inputs.cluster_claims);
  ReferenceChecker checker(index);
  for (const auto& w : inputs.workloads) checker.CheckWorkload(w, diagnostics);
  for (const auto& c : inputs.claims) checker.CheckClaim(c, diagnostics);
  for (const auto& t : inputs.templates) checker.CheckTemplate(t, diagnostics);
  checker.Report(diagnostics);
}

}  // namespace draguard::validate
