// Quantity: Kubernetes resource.Quantity with exact arithmetic.
//
// A quantity is held as a signed count of nano-units (10^-9) in a 128-bit integer, so
// every value Kubernetes keeps (it rounds anything finer than 1n up, away from zero) is
// exact. Bound: |value| < 10^28 (kMaxNanos nano-units). Kubernetes accepts larger
// numbers; Parse and the arithmetic return OUT_OF_RANGE past the bound instead of
// losing precision. The format (BinarySI, DecimalSI, DecimalExponent) is remembered
// from the parsed suffix and drives String(), as in apimachinery.
//
// Thread-compatible value type; copies are cheap (32 bytes).
#ifndef DRAGUARD_POLICY_COMMON_QUANTITY_H_
#define DRAGUARD_POLICY_COMMON_QUANTITY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "policy/common/status_or.h"

namespace draguard {

// Exact 128-bit integers (a GCC/Clang extension; __extension__ keeps -Wpedantic quiet).
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

class Quantity {
 public:
  enum class Format { kDecimalSI, kBinarySI, kDecimalExponent };

  // 10^37 - 1 nano-units: the largest magnitude a Quantity holds.
  static constexpr Int128 kMaxNanos =
      static_cast<Int128>(1000000000000000000LL) * 10000000000000000000ULL - 1;

  Quantity() = default;

  // Parses the apimachinery grammar: [+-] digits [. digits] then one suffix out of
  // Ki Mi Gi Ti Pi Ei, n u m k M G T P E, e<int>/E<int>, or none. No spaces.
  // Returns INVALID_ARGUMENT for syntax errors ("1GB", "200K", "Mi", "10Mo") and
  // OUT_OF_RANGE for values past the bound. Values finer than 1n round up (away
  // from zero); BinarySI values above 2^63-1 are capped, as Kubernetes does.
  static StatusOr<Quantity> Parse(std::string_view text);

  // An integer quantity in DecimalSI format (what Kubernetes' NewQuantity(v, DecimalSI) gives).
  static Quantity FromInt64(int64_t value);

  // -1, 0 or 1 comparing the exact values (format is ignored).
  int Cmp(const Quantity& other) const;
  friend bool operator==(const Quantity& a, const Quantity& b) { return a.Cmp(b) == 0; }

  // Exact sum / difference. The format is this quantity's, or other's when this one is
  // zero (apimachinery's Add). OUT_OF_RANGE past the bound.
  StatusOr<Quantity> Add(const Quantity& other) const;
  StatusOr<Quantity> Sub(const Quantity& other) const;

  // -1, 0 or 1.
  int Sign() const { return nanos_ < 0 ? -1 : (nanos_ > 0 ? 1 : 0); }
  // True when the value is integral and fits in int64 (apimachinery's AsInt64 ok).
  bool IsInteger() const { return AsInt64().has_value(); }
  // The value when IsInteger(), nullopt otherwise.
  std::optional<int64_t> AsInt64() const;
  // The nearest double (precision may be lost).
  double AsApproximateDouble() const;

  // The canonical form Kubernetes prints: "1Gi", "1500m", "1k", "0", "1e3".
  std::string String() const;

  Format format() const { return format_; }
  Int128 nanos() const { return nanos_; }

 private:
  Quantity(Int128 nanos, Format format) : nanos_(nanos), format_(format) {}

  Int128 nanos_ = 0;
  Format format_ = Format::kDecimalSI;
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_QUANTITY_H_
