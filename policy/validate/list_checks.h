// Helpers for list rules shared by all validators: size limits with the DoS short-circuit of
// ValidationDialect::too_many_short_circuits (an over-long list gets only TooMany; 1.34
// validated the items and appended TooMany) and uniqueness by key with the release's
// Duplicate path (ValidationDialect::duplicate_at_item).
#ifndef DRAGUARD_POLICY_VALIDATE_LIST_CHECKS_H_
#define DRAGUARD_POLICY_VALIDATE_LIST_CHECKS_H_

#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "policy/common/field_path.h"
#include "policy/validate/options.h"
#include "policy/validate/reporter.h"

namespace draguard::validate::internal {

// Calls item_fn(item, path.Index(i)) for every item unless the list is over `max` and the
// release short-circuits; reports TooMany at `path` when over `max`.
template <typename T, typename F>
void ValidateList(Reporter& r, std::string_view too_many_code, const std::vector<T>& items,
                  size_t max, const FieldPath& path, const ValidationOptions& options,
                  F&& item_fn) {
  bool over = items.size() > max;
  if (over && options.dialect().too_many_short_circuits) {
    r.TooMany(too_many_code, path, static_cast<int64_t>(items.size()), static_cast<int64_t>(max));
    return;
  }
  for (size_t i = 0; i < items.size(); ++i) item_fn(items[i], path.Index(i));
  if (over) {
    r.TooMany(too_many_code, path, static_cast<int64_t>(items.size()), static_cast<int64_t>(max));
  }
}

// Reports later duplicates of key_fn(item) as Duplicate at path[j] or, when `name_child_134`
// is non-empty and the release reports at the name field (1.34), at path[j].<name_child_134>.
// `key_fn` returns a std::string_view into the item (no copy of each key). Lists of up to
// kUniqueScanUpTo items (request names, a constraint's 2-3 references: every admission
// request checks a few) compare each key with the earlier ones in place; longer lists (a
// slice's devices) go through a set, so that the check stays O(n log n).
inline constexpr size_t kUniqueScanUpTo = 16;

template <typename T, typename K>
void CheckUnique(Reporter& r, std::string_view code, const std::vector<T>& items,
                 const FieldPath& path, const ValidationOptions& options,
                 std::string_view name_child_134, K&& key_fn) {
  static_assert(std::is_same_v<std::invoke_result_t<K&, const T&>, std::string_view>,
                "key_fn returns a view of the item's key");
  const bool scan = items.size() <= kUniqueScanUpTo;
  std::set<std::string_view> seen;
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string_view key = key_fn(items[i]);
    bool repeated = false;
    if (scan) {
      for (size_t j = 0; j < i && !repeated; ++j) repeated = key_fn(items[j]) == key;
    } else {
      repeated = !seen.insert(key).second;
    }
    if (!repeated) continue;
    FieldPath at = path.Index(i);
    if (!options.dialect().duplicate_at_item && !name_child_134.empty()) {
      at = at.Child(name_child_134);
    }
    r.Duplicate(code, at, FieldValue::String(key));
  }
}

}  // namespace draguard::validate::internal

#endif  // DRAGUARD_POLICY_VALIDATE_LIST_CHECKS_H_
