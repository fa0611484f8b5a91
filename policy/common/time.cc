// Civil-date arithmetic is Howard Hinnant's days_from_civil / civil_from_days (proleptic
// Gregorian, exact over CEL's whole range). Zone files are TZif (RFC 8536); instants after
// a file's last transition keep the last transition's offset (Go would evaluate the file's
// POSIX footer rule; Debian's files list transitions up to 2037).
#include "policy/common/time.h"

#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace draguard {
namespace {

// 128-bit intermediates for exact nanosecond arithmetic over CEL's whole range.
__extension__ typedef __int128 Int128;

constexpr int64_t kNanosPerSecond = 1'000'000'000;

int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void CivilFromDays(int64_t z, int64_t* y, int* m, int* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  *m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int64_t y, int m) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[static_cast<size_t>(m - 1)];
}

Status TimeError(std::string_view text, std::string_view why) {
  return InvalidArgumentError("parsing time \"" + std::string(text) + "\": " + std::string(why));
}

// Reads exactly `n` digits at `pos`.
std::optional<int> Digits(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return std::nullopt;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

// A loaded zone: transition instants and the UTC offset from each on.
struct Zone {
  std::vector<int64_t> transitions;
  std::vector<int32_t> offsets;  // per transition
  int32_t initial_offset = 0;    // before the first transition
};

uint32_t Be32(const unsigned char* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
}

StatusOr<Zone> ParseTzif(const std::string& data, std::string_view name) {
  const Status bad = InvalidArgumentError("unknown time zone " + std::string(name));
  auto u = [&](size_t off) { return reinterpret_cast<const unsigned char*>(data.data()) + off; };
  if (data.size() < 44 || data.compare(0, 4, "TZif") != 0) return bad;
  size_t off = 0;
  int time_size = 4;
  if (data[4] >= '2') {  // skip the 32-bit block to the 64-bit one
    const uint32_t isut = Be32(u(20)), isstd = Be32(u(24)), leap = Be32(u(28)),
                   timecnt = Be32(u(32)), typecnt = Be32(u(36)), charcnt = Be32(u(40));
    off = 44 + size_t{timecnt} * 5 + size_t{typecnt} * 6 + charcnt + size_t{leap} * 8 + isstd +
          isut;
    time_size = 8;
    if (data.size() < off + 44 || data.compare(off, 4, "TZif") != 0) return bad;
  }
  const uint32_t timecnt = Be32(u(off + 32)), typecnt = Be32(u(off + 36));
  const size_t times = off + 44;
  const size_t indexes = times + size_t{timecnt} * static_cast<size_t>(time_size);
  const size_t types = indexes + timecnt;
  if (typecnt == 0 || data.size() < types + size_t{typecnt} * 6) return bad;
  Zone zone;
  auto offset_of = [&](size_t type) { return static_cast<int32_t>(Be32(u(types + type * 6))); };
  zone.initial_offset = offset_of(0);
  for (uint32_t i = 0; i < timecnt; ++i) {
    const unsigned char* p = u(times + size_t{i} * static_cast<size_t>(time_size));
    int64_t t = time_size == 8 ? static_cast<int64_t>(uint64_t{Be32(p)} << 32 | Be32(p + 4))
                               : static_cast<int32_t>(Be32(p));
    const size_t type = *u(indexes + i);
    if (type >= typecnt) return bad;
    zone.transitions.push_back(t);
    zone.offsets.push_back(offset_of(type));
  }
  return zone;
}

// Zones are read once per process (names are checked so that no path escapes the dir).
StatusOr<std::shared_ptr<const Zone>> LoadZone(std::string_view name, std::string_view dir) {
  bool plain = !name.empty() && name.size() <= 255 && name.front() != '/' &&
               name.find("..") == std::string_view::npos;
  for (char c : name) {
    plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '/' || c == '_' || c == '-' || c == '+' || c == '.');
  }
  if (!plain) return InvalidArgumentError("unknown time zone " + std::string(name));
  static std::mutex mu;
  static auto* cache = new std::map<std::string, std::shared_ptr<const Zone>>();
  const std::string key = std::string(dir) + "/" + std::string(name);
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache->find(key); it != cache->end()) return it->second;
  // Only regular files: libstdc++'s filebuf throws when asked to read a directory.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(key, ec) || ec) {
    return NotFoundError("unknown time zone " + std::string(name));
  }
  std::ifstream in(key, std::ios::binary);
  if (!in) return NotFoundError("unknown time zone " + std::string(name));
  std::string data;
  char chunk[4096];
  while (data.size() < (1u << 20) && in.read(chunk, sizeof chunk).gcount() > 0) {
    data.append(chunk, static_cast<size_t>(in.gcount()));
  }
  StatusOr<Zone> zone = ParseTzif(data, name);
  if (!zone.ok()) return zone.status();
  auto shared = std::make_shared<const Zone>(*std::move(zone));
  if (cache->size() < 1024) cache->emplace(key, shared);
  return shared;
}

