// Text rendering of verdicts (result.h).
#include "policy/allocator/result.h"

#include <algorithm>

namespace draguard::alloc {

std::string_view VerdictName(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kSatisfiable: return "satisfiable";
    case VerdictKind::kUnsatisfiable: return "unsatisfiable";
    case VerdictKind::kError: return "error";
    case VerdictKind::kUndecided: return "undecided";
  }
  return "unknown";
}

std::string RenderVerdict(const AllocationVerdict& v) {
  std::string out(VerdictName(v.kind));
  if (v.kind == VerdictKind::kSatisfiable) {
    const size_t feasible = std::max(v.feasible_node_count, v.feasible_nodes.size());
    out += ": fits on node " + v.node + " (" + std::to_string(feasible) +
           (v.nodes_exhaustive ? "" : "+") + " feasible node" + (feasible == 1 ? "" : "s") +
           ")\n";
    for (size_t c = 0; c < v.allocations.size(); ++c) {
      for (const auto& r : v.allocations[c].devices.results) {
        out += "  " + r.request + " -> " + r.driver + "/" + r.pool + "/" + r.device;
        if (r.admin_access.value_or(false)) out += " (admin access)";
        out += "\n";
      }
    }
    return out;
  }
  out += "\n";
  for (const Reason& r : v.reasons) out += "  " + r.message + " [" + r.code + "]\n";
  return out;
}

}  // namespace draguard::alloc
