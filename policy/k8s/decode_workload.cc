// Pods and workload pod templates: only the parts that reference ResourceClaims are read.
// The pod spec's own keys are checked against the PodSpec field list (so `resourceclaims`
// is caught with a suggestion), and so are container `resources` and the claim entries;
// everything else in a workload passes unchecked, as draguard does not validate it.
#include <string>

#include "policy/k8s/decode_internal.h"

namespace draguard::k8s::internal {
namespace {

void DeclarePodSpecFields(MapReader& spec) {
  spec.Ignore({"volumes", "ephemeralContainers", "restartPolicy",
               "terminationGracePeriodSeconds", "activeDeadlineSeconds", "dnsPolicy",
               "nodeSelector", "serviceAccountName", "serviceAccount",
               "automountServiceAccountToken", "nodeName", "hostNetwork", "hostPID", "hostIPC",
               "shareProcessNamespace", "securityContext", "imagePullSecrets", "hostname",
               "subdomain", "affinity", "schedulerName", "tolerations", "hostAliases",
               "priorityClassName", "priority", "dnsConfig", "readinessGates",
               "runtimeClassName", "enableServiceLinks", "preemptionPolicy", "overhead",
               "topologySpreadConstraints", "setHostnameAsFQDN", "os", "hostUsers",
               "schedulingGates", "resources", "hostnameOverride", "workloadRef",
               // Workload-aware scheduling (alpha after 1.35); accepted rather than risk a
               // false error on manifests written for newer clusters.
               "schedulingGroup"});
}

void ReadPodClaims(MapReader& spec, PodSpecRefs* out) {
  spec.ObjectList("resourceClaims", [&](MapReader& item) {
    PodResourceClaim claim;
    item.String("name", &claim.name);
    item.String("resourceClaimName", &claim.resource_claim_name);
    item.String("resourceClaimTemplateName", &claim.resource_claim_template_name);
    if (const DocNode* source = item.Find("source")) {
      claim.uses_removed_source_wrapper = true;
      if (const DocNode* n = source->Find("resourceClaimName")) {
        if (n->kind == NodeKind::kString) claim.resource_claim_name = n->text;
      }
      if (const DocNode* n = source->Find("resourceClaimTemplateName")) {
        if (n->kind == NodeKind::kString) claim.resource_claim_template_name = n->text;
      }
      constexpr char kUnwrap[] =
          "remove \"source:\" and write resourceClaimName or resourceClaimTemplateName "
          "directly under the entry's name";
      // An error whatever the field validation mode: strict decoding rejects the unknown
      // field, and without it the entry names neither a claim nor a template. One finding
      // with the fix instead of a generic decode.unknown-field.
      item.ctx().diagnostics->Error(
          "decode.pod.removed-source-wrapper", item.path().Child("source"),
          "the \"source:\" wrapper in pod resourceClaims was removed in Kubernetes 1.28; "
          "current API servers reject it",
          kUnwrap);
      item.Ignore({"source"});
    }
    out->resource_claims.push_back(std::move(claim));
  });
}

void ReadContainers(MapReader& spec, std::string_view key, bool init, PodSpecRefs* out) {
  const DocNode* list = spec.Get(key);
  if (list == nullptr) return;
  const FieldPath path = spec.path().Child(key);
  if (!ExpectKind(*list, NodeKind::kSequence, path, spec.ctx())) return;
  for (size_t i = 0; i < list->items.size(); ++i) {
    const DocNode& c = list->items[i];
    if (!ExpectKind(c, NodeKind::kMap, path.Index(i), spec.ctx())) continue;
    ContainerClaims claims;
    claims.init_container = init;
    if (const DocNode* name = c.Find("name"); name && name->kind == NodeKind::kString) {
      claims.container_name = name->text;
    }
    if (const DocNode* resources = c.Find("resources")) {
      MapReader r(*resources, path.Index(i).Child("resources"), spec.ctx());
      r.Ignore({"limits", "requests"});
      r.ObjectList("claims", [&](MapReader& item) {
        ContainerResourceClaim claim;
        item.String("name", &claim.name);
        item.String("request", &claim.request);
        claims.claims.push_back(std::move(claim));
      });
    }
    out->containers.push_back(std::move(claims));
  }
}

void ReadPodSpec(const DocNode& node, const std::string& path, DecodeContext& ctx,
                 PodSpecRefs* out) {
  out->spec_path = path;
  MapReader spec(node, FieldPath(path), ctx);
  DeclarePodSpecFields(spec);
  ReadPodClaims(spec, out);
  ReadContainers(spec, "containers", false, out);
  ReadContainers(spec, "initContainers", true, out);
}

// The field path of the pod spec for `kind`, or empty when the kind has none.
std::string PodSpecPath(std::string_view kind) {
  if (kind == "Pod") return "spec";
  if (kind == "PodTemplate") return "template.spec";
  if (kind == "Deployment" || kind == "StatefulSet" || kind == "DaemonSet" ||
      kind == "ReplicaSet" || kind == "Job" || kind == "ReplicationController") {
    return "spec.template.spec";
  }
  if (kind == "CronJob") return "spec.jobTemplate.spec.template.spec";
  return "";
}

const DocNode* FindPath(const DocNode& root, std::string_view path) {
  const DocNode* node = &root;
  while (node != nullptr && !path.empty()) {
    size_t dot = path.find('.');
    node = node->Find(path.substr(0, dot));
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return node;
}

}  // namespace

bool DecodeWorkload(const DocNode& root, std::string_view kind, DecodeContext& ctx,
                    Workload* out) {
  const std::string path = PodSpecPath(kind);
  if (path.empty()) return false;
  out->kind = std::string(kind);
  if (const DocNode* meta = root.Find("metadata")) {
    MapReader m(*meta, FieldPath("metadata"), ctx);
    ReadObjectMeta(m, &out->metadata);
  }
  out->pod.spec_path = path;
  if (const DocNode* spec = FindPath(root, path)) ReadPodSpec(*spec, path, ctx, &out->pod);
  return true;
}

Node DecodeNode(const DocNode& root, DecodeContext& ctx) {
  Node node;
  if (const DocNode* meta = root.Find("metadata")) {
    MapReader m(*meta, FieldPath("metadata"), ctx);
    ReadObjectMeta(m, &node.metadata);
  }
  // Only spec.unschedulable is read; the rest of the Node is not DRA's business.
  if (const DocNode* spec = root.Find("spec")) {
    const DocNode* unschedulable = spec->Find("unschedulable");
    node.unschedulable = unschedulable != nullptr && unschedulable->kind == NodeKind::kBool &&
                         unschedulable->bool_value;
  }
  return node;
}

Namespace DecodeNamespace(const DocNode& root, DecodeContext& ctx) {
  Namespace ns;
  if (const DocNode* meta = root.Find("metadata")) {
    MapReader m(*meta, FieldPath("metadata"), ctx);
    ReadObjectMeta(m, &ns.metadata);
  }
  return ns;
}

}  // namespace draguard::k8s::internal
