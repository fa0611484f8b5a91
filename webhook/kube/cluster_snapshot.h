// ClusterReader: one-shot, read-only access to a live cluster for the CLI (`draguard explain`,
// `draguard capacity`): the same inventory::ClusterObjects that `--inventory` files give, listed
// in pages (limit/continue) through one keep-alive connection, plus raw GETs and lists of the
// objects a command checks (Pods, ResourceClaimTemplates).
//
//   ClusterReader reader(config);                  // webhook/kube/cluster_config.h
//   StatusOr<ClusterSnapshot> s = reader.LoadSnapshot();
//   pipeline::RunBatch(decoded, &s->objects, ...); // identical inputs to --inventory files
//
// Which version of resource.k8s.io to read is discovered as the webhook's reflectors do
// (v1, else v1beta2, else v1beta1; DeviceTaintRule also v1alpha3; a kind that is not served is
// empty). Errors name what was refused: a 403 is PermissionDenied "cannot list
// resourceslices.resource.k8s.io cluster-wide", with the server's message; a 401 is
// PermissionDenied naming the credentials' origin (after the exec plugin or token file was
// tried again). Thread-compatible (one thread at a time).
#ifndef DRAGUARD_WEBHOOK_KUBE_CLUSTER_SNAPSHOT_H_
#define DRAGUARD_WEBHOOK_KUBE_CLUSTER_SNAPSHOT_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "policy/common/kubernetes_version.h"
#include "policy/common/status_or.h"
#include "policy/inventory/cluster_objects.h"
#include "webhook/kube/api_client.h"
#include "webhook/kube/api_objects.h"
#include "webhook/kube/cluster_config.h"

namespace draguard::webhook::kube {

// core/v1 Taint.
struct NodeTaint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule, PreferNoSchedule, NoExecute
};

// What kube-scheduler's node filters read of a Node besides its labels (which are in
// ClusterObjects::nodes): taints and spec.unschedulable.
struct NodeScheduling {
  std::vector<NodeTaint> taints;
  bool unschedulable = false;
};

struct ClusterSnapshot {
  inventory::ClusterObjects objects;
  // By node name.
  std::map<std::string, NodeScheduling> node_scheduling;
  // Objects the model could not decode (skipped), per kind name.
  std::map<std::string, size_t> undecodable;
};

struct ClusterReaderOptions {
  ApiClientOptions client;
  // Objects per list page (client-go's default).
  size_t page_size = 500;
  // List pages decoded at once on worker threads while the next page is fetched (decoding,
  // not the network, is most of a big listing's time); 0 decodes each page before fetching
  // the next. Objects keep the API server's order either way. Each page in flight holds its
  // parse tree (~10x the page's bytes): one keeps the peak RSS of 40,000 devices well under
  // 300 MiB (docs/benchmarks.md, "Cluster listing").
  size_t decode_threads = 1;
  // The release checked for: objects are decoded with its apiVersion verdicts.
  KubernetesVersion release = kDefaultKubernetesVersion;
  // Called after every list page with the resource ("resourceslices.resource.k8s.io", "pods")
  // and how many of its objects were listed so far: the CLI's progress line. May be empty.
  std::function<void(const std::string& resource, size_t listed)> on_page;
};

class ClusterReader {
 public:
  explicit ClusterReader(ClusterConfig config, ClusterReaderOptions options = {});

  // Lists ResourceSlices, DeviceClasses, Nodes, ResourceClaims (all of them: allocated ones
  // mark devices in use, the others are what pods refer to) and DeviceTaintRules.
  StatusOr<ClusterSnapshot> LoadSnapshot();

  // GET one object as JSON text, e.g. ("", "v1", "pods", "ns", "name"). NotFound naming it
  // when it does not exist.
  StatusOr<std::string> GetObject(const std::string& group, const std::string& version,
                                  const std::string& resource, const std::string& name_space,
                                  const std::string& name);

  // Every item of a collection, as JSON text with apiVersion and kind set (list items lack
  // them), paged. `name_space` empty: all namespaces. `field_selector` e.g. status.phase=Pending.
  StatusOr<std::vector<std::string>> ListObjects(const std::string& group,
                                                 const std::string& version,
                                                 const std::string& resource,
                                                 const std::string& kind,
                                                 const std::string& name_space,
                                                 const std::string& field_selector = "");

  // The resource.k8s.io version used for ResourceClaims (after LoadSnapshot or the first
  // call that needed it): templates are read with the same version.
  StatusOr<std::string> ResourceVersionFor(WatchedKind kind);

  const ClusterConfig& config() const { return config_; }
  // The credentials (tests read plugin_runs()).
  BearerToken& token() { return *token_; }

 private:
  StatusOr<std::optional<ResourceKind>> Discover(WatchedKind kind);
  Status ListInto(const ResourceKind& kind, ClusterSnapshot& snapshot);
  StatusOr<HttpResult> Get(const std::string& target);
  Status HttpError(const HttpResult& result, const std::string& verb,
                   const std::string& resource, const std::string& name_space,
                   const std::string& name = "") const;

  ClusterConfig config_;
  ClusterReaderOptions options_;
  std::shared_ptr<BearerToken> token_;
  std::unique_ptr<ApiConnection> connection_;
  std::map<std::string, std::vector<std::string>> group_versions_;  // discovery cache
  std::map<WatchedKind, std::optional<ResourceKind>> discovered_;
};

// Parses the taints and unschedulable flag of a Node's JSON (a list item).
NodeScheduling ParseNodeScheduling(const std::string& node_json);

}  // namespace draguard::webhook::kube

#endif  // DRAGUARD_WEBHOOK_KUBE_CLUSTER_SNAPSHOT_H_
