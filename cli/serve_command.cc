// `draguard serve`: the HTTPS admission webhook (webhook/server) over the same checks as
// `draguard lint` (webhook/admission/policy_checker.h). Blocks until SIGTERM or SIGINT, drains
// in-flight requests, then exits 0; exit 2 when the server cannot start.
//
// With an inventory (`--inventory PATH...`, or the Kubernetes API), /readyz waits for its first
// load, /metrics reports its size and age, and valid claims are checked for satisfiability.
//
// The release checked for: --kubernetes-version, else the policy file's kubernetesVersion,
// else (when talking to the Kubernetes API) the API server's /version, else the default. The
// start-up log and draguard_kubernetes_release_info say which, and where it came from.
#include <charconv>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli/cluster_flags.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "policy/allocator/cel_evaluator.h"
#include "policy/allocator/options.h"
#include "policy/cel/compiler.h"
#include "policy/common/time.h"
#include "policy/validate/options.h"
#include "webhook/admission/policy_checker.h"
#include "webhook/admission/snapshot_builder.h"
#include "webhook/file_inventory_source.h"
#include "webhook/inventory_source.h"
#include "webhook/server/inventory_hooks.h"
#include "webhook/kube/admin_access_lookup.h"
#include "webhook/kube/cluster_config.h"
#include "webhook/kube/kube_inventory_source.h"
#include "webhook/kube/namespace_lookup.h"
#include "webhook/kube/server_version.h"
#include "webhook/server/server.h"

namespace draguard::cli {
namespace {

struct ServeFlags {
  std::string listen = ":8443";
  std::string tls_cert_file;
  std::string tls_private_key_file;
  std::string threads = "0";
  std::string io_thread_slice = "100us";
  ClusterFlags cluster;
  std::vector<std::string> inventory;
  std::string inventory_poll_interval = "2s";
  std::string inventory_max_age = "5m";
  std::string unsatisfiable = "warning";
  std::string satisfiability_budget = "50ms";
  bool strict_schema = false;
  bool no_builtin_schema = false;
  std::string spec_memo_entries = "256";
  std::string max_connections = "16384";
  std::string client_ca_file;
  std::string probe_listen;
  std::string handshake_timeout = "10s";
  std::string first_request_timeout = "10s";
  std::string request_timeout = "10s";
  std::string kubeconfig;
  std::string in_cluster = "auto";
  bool namespace_lookup = false;
  bool help = false;

