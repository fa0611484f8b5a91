// Timestamps and durations as Go's time package handles them for CEL (cel-go): RFC 3339
// parsing and formatting, Go's duration syntax, and civil time in a time zone (UTC, fixed
// offsets "+05:30", or IANA names read from the system's TZif files).
//
// All functions are total: bad input gives InvalidArgument, never undefined behaviour.
#ifndef DRAGUARD_POLICY_COMMON_TIME_H_
#define DRAGUARD_POLICY_COMMON_TIME_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "policy/common/status_or.h"

namespace draguard {

// Seconds since the Unix epoch plus nanoseconds in [0, 1e9).
struct Timestamp {
  int64_t seconds = 0;
  int32_t nanos = 0;

  friend bool operator==(const Timestamp&, const Timestamp&) = default;
  friend auto operator<=>(const Timestamp&, const Timestamp&) = default;
};

// CEL's valid range: 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999999Z.
inline constexpr int64_t kMinTimestampSeconds = -62135596800;
inline constexpr int64_t kMaxTimestampSeconds = 253402300799;
bool InTimestampRange(const Timestamp& t);

// Go's time.Parse(time.RFC3339, text): "2009-02-13T23:31:30Z", optional fraction, "Z" or a
// "+hh:mm"/"-hh:mm" offset.
StatusOr<Timestamp> ParseRfc3339(std::string_view text);
// Go's t.UTC().Format(time.RFC3339Nano): fraction without trailing zeros.
std::string FormatRfc3339(const Timestamp& t);

// Go's time.ParseDuration: "1h2m3.5s", "-1.5h", "300ms", "1us", "1µs", "10ns", "0".
StatusOr<int64_t> ParseGoDuration(std::string_view text);
// cel-go's string(duration): seconds with the shortest fixed decimals, then "s".
std::string FormatCelDuration(int64_t nanos);

// The civil time of `t` in a zone.
struct CivilTime {
  int64_t year = 1970;
  int month = 1;         // 1..12
  int day = 1;           // 1..31
  int day_of_year = 0;   // 0..365
  int day_of_week = 4;   // 0 = Sunday
  int hour = 0, minute = 0, second = 0;
};

// `zone` as cel-go's timestamp getters take it: "" or "UTC", an offset "[+-]hh:mm" (sign
// optional), or an IANA name looked up under `zoneinfo_dir`. NotFound or InvalidArgument
// for an unknown zone.
StatusOr<CivilTime> CivilTimeIn(const Timestamp& t, std::string_view zone,
                                std::string_view zoneinfo_dir = "/usr/share/zoneinfo");

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_TIME_H_
