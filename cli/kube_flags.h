// kubectl's cluster-selection flags for the commands that read a live cluster (`explain`,
// `capacity`): --kubeconfig, --context, -n/--namespace, -A/--all-namespaces, resolved as
// kubectl resolves them (webhook/kube/cluster_config.h: $KUBECONFIG merged, ~/.kube/config,
// else the pod's service account when run in a pod).
#ifndef DRAGUARD_CLI_KUBE_FLAGS_H_
#define DRAGUARD_CLI_KUBE_FLAGS_H_

#include <string>

#include "cli/flags.h"
#include "policy/common/status_or.h"
#include "webhook/kube/cluster_config.h"

namespace draguard::cli {

struct KubeFlags {
  std::string kubeconfig;
  std::string context;
  std::string name_space;
  bool all_namespaces = false;

  // `all_namespaces_flag`: whether the command takes -A/--all-namespaces (explain --pending).
  void Register(FlagSet& flags, bool all_namespaces_flag = true);
  // Whether a flag asks for the cluster (--kubeconfig or --context).
  bool NamesCluster() const { return !kubeconfig.empty() || !context.empty(); }
  // The files, context and namespace these flags and the environment select.
  webhook::kube::KubeconfigSelection Selection() const;
};

// Whether a cluster would be found without flags: a kubeconfig ($KUBECONFIG files or
// ~/.kube/config), else the pod's service account when running in a pod.
bool DefaultClusterExists();

// The cluster these flags select, as kubectl finds it: the kubeconfig files, else the pod's
// in-cluster configuration (webhook::kube::LoadClientConfig).
StatusOr<webhook::kube::ClusterConfig> LoadSelectedCluster(
    const KubeFlags& flags,
    const webhook::kube::InClusterOptions& in_cluster =
        webhook::kube::InClusterOptions::FromEnvironment());

}  // namespace draguard::cli

#endif  // DRAGUARD_CLI_KUBE_FLAGS_H_
