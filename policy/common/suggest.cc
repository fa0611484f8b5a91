#include "policy/common/suggest.h"

#include <algorithm>
#include "policy/common/ascii.h"

namespace draguard {

size_t EditDistance(std::string_view a, std::string_view b, size_t max_distance) {
  const size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : m - n) > max_distance) return max_distance + 1;
  // Bag distance, a cheap lower bound: every edit adds or removes at most one character of
  // each word's multiset (a transposition changes neither). Bytes are folded into 64 bins,
  // which can only lower the bound. Most candidates of a "did you mean" end here.
  int bins[64] = {};
  for (char c : a) ++bins[static_cast<unsigned char>(c) & 63];
  for (char c : b) --bins[static_cast<unsigned char>(c) & 63];
  size_t surplus = 0, deficit = 0;
  for (int v : bins) (v > 0 ? surplus : deficit) += static_cast<size_t>(v > 0 ? v : -v);
  if (std::max(surplus, deficit) > max_distance) return max_distance + 1;
  // Three rows suffice for the transposition case. Suggestions run on the webhook's request
  // path (unknown domains, attribute names), so short words use the stack.
  constexpr size_t kStackColumns = 96;
  size_t stack[3][kStackColumns];
  std::vector<size_t> heap;
  size_t* rows[3] = {stack[0], stack[1], stack[2]};
  if (m + 1 > kStackColumns) {
    heap.resize(3 * (m + 1));
    for (size_t r = 0; r < 3; ++r) rows[r] = heap.data() + r * (m + 1);
  }
  size_t* prev2 = rows[0];
  size_t* prev = rows[1];
  size_t* cur = rows[2];
  for (size_t j = 0; j <= m; ++j) prev[j] = j;
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    size_t row_min = cur[0];
    for (size_t j = 1; j <= m; ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
      }
      row_min = std::min(row_min, cur[j]);
    }
    if (row_min > max_distance) return max_distance + 1;
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return std::min(prev[m], max_distance + 1);
}

namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return AsciiToLower(x) == AsciiToLower(y);
         });
}

}  // namespace

size_t FoldedEditDistance(std::string_view a, std::string_view b, size_t max_distance) {
  return EditDistance(AsciiLower(a), AsciiLower(b), max_distance);
}

std::optional<std::string> ClosestMatch(std::string_view word,
                                        const std::vector<std::string_view>& candidates) {
  for (std::string_view c : candidates) {
    if (c != word && EqualsIgnoreCase(c, word)) return std::string(c);
  }
  const size_t limit = std::max<size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  size_t best_distance = limit + 1;
  for (std::string_view c : candidates) {
    if (c == word) continue;
    // Only a strictly closer candidate matters: stop each comparison at the best so far.
    size_t d = EditDistance(word, c, best_distance - 1);
    if (d < best_distance) {
      best_distance = d;
      best = std::string(c);
    }
  }
  return best;
}

}  // namespace draguard
