// Random JSON values for the differential tests of the webhook's JSON readers: the whole
// grammar, with space, escapes, non-ASCII text, numbers of every kind and object keys in and
// out of order (what the fast paths decline as well as what they take).
#ifndef DRAGUARD_TESTS_WEBHOOK_TESTING_RANDOM_JSON_H_
#define DRAGUARD_TESTS_WEBHOOK_TESTING_RANDOM_JSON_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace draguard::webhook::testing {

class RandomJson {
 public:
  explicit RandomJson(uint32_t seed) : rng_(seed) {}

  // The `i`-th value of a stream that also holds invalid text, which readers must refuse: every
  // fifth value cut short, every seventh with a byte in its middle replaced.
  std::string Sample(size_t i) {
    std::string json = Value(0);
    if (i % 5 == 0 && json.size() > 2) json.resize(json.size() * 2 / 3);
    if (i % 7 == 0 && json.size() > 3) json[json.size() / 2] = i % 2 == 0 ? ':' : '}';
    return json;
  }

  std::string Value(int depth) {
    switch (Pick(depth > 4 ? 5 : 7)) {
      case 0: return String();
      case 1: return Number();
      case 2: return "true";
      case 3: return "false";
      case 4: return "null";
      case 5: return Object(depth + 1);
      default: return Array(depth + 1);
    }
  }

 private:
  size_t Pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  std::string Space() { return Pick(6) == 0 ? std::string(" \n\t\r").substr(Pick(4), 1) : ""; }

  std::string String() {
    static const char* const kPieces[] = {"a", "b", "ab", "z", "\\\"", "\\\\", "\\n", "\\u0041",
                                          "\\u00e9", "\xc3\xa9", "\\ud83d\\ude00", "\\/", " "};
    std::string s = "\"";
    for (size_t n = Pick(4); n > 0; --n) s += kPieces[Pick(Pick(5) == 0 ? 13 : 4)];
    return s + "\"";
  }

  std::string Number() {
    static const char* const kNumbers[] = {"0", "-0", "7", "-12", "123456789012",
                                           "9223372036854775807", "-9223372036854775808",
                                           "9223372036854775808", "18446744073709551616",
                                           "1.5", "-0.0", "2e10", "1E-3"};
    return kNumbers[Pick(Pick(3) == 0 ? 13 : 5)];
  }

  std::string Object(int depth) {
    std::vector<std::string> keys;
    for (size_t n = Pick(5); n > 0; --n) keys.push_back(String());
    if (Pick(3) != 0) std::sort(keys.begin(), keys.end());
    std::string s = "{" + Space();
    for (size_t i = 0; i < keys.size(); ++i) {
      if (i > 0) s += "," + Space();
      s += keys[i] + Space() + ":" + Space() + Value(depth) + Space();
    }
    return s + "}";
  }

  std::string Array(int depth) {
    std::string s = "[" + Space();
    for (size_t n = Pick(4), i = 0; i < n; ++i) {
      if (i > 0) s += "," + Space();
      s += Value(depth) + Space();
    }
    return s + "]";
  }

  std::mt19937 rng_;
};

}  // namespace draguard::webhook::testing

#endif  // DRAGUARD_TESTS_WEBHOOK_TESTING_RANDOM_JSON_H_
