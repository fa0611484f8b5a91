// HeapOptional<T>: an optional value kept on the heap, for members that are rarely set in
// structs held by the hundred thousand. It takes the 8 bytes of a pointer where
// std::optional<std::vector<T>> takes 32: a device attribute's four list members went from
// 128 to 32 bytes, about 44 MB of a 50,000-device inventory (docs/benchmarks.md, fleet).
//
// The interface is std::optional's (has_value, operator bool, *, ->, emplace, reset,
// assignment from T and from std::nullopt, comparison with T), with value semantics: copies
// are deep. Dereferencing an empty one is undefined, as with std::optional's operator*.
#ifndef DRAGUARD_POLICY_COMMON_HEAP_OPTIONAL_H_
#define DRAGUARD_POLICY_COMMON_HEAP_OPTIONAL_H_

#include <memory>
#include <optional>
#include <utility>

namespace draguard {

template <typename T>
class HeapOptional {
 public:
  HeapOptional() = default;
  HeapOptional(std::nullopt_t) {}  // NOLINT: implicit, as std::optional's
  HeapOptional(T value) : value_(std::make_unique<T>(std::move(value))) {}  // NOLINT
  HeapOptional(const HeapOptional& other)
      : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  HeapOptional(HeapOptional&&) noexcept = default;
  HeapOptional& operator=(const HeapOptional& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  HeapOptional& operator=(HeapOptional&&) noexcept = default;
  HeapOptional& operator=(T value) {
    value_ = std::make_unique<T>(std::move(value));
    return *this;
  }
  HeapOptional& operator=(std::nullopt_t) {
    value_.reset();
    return *this;
  }

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }

  template <typename... Args>
  T& emplace(Args&&... args) {
    value_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *value_;
  }
  void reset() { value_.reset(); }

  friend bool operator==(const HeapOptional& a, const HeapOptional& b) {
    return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
  }
  friend bool operator==(const HeapOptional& a, const T& b) { return a.has_value() && *a == b; }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_HEAP_OPTIONAL_H_
