// The cluster objects as the API server stores them when they are created with the chosen
// release's feature gates: fields whose gate is off are removed first (validate/defaults.h),
// exactly what lint reports as `*.dropped` ("will be ignored") for the same files. lint
// --inventory and explain apply this to the objects they allocate from, so that both model a
// gate that is off the same way: a DRAPartitionableDevices pool read with the gate off is a
// pool of plain devices (its counters gone), not an invalid pool.
#ifndef DRAGUARD_POLICY_PIPELINE_GATED_FIELDS_H_
#define DRAGUARD_POLICY_PIPELINE_GATED_FIELDS_H_

#include "policy/inventory/cluster_objects.h"
#include "policy/validate/options.h"

namespace draguard::pipeline {

// Drops the disabled fields of every ResourceSlice and DeviceClass in `cluster` (as on
// create). The warnings are not kept: lint reports them where it validates the files.
// Objects `cluster` shares with another list are left shared unless a field is dropped from
// them (then `cluster` gets its own copy; the other list is never changed).
void DropDisabledFields(inventory::ClusterObjects& cluster,
                        const validate::ValidationOptions& options);

}  // namespace draguard::pipeline

#endif  // DRAGUARD_POLICY_PIPELINE_GATED_FIELDS_H_
