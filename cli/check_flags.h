// What `explain` and `capacity` share: the flags that say what to check against which cluster
// (--output, the ClusterFlags, --inventory, --budget and kubectl's cluster flags), their
// resolution into allocator and validation options, and the live cluster they may read
// (kubeconfig or in-cluster, one snapshot, a progress line on a terminal).
#ifndef DRAGUARD_CLI_CHECK_FLAGS_H_
#define DRAGUARD_CLI_CHECK_FLAGS_H_

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/cluster_flags.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/kube_flags.h"
#include "policy/allocator/options.h"
#include "policy/common/status_or.h"
#include "policy/k8s/decode.h"
#include "policy/validate/options.h"
#include "webhook/kube/cluster_snapshot.h"

namespace draguard::cli {

struct CheckFlags {
  std::string output = "text";
  ClusterFlags cluster;
  std::vector<std::string> inventory;
  std::string budget = "100ms";
  KubeFlags kube;

  // Registers --output/-o, the ClusterFlags, the kube flags (-A only when
  // `all_namespaces_flag`), --inventory and --budget with `budget_help`.
  void Register(FlagSet& flags, std::string_view budget_help, bool all_namespaces_flag);
};

struct CheckSettings {
  alloc::AllocatorOptions allocator;  // time_budget from --budget
  validate::ValidationOptions validation;
};

// Checks --output (text or json) and --budget and resolves the ClusterFlags (policy file
// findings printed to `err`). InvalidArgument or NotFound with a message for the user.
StatusOr<CheckSettings> ResolveCheckFlags(const CheckFlags& flags, std::ostream& err);

// `pod/NAME`, `pods/NAME` or `po/NAME`: sets `name` (possibly empty) and returns true.
bool IsPodArgument(const std::string& arg, std::string& name);

// The live cluster is read when `names_live_objects` (pod/NAME, --pending), when --kubeconfig
// or --context names it, or when neither --inventory nor the input files hold cluster objects
// and a default cluster exists (kubeconfig or in-cluster): the files alone could not answer.
bool WantsLiveCluster(const CheckFlags& flags, bool names_live_objects,
                      const std::vector<k8s::DecodeResult>& decoded);

class ListingProgress;

// One snapshot of the live cluster and the reader that took it (for pods and templates).
struct LiveCluster {
  webhook::kube::ClusterConfig config;  // config.name_space: -n, else the context's or pod's
  std::unique_ptr<webhook::kube::ClusterReader> reader;
  webhook::kube::ClusterSnapshot snapshot;
  // The progress line, also drawn while the reader lists pods; DoneListing() clears it
  // before the answer is printed.
  std::shared_ptr<ListingProgress> progress;

  void DoneListing();
};

// Loads the cluster the kube flags select and lists its inventory. Warns on `context.err`
// when TLS verification is off. When `progress` (and context.err_is_tty), a progress line on
// standard error counts the objects listed per kind, rewritten in place with '\r' and
// cleared when done; callers pass false for JSON output. Errors are for the user.
StatusOr<LiveCluster> OpenLiveCluster(const CheckFlags& flags, const CheckSettings& settings,
                                      CommandContext& context, std::string_view command,
                                      bool progress);

// Draws the progress line of a listing on a terminal: Update() after each page, Clear() when
// done (also on destruction). Does nothing when `enabled` is false.
class ListingProgress {
 public:
  ListingProgress(std::ostream& err, bool enabled) : err_(err), enabled_(enabled) {}
  ~ListingProgress() { Clear(); }
  ListingProgress(const ListingProgress&) = delete;
  ListingProgress& operator=(const ListingProgress&) = delete;

  void Update(const std::string& resource, size_t listed);
  void Clear();

 private:
  std::ostream& err_;
  bool enabled_;
  bool drawn_ = false;
  std::vector<std::pair<std::string, size_t>> counts_;  // in listing order
};

}  // namespace draguard::cli

#endif  // DRAGUARD_CLI_CHECK_FLAGS_H_
