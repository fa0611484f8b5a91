// Satisfiability subjects among decoded inputs (satisfiability.h): find them, resolve a pod's
// claims, run the allocator with the CEL adapter, turn verdicts into lint diagnostics.
#include "policy/pipeline/satisfiability_stage.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <variant>

#include "policy/allocator/allocator.h"
#include "policy/allocator/cel_evaluator.h"
#include "policy/allocator/inventory.h"
#include "policy/validate/defaults.h"

namespace draguard::pipeline {
namespace {

// Reasons quoted in one diagnostic; the rest are counted.
constexpr size_t kMaxQuotedReasons = 4;

std::string NamespaceOf(const k8s::ObjectMeta& meta) {
  return meta.name_space.empty() ? "default" : meta.name_space;
}

// Replaces the object with the same namespace and name, or appends.
template <typename T>
void Upsert(SharedList<T>& into, typename SharedList<T>::Ptr object) {
  for (size_t i = 0; i < into.size(); ++i) {
    if (into[i].metadata.name == object->metadata.name &&
        NamespaceOf(into[i].metadata) == NamespaceOf(object->metadata)) {
      into.Set(i, std::move(object));
      return;
    }
  }
  into.push_back(std::move(object));
}

template <typename T>
void UpsertAll(SharedList<T>& into, const SharedList<T>& from) {
  for (const auto& object : from.ptrs()) Upsert(into, object);
}

k8s::ResourceClaimSpec Defaulted(const k8s::ResourceClaimSpec& spec) {
  k8s::ResourceClaimSpec copy = spec;
  validate::DefaultDeviceClaim(copy.devices);
  return copy;
}

bool Allocated(const k8s::ResourceClaim& claim) {
  return claim.status && claim.status->allocation;
}

// Claims and templates by (namespace, name): the inputs first, then the inventory's claims.
class ClaimIndex {
 public:
  ClaimIndex(const std::vector<k8s::DecodeResult>& decoded,
             const inventory::ClusterObjects& cluster) {
    for (const k8s::DecodeResult& file : decoded) {
      for (const k8s::DecodedObject& object : file.objects) {
        if (const auto* c = std::get_if<k8s::ResourceClaim>(&object.object)) {
          claims_.emplace(Key(c->metadata), c);
        } else if (const auto* t = std::get_if<k8s::ResourceClaimTemplate>(&object.object)) {
          templates_.emplace(Key(t->metadata), t);
        }
      }
    }
    for (const k8s::ResourceClaim& c : cluster.claims) claims_.emplace(Key(c.metadata), &c);
  }

  const k8s::ResourceClaim* Claim(const std::string& ns, const std::string& name) const {
    auto it = claims_.find({ns, name});
    return it == claims_.end() ? nullptr : it->second;
  }
  const k8s::ResourceClaimTemplate* Template(const std::string& ns, const std::string& name) const {
    auto it = templates_.find({ns, name});
    return it == templates_.end() ? nullptr : it->second;
  }

 private:
  using Key2 = std::pair<std::string, std::string>;
  static Key2 Key(const k8s::ObjectMeta& meta) { return {NamespaceOf(meta), meta.name}; }
  std::map<Key2, const k8s::ResourceClaim*> claims_;
  std::map<Key2, const k8s::ResourceClaimTemplate*> templates_;
};

// The address of the claim or template inside a decoded object (what ClaimIndex hands out),
// or null.
const void* SpecOwner(const k8s::DecodedObject& object) {
  if (const auto* c = std::get_if<k8s::ResourceClaim>(&object.object)) return c;
  return std::get_if<k8s::ResourceClaimTemplate>(&object.object);
}

// Finds the subjects and resolves their claims; allocation is left to the caller.
class Collector {
 public:
  Collector(const std::vector<k8s::DecodeResult>& decoded,
            const inventory::ClusterObjects& cluster, const ObjectErrors* rejected)
      : index_(decoded, cluster), rejected_(rejected) {
    if (rejected_ == nullptr) return;
    for (const auto& [object, errors] : *rejected_) {
      if (const void* owner = SpecOwner(*object)) rejected_specs_.insert(owner);
    }
  }

  void Collect(const k8s::DecodedObject& object, std::vector<Subject>& out) {
    Subject s{.result = {.object = &object, .ref = object.ref}};
    SatisfiabilityResult& r = s.result;
    if (const auto* c = std::get_if<k8s::ResourceClaim>(&object.object)) {
      if (Allocated(*c)) return;
      r.field = "spec.devices";
      if (!Rejected(object, r)) s.claims.push_back(Defaulted(c->spec));
    } else if (const auto* t = std::get_if<k8s::ResourceClaimTemplate>(&object.object)) {
      r.field = "spec.spec.devices";
      if (!Rejected(object, r)) s.claims.push_back(Defaulted(t->spec));
    } else if (const auto* w = std::get_if<k8s::Workload>(&object.object)) {
      if (w->pod.resource_claims.empty()) return;
      r.field = w->pod.spec_path.empty() ? "spec.resourceClaims"
                                         : w->pod.spec_path + ".resourceClaims";
      s.pod = true;
      if (!Rejected(object, r) && !CollectPod(*w, s)) return;
    } else {
      return;
    }
    out.push_back(std::move(s));
  }

