#include "webhook/kube/live_pods.h"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <tuple>
#include <utility>

#include "policy/common/status_macros.h"

namespace draguard::webhook::kube {
namespace {

using Json = nlohmann::json;

std::string Str(const Json& object, const char* key) {
  if (!object.is_object()) return std::string();
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const Json& At(const Json& object, const char* key) {
  static const Json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::vector<NodeSelectorExpression> Expressions(const Json& list, bool field) {
  std::vector<NodeSelectorExpression> out;
  if (!list.is_array()) return out;
  for (const Json& e : list) {
    NodeSelectorExpression x{Str(e, "key"), Str(e, "operator"), {}, field};
    if (const Json& values = At(e, "values"); values.is_array()) {
      for (const Json& v : values) {
        if (v.is_string()) x.values.push_back(v.get<std::string>());
      }
    }
    out.push_back(std::move(x));
  }
  return out;
}

PodPlacement ReadPlacement(const Json& spec) {
  PodPlacement p;
  p.node_name = Str(spec, "nodeName");
  if (const Json& selector = At(spec, "nodeSelector"); selector.is_object()) {
    for (const auto& [key, value] : selector.items()) {
      if (value.is_string()) p.node_selector[key] = value.get<std::string>();
    }
  }
  const Json& required = At(At(At(spec, "affinity"), "nodeAffinity"),
                            "requiredDuringSchedulingIgnoredDuringExecution");
  if (required.is_object()) {
    p.required_terms.emplace();
    if (const Json& terms = At(required, "nodeSelectorTerms"); terms.is_array()) {
      for (const Json& term : terms) {
        std::vector<NodeSelectorExpression> all = Expressions(At(term, "matchExpressions"), false);
        for (auto& f : Expressions(At(term, "matchFields"), true)) all.push_back(std::move(f));
        p.required_terms->push_back(std::move(all));
      }
    }
  }
  if (const Json& tolerations = At(spec, "tolerations"); tolerations.is_array()) {
    for (const Json& t : tolerations) {
      Toleration x{Str(t, "key"), Str(t, "operator"), Str(t, "value"), Str(t, "effect")};
      if (x.op.empty()) x.op = "Equal";
      p.tolerations.push_back(std::move(x));
    }
  }
  return p;
}

bool ParseInt(const std::string& text, long long& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// core/v1 helper: NodeSelectorRequirementsAsSelector semantics for one requirement.
bool Matches(const NodeSelectorExpression& e, const k8s::Node& node) {
  std::optional<std::string> value;
  if (e.field) {
    if (e.key == "metadata.name") value = node.metadata.name;
  } else if (auto it = node.metadata.labels.find(e.key); it != node.metadata.labels.end()) {
    value = it->second;
  }
  const auto in = [&] {
    return value && std::find(e.values.begin(), e.values.end(), *value) != e.values.end();
  };
  if (e.op == "In") return in();
  if (e.op == "NotIn") return !in();
  if (e.op == "Exists") return value.has_value();
  if (e.op == "DoesNotExist") return !value.has_value();
  if ((e.op == "Gt" || e.op == "Lt") && value && e.values.size() == 1) {
    long long have = 0, want = 0;
    if (!ParseInt(*value, have) || !ParseInt(e.values[0], want)) return false;
    return e.op == "Gt" ? have > want : have < want;
  }
  return false;
}

// k8s.io/api/core/v1 Toleration.ToleratesTaint.
bool Tolerates(const Toleration& t, const NodeTaint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  if (t.op == "Exists") return true;
  return t.op == "Equal" && t.value == taint.value;
}

bool ToleratesAny(const std::vector<Toleration>& tolerations, const NodeTaint& taint) {
  return std::any_of(tolerations.begin(), tolerations.end(),
                     [&](const Toleration& t) { return Tolerates(t, taint); });
}

std::string TaintText(const NodeTaint& t) {
  return t.key + (t.value.empty() ? "" : "=" + t.value) + ":" + t.effect;
}

const k8s::ResourceClaim* FindClaim(const ClusterSnapshot& snapshot, const std::string& ns,
                                    const std::string& name) {
  for (const k8s::ResourceClaim& c : snapshot.objects.claims) {
    if (c.metadata.name == name && c.metadata.name_space == ns) return &c;
  }
  return nullptr;
}

}  // namespace

std::optional<std::string> NodeExclusion(const PodPlacement& p, const k8s::Node& node,
                                         const NodeScheduling* scheduling) {
  const std::string& name = node.metadata.name;
  if (!p.node_name.empty() && p.node_name != name) {
    return "the pod's spec.nodeName is " + p.node_name;
  }
  for (const auto& [key, value] : p.node_selector) {
    auto it = node.metadata.labels.find(key);
    if (it == node.metadata.labels.end() || it->second != value) {
      return "the pod's nodeSelector " + key + "=" + value + " does not match the node's labels";
    }
  }
  if (p.required_terms) {
    const bool any = std::any_of(p.required_terms->begin(), p.required_terms->end(),
                                 [&](const std::vector<NodeSelectorExpression>& term) {
                                   return !term.empty() &&
                                          std::all_of(term.begin(), term.end(),
                                                      [&](const NodeSelectorExpression& e) {
                                                        return Matches(e, node);
                                                      });
                                 });
    if (!any) return std::string("the pod's required node affinity does not match the node");
  }
  if (scheduling == nullptr) return std::nullopt;
  if (scheduling->unschedulable &&
      !ToleratesAny(p.tolerations, {"node.kubernetes.io/unschedulable", "", "NoSchedule"})) {
    return std::string("the node is cordoned (spec.unschedulable)");
  }
  for (const NodeTaint& taint : scheduling->taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    if (!ToleratesAny(p.tolerations, taint)) {
      return "the node has taint " + TaintText(taint) + " that the pod does not tolerate";
    }
  }
  return std::nullopt;
}

StatusOr<LivePod> PrepareLivePod(
    const std::string& pod_json, const ClusterSnapshot& snapshot,
    const std::function<StatusOr<std::string>(const std::string& ns, const std::string& name)>&
        fetch_template,
    const LivePodOptions& options) {
  Json pod = Json::parse(pod_json, nullptr, false);
  if (pod.is_discarded() || !pod.is_object()) return InvalidArgumentError("the Pod is not JSON");
  LivePod out;
  out.name_space = Str(At(pod, "metadata"), "namespace");
  out.name = Str(At(pod, "metadata"), "name");
  out.phase = Str(At(pod, "status"), "phase");
  out.placement = ReadPlacement(At(pod, "spec"));
  if (pod["metadata"].is_object()) pod["metadata"].erase("managedFields");
  std::map<std::string, std::string> generated;  // pod claim -> generated claim name
  if (const Json& statuses = At(At(pod, "status"), "resourceClaimStatuses"); statuses.is_array()) {
    for (const Json& s : statuses) {
      const std::string claim = Str(s, "resourceClaimName");
      if (!claim.empty()) generated[Str(s, "name")] = claim;
    }
  }
  Json* claims = nullptr;
  if (pod["spec"].is_object() && pod["spec"].contains("resourceClaims") &&
      pod["spec"]["resourceClaims"].is_array()) {
    claims = &pod["spec"]["resourceClaims"];
  }
  if (claims == nullptr || claims->empty()) {
    return InvalidArgumentError("pod " + out.name_space + "/" + out.name +
                                " has no resource claims (spec.resourceClaims is empty)");
  }
  std::vector<std::string> templates;
  for (Json& pc : *claims) {
    const std::string pod_claim = Str(pc, "name");
    std::string claim_name = Str(pc, "resourceClaimName");
    const std::string template_name = Str(pc, "resourceClaimTemplateName");
    if (claim_name.empty() && !template_name.empty()) {
      auto it = generated.find(pod_claim);
      if (!options.new_copy && it != generated.end() &&
          FindClaim(snapshot, out.name_space, it->second) != nullptr) {
        claim_name = it->second;
        pc.erase("resourceClaimTemplateName");
        pc["resourceClaimName"] = claim_name;
      } else {
        ++out.unallocated;
        if (std::find(templates.begin(), templates.end(), template_name) == templates.end()) {
          templates.push_back(template_name);
        }
        continue;
      }
    }
    const k8s::ResourceClaim* claim = FindClaim(snapshot, out.name_space, claim_name);
    if (claim != nullptr && claim->status && claim->status->allocation) {
      out.allocated.push_back({pod_claim, claim_name, *claim->status->allocation});
    } else {
      ++out.unallocated;
    }
  }
  out.text = pod.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  for (const std::string& name : templates) {
    StatusOr<std::string> text = fetch_template(out.name_space, name);
    if (text.ok()) {
      out.text += "\n---\n" + *text;
    } else if (text.status().code() != StatusCode::kNotFound) {
      return text.status();
    }  // a missing template: the pipeline reports alloc.claim.not-found
  }
  return out;
}

namespace {

auto TemplateFetcher(ClusterReader& reader) {
  return [&reader](const std::string& ns, const std::string& name) -> StatusOr<std::string> {
    DRAGUARD_ASSIGN_OR_RETURN(std::string version,
                              reader.ResourceVersionFor(WatchedKind::kResourceClaim));
    return reader.GetObject("resource.k8s.io", version, "resourceclaimtemplates", ns, name);
  };
}

}  // namespace

StatusOr<LivePod> LoadLivePod(ClusterReader& reader, const ClusterSnapshot& snapshot,
                              const std::string& name_space, const std::string& name,
                              const LivePodOptions& options) {
  DRAGUARD_ASSIGN_OR_RETURN(std::string json, reader.GetObject("", "v1", "pods", name_space, name));
  return PrepareLivePod(json, snapshot, TemplateFetcher(reader), options);
}

StatusOr<std::vector<LivePod>> LoadPendingPods(ClusterReader& reader,
                                               const ClusterSnapshot& snapshot,
                                               const std::string& name_space) {
  DRAGUARD_ASSIGN_OR_RETURN(
      std::vector<std::string> pods,
      reader.ListObjects("", "v1", "pods", "Pod", name_space, "status.phase=Pending"));
  std::vector<LivePod> out;
  for (const std::string& json : pods) {
    StatusOr<LivePod> pod = PrepareLivePod(json, snapshot, TemplateFetcher(reader));
    if (!pod.ok()) {
      if (pod.status().code() == StatusCode::kInvalidArgument) continue;  // no claims
      return pod.status();
    }
    if (pod->phase == "Pending" && pod->unallocated > 0) out.push_back(std::move(*pod));
  }
  std::sort(out.begin(), out.end(), [](const LivePod& a, const LivePod& b) {
    return std::tie(a.name_space, a.name) < std::tie(b.name_space, b.name);
  });
  return out;
}

}  // namespace draguard::webhook::kube
