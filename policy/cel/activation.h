// Activation: the variables visible to an evaluation, by name.
//
// Allocation-free: up to kMaxVariables bindings live inline. Names and values are
// borrowed: the name text and whatever the values point into (device data, constants)
// must outlive the evaluation. Lookups scan linearly; draguard's CEL environments have
// one or two variables.
#ifndef DRAGUARD_POLICY_CEL_ACTIVATION_H_
#define DRAGUARD_POLICY_CEL_ACTIVATION_H_

#include <array>
#include <new>
#include <string_view>
#include <utility>

#include "policy/cel/value.h"

namespace draguard::cel {

class Activation {
 public:
  static constexpr size_t kMaxVariables = 8;

  Activation() = default;
  Activation(const Activation&) = delete;
  Activation& operator=(const Activation&) = delete;
  ~Activation() {
    for (size_t i = 0; i < size_; ++i) slot(i).~Entry();
  }

  // Binds `name` (replacing an earlier binding). Returns false, binding nothing, when
  // kMaxVariables distinct names are already bound.
  bool Bind(std::string_view name, Value value) {
    for (size_t i = 0; i < size_; ++i) {
      if (slot(i).first == name) {
        slot(i).second = std::move(value);
        return true;
      }
    }
    if (size_ == kMaxVariables) return false;
    new (&storage_[size_ * sizeof(Entry)]) Entry(name, std::move(value));
    ++size_;
    has_dotted_names_ = has_dotted_names_ || name.find('.') != std::string_view::npos;
    return true;
  }

  // The bound value, or nullptr.
  const Value* Find(std::string_view name) const {
    for (size_t i = 0; i < size_; ++i) {
      if (slot(i).first == name) return &slot(i).second;
    }
    return nullptr;
  }

  // Whether some bound name is qualified ("x.y"): only then can a select chain `x.y` name a
  // variable of its own, so evaluation skips that lookup otherwise.
  bool has_dotted_names() const { return has_dotted_names_; }

 private:
  using Entry = std::pair<std::string_view, Value>;

  Entry& slot(size_t i) { return *std::launder(reinterpret_cast<Entry*>(&storage_[i * sizeof(Entry)])); }
  const Entry& slot(size_t i) const {
    return *std::launder(reinterpret_cast<const Entry*>(&storage_[i * sizeof(Entry)]));
  }

  // Raw storage: a value-initialised array of 8 entries was zero-filled on every
  // evaluation (a `rep stos` of 512 bytes), a measurable share of a two-lookup selector.
  alignas(Entry) unsigned char storage_[sizeof(Entry) * kMaxVariables];
  size_t size_ = 0;
  bool has_dotted_names_ = false;
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_ACTIVATION_H_