 private:
  // True (with the verdict and errors set) when the API server rejects the subject: what it
  // never stores is never allocated.
  bool Rejected(const k8s::DecodedObject& object, SatisfiabilityResult& r) const {
    if (rejected_ == nullptr) return false;
    auto it = rejected_->find(&object);
    if (it == rejected_->end()) return false;
    r.verdict.kind = alloc::VerdictKind::kError;
    r.errors = it->second;
    return true;
  }

  // False when the pod has no unallocated claim to check.
  bool CollectPod(const k8s::Workload& w, Subject& s) {
    SatisfiabilityResult& r = s.result;
    const std::string ns = NamespaceOf(w.metadata);
    std::vector<k8s::ResourceClaimSpec> specs;
    for (const k8s::PodResourceClaim& pc : w.pod.resource_claims) {
      if (pc.resource_claim_name) {
        const k8s::ResourceClaim* claim = index_.Claim(ns, *pc.resource_claim_name);
        if (claim != nullptr && Allocated(*claim)) continue;
        if (claim != nullptr && rejected_specs_.contains(claim)) {
          return Invalid(r, pc.name, "ResourceClaim " + ns + "/" + *pc.resource_claim_name);
        }
        if (claim != nullptr) {
          specs.push_back(Defaulted(claim->spec));
          r.pod_claims.push_back(pc.name);
          continue;
        }
        return Missing(r, pc.name, "ResourceClaim " + ns + "/" + *pc.resource_claim_name);
      }
      if (pc.resource_claim_template_name) {
        const auto* tmpl = index_.Template(ns, *pc.resource_claim_template_name);
        const std::string what = "ResourceClaimTemplate " + ns + "/" + *pc.resource_claim_template_name;
        if (tmpl == nullptr) return Missing(r, pc.name, what);
        if (rejected_specs_.contains(tmpl)) return Invalid(r, pc.name, what);
        specs.push_back(Defaulted(tmpl->spec));
        r.pod_claims.push_back(pc.name);
      }
    }
    if (specs.empty()) return false;
    s.claims = std::move(specs);
    return true;
  }

  // The pod's verdict is error, for `code`, because of its pod claim `pod_claim`.
  static bool PodClaimError(SatisfiabilityResult& r, const std::string& pod_claim,
                            std::string code, const std::string& why) {
    r.pod_claims = {pod_claim};
    r.verdict.kind = alloc::VerdictKind::kError;
    r.verdict.reasons.push_back(
        alloc::Reason{.code = std::move(code), .message = "pod claim " + pod_claim + " " + why});
    return true;
  }
  static bool Missing(SatisfiabilityResult& r, const std::string& pod_claim,
                      const std::string& what) {
    return PodClaimError(r, pod_claim, "alloc.claim.not-found",
                         "refers to " + what + ", which is neither among the inputs nor in the inventory");
  }
  static bool Invalid(SatisfiabilityResult& r, const std::string& pod_claim,
                      const std::string& what) {
    return PodClaimError(r, pod_claim, "alloc.claim.invalid",
                         "refers to " + what + ", which the API server rejects (see its errors)");
  }

