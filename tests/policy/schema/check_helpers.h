// Test helpers: decode YAML, run the schema checks with the DeviceClasses of the same input.
#ifndef DRAGUARD_TESTS_POLICY_SCHEMA_CHECK_HELPERS_H_
#define DRAGUARD_TESTS_POLICY_SCHEMA_CHECK_HELPERS_H_

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "policy/k8s/decode.h"
#include "policy/schema/check.h"
#include "policy/schema/schema.h"

namespace draguard::schema::testing {

// Every field the checks set (severity, code, field, range, message, suggestion), one line
// per finding, for byte-identical comparisons.
std::vector<std::string> Rendered(const Diagnostics& found);

// The built-in catalog (built once).
const Schema& CatalogSchema();

// Checks every object of `yaml` (DeviceClasses in it are the known classes). Diagnostics are
// located in the decoded text.
Diagnostics CheckYaml(const std::string& yaml, const Schema& schema = CatalogSchema(),
                      bool strict = false);

// The whole content of file `p` (empty when it cannot be read).
inline std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace draguard::schema::testing

#endif  // DRAGUARD_TESTS_POLICY_SCHEMA_CHECK_HELPERS_H_
