// StatusOr<T>: a T, or the Status that says why there is none.
#ifndef DRAGUARD_POLICY_COMMON_STATUS_OR_H_
#define DRAGUARD_POLICY_COMMON_STATUS_OR_H_

#include <cassert>
#include <cstdlib>
#include <optional>
#include <utility>

#include "policy/common/status.h"

namespace draguard {

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  // Constructs from a non-OK status. Passing an OK status is a programming error; it is
  // turned into an INTERNAL status so that release builds never hold "OK without value".
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT: implicit by design
    if (status_.ok()) status_ = InternalError("StatusOr constructed from an OK status");
  }
  StatusOr(const T& value) : value_(value) {}        // NOLINT: implicit by design
  StatusOr(T&& value) : value_(std::move(value)) {}  // NOLINT: implicit by design

  bool ok() const { return status_.ok(); }
  const Status& status() const& { return status_; }
  Status status() && { return std::move(status_); }

  // Precondition: ok(). Aborts otherwise: reading a missing value is a bug, not an input error.
  const T& value() const& { return CheckedValue(); }
  T& value() & { return CheckedValue(); }
  T&& value() && { return std::move(CheckedValue()); }

  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  T& CheckedValue() const {
    if (!value_.has_value()) std::abort();
    return const_cast<T&>(*value_);
  }

  Status status_;
  std::optional<T> value_;
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_STATUS_OR_H_
