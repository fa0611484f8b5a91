// Parsing mirrors blang/semver's Parse: split off "+build", then "-pre", then require
// exactly three dot-separated decimal numbers. Normalization (Kubernetes' library) is a
// textual rewrite of the core before strict parsing.
#include "policy/common/semver.h"

#include <charconv>

#include "policy/common/status_macros.h"
#include "policy/common/strings.h"

namespace draguard {
namespace {


bool AlphanumOrHyphen(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              c == '-';
    if (!ok) return false;
  }
  return true;
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

Status Invalid(std::string_view text, std::string_view why) {
  return InvalidArgumentError("invalid semver \"" + std::string(text) + "\": " + std::string(why));
}

// Parses a version number: digits, no leading zero unless "0", fits uint64.
bool ParseNumber(std::string_view s, uint64_t& out) {
  if (!AllAsciiDigits(s) || (s.size() > 1 && s[0] == '0')) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

std::string StripLeadingZeros(std::string_view s) {
  size_t first = s.find_first_not_of('0');
  return first == std::string_view::npos ? "0" : std::string(s.substr(first));
}

// Kubernetes' normalize: drop one 'v', pad to three parts, strip leading zeros.
StatusOr<std::string> Normalize(std::string_view text) {
  std::string_view s = text;
  if (!s.empty() && s[0] == 'v') s.remove_prefix(1);
  size_t extra = s.find_first_of("-+");
  std::string_view core = s.substr(0, extra);
  std::string_view rest = extra == std::string_view::npos ? "" : s.substr(extra);
  std::vector<std::string_view> parts = Split(core, '.');
  if (parts.size() > 3) return Invalid(text, "too many dot-separated parts");
  if (parts.size() < 3 && !rest.empty()) {
    return Invalid(text, "a short version cannot carry pre-release or build data");
  }
  std::string out;
  for (size_t i = 0; i < 3; ++i) {
    if (i > 0) out += '.';
    if (i >= parts.size()) {
      out += '0';
    } else if (AllAsciiDigits(parts[i])) {
      out += StripLeadingZeros(parts[i]);
    } else {
      out += parts[i];
    }
  }
  return out + std::string(rest);
}

}  // namespace

StatusOr<Semver> Semver::Parse(std::string_view text, bool normalize) {
  std::string normalized;
  std::string_view s = text;
  if (normalize) {
    DRAGUARD_ASSIGN_OR_RETURN(normalized, Normalize(text));
    s = normalized;
  }
  Semver v;
  size_t plus = s.find('+');
  if (plus != std::string_view::npos) {
    for (std::string_view id : Split(s.substr(plus + 1), '.')) {
      if (!AlphanumOrHyphen(id)) return Invalid(text, "invalid build metadata");
      v.build_.emplace_back(id);
    }
    s = s.substr(0, plus);
  }
  size_t dash = s.find('-');
  if (dash != std::string_view::npos) {
    for (std::string_view id : Split(s.substr(dash + 1), '.')) {
      if (!AlphanumOrHyphen(id)) return Invalid(text, "invalid pre-release identifier");
      PreRelease pre{.text = std::string(id)};
      if (AllAsciiDigits(id)) {
        if (!ParseNumber(id, pre.number)) {
          return Invalid(text, "numeric pre-release identifier has a leading zero");
        }
        pre.numeric = true;
      }
      v.pre_.push_back(std::move(pre));
    }
    s = s.substr(0, dash);
  }
  std::vector<std::string_view> parts = Split(s, '.');
  if (parts.size() != 3) return Invalid(text, "expected MAJOR.MINOR.PATCH");
  if (!ParseNumber(parts[0], v.major_) || !ParseNumber(parts[1], v.minor_) ||
      !ParseNumber(parts[2], v.patch_)) {
    return Invalid(text, "version numbers must be decimal without leading zeros");
  }
  return v;
}

namespace {

int ComparePre(const Semver::PreRelease& a, const Semver::PreRelease& b) {
  if (a.numeric && b.numeric) return a.number < b.number ? -1 : (a.number > b.number ? 1 : 0);
  if (a.numeric != b.numeric) return a.numeric ? -1 : 1;
  int c = a.text.compare(b.text);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int Cmp(uint64_t a, uint64_t b) { return a < b ? -1 : (a > b ? 1 : 0); }

}  // namespace

int Semver::Compare(const Semver& other) const {
  if (int c = Cmp(major_, other.major_)) return c;
  if (int c = Cmp(minor_, other.minor_)) return c;
  if (int c = Cmp(patch_, other.patch_)) return c;
  if (pre_.empty() || other.pre_.empty()) {
    return pre_.empty() == other.pre_.empty() ? 0 : (pre_.empty() ? 1 : -1);
  }
  for (size_t i = 0; i < pre_.size() && i < other.pre_.size(); ++i) {
    if (int c = ComparePre(pre_[i], other.pre_[i])) return c;
  }
  return Cmp(pre_.size(), other.pre_.size());
}

std::string Semver::String() const {
  std::string out = std::to_string(major_) + "." + std::to_string(minor_) + "." +
                    std::to_string(patch_);
  for (size_t i = 0; i < pre_.size(); ++i) out += (i == 0 ? "-" : ".") + pre_[i].text;
  for (size_t i = 0; i < build_.size(); ++i) out += (i == 0 ? "+" : ".") + build_[i];
  return out;
}

}  // namespace draguard
