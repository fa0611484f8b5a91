// FieldPath: an API-server field path such as `spec.devices.requests[0].exactly.count`,
// built like apimachinery's field.Path with Child, Index and Key.
//
// Paths are small immutable values; building one copies a short string, which is cheap next
// to the validation it names. Keys are written without escaping, as the API server does.
#ifndef DRAGUARD_POLICY_COMMON_FIELD_PATH_H_
#define DRAGUARD_POLICY_COMMON_FIELD_PATH_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace draguard {

class FieldPath {
 public:
  FieldPath() = default;
  // A path rooted at `root`, e.g. FieldPath("spec"). `root` may itself be dotted.
  explicit FieldPath(std::string_view root) : path_(root) {}

  FieldPath Child(std::string_view name) const;
  FieldPath Index(size_t index) const;
  FieldPath Key(std::string_view key) const;

  bool empty() const { return path_.empty(); }
  const std::string& String() const { return path_; }

  friend bool operator==(const FieldPath& a, const FieldPath& b) { return a.path_ == b.path_; }

 private:
  std::string path_;
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
