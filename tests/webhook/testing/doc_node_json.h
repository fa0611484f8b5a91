// Test helper: a DocNode tree as nlohmann JSON, for the tests that feed lint's corpus (YAML)
// to the webhook's JSON readers.
#ifndef DRAGUARD_TESTS_WEBHOOK_TESTING_DOC_NODE_JSON_H_
#define DRAGUARD_TESTS_WEBHOOK_TESTING_DOC_NODE_JSON_H_

#include <nlohmann/json.hpp>

#include "policy/k8s/document.h"

namespace draguard::webhook::testing {

// Scalars by their resolved kind; a repeated map key keeps its last value.
inline nlohmann::json DocNodeToJson(const k8s::DocNode& node) {
  switch (node.kind) {
    case k8s::NodeKind::kNull: return nullptr;
    case k8s::NodeKind::kBool: return node.bool_value;
    case k8s::NodeKind::kInt: return node.int_value;
    case k8s::NodeKind::kFloat: return node.float_value;
    case k8s::NodeKind::kString: return node.text;
    case k8s::NodeKind::kSequence: {
      nlohmann::json out = nlohmann::json::array();
      for (const k8s::DocNode& item : node.items) out.push_back(DocNodeToJson(item));
      return out;
    }
    case k8s::NodeKind::kMap: {
      nlohmann::json out = nlohmann::json::object();
      for (const k8s::MapEntry& e : node.entries) out[e.key.text] = DocNodeToJson(e.value);
      return out;
    }
  }
  return nullptr;
}

}  // namespace draguard::webhook::testing

#endif  // DRAGUARD_TESTS_WEBHOOK_TESTING_DOC_NODE_JSON_H_
