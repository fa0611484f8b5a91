#include "policy/common/field_path.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "policy/common/strings.h"

namespace draguard {

FieldPath FieldPath::Appended(char open, std::string_view part, char close) const {
  const size_t size = size_ + (open != '\0' ? 1 : 0) + part.size() + (close != '\0' ? 1 : 0);
  FieldPath out{Unfilled{}};
  out.size_ = size;
  char* end;
  if (!out.on_heap()) {
    // This path is shorter still, so inline too.
    std::memcpy(out.inline_, inline_, kInlineCapacity);
    end = out.inline_ + size_;
  } else {
    std::memset(out.inline_, 0, kInlineCapacity);  // never read, but copied
    out.heap_.resize(size);
    const std::string_view base = text();
    end = std::copy(base.begin(), base.end(), out.heap_.data());
  }
  if (open != '\0') *end++ = open;
  end = std::copy(part.begin(), part.end(), end);
  if (close != '\0') *end = close;
  return out;
}

FieldPath FieldPath::Child(std::string_view name) const {
  return Appended(empty() ? '\0' : '.', name, '\0');
}

FieldPath FieldPath::Index(size_t index) const {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, index);
  return Appended('[', std::string_view(digits, static_cast<size_t>(end - digits)), ']');
}

FieldPath FieldPath::Key(std::string_view key) const { return Appended('[', key, ']'); }

namespace {


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
      if (AllAsciiDigits(inner) && inner.size() < 19) {
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
