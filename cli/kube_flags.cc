#include "cli/kube_flags.h"

namespace draguard::cli {

void KubeFlags::Register(FlagSet& flags, bool all_namespaces_flag) {
  flags.AddString("kubeconfig", &kubeconfig, "FILE",
                  "Kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)");
  flags.AddString("context", &context, "NAME", "Kubeconfig context (default: current-context)");
  flags.AddString("namespace", &name_space, "NS",
                  "Namespace of pod/NAME and --pending (default: the context's, else default)");
  flags.AddShort('n', "namespace");
  if (!all_namespaces_flag) return;
  flags.AddBool("all-namespaces", &all_namespaces, "--pending: pods of every namespace");
  flags.AddShort('A', "all-namespaces");
}

webhook::kube::KubeconfigSelection KubeFlags::Selection() const {
  webhook::kube::KubeconfigSelection selection =
      webhook::kube::KubeconfigSelection::FromEnvironment();
  selection.explicit_path = kubeconfig;
  selection.context = context;
  selection.name_space = name_space;
  return selection;
}

bool DefaultClusterExists() {
  return !webhook::kube::KubeconfigSelection::FromEnvironment().Files().empty() ||
         webhook::kube::InClusterAvailable(webhook::kube::InClusterOptions::FromEnvironment());
}

StatusOr<webhook::kube::ClusterConfig> LoadSelectedCluster(
    const KubeFlags& flags, const webhook::kube::InClusterOptions& in_cluster) {
  return webhook::kube::LoadClientConfig(flags.Selection(), in_cluster);
}

}  // namespace draguard::cli
