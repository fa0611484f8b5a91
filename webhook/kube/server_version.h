// The Kubernetes release of the API server `draguard serve` talks to, from GET /version, mapped
// onto the release table (policy/common/release.h).
//
// /version answers {"major": "1", "minor": "36", "gitVersion": "v1.36.2", ...}. Managed
// clusters decorate both: "minor": "36+" (EKS, GKE), "gitVersion": "v1.36.2-eks-4f5b2c1". The
// leading digits of major and minor are read; when they are missing or malformed, gitVersion
// ("v1.36.2-...") is read instead.
//
// A release the table does not have is mapped to the nearest one draguard knows: a newer
// server (1.37) to the newest known release, an older one (1.33) to the oldest, always with a
// warning naming both (docs/k8s-releases.md, "Which release serve checks for").
#ifndef DRAGUARD_WEBHOOK_KUBE_SERVER_VERSION_H_
#define DRAGUARD_WEBHOOK_KUBE_SERVER_VERSION_H_

#include <string>
#include <string_view>

#include "policy/common/kubernetes_version.h"
#include "policy/common/status_or.h"
#include "webhook/kube/api_client.h"
#include "webhook/kube/cluster_config.h"

namespace draguard::webhook::kube {

struct ServerVersion {
  int major = 0;
  int minor = 0;
  std::string git_version;  // as the server wrote it, for logs; may be empty

  // "1.36" (and " (v1.36.2-eks-4f5b2c1)" when gitVersion says more).
  std::string Describe() const;
};

// Parses a /version body. InvalidArgument when it is not JSON or neither major/minor nor
// gitVersion yields a version.
StatusOr<ServerVersion> ParseServerVersion(std::string_view body);

// The release draguard checks for on a server of `version`, and a warning when it is not the
// server's own release (empty when it is).
struct ServerRelease {
  KubernetesVersion release = kDefaultKubernetesVersion;
  ServerVersion server;
  std::string warning;
};
ServerRelease ReleaseForServer(const ServerVersion& version);

// GET /version over one short-lived connection, then ReleaseForServer. Transport failures
// and non-200 answers are a Status (Unavailable, DeadlineExceeded, PermissionDenied for
// 401/403, InvalidArgument for a body that is not a version).
StatusOr<ServerRelease> DiscoverServerRelease(const ClusterConfig& config,
                                              ApiClientOptions options = {});

}  // namespace draguard::webhook::kube

#endif  // DRAGUARD_WEBHOOK_KUBE_SERVER_VERSION_H_
