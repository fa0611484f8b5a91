// Cross-object reference checks for lint (issue 2 item 6), over all decoded inputs together:
//  - a pod's resourceClaimName / resourceClaimTemplateName names a ResourceClaim /
//    ResourceClaimTemplate among the inputs;
//  - every container claim names an entry of the pod's resourceClaims (error, as the API
//    server's Pod validation: `Not found`);
//  - a container claim's `request` exists in the referenced claim or template when that
//    object is among the inputs (error);
//  - every deviceClassName of a claim or template names a DeviceClass among the inputs.
// Cluster objects given besides the inputs (lint --inventory: DeviceClasses, ResourceClaims)
// count as existing, and a cluster export holds every object of its kinds. A name that is
// missing is a warning (`refs.*.not-found`, with the closest name as suggestion) when the
// inventory holds that kind, when an input object of that kind has a close name (a likely
// typo), or, for claims and templates, when one of that name is in another namespace.
// Otherwise it may well exist in the cluster (a driver's chart installs its DeviceClasses;
// repositories keep claims elsewhere): such references are summed up in one info per kind and
// run (`refs.*.unchecked`, on the first of them), not warned about one by one.
// Objects match by namespace and name; an empty namespace is treated as "default". When
// several inputs define the same claim or template, the one in the referring object's group
// wins; if none is in that group and they differ, the request check is skipped rather than
// guessed.
#ifndef DRAGUARD_POLICY_VALIDATE_REFERENCES_H_
#define DRAGUARD_POLICY_VALIDATE_REFERENCES_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/common/shared_list.h"
#include "policy/k8s/device_class.h"
#include "policy/k8s/resource_claim.h"
#include "policy/k8s/workload.h"

namespace draguard::validate {

// A decoded object and the ObjectRef that its diagnostics carry. Non-owning: the object must
// outlive the call it is passed to.
template <typename T>
struct ObjectInput {
  const T* object = nullptr;
  ObjectRef ref;
  // Where the object came from (lint: the index of its file). A reference resolves to an
  // object of the same group first: example folders often define the same template in
  // several files, each next to the pod that uses it.
  size_t group = 0;
};

struct ReferenceInputs {
  std::vector<ObjectInput<k8s::Workload>> workloads;
  std::vector<ObjectInput<k8s::ResourceClaim>> claims;
  std::vector<ObjectInput<k8s::ResourceClaimTemplate>> templates;
  std::vector<ObjectInput<k8s::DeviceClass>> classes;
  // Cluster objects known besides the inputs (not owned; null when none were given).
  const SharedList<k8s::DeviceClass>* cluster_classes = nullptr;
  const SharedList<k8s::ResourceClaim>* cluster_claims = nullptr;
};

// Appends the findings to `diagnostics`, each with `object` set to the referring object's
// ref and `field` set to the referring field's path: the workloads' findings, the claims',
// the templates', then the `refs.*.unchecked` summaries.
void CheckReferences(const ReferenceInputs& inputs, Diagnostics& diagnostics);

// What references resolve to, without the objects: the names of the claims and templates with
// their request names and groups, the DeviceClass names, the cluster's. CheckReferences builds
// one from its inputs; lint's two-pass run builds it while reading the inputs the first time
// and checks each object as it reads them again (ReferenceChecker). Add the inputs in order,
// then the cluster objects.
class ReferenceIndex {
 public:
  ReferenceIndex();
  ~ReferenceIndex();
  ReferenceIndex(ReferenceIndex&&) noexcept;
  ReferenceIndex& operator=(ReferenceIndex&&) noexcept;

  void AddClaim(const k8s::ResourceClaim& claim, size_t group);
  void AddTemplate(const k8s::ResourceClaimTemplate& claim_template, size_t group);
  void AddClass(const k8s::DeviceClass& device_class);
  // Appends an index of the inputs that follow this one's (lint indexes each file apart).
  void Merge(ReferenceIndex&& later);
  // Cluster objects known besides the inputs (either may be null), after the inputs.
  void AddCluster(const SharedList<k8s::DeviceClass>* classes,
                  const SharedList<k8s::ResourceClaim>* claims);

  struct Data;  // defined in references.cc

 private:
  // Created by the first Add or Merge (lint keeps an index per input file, most often empty).
  Data& data();
  const Data& data() const;

  std::unique_ptr<Data> data_;
  friend class ReferenceChecker;
};

// The checks of CheckReferences one referring object at a time, against an index that
// outlives the checker. Findings go to the given Diagnostics as each object is checked; the
// `refs.*.unchecked` summaries are counted and reported by Report. Checking the same objects
// kind by kind (workloads, claims, templates), in input order, gives CheckReferences' findings.
class ReferenceChecker {
 public:
  explicit ReferenceChecker(const ReferenceIndex& index);
  ~ReferenceChecker();
  ReferenceChecker(ReferenceChecker&&) noexcept;
  ReferenceChecker& operator=(ReferenceChecker&&) noexcept;

  void CheckWorkload(const ObjectInput<k8s::Workload>& workload, Diagnostics& diagnostics);
  void CheckClaim(const ObjectInput<k8s::ResourceClaim>& claim, Diagnostics& diagnostics);
  void CheckTemplate(const ObjectInput<k8s::ResourceClaimTemplate>& claim_template,
                     Diagnostics& diagnostics);
  // Folds in a checker that saw objects after this one's (of any kind): each summary keeps
  // the first reference, claims' before templates' for DeviceClasses. `later` is left empty
  // (holding nothing, as a new checker), so that lint can fold files as they are done.
  void Merge(ReferenceChecker&& later);

  // The summaries, one bit each in started_summaries(): references to claims, to templates,
  // to DeviceClasses from claims and from templates (the last two are reported as one).
  static constexpr unsigned kSummaryKinds = 4;
  // The summaries that hold a reference, a bit (1 << kind) each: when a check sets a bit, the
  // object just checked holds that summary's first reference (its ObjectRef is the summary's
  // `object`), at first_field(kind).
  unsigned started_summaries() const;
  // The field of the first reference of summary `kind`; empty when it holds none.
  const std::string& first_field(unsigned kind) const;
  // Appends the summaries (claims, templates, DeviceClasses), as CheckReferences ends.
  void Report(Diagnostics& diagnostics) const;

 private:
  struct Summaries;
  // Created by the first check (lint's two-pass run has one checker per input file).
  Summaries& summaries();

  const ReferenceIndex* index_;
  std::unique_ptr<Summaries> summaries_;
};

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_REFERENCES_H_
