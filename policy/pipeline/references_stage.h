// The references stage of the batch pipeline (pipeline.h): references across every input
// object (policy/validate/references.h), with the snapshot's DeviceClasses and ResourceClaims
// standing in for objects that are not among the inputs. A finding is located in the
// referring object.
#ifndef DRAGUARD_POLICY_PIPELINE_REFERENCES_STAGE_H_
#define DRAGUARD_POLICY_PIPELINE_REFERENCES_STAGE_H_

#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/inventory/cluster_objects.h"
#include "policy/k8s/decode.h"

namespace draguard::pipeline {

// `snapshot` may be null (no cluster state). Two inputs may hold the same object; a finding
// about it is located in the first.
std::vector<Diagnostic> CheckReferencesStage(const std::vector<k8s::DecodeResult>& decoded,
                                             const inventory::ClusterObjects* snapshot);

}  // namespace draguard::pipeline

#endif  // DRAGUARD_POLICY_PIPELINE_REFERENCES_STAGE_H_
