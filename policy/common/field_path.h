// FieldPath: an API-server field path such as `spec.devices.requests[0].exactly.count`,
// built like apimachinery's field.Path with Child, Index and Key.
//
// Paths are small immutable values built eagerly on the decoders' and validators' hot path
// (over a hundred per admission request), while only the few named by a finding are ever
// read. So a path keeps its text in an inline buffer that holds every path of the DRA kinds
// seen in practice (the longest, in a ResourceClaimTemplate's selectors, is about 75 bytes),
// and building a child path copies that buffer whole (a fixed-size copy is a few vector moves;
// a copy of just the bytes in use is a library call) without allocating; a longer path (a
// long label key) moves to the heap. Keys are written without escaping, as the API server
// does.
#ifndef DRAGUARD_POLICY_COMMON_FIELD_PATH_H_
#define DRAGUARD_POLICY_COMMON_FIELD_PATH_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace draguard {

class FieldPath {
 public:
  FieldPath() : inline_{} {}
  // A path rooted at `root`, e.g. FieldPath("spec"). `root` may itself be dotted.
  explicit FieldPath(std::string_view root)
      : FieldPath(FieldPath().Appended('\0', root, '\0')) {}
  FieldPath(const FieldPath& other) = default;
  FieldPath(FieldPath&& other) noexcept = default;
  FieldPath& operator=(const FieldPath& other) = default;
  FieldPath& operator=(FieldPath&& other) noexcept = default;
  ~FieldPath() = default;

  FieldPath Child(std::string_view name) const;
  FieldPath Index(size_t index) const;
  FieldPath Key(std::string_view key) const;

  bool empty() const { return size_ == 0; }
  // The rendered path, e.g. "spec.devices.requests[0].exactly.count".
  std::string String() const { return std::string(text()); }

  friend bool operator==(const FieldPath& a, const FieldPath& b) { return a.text() == b.text(); }

 private:
  // Longer paths are kept in heap_ instead.
  static constexpr size_t kInlineCapacity = 88;

  bool on_heap() const { return size_ > kInlineCapacity; }
  std::string_view text() const {
    return on_heap() ? std::string_view(heap_) : std::string_view(inline_, size_);
  }
  // This path followed by `open` (unless '\0'), `part` and `close` (unless '\0').
  FieldPath Appended(char open, std::string_view part, char close) const;
  // A path whose inline_ the caller fills (Appended): clearing the buffer first cost a
  // dozen instructions of every Child, Index and Key, which then overwrote it.
  struct Unfilled {};
  explicit FieldPath(Unfilled /*unused*/) {}  // NOLINT(cppcoreguidelines-pro-type-member-init)

  size_t size_ = 0;
  // The path when size_ <= kInlineCapacity. Always initialized (by the public constructors,
  // and by Appended in full), so that copies (the implicit ones included) can take the whole
  // buffer; bytes past size_ are never read.
  char inline_[kInlineCapacity];
  std::string heap_;  // the path otherwise
};

// One step of a rendered path: `.name`, `[3]` or `[key]`.
struct FieldPathSegment {
  enum class Kind { kField, kIndex, kKey };
  Kind kind = Kind::kField;
  std::string name;   // field name or map key
  size_t index = 0;   // for kIndex
};

// Splits a rendered path back into its segments. A bracketed part made only of digits is an
// index; anything else in brackets is a key.
std::vector<FieldPathSegment> SplitFieldPath(std::string_view path);

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_FIELD_PATH_H_
