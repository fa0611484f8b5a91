// CelSelectorEvaluator: the production SelectorEvaluator, over draguard's CEL (policy/cel).
//
// As the scheduler does (allocator.md §6): each selector is compiled once per expression text
// in the StoredExpressions environment of the chosen Kubernetes version and gates (the
// superset the scheduler accepts for objects already stored), without the compile-time cost
// estimate (the scheduler skips it; the 1,000,000 runtime cost limit still applies). Each
// device is prepared once per DeviceView::id (attributes by domain, capacities as
// quantities) and every expression is evaluated against that preparation.
//
// A compile error, a device that cannot be prepared (malformed attribute or capacity) or a
// runtime error is SelectorResult::Error with the scheduler's message; the allocator makes
// it a fatal `error` verdict.
//
// Thread-compatible: one instance per thread (it owns its caches and evaluation scratch).
// An instance serves one Inventory: device ids must refer to it for its whole life.
#ifndef DRAGUARD_POLICY_ALLOCATOR_CEL_EVALUATOR_H_
#define DRAGUARD_POLICY_ALLOCATOR_CEL_EVALUATOR_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "policy/allocator/options.h"
#include "policy/allocator/selector.h"
#include "policy/cel/compiler.h"
#include "policy/cel/device.h"
#include "policy/cel/env.h"
#include "policy/cel/program.h"

namespace draguard::alloc {

class CelSelectorEvaluator : public SelectorEvaluator {
 public:
  // The environment follows options.version and the DRAConsumableCapacity gate. `cache`
  // (optional, thread safe) shares compile results between evaluators, e.g. the webhook's
  // threads; without it each evaluator compiles for itself.
  explicit CelSelectorEvaluator(const AllocatorOptions& options,
                                std::shared_ptr<cel::SelectorCache> cache = nullptr);
  ~CelSelectorEvaluator() override;

  SelectorResult Evaluate(std::string_view expression, const DeviceView& device) override;

  // Distinct expressions compiled and devices prepared so far (for tests).
  size_t compiled_count() const { return programs_.size(); }
  size_t prepared_count() const { return prepared_count_; }

 private:
  struct Compiled;
  struct Prepared;

  const Compiled& CompileOnce(std::string_view expression);
  const Prepared& PrepareOnce(const DeviceView& device);

  cel::EnvOptions env_;
  std::shared_ptr<cel::SelectorCache> cache_;
  std::unordered_map<std::string, std::unique_ptr<Compiled>> programs_;
  std::vector<std::unique_ptr<Prepared>> devices_;  // by DeviceView::id
  size_t prepared_count_ = 0;
  cel::EvalState state_;
};

}  // namespace draguard::alloc

#endif  // DRAGUARD_POLICY_ALLOCATOR_CEL_EVALUATOR_H_
