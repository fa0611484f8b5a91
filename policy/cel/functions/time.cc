// Timestamps and durations (cel-go's standard library, common/stdlib/standard.go):
// conversions, arithmetic with cel-go's range and overflow errors, and the getters with an
// optional time zone.
#include "policy/cel/functions/registry.h"

namespace draguard::cel {
namespace {

// 128-bit intermediates for exact nanosecond arithmetic over CEL's whole range.
__extension__ typedef __int128 Int128;

using Args = std::span<const Value>;

constexpr int64_t kNanosPerSecond = 1'000'000'000;

Value RangeError() { return Value::ErrorView("timestamp out of range"); }
Value Overflow() { return Value::ErrorView("integer overflow"); }

Value CheckedTimestamp(Timestamp t) {
  if (!InTimestampRange(t)) return RangeError();
  return Value::OfTimestamp(t);
}

Value ToTimestamp(Args a, EvalState&) {
  switch (a[0].kind()) {
    case Kind::kTimestamp: return a[0];
    case Kind::kInt: return CheckedTimestamp(Timestamp{a[0].int_value(), 0});
    case Kind::kString: {
      StatusOr<Timestamp> t = ParseRfc3339(a[0].text());
      if (!t.ok()) return Value::Error(std::string(t.status().message()));
      return CheckedTimestamp(*t);
    }
    default: return NoSuchOverload();
  }
}

Value ToDuration(Args a, EvalState&) {
  if (a[0].kind() == Kind::kDuration) return a[0];
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  StatusOr<int64_t> d = ParseGoDuration(a[0].text());
  if (!d.ok()) return Value::Error(std::string(d.status().message()));
  return Value::Duration(*d);
}

// timestamp + nanoseconds, normalised, range-checked.
Value Shift(const Timestamp& t, int64_t nanos) {
  Int128 total = static_cast<Int128>(t.seconds) * kNanosPerSecond + t.nanos + nanos;
  Int128 seconds = total / kNanosPerSecond, rest = total % kNanosPerSecond;
  if (rest < 0) {
    rest += kNanosPerSecond;
    --seconds;
  }
  if (seconds < kMinTimestampSeconds || seconds > kMaxTimestampSeconds) return RangeError();
  return Value::OfTimestamp(Timestamp{static_cast<int64_t>(seconds), static_cast<int32_t>(rest)});
}

// Getters: 0-based month, day of year and day of month as cel-go; getDate is 1-based.
enum class Field { kYear, kMonth, kDayOfYear, kDayOfMonth, kDate, kDayOfWeek, kHours, kMinutes,
                   kSeconds, kMilliseconds };

Value DurationField(int64_t d, Field f) {
  switch (f) {
    case Field::kHours: return Value::Int(d / (3600 * kNanosPerSecond));
    case Field::kMinutes: return Value::Int(d / (60 * kNanosPerSecond));
    case Field::kSeconds: return Value::Int(d / kNanosPerSecond);
    case Field::kMilliseconds: return Value::Int(d / 1'000'000 % 1000);
    default: return NoSuchOverload();
  }
}

template <Field kField>
Value Get(Args a, EvalState&) {
  if (a[0].kind() == Kind::kDuration && a.size() == 1) {
    return DurationField(a[0].duration_nanos(), kField);
  }
  if (a[0].kind() != Kind::kTimestamp) return NoSuchOverload();
  std::string_view zone;
  if (a.size() == 2) {
    if (a[1].kind() != Kind::kString) return NoSuchOverload();
    zone = a[1].text();
  }
  const Timestamp& t = a[0].timestamp();
  StatusOr<CivilTime> c = CivilTimeIn(t, zone);
  if (!c.ok()) return Value::Error(std::string(c.status().message()));
  switch (kField) {
    case Field::kYear: return Value::Int(c->year);
    case Field::kMonth: return Value::Int(c->month - 1);
    case Field::kDayOfYear: return Value::Int(c->day_of_year);
    case Field::kDayOfMonth: return Value::Int(c->day - 1);
    case Field::kDate: return Value::Int(c->day);
    case Field::kDayOfWeek: return Value::Int(c->day_of_week);
    case Field::kHours: return Value::Int(c->hour);
    case Field::kMinutes: return Value::Int(c->minute);
    case Field::kSeconds: return Value::Int(c->second);
    case Field::kMilliseconds: return Value::Int(t.nanos / 1'000'000);
  }
  return NoSuchOverload();
}

template <Field kField>
void AddGetter(Registry& r, std::string_view name) {
  r.Add(name, 1, Get<kField>);
  r.Add(name, 2, Get<kField>);
}

}  // namespace

bool IsTimeKind(Kind k) { return k == Kind::kTimestamp || k == Kind::kDuration; }

Value TimeArithmetic(const Value& a, const Value& b, char op) {
  const Kind ka = a.kind(), kb = b.kind();
  if (op == '+') {
    if (ka == Kind::kTimestamp && kb == Kind::kDuration) return Shift(a.timestamp(), b.duration_nanos());
    if (ka == Kind::kDuration && kb == Kind::kTimestamp) return Shift(b.timestamp(), a.duration_nanos());
    if (ka == Kind::kDuration && kb == Kind::kDuration) {
      int64_t r;
      if (__builtin_add_overflow(a.duration_nanos(), b.duration_nanos(), &r)) return Overflow();
      return Value::Duration(r);
    }
  } else if (op == '-') {
    if (ka == Kind::kTimestamp && kb == Kind::kDuration) {
      if (b.duration_nanos() == INT64_MIN) return Overflow();
      return Shift(a.timestamp(), -b.duration_nanos());
    }
    if (ka == Kind::kDuration && kb == Kind::kDuration) {
      int64_t r;
      if (__builtin_sub_overflow(a.duration_nanos(), b.duration_nanos(), &r)) return Overflow();
      return Value::Duration(r);
    }
    if (ka == Kind::kTimestamp && kb == Kind::kTimestamp) {
      const Int128 d =
          (static_cast<Int128>(a.timestamp().seconds) - b.timestamp().seconds) * kNanosPerSecond +
          (a.timestamp().nanos - b.timestamp().nanos);
      if (d > INT64_MAX || d < INT64_MIN) return Overflow();
      return Value::Duration(static_cast<int64_t>(d));
    }
  }
  return NoSuchOverload();
}

void RegisterTimeFunctions(Registry& r) {
  r.Add("timestamp", 1, ToTimestamp);
  r.Add("duration", 1, ToDuration);
  AddGetter<Field::kYear>(r, "getFullYear");
  AddGetter<Field::kMonth>(r, "getMonth");
  AddGetter<Field::kDayOfYear>(r, "getDayOfYear");
  AddGetter<Field::kDayOfMonth>(r, "getDayOfMonth");
  AddGetter<Field::kDate>(r, "getDate");
  AddGetter<Field::kDayOfWeek>(r, "getDayOfWeek");
  AddGetter<Field::kHours>(r, "getHours");
  AddGetter<Field::kMinutes>(r, "getMinutes");
  AddGetter<Field::kSeconds>(r, "getSeconds");
  AddGetter<Field::kMilliseconds>(r, "getMilliseconds");
}

}  // namespace draguard::cel
