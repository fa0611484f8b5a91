// Object metadata and shared core/v1 pieces of the draguard object model.
//
// The model mirrors the Kubernetes *internal* (v1-shaped) types of resource.k8s.io: objects
// decoded from v1beta1 or v1beta2 are converted into it, and `source_api_version` remembers
// what the document said. Optional API fields (Go pointers) are std::optional so that
// "unset" and "zero" stay distinct. Quantities stay strings here; policy/common/quantity.h
// parses them where their value matters.
#ifndef DRAGUARD_POLICY_K8S_META_H_
#define DRAGUARD_POLICY_K8S_META_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace draguard::k8s {

inline constexpr char kResourceGroup[] = "resource.k8s.io";

struct ObjectMeta {
  std::string name;
  std::string generate_name;
  std::string name_space;  // "namespace" is a keyword
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
  std::string uid;
  std::string resource_version;
  int64_t generation = 0;
  std::vector<std::string> finalizers;
  bool has_deletion_timestamp = false;
};

// core/v1 NodeSelectorRequirement.
struct NodeSelectorRequirement {
  std::string key;
  std::string op;  // In, NotIn, Exists, DoesNotExist, Gt, Lt
  std::vector<std::string> values;
};

// core/v1 NodeSelectorTerm: requirements are ANDed.
struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
  std::vector<NodeSelectorRequirement> match_fields;
};

// core/v1 NodeSelector: terms are ORed.
struct NodeSelector {
  std::vector<NodeSelectorTerm> node_selector_terms;
};

// core/v1 Node, reduced to what allocation needs.
struct Node {
  ObjectMeta metadata;
  // spec.unschedulable: a cordoned (drained) node. The allocator ignores it (kube-scheduler's
  // NodeUnschedulable plugin filters such nodes before DRA); `draguard capacity` counts no
  // copies on it.
  bool unschedulable = false;
  // Taints of the node are not relevant to DRA device allocation.
};

// core/v1 Namespace, reduced to its labels (admin access).
struct Namespace {
  ObjectMeta metadata;
};

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_META_H_
