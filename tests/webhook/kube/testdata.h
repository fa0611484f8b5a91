// Recorded API-server responses under tests/webhook/kube/testdata/.
#ifndef DRAGUARD_TESTS_WEBHOOK_KUBE_TESTDATA_H_
#define DRAGUARD_TESTS_WEBHOOK_KUBE_TESTDATA_H_

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace draguard::webhook::kube::testing {

inline std::string Testdata(const std::string& name) {
  std::ifstream in(std::string(DRAGUARD_SOURCE_DIR) + "/tests/webhook/kube/testdata/" + name);
  std::stringstream text;
  text << in.rdbuf();
  std::string body = text.str();
  while (!body.empty() && body.back() == '\n') body.pop_back();
  return body;
}

// The lines of a recorded watch stream (.jsonl).
inline std::vector<std::string> TestdataLines(const std::string& name) {
  std::vector<std::string> lines;
  std::stringstream text(Testdata(name));
  for (std::string line; std::getline(text, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

}  // namespace draguard::webhook::kube::testing

#endif  // DRAGUARD_TESTS_WEBHOOK_KUBE_TESTDATA_H_