  void Register(FlagSet& set);
};

void ServeFlags::Register(FlagSet& set) {
  set.AddString("listen", &listen, "[HOST]:PORT", "address to listen on");
  set.AddString("tls-cert-file", &tls_cert_file, "FILE",
                "PEM serving certificate (chain); reloaded when it changes");
  set.AddString("tls-private-key-file", &tls_private_key_file, "FILE",
                "PEM private key of the certificate; reloaded when it changes");
  set.AddString("threads", &threads, "N", "I/O threads, 0 = one per core");
  set.AddString("io-thread-slice", &io_thread_slice, "DURATION",
                "scheduler slice the I/O threads ask for (Linux 6.12+), 100us to 100ms, so "
                "that a request preempts CPU-bound threads on its core; 0 = the kernel's "
                "default");
  cluster.Register(set);
  set.AddList("inventory", &inventory, "PATH",
              "cluster objects (ResourceSlices, DeviceClasses, Nodes, allocated claims) from "
              "files or a directory such as a mounted ConfigMap; reloaded on change");
  set.AddString("inventory-poll-interval", &inventory_poll_interval, "DURATION",
                "how often --inventory files are checked for changes");
  set.AddString("inventory-max-age", &inventory_max_age, "DURATION",
                "an inventory not confirmed current for this long is stale: satisfiability is "
                "skipped with a warning");
  set.AddString("unsatisfiable", &unsatisfiable, "warning|deny",
                "what an unsatisfiable claim gets");
  set.AddString("satisfiability-budget", &satisfiability_budget, "DURATION",
                "search time allowed per claim; beyond it the verdict is undecided");
  set.AddString("kubeconfig", &kubeconfig, "PATH",
                "list and watch the inventory through this kubeconfig's cluster (current "
                "context) unless --inventory is given");
  set.AddString("in-cluster", &in_cluster, "auto|true|false",
                "use the pod's service account for the Kubernetes API: auto = when running in "
                "a pod and no --kubeconfig");
  set.AddBool("namespace-lookup", &namespace_lookup,
              "read namespace labels through the Kubernetes API for the admin-access check "
              "when the webhook is called without the admin-access route");
  set.AddBool("strict-schema", &strict_schema,
              "unknown attributes, capacities and constraint names are errors");
  set.AddBool("no-builtin-schema", &no_builtin_schema,
              "do not use the built-in attribute catalog (only the inventory's slices)");
  set.AddString("spec-memo-entries", &spec_memo_entries, "N",
                "claim and template specs whose findings are remembered by their text (claims "
                "made from one template share a spec); 0 turns the memo off");
  set.AddString("client-ca-file", &client_ca_file, "FILE",
                "PEM CA bundle: require a client certificate issued by one of these CAs (the "
                "API server's); reloaded when it changes");
  set.AddString("probe-listen", &probe_listen, "[HOST]:PORT",
                "also serve /healthz, /readyz and /metrics over plain HTTP here (for the "
                "kubelet's probes when --client-ca-file is set)");
  set.AddString("max-connections", &max_connections, "N",
                "connections open at once (kept below the open-file limit); at the limit the "
                "oldest connection that has not completed a request is closed to make room");
  set.AddString("handshake-timeout", &handshake_timeout, "DURATION",
                "time a new connection has for its TLS handshake");
  set.AddString("first-request-timeout", &first_request_timeout, "DURATION",
                "time a new connection has, after its handshake, to start its first request");
  set.AddString("request-timeout", &request_timeout, "DURATION",
                "time a request has, from its first byte, to arrive whole");
  set.AddBool("help", &help, "show this help");
}

// A decimal count of at most `max_digits` digits, for the flag `name`.
StatusOr<unsigned> ParseCount(const std::string& text, std::string_view name,
                              std::string_view range, size_t max_digits) {
  if (text.empty() || text.size() > max_digits ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return InvalidArgumentError("--" + std::string(name) + " must be a number " +
                                std::string(range));
  }
  return static_cast<unsigned>(std::stoul(text));
}

StatusOr<unsigned> ParseThreads(const std::string& text) {
  return ParseCount(text, "threads", "from 0 (one per core) to 9999", 4);
}

Status ApplySatisfiabilityFlags(const ServeFlags& flags, webhook::SatisfiabilityOptions& options) {
  if (flags.unsatisfiable != "warning" && flags.unsatisfiable != "deny") {
    return InvalidArgumentError("--unsatisfiable must be warning or deny, not \"" +
                                flags.unsatisfiable + "\"");
  }
  options.deny = flags.unsatisfiable == "deny";
  StatusOr<std::chrono::milliseconds> max_age =
      ParseDuration("inventory-max-age", flags.inventory_max_age);
  if (!max_age.ok()) return max_age.status();
  options.max_age = std::chrono::duration_cast<std::chrono::seconds>(*max_age);
  StatusOr<std::chrono::milliseconds> budget =
      ParseDuration("satisfiability-budget", flags.satisfiability_budget);
  if (!budget.ok()) return budget.status();
  options.allocator.time_budget = *budget;
  return OkStatus();
}

// --io-thread-slice: 0, or 100us to 100ms (the range the kernel honours).
Status ApplyIoThreadSlice(const ServeFlags& flags, webhook::ServerOptions& options) {
  StatusOr<int64_t> nanos = ParseGoDuration(flags.io_thread_slice);
  constexpr int64_t kMin = 100'000, kMax = 100'000'000;
  if (!nanos.ok() || (*nanos != 0 && (*nanos < kMin || *nanos > kMax))) {
    return InvalidArgumentError("--io-thread-slice must be 0 or from 100us to 100ms, not \"" +
                                flags.io_thread_slice + "\"");
  }
  options.io_thread_slice = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::nanoseconds(*nanos));
  return OkStatus();
}

// --max-connections, --handshake-timeout, --first-request-timeout and --request-timeout into
// `options`.
Status ApplyConnectionFlags(const ServeFlags& flags, webhook::ServerOptions& options) {
  StatusOr<unsigned> connections =
      ParseCount(flags.max_connections, "max-connections", "from 1 to 9999999", 7);
  if (!connections.ok()) return connections.status();
  if (*connections == 0) return InvalidArgumentError("--max-connections must be at least 1");
  options.max_connections = *connections;
  for (auto [name, text, field] :
       {std::tuple{"handshake-timeout", &flags.handshake_timeout, &options.handshake_timeout},
        std::tuple{"first-request-timeout", &flags.first_request_timeout,
                   &options.first_request_timeout},
        std::tuple{"request-timeout", &flags.request_timeout, &options.read_timeout}}) {
    StatusOr<std::chrono::milliseconds> timeout = ParseDuration(name, *text);
    if (!timeout.ok()) return timeout.status();
    if (timeout->count() <= 0) {
      return InvalidArgumentError("--" + std::string(name) + " must be positive");
    }
    *field = *timeout;
  }
  return OkStatus();
}

// The Kubernetes API to talk to (--kubeconfig, or the pod's service account per
// --in-cluster); none when neither applies.
StatusOr<std::optional<webhook::kube::ClusterConfig>> ResolveCluster(const ServeFlags& flags) {
  StatusOr<webhook::kube::InClusterMode> mode = webhook::kube::ParseInClusterMode(flags.in_cluster);
  if (!mode.ok()) return mode.status();
  StatusOr<std::optional<webhook::kube::ClusterConfig>> cluster =
      webhook::kube::ResolveClusterConfig(flags.kubeconfig, *mode,
                                          webhook::kube::InClusterOptions::FromEnvironment());
  if (cluster.ok() && !cluster->has_value() && flags.namespace_lookup) {
    return InvalidArgumentError("--namespace-lookup needs the Kubernetes API: run in a pod or "
                                "pass --kubeconfig");
  }
  return cluster;
}

// The release of the API server at `cluster` (GET /version), logged to `err`; nullopt, with a
// warning, when it cannot be read (the default release is used then).
std::optional<KubernetesVersion> ReleaseFromServer(const webhook::kube::ClusterConfig& cluster,
                                                   std::ostream& err, std::string& described) {
  webhook::kube::ApiClientOptions client;
  client.connect_timeout = std::chrono::seconds(5);
  client.request_timeout = std::chrono::seconds(10);
  StatusOr<webhook::kube::ServerRelease> found =
      webhook::kube::DiscoverServerRelease(cluster, client);
  if (!found.ok()) {
    err << "draguard serve: warning: cannot read the API server's version ("
        << found.status().message() << "); checking as Kubernetes "
        << KubernetesVersionName(kDefaultKubernetesVersion)
        << ", the default: pass --kubernetes-version to choose\n";
    return std::nullopt;
  }
  if (!found->warning.empty()) err << "draguard serve: warning: " << found->warning << "\n";
  described = found->server.Describe();
  return found->release;
}

// "Kubernetes 1.36 (from the API server, which is 1.36 (v1.36.2-eks-1))" and the like.
std::string DescribeRelease(const ClusterSettings& settings, const std::string& server) {
  std::string out = "checking as Kubernetes " +
                    std::string(KubernetesVersionName(settings.version)) + " (source: " +
                    std::string(VersionSourceName(settings.version_source));
  if (settings.version_source == VersionSource::kApiServer) out += ", server " + server;
  return out + ")";
}

// The inventory source the flags ask for: files, else the Kubernetes API; null when none.
// Objects are decoded with the apiVersion verdicts of `version`.
StatusOr<std::unique_ptr<webhook::InventorySource>> MakeInventorySource(
    const ServeFlags& flags, const std::optional<webhook::kube::ClusterConfig>& cluster,
    KubernetesVersion version) {
  // Checked even when unused, so that a typo is reported rather than ignored.
  StatusOr<std::chrono::milliseconds> poll =
      ParseDuration("inventory-poll-interval", flags.inventory_poll_interval);
  if (!poll.ok()) return poll.status();
  if (flags.inventory.empty() && cluster.has_value()) {
    webhook::kube::KubeInventoryOptions kube;
    kube.reflector.release = version;
    return std::unique_ptr<webhook::InventorySource>(
        std::make_unique<webhook::kube::KubeInventorySource>(*cluster, std::move(kube)));
  }
  if (flags.inventory.empty()) return std::unique_ptr<webhook::InventorySource>();
  webhook::FileInventoryOptions options;
  options.paths = flags.inventory;
  options.poll_interval = *poll;
  options.version = version;
  return std::unique_ptr<webhook::InventorySource>(
      std::make_unique<webhook::FileInventorySource>(std::move(options)));
}

int UsageError(CommandContext& context, const Status& status) {
  context.err << "draguard serve: " << status.message() << "\n";
  return kExitUsage;
}

}  // namespace

