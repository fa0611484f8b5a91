// Activation: the variables visible to an evaluation, by name.
//
// Allocation-free: up to kMaxVariables bindings live inline. Names and values are
// borrowed: the name text and whatever the values point into (device data, constants)
// must outlive the evaluation. Lookups scan linearly; draguard's CEL environments have
// one or two variables.
#ifndef DRAGUARD_POLICY_CEL_ACTIVATION_H_
#define DRAGUARD_POLICY_CEL_ACTIVATION_H_

#include <array>
#include <string_view>
#include <utility>

#include "policy/cel/value.h"

namespace draguard::cel {

class Activation {
 public:
  static constexpr size_t kMaxVariables = 8;

  // Binds `name` (replacing an earlier binding). Returns false, binding nothing, when
  // kMaxVariables distinct names are already bound.
  bool Bind(std::string_view name, Value value) {
    for (size_t i = 0; i < size_; ++i) {
      if (vars_[i].first == name) {
        vars_[i].second = std::move(value);
        return true;
      }
    }
    if (size_ == kMaxVariables) return false;
    vars_[size_++] = {name, std::move(value)};
    return true;
  }

  // The bound value, or nullptr.
  const Value* Find(std::string_view name) const {
    for (size_t i = 0; i < size_; ++i) {
      if (vars_[i].first == name) return &vars_[i].second;
    }
    return nullptr;
  }

 private:
  std::array<std::pair<std::string_view, Value>, kMaxVariables> vars_;
  size_t size_ = 0;
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_ACTIVATION_H_
