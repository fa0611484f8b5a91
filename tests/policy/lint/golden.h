// Golden-file comparison for lint tests: files live in tests/testdata/lint/;
// DRAGUARD_UPDATE_GOLDEN=1 rewrites them from the actual output instead of comparing.
#ifndef DRAGUARD_TESTS_POLICY_LINT_GOLDEN_H_
#define DRAGUARD_TESTS_POLICY_LINT_GOLDEN_H_

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace draguard::lint::testing {

inline std::string TestdataPath(const std::string& name) {
  return std::string(DRAGUARD_SOURCE_DIR) + "/tests/testdata/lint/" + name;
}

inline std::string ReadTestdata(const std::string& name) {
  std::ifstream in(TestdataPath(name), std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Compares `actual` with the golden file `name`, or rewrites it under DRAGUARD_UPDATE_GOLDEN.
inline void ExpectGolden(const std::string& name, const std::string& actual) {
  const char* update = std::getenv("DRAGUARD_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream out(TestdataPath(name), std::ios::binary);
    out << actual;
    return;
  }
  std::ifstream in(TestdataPath(name), std::ios::binary);
  ASSERT_TRUE(in.good()) << "missing golden file " << TestdataPath(name)
                         << " (run with DRAGUARD_UPDATE_GOLDEN=1 to create it)";
  EXPECT_EQ(actual, ReadTestdata(name)) << "golden " << name
                                        << " differs; DRAGUARD_UPDATE_GOLDEN=1 rewrites it";
}

}  // namespace draguard::lint::testing

#endif  // DRAGUARD_TESTS_POLICY_LINT_GOLDEN_H_