  ClaimIndex index_;
  const ObjectErrors* rejected_;               // may be null
  std::set<const void*> rejected_specs_;      // claims and templates among rejected_
};

std::string ReasonText(const SatisfiabilityResult& r, const alloc::Reason& reason) {
  if (r.pod_claims.size() > 1 && reason.claim < r.pod_claims.size()) {
    return "claim " + r.pod_claims[reason.claim] + ": " + reason.message;
  }
  return reason.message;
}

// An error of the scheduler's allocator (it aborts the pod's scheduling cycle), as opposed to
// a pod claim this run cannot resolve.
bool SchedulerError(const alloc::AllocationVerdict& v) {
  if (v.kind != alloc::VerdictKind::kError) return false;
  return std::none_of(v.reasons.begin(), v.reasons.end(), [](const alloc::Reason& r) {
    return r.code == "alloc.claim.not-found" || r.code == "alloc.claim.invalid";
  });
}

std::string DiagnosticMessage(const SatisfiabilityResult& r) {
  std::string subject = r.pod_claims.empty() ? "this claim" : "the claims of this pod";
  std::string text;
  switch (r.verdict.kind) {
    case alloc::VerdictKind::kError:
      text = "the scheduler would fail " + subject + " outright: ";
      break;
    case alloc::VerdictKind::kUndecided:
      text = "could not decide whether a node can allocate " + subject + ": ";
      break;
    default:
      text = "no node in the inventory can allocate " + subject + ": ";
  }
  size_t quoted = 0;
  for (const alloc::Reason& reason : r.verdict.reasons) {
    if (quoted == kMaxQuotedReasons) break;
    text += (quoted++ == 0 ? "" : "; ") + ReasonText(r, reason);
  }
  if (r.verdict.reasons.size() > quoted) {
    text += " (and " + std::to_string(r.verdict.reasons.size() - quoted) + " more)";
  }
  return text;
}

}  // namespace

inventory::ClusterObjects MergeClusterObjects(const inventory::ClusterObjects* inventory,
                                              const std::vector<k8s::DecodeResult>& decoded) {
  inventory::ClusterObjects merged;
  if (inventory != nullptr) merged = *inventory;
  return MergeClusterObjects(std::move(merged), decoded);
}

inventory::ClusterObjects MergeClusterObjects(inventory::ClusterObjects&& inventory,
                                              const std::vector<k8s::DecodeResult>& decoded) {
  inventory::ClusterObjects merged = std::move(inventory);
  inventory::ClusterObjects extra;
  for (const k8s::DecodeResult& file : decoded) inventory::CollectClusterObjects(file, extra);
  inventory::ForEachKind(merged, extra, [](auto& into, auto& from) { UpsertAll(into, from); });
  return merged;
}

std::vector<Subject> CollectSubjects(const std::vector<k8s::DecodeResult>& decoded,
                                     const inventory::ClusterObjects& cluster,
                                     const ObjectErrors* rejected) {
  Collector collector(decoded, cluster, rejected);
  std::vector<Subject> out;
  for (const k8s::DecodeResult& file : decoded) {
    for (const k8s::DecodedObject& object : file.objects) collector.Collect(object, out);
  }
  return out;
}

std::vector<SatisfiabilityResult> CheckSatisfiability(const std::vector<k8s::DecodeResult>& decoded,
                                                      const inventory::ClusterObjects& cluster,
                                                      const alloc::AllocatorOptions& options,
                                                      const ObjectErrors* rejected) {
  return CheckSatisfiability(decoded, std::make_shared<const inventory::ClusterObjects>(cluster),
                             options, rejected);
}

std::vector<SatisfiabilityResult> CheckSatisfiability(
    const std::vector<k8s::DecodeResult>& decoded,
    std::shared_ptr<const inventory::ClusterObjects> cluster,
    const alloc::AllocatorOptions& options, const ObjectErrors* rejected, Timings* timings,
    bool feasible_node_names) {
  std::vector<Subject> subjects = CollectSubjects(decoded, *cluster, rejected);
  std::optional<Timings::Scope> phase(std::in_place, timings, "satisfiability: inventory build");
  const alloc::Inventory inventory = alloc::Inventory::Build(std::move(cluster));
  phase.reset();
  phase.emplace(timings, "satisfiability: checks");
  alloc::CelSelectorEvaluator evaluator(options);
  std::vector<SatisfiabilityResult> out;
  for (Subject& s : subjects) {
    if (!s.claims.empty()) {
      std::vector<const k8s::ResourceClaimSpec*> pointers;
      for (const k8s::ResourceClaimSpec& spec : s.claims) pointers.push_back(&spec);
      s.result.verdict = alloc::CheckPod(inventory, pointers, evaluator, options);
      if (!feasible_node_names) {
        std::vector<std::string>().swap(s.result.verdict.feasible_nodes);
      }
    }
    out.push_back(std::move(s.result));
  }
  return out;
}

std::vector<Diagnostic> SatisfiabilityDiagnostics(const std::vector<SatisfiabilityResult>& results,
                                                  Severity unsatisfiable_severity) {
  std::vector<Diagnostic> out;
  for (const SatisfiabilityResult& r : results) {
    if (r.verdict.kind == alloc::VerdictKind::kSatisfiable || !r.errors.empty()) continue;
    Diagnostic d;
    bool undecided = r.verdict.kind == alloc::VerdictKind::kUndecided;
    d.severity = undecided ? Severity::kInfo : unsatisfiable_severity;
    d.code = undecided ? "alloc.undecided" : "alloc.unsatisfiable";
    if (SchedulerError(r.verdict)) d.code = "alloc.scheduler-error";
    d.field = r.field;
    d.message = DiagnosticMessage(r);
    if (undecided) d.suggestion = "raise the search budget (draguard explain --budget)";
    if (r.object != nullptr) r.object->Locate(d);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace draguard::pipeline