int32_t OffsetAt(const Zone& zone, int64_t t) {
  int32_t offset = zone.initial_offset;
  for (size_t i = 0; i < zone.transitions.size() && zone.transitions[i] <= t; ++i) {
    offset = zone.offsets[i];
  }
  return offset;
}

// cel-go's numeric zones: "[+-]HH:MM" read with strconv.Atoi on both sides.
std::optional<int32_t> FixedOffset(std::string_view zone) {
  const size_t colon = zone.find(':');
  std::string_view hours = zone.substr(0, colon), minutes = zone.substr(colon + 1);
  if (!hours.empty() && hours.front() == '+') hours.remove_prefix(1);
  int h = 0, m = 0;
  auto [hp, he] = std::from_chars(hours.data(), hours.data() + hours.size(), h);
  auto [mp, me] = std::from_chars(minutes.data(), minutes.data() + minutes.size(), m);
  if (he != std::errc() || hp != hours.data() + hours.size() || me != std::errc() ||
      mp != minutes.data() + minutes.size() || hours.empty() || minutes.empty()) {
    return std::nullopt;
  }
  if (h < -99 || h > 99 || m < 0 || m > 99) return std::nullopt;
  const int total = zone.front() == '-' ? h * 60 - m : h * 60 + m;
  return total * 60;
}

}  // namespace

bool InTimestampRange(const Timestamp& t) {
  return t.seconds >= kMinTimestampSeconds && t.seconds <= kMaxTimestampSeconds;
}

StatusOr<Timestamp> ParseRfc3339(std::string_view s) {
  std::optional<int> y = Digits(s, 0, 4), mo = Digits(s, 5, 2), d = Digits(s, 8, 2),
                     h = Digits(s, 11, 2), mi = Digits(s, 14, 2), se = Digits(s, 17, 2);
  if (!y || !mo || !d || !h || !mi || !se || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
      s[13] != ':' || s[16] != ':') {
    return TimeError(s, "want RFC 3339 (2006-01-02T15:04:05Z07:00)");
  }
  if (*mo < 1 || *mo > 12) return TimeError(s, "month out of range");
  if (*d < 1 || *d > DaysInMonth(*y, *mo)) return TimeError(s, "day out of range");
  if (*h > 23) return TimeError(s, "hour out of range");
  if (*mi > 59) return TimeError(s, "minute out of range");
  if (*se > 59) return TimeError(s, "second out of range");
  size_t pos = 19;
  int64_t nanos = 0;
  if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
    size_t digits = 0;
    for (++pos; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos, ++digits) {
      if (digits < 9) nanos = nanos * 10 + (s[pos] - '0');
    }
    if (digits == 0) return TimeError(s, "missing fraction digits");
    for (size_t i = digits; i < 9; ++i) nanos *= 10;
  }
  int64_t offset = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else {
    std::optional<int> oh = Digits(s, pos + 1, 2), om = Digits(s, pos + 4, 2);
    if (pos >= s.size() || (s[pos] != '+' && s[pos] != '-') || !oh || !om ||
        s[pos + 3] != ':') {
      return TimeError(s, "want a time zone (Z or +hh:mm)");
    }
    if (*oh > 23 || *om > 59) return TimeError(s, "time zone offset out of range");
    offset = (*oh * 3600 + *om * 60) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  }
  if (pos != s.size()) return TimeError(s, "extra text after the time");
  Timestamp t;
  t.seconds = DaysFromCivil(*y, *mo, *d) * 86400 + *h * 3600 + *mi * 60 + *se - offset;
  t.nanos = static_cast<int32_t>(nanos);
  return t;
}

