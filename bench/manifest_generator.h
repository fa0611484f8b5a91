// Generates realistic DRA manifests in memory for benchmarks: ResourceClaims and
// ResourceClaimTemplates in the shapes the NVIDIA (full GPUs, MIG with firstAvailable) and
// AMD (MI300X, constraints) drivers document, with CEL selectors, opaque configs and
// tolerations, spread over files of a few objects each, as repositories keep them.
#ifndef DRAGUARD_BENCH_MANIFEST_GENERATOR_H_
#define DRAGUARD_BENCH_MANIFEST_GENERATOR_H_

#include <cstddef>
#include <vector>

#include "policy/common/source.h"

namespace draguard::bench {

// `resources` objects (half claims, half templates, in four shapes), `per_file` per
// multi-document YAML file. Deterministic: the same arguments give the same files.
std::vector<SourceText> GenerateManifests(size_t resources, size_t per_file);

}  // namespace draguard::bench

#endif  // DRAGUARD_BENCH_MANIFEST_GENERATOR_H_