int RunServe(const std::vector<std::string>& args, CommandContext& context) {
  // Before anything allocates through OpenSSL (the API client, the TLS context); a second
  // `serve` in one process (tests) keeps OpenSSL's default functions.
  webhook::InstallOpenSslAllocator();
  ServeFlags flags;
  FlagSet set("draguard serve --tls-cert-file FILE --tls-private-key-file FILE [flags]");
  flags.Register(set);
  std::vector<std::string> positional;
  if (Status s = set.Parse(args, &positional); !s.ok()) return UsageError(context, s);
  if (flags.help) {
    context.out << set.Help(context.program);
    return kExitOk;
  }
  if (!positional.empty() || flags.tls_cert_file.empty() || flags.tls_private_key_file.empty()) {
    context.err << "draguard serve: --tls-cert-file and --tls-private-key-file are required and "
                   "no arguments are taken\n"
                << set.Help(context.program);
    return kExitUsage;
  }
  webhook::ServerOptions options;
  if (Status s = ApplyConnectionFlags(flags, options); !s.ok()) return UsageError(context, s);
  if (Status s = ApplyIoThreadSlice(flags, options); !s.ok()) return UsageError(context, s);
  webhook::PolicyCheckerOptions checker_options;
  checker_options.schema.strict = flags.strict_schema;
  checker_options.schema.builtin_catalog = !flags.no_builtin_schema;
  StatusOr<unsigned> threads = ParseThreads(flags.threads);
  StatusOr<unsigned> memo_entries =
      ParseCount(flags.spec_memo_entries, "spec-memo-entries", "from 0 (off) to 999999", 6);
  StatusOr<std::optional<webhook::kube::ClusterConfig>> cluster = ResolveCluster(flags);
  if (!cluster.ok()) return UsageError(context, cluster.status());
  std::string server_version;
  DiscoverRelease discover;
  if (cluster->has_value()) {
    discover = [&] { return ReleaseFromServer(**cluster, context.err, server_version); };
  }
  StatusOr<ClusterSettings> settings = ResolveClusterFlags(flags.cluster, context.err, discover);
  if (!settings.ok()) return UsageError(context, settings.status());
  StatusOr<std::unique_ptr<webhook::InventorySource>> source =
      MakeInventorySource(flags, *cluster, settings->version);
  checker_options.validation = settings->Validation();
  checker_options.satisfiability.allocator = settings->allocator;
  checker_options.policy = settings->policy;
  for (const Status& s : {ApplySatisfiabilityFlags(flags, checker_options.satisfiability),
                          threads.status(), memo_entries.status(), source.status()}) {
    if (!s.ok()) return UsageError(context, s);
  }
  checker_options.spec_memo.entries = *memo_entries;
  std::unique_ptr<webhook::InventorySource> inventory = std::move(source).value();
  // Declared before the checker, whose checks add their steps to it: it must outlive them.
  webhook::SnapshotBuilder snapshot_builder;
  // Compiled and planned selectors for the allocator, shared by every thread and snapshot,
  // planned from the selectors validation has compiled (one compile per new selector).
  checker_options.compiled_selectors = std::make_shared<cel::SelectorCache>(
      checker_options.selector_cache, cel::SelectorCache::kShapeLimits,
      checker_options.selector_sightings);
  // A selector's program is kept from its second sighting: clients may send a never-seen one
  // on every request (alloc::CelProgramCache::KeepPolicy).
  auto programs = std::make_shared<alloc::CelProgramCache>(
      alloc::CelProgramCache::kDefaultLimits, checker_options.compiled_selectors,
      alloc::CelProgramCache::KeepPolicy::kOnSecondMiss);
  if (inventory != nullptr) {
    if (Status s = inventory->Start(); !s.ok()) return UsageError(context, s);
    checker_options.satisfiability.source = inventory.get();
    // A new snapshot's attribute schema and allocator view are built off the I/O threads,
    // one after the other on one thread (snapshot_builder.h).
    checker_options.schema.builder = &snapshot_builder;
    checker_options.satisfiability.builder = &snapshot_builder;
    checker_options.schema.source = inventory.get();
    checker_options.satisfiability.new_evaluator =
        [allocator = checker_options.satisfiability.allocator,
         programs](std::shared_ptr<alloc::PreparedDevices> devices) {
          return std::make_unique<alloc::CelSelectorEvaluator>(allocator, programs,
                                                                std::move(devices));
        };
  }
  webhook::PolicyChecker checker(std::move(checker_options));
  // The first views are built on the builder's thread, as every later one (Build); Warm()
  // then only builds what the builder has not (no inventory: the catalog's schema).
  if (inventory != nullptr) snapshot_builder.Build(inventory->Current());
  checker.Warm();
  // --namespace-lookup: the labels come from the API when the route does not allow admin access.
  std::unique_ptr<webhook::kube::KubeNamespaceLookup> lookup;
  std::unique_ptr<webhook::kube::AdminAccessLookupChecker> lookup_checker;
  if (flags.namespace_lookup) {
    lookup = std::make_unique<webhook::kube::KubeNamespaceLookup>(**cluster);
    lookup_checker = std::make_unique<webhook::kube::AdminAccessLookupChecker>(checker, *lookup);
  }
  webhook::AdmissionChecker& serving_checker =
      lookup_checker ? static_cast<webhook::AdmissionChecker&>(*lookup_checker) : checker;
  if (cluster->has_value()) {
    context.err << "draguard serve: Kubernetes API " << (*cluster)->origin << " at "
                << (*cluster)->host << ":" << (*cluster)->port << "\n";
  }

  options.listen = flags.listen;
  options.tls_cert_file = flags.tls_cert_file;
  options.tls_private_key_file = flags.tls_private_key_file;
  options.client_ca_file = flags.client_ca_file;
  options.probe_listen = flags.probe_listen;
  options.threads = *threads;
  context.err << "draguard serve: " << DescribeRelease(*settings, server_version) << "\n";
  context.err << "draguard serve: listening on " << options.listen << "\n";
  context.err.flush();
  webhook::ServerHooks hooks;
  webhook::AddInventoryHooks(inventory.get(), hooks);
  hooks.release = {std::string(KubernetesVersionName(settings->version)),
                   std::string(VersionSourceName(settings->version_source))};
  hooks.spec_memo = [&checker] { return checker.spec_memo_stats(); };
  hooks.caches = [&checker, programs, with_inventory = inventory != nullptr] {
    std::vector<NamedCacheStats> caches = checker.cache_stats();
    if (with_inventory) caches.push_back({"cel_programs", programs->stats()});
    return caches;
  };
  Status status = webhook::RunServer(options, serving_checker, std::move(hooks));
  if (inventory != nullptr) inventory->Stop();
  if (!status.ok()) return UsageError(context, status);
  return kExitOk;
}

}  // namespace draguard::cli
