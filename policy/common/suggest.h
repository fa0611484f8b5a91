// "Did you mean" support shared by decoding (unknown fields), CEL (undeclared names) and
// schema checks (unknown attributes).
#ifndef DRAGUARD_POLICY_COMMON_SUGGEST_H_
#define DRAGUARD_POLICY_COMMON_SUGGEST_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace draguard {

// Optimal string alignment distance (Levenshtein plus adjacent transpositions); a change of
// letter case counts as a substitution. Returns max_distance + 1 as soon as the distance
// must exceed max_distance.
size_t EditDistance(std::string_view a, std::string_view b, size_t max_distance = 64);

// EditDistance with ASCII letters compared regardless of case.
size_t FoldedEditDistance(std::string_view a, std::string_view b, size_t max_distance = 64);

// The candidate closest to `word`, if it is close enough to be a plausible typo: a
// case-insensitive exact match always wins; otherwise the distance must be at most
// max(1, word.size() / 3). Ties go to the earlier candidate.
std::optional<std::string> ClosestMatch(std::string_view word,
                                        const std::vector<std::string_view>& candidates);

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_SUGGEST_H_
