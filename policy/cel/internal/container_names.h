// cel-go's container name resolution, shared by the checker (Environment) and the runtime
// (Plan): which qualified names an identifier or function name written in an expression may
// refer to.
#ifndef DRAGUARD_POLICY_CEL_INTERNAL_CONTAINER_NAMES_H_
#define DRAGUARD_POLICY_CEL_INTERNAL_CONTAINER_NAMES_H_

#include <string>
#include <string_view>
#include <vector>

namespace draguard::cel::internal {

// Candidate qualified names for `name` under `container`, most specific first: container
// "a.b" and name "x" give "a.b.x", "a.x", "x". A leading '.' means the root scope only
// (".x" gives "x"). Inline: both the checker and the runtime library use it.
inline std::vector<std::string> ContainerCandidates(std::string_view container,
                                                    std::string_view name) {
  if (!name.empty() && name.front() == '.') return {std::string(name.substr(1))};
  std::vector<std::string> out;
  std::string_view prefix = container;
  while (!prefix.empty()) {
    out.push_back(std::string(prefix) + "." + std::string(name));
    const size_t dot = prefix.rfind('.');
    prefix = dot == std::string_view::npos ? std::string_view() : prefix.substr(0, dot);
  }
  out.emplace_back(name);
  return out;
}

}  // namespace draguard::cel::internal

#endif  // DRAGUARD_POLICY_CEL_INTERNAL_CONTAINER_NAMES_H_
