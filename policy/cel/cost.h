// Worst-case cost estimation of a checked expression, reproducing cel-go's checker cost
// model (cel-go checker/cost.go) as Kubernetes configures it: Kubernetes' library cost estimator
// (apiserver pkg/cel/library/cost.go) and
// the DRA size estimator (cel/compile.go `sizeEstimator`), with the "has costs 1" rule off.
//
// Costs and sizes are [min, max] ranges of uint64 with saturating arithmetic; anything of
// unknown size pushes the max to UINT64_MAX ("effectively infinite"). The API server
// rejects a selector whose max exceeds kMaxSelectorCost.
#ifndef DRAGUARD_POLICY_CEL_COST_H_
#define DRAGUARD_POLICY_CEL_COST_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "policy/cel/ast.h"
#include "policy/cel/checked_ast.h"

namespace draguard::cel {

// resource.k8s.io's compile-time cost limit for one selector.
inline constexpr uint64_t kMaxSelectorCost = 1000000;

struct CostEstimate {
  uint64_t min = 0;
  uint64_t max = 0;
  friend bool operator==(const CostEstimate&, const CostEstimate&) = default;
};

struct SizeEstimate {
  uint64_t min = 0;
  uint64_t max = 0;
};

// Supplies size bounds for values reached by a field path such as {"device", "attributes",
// "@values", "@keys"} ("@values"/"@keys"/"@items" name map values, map keys, list items).
class SizeEstimator {
 public:
  virtual ~SizeEstimator() = default;
  // The bound, or nullopt when unknown. `path` is the parts from the root: {"device",
  // "attributes", "@values", "model"}.
  virtual std::optional<SizeEstimate> EstimateSize(std::span<const std::string_view> path) const = 0;
};

// The DRA bounds (compile.go `sizeEstimator.EstimateSize`, limits of resource/v1 types.go):
// driver ≤ 63, 32 domains of ≤ 63 bytes, 32 identifiers of
// ≤ 32 bytes per domain, values ≤ 64. A process-wide immutable instance.
const SizeEstimator& DraSizeEstimator();

struct CostOptions {
  // Not owned; null means no bounds beyond literals.
  const SizeEstimator* sizes = nullptr;
};

// The worst-case cost range of `ast` as checked in `checked` (which must come from a
// successful Check of the same Ast). Pure; thread safe.
CostEstimate EstimateCost(const Ast& ast, const CheckedAst& checked,
                          const CostOptions& options = {});

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_COST_H_
