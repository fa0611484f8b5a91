// A small selector evaluator for tests: understands a few expression shapes.
//
//   true / false
//   device.driver == "x"
//   device.attributes["dom"].name == "v"     (string attribute; no-match when missing)
//   device.attributes["dom"].name == 3       (int attribute)
//   device.attributes["dom"].name            (bool attribute; runtime error when missing)
//   error                                    (always a runtime error)
// Anything else is a runtime error ("unsupported"). It counts calls per expression.
// AttributesRead names the attribute of the attribute shapes and none for the others; with
// `report_reads` off it answers "unknown" (nullopt), so that the allocator takes its general
// path (every distinct device content decided apart).
#ifndef DRAGUARD_TESTS_POLICY_ALLOCATOR_FAKE_EVALUATOR_H_
#define DRAGUARD_TESTS_POLICY_ALLOCATOR_FAKE_EVALUATOR_H_

#include <map>
#include <optional>
#include <vector>
#include <string>

#include "policy/allocator/selector.h"

namespace draguard::alloc::testing {

class FakeEvaluator : public SelectorEvaluator {
 public:
  explicit FakeEvaluator(bool report_reads = true) : report_reads_(report_reads) {}
  SelectorResult Evaluate(std::string_view expression, const DeviceView& device) override;
  std::optional<std::vector<AttributeName>> AttributesRead(std::string_view expression) override;
  int calls() const { return calls_; }

 private:
  int calls_ = 0;
  bool report_reads_ = true;
};

}  // namespace draguard::alloc::testing

#endif  // DRAGUARD_TESTS_POLICY_ALLOCATOR_FAKE_EVALUATOR_H_
