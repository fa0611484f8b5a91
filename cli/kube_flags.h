// kubectl's cluster-selection flags for the commands that read a live cluster (`explain`,
// `capacity`): --kubeconfig, --context, -n/--namespace, -A/--all-namespaces, resolved as
// kubectl resolves them (webhook/kube/cluster_config.h: $KUBECONFIG merged, ~/.kube/config).
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

  void Register(FlagSet& flags);
  // Whether a flag asks for the cluster (--kubeconfig or --context).
  bool NamesCluster() const { return !kubeconfig.empty() || !context.empty(); }
  // The files, context and namespace these flags and the environment select.
  webhook::kube::KubeconfigSelection Selection() const;
};

// Whether a kubeconfig would be found without flags ($KUBECONFIG files or ~/.kube/config).
bool DefaultKubeconfigExists();

}  // namespace draguard::cli

#endif  // DRAGUARD_CLI_KUBE_FLAGS_H_