std::string FormatRfc3339(const Timestamp& t) {
  int64_t days = t.seconds / 86400, secs = t.seconds % 86400;
  if (secs < 0) {
    secs += 86400;
    --days;
  }
  int64_t y;
  int m, d;
  CivilFromDays(days, &y, &m, &d);
  char buf[64];
  int n = std::snprintf(buf, sizeof buf, "%04lld-%02d-%02dT%02lld:%02lld:%02lld",
                        static_cast<long long>(y), m, d, static_cast<long long>(secs / 3600),
                        static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
  std::string out(buf, static_cast<size_t>(n));
  if (t.nanos != 0) {
    std::snprintf(buf, sizeof buf, ".%09d", t.nanos);
    std::string frac(buf);
    while (frac.back() == '0') frac.pop_back();
    out += frac;
  }
  return out + "Z";
}

StatusOr<int64_t> ParseGoDuration(std::string_view text) {
  const Status bad = InvalidArgumentError("time: invalid duration \"" + std::string(text) + "\"");
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return int64_t{0};
  if (s.empty()) return bad;
  static constexpr std::array<std::pair<std::string_view, int64_t>, 9> kUnits = {{
      {"ns", 1}, {"us", 1'000}, {"\xC2\xB5s", 1'000}, {"\xCE\xBCs", 1'000}, {"ms", 1'000'000},
      {"s", kNanosPerSecond}, {"m", 60 * kNanosPerSecond}, {"h", 3600 * kNanosPerSecond},
      {"", 0}}};
  Int128 total = 0;
  while (!s.empty()) {
    Int128 whole = 0, frac = 0, scale = 1;
    size_t i = 0;
    bool digits = false;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, digits = true) {
      whole = whole * 10 + (s[i] - '0');
      if (whole > (Int128{1} << 63)) return bad;
    }
    if (i < s.size() && s[i] == '.') {
      for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, digits = true) {
        if (scale < (Int128{1} << 62)) {
          frac = frac * 10 + (s[i] - '0');
          scale *= 10;
        }
      }
    }
    if (!digits) return bad;
    s.remove_prefix(i);
    size_t unit_len = 0;
    while (unit_len < s.size() && s[unit_len] != '.' && (s[unit_len] < '0' || s[unit_len] > '9')) {
      ++unit_len;
    }
    const std::string_view unit = s.substr(0, unit_len);
    int64_t per = 0;
    for (const auto& [name, value] : kUnits) {
      if (!name.empty() && name == unit) per = value;
    }
    if (per == 0) return bad;  // missing or unknown unit
    s.remove_prefix(unit_len);
    total += whole * per + frac * per / scale;
    if (total > (Int128{1} << 63)) return bad;
  }
  if (!negative && total > INT64_MAX) return bad;
  return static_cast<int64_t>(negative ? -total : total);
}

std::string FormatCelDuration(int64_t nanos) {
  const double seconds = static_cast<double>(nanos / kNanosPerSecond) +
                         static_cast<double>(nanos % kNanosPerSecond) / 1e9;
  char buf[400];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, seconds, std::chars_format::fixed);
  if (ec != std::errc()) return "0s";
  return std::string(buf, end) + "s";
}

StatusOr<CivilTime> CivilTimeIn(const Timestamp& t, std::string_view zone,
                                std::string_view zoneinfo_dir) {
  int64_t offset = 0;
  if (zone.empty() || zone == "UTC") {
    offset = 0;
  } else if (zone.find(':') != std::string_view::npos) {
    std::optional<int32_t> fixed = FixedOffset(zone);
    if (!fixed) return InvalidArgumentError("invalid time zone offset " + std::string(zone));
    offset = *fixed;
  } else {
    StatusOr<std::shared_ptr<const Zone>> loaded = LoadZone(zone, zoneinfo_dir);
    if (!loaded.ok()) return loaded.status();
    offset = OffsetAt(**loaded, t.seconds);
  }
  const int64_t local = t.seconds + offset;
  int64_t days = local / 86400, secs = local % 86400;
  if (secs < 0) {
    secs += 86400;
    --days;
  }
  CivilTime c;
  CivilFromDays(days, &c.year, &c.month, &c.day);
  c.day_of_year = static_cast<int>(days - DaysFromCivil(c.year, 1, 1));
  c.day_of_week = static_cast<int>(((days % 7) + 7 + 4) % 7);  // 1970-01-01 was a Thursday
  c.hour = static_cast<int>(secs / 3600);
  c.minute = static_cast<int>(secs / 60 % 60);
  c.second = static_cast<int>(secs % 60);
  return c;
}

}  // namespace draguard
