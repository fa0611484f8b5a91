#include "policy/common/field_path.h"

#include <charconv>

namespace draguard {

FieldPath FieldPath::Child(std::string_view name) const {
  FieldPath out;
  out.path_.reserve(path_.size() + name.size() + 1);
  out.path_ = path_;
  if (!out.path_.empty()) out.path_ += '.';
  out.path_ += name;
  return out;
}

// Each builder reserves the whole result first: one allocation per path, not two.
FieldPath FieldPath::Index(size_t index) const {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, index);
  FieldPath out;
  out.path_.reserve(path_.size() + static_cast<size_t>(end - digits) + 2);
  out.path_ = path_;
  out.path_ += '[';
  out.path_.append(digits, end);
  out.path_ += ']';
  return out;
}

FieldPath FieldPath::Key(std::string_view key) const {
  FieldPath out;
  out.path_.reserve(path_.size() + key.size() + 2);
  out.path_ = path_;
  out.path_ += '[';
  out.path_ += key;
  out.path_ += ']';
  return out;
}

namespace {

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

std::vector<FieldPathSegment> SplitFieldPath(std::string_view path) {
  std::vector<FieldPathSegment> out;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      continue;
    }
    if (path[i] == '[') {
      size_t close = path.find(']', i + 1);
      if (close == std::string_view::npos) close = path.size();
      std::string_view inner = path.substr(i + 1, close - i - 1);
      FieldPathSegment seg;
      if (AllDigits(inner) && inner.size() < 19) {
        seg.kind = FieldPathSegment::Kind::kIndex;
        seg.index = std::stoull(std::string(inner));
      } else {
        seg.kind = FieldPathSegment::Kind::kKey;
        seg.name = std::string(inner);
      }
      out.push_back(std::move(seg));
      i = close + 1;
      continue;
    }
    size_t end = path.find_first_of(".[", i);
    if (end == std::string_view::npos) end = path.size();
    FieldPathSegment seg;
    seg.name = std::string(path.substr(i, end - i));
    out.push_back(std::move(seg));
    i = end;
  }
  return out;
}

}  // namespace draguard
