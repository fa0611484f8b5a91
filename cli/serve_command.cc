// `draguard serve`: the HTTPS admission webhook (webhook/server) over the same checks as
// `draguard lint` (webhook/admission/policy_checker.h). Blocks until SIGTERM or SIGINT, drains
// in-flight requests, then exits 0; exit 2 when the server cannot start.
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/flags.h"
#include "policy/validate/options.h"
#include "webhook/admission/policy_checker.h"
#include "webhook/server/server.h"

namespace draguard::cli {
namespace {

struct ServeFlags {
  std::string listen = ":8443";
  std::string tls_cert_file;
  std::string tls_private_key_file;
  std::string threads = "0";
  std::string kubernetes_version = "1.35";
  std::vector<std::string> feature_gates;
  bool help = false;
};

StatusOr<unsigned> ParseThreads(const std::string& text) {
  if (text.empty() || text.size() > 4 || text.find_first_not_of("0123456789") != std::string::npos) {
    return InvalidArgumentError("--threads must be a number from 0 (one per core) to 9999");
  }
  return static_cast<unsigned>(std::stoul(text));
}

}  // namespace

int RunServe(const std::vector<std::string>& args, CommandContext& context) {
  ServeFlags flags;
  FlagSet set("draguard serve --tls-cert-file FILE --tls-private-key-file FILE [flags]");
  set.AddString("listen", &flags.listen, "[HOST]:PORT", "address to listen on");
  set.AddString("tls-cert-file", &flags.tls_cert_file, "FILE",
                "PEM serving certificate (chain); reloaded when it changes");
  set.AddString("tls-private-key-file", &flags.tls_private_key_file, "FILE",
                "PEM private key of the certificate; reloaded when it changes");
  set.AddString("threads", &flags.threads, "N", "I/O threads, 0 = one per core");
  set.AddString("kubernetes-version", &flags.kubernetes_version, "1.34|1.35",
                "API server version whose rules apply");
  set.AddList("feature-gates", &flags.feature_gates, "A=true,B=false",
              "feature gates of the API server, in kube syntax");
  set.AddBool("help", &flags.help, "show this help");
  std::vector<std::string> positional;
  if (Status s = set.Parse(args, &positional); !s.ok()) {
    context.err << "draguard serve: " << s.message() << "\n";
    return kExitUsage;
  }
  if (flags.help) {
    context.out << set.Help();
    return kExitOk;
  }
  if (!positional.empty() || flags.tls_cert_file.empty() || flags.tls_private_key_file.empty()) {
    context.err << "draguard serve: --tls-cert-file and --tls-private-key-file are required and "
                   "no arguments are taken\n"
                << set.Help();
    return kExitUsage;
  }
  StatusOr<validate::KubernetesVersion> version =
      validate::ParseKubernetesVersion(flags.kubernetes_version);
  std::string gates_text;
  for (const std::string& g : flags.feature_gates) gates_text += g + ",";
  StatusOr<validate::FeatureGates> gates =
      version.ok() ? validate::FeatureGates::Parse(gates_text, *version)
                   : StatusOr<validate::FeatureGates>(version.status());
  StatusOr<unsigned> threads = ParseThreads(flags.threads);
  for (const Status& s : {gates.status(), threads.status()}) {
    if (!s.ok()) {
      context.err << "draguard serve: " << s.message() << "\n";
      return kExitUsage;
    }
  }

  webhook::PolicyCheckerOptions checker_options;
  checker_options.validation = validate::ValidationOptions::ForVersion(*version);
  checker_options.validation.gates = *gates;
  webhook::PolicyChecker checker(std::move(checker_options));

  webhook::ServerOptions options;
  options.listen = flags.listen;
  options.tls_cert_file = flags.tls_cert_file;
  options.tls_private_key_file = flags.tls_private_key_file;
  options.threads = *threads;
  context.err << "draguard serve: listening on " << options.listen << "\n";
  context.err.flush();
  Status status = webhook::RunServer(options, checker);
  if (!status.ok()) {
    context.err << "draguard serve: " << status.message() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace draguard::cli
