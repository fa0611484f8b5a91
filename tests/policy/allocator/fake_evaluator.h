// A small selector evaluator for tests: understands a few expression shapes.
//
//   true / false
//   device.driver == "x"
//   device.attributes["dom"].name == "v"     (string attribute; no-match when missing)
//   device.attributes["dom"].name == 3       (int attribute)
//   device.attributes["dom"].name            (bool attribute; runtime error when missing)
//   error                                    (always a runtime error)
// Anything else is a runtime error ("unsupported"). It counts calls per expression.
#ifndef DRAGUARD_TESTS_POLICY_ALLOCATOR_FAKE_EVALUATOR_H_
#define DRAGUARD_TESTS_POLICY_ALLOCATOR_FAKE_EVALUATOR_H_

#include <map>
#include <string>

#include "policy/allocator/selector.h"

namespace draguard::alloc::testing {

class FakeEvaluator : public SelectorEvaluator {
 public:
  SelectorResult Evaluate(std::string_view expression, const DeviceView& device) override;
  int calls() const { return calls_; }

 private:
  int calls_ = 0;
};

}  // namespace draguard::alloc::testing

#endif  // DRAGUARD_TESTS_POLICY_ALLOCATOR_FAKE_EVALUATOR_H_
