// `draguard lint [PATH|-]... [flags]`: exit 0 without errors, 1 with errors, 2 for usage or
// I/O problems.
#include <map>
#include <optional>
#include <ostream>
#include <string_view>
#include <utility>

#include "cli/command.h"
#include "cli/lint_flags.h"
#include "policy/common/timings.h"
#include "policy/lint/upgrade.h"
#include "policy/diagnostics/codes.h"

namespace draguard::cli {
namespace {

constexpr char kLintUsage[] = "draguard lint [PATH|-]... [flags]";
constexpr char kLintDescription[] =
    "Lint DRA manifests (ResourceClaim, ResourceClaimTemplate, DeviceClass, ResourceSlice,\n"
    "DeviceTaintRule, and the Pods and workloads that use them) as the API server would\n"
    "validate them, plus cross-object checks. PATH is a file, a directory (searched\n"
    "recursively for *.yaml, *.yml, *.json; hidden entries, upper-case extensions and\n"
    "symlinks to directories or to nothing are skipped and counted on stderr) or - for\n"
    "standard input; default: -.\n"
    "Exit status: 0 no errors, 1 errors found, 2 usage or I/O problem (an input that cannot\n"
    "be read is reported on stderr and the others are still linted).\n"
    "With --upgrade-to RELEASE only what changes between --kubernetes-version and RELEASE is\n"
    "reported (upgrade.* codes); exit 1 when an object the current release accepts is\n"
    "rejected after the upgrade or a claim becomes unsatisfiable.\n\n";

lint::RenderOptions MakeRenderOptions(const LintSettings& settings, const CommandContext& ctx) {
  lint::RenderOptions render;
  render.text.color = ctx.out_is_tty && !ctx.no_color;
  render.text.quiet = settings.quiet;
  render.sarif.tool_version = std::string(Version());
  render.sarif.describe_rule = [](std::string_view code) {
    lint::RuleDescription rule;
    if (const diagnostics::CodeInfo* info = diagnostics::FindCode(code)) {
      rule.short_description = diagnostics::ShortDescription(*info);
      rule.full_description = diagnostics::FullDescription(*info);
      rule.help_uri = diagnostics::DocsUrl(code);
    }
    return rule;
  };
  return render;
}

// What the directory walks passed over (a count, or with --verbose each entry) and the inputs
// that could not be read, on stderr: the report on stdout stays what the renderer wrote.
void ReportInputs(const lint::LintReport& report, bool verbose, std::ostream& err) {
  if (!report.skipped_inputs.empty()) {
    std::map<std::string_view, size_t> by_reason;
    for (const inventory::SkippedInput& s : report.skipped_inputs) {
      ++by_reason[inventory::SkipReasonName(s.reason)];
    }
    err << "draguard lint: skipped " << report.skipped_inputs.size()
        << (report.skipped_inputs.size() == 1 ? " directory entry" : " directory entries")
        << " (";
    const char* separator = "";
    for (const auto& [reason, count] : by_reason) {
      err << separator << count << " " << reason;
      separator = ", ";
    }
    err << (verbose ? ")\n" : "); --verbose names them\n");
    if (verbose) {
      for (const inventory::SkippedInput& s : report.skipped_inputs) {
        err << "draguard lint: skipped " << s.path << ": " << inventory::SkipReasonName(s.reason)
            << "\n";
      }
    }
  }
  for (const Status& s : report.unreadable_inputs) {
    err << "draguard lint: cannot read " << s.message() << "\n";
  }
}

}  // namespace

int RunLint(const std::vector<std::string>& args, CommandContext& context) {
  LintFlags raw;
  FlagSet flags(kLintUsage);
  raw.Register(flags);
  std::vector<std::string> paths;
  Status parsed = flags.Parse(args, &paths);
  if (!parsed.ok()) {
    context.err << "draguard lint: " << parsed.message() << "\nRun 'draguard lint --help'.\n";
    return kExitUsage;
  }
  if (raw.help) {
    context.out << kLintDescription << flags.Help(context.program);
    return kExitOk;
  }
  Timings timings;
  Timings* timed = raw.timings ? &timings : nullptr;
  std::optional<Timings::Scope> phase(std::in_place, timed,
                                      "settings and inventory files: read and decode");
  StatusOr<LintSettings> settings = ToLintSettings(raw, context.err);
  if (!settings.ok()) {
    context.err << "draguard lint: " << settings.status().message() << "\n";
    return kExitUsage;
  }
  if (paths.empty()) paths.push_back("-");
  std::vector<inventory::Input> inputs;
  for (std::string& path : paths) inputs.push_back({std::move(path)});
  settings->options.input.stdin_stream = &context.in;
  settings->options.satisfiability.timings = timed;
  phase.emplace(timed, "lint (read, decode, pipeline, sort)");
  StatusOr<lint::LintReport> report =
      settings->upgrade_to
          ? lint::LintUpgrade(inputs, {.from = settings->options, .to = *settings->upgrade_to})
          : lint::Lint(inputs, std::move(settings->options));
  if (!report.ok()) {
    context.err << "draguard lint: " << report.status().message() << "\n";
    return kExitUsage;
  }
  phase.emplace(timed, "output");
  context.out << lint::Render(settings->format, *report,
                              MakeRenderOptions(*settings, context));
  context.out.flush();
  phase.reset();
  context.err << timings.Render();
  ReportInputs(*report, settings->verbose, context.err);
  // An input that could not be read is an I/O problem even when the others lint clean.
  if (!report->unreadable_inputs.empty()) return kExitUsage;
  return report->Summary().errors > 0 ? kExitFindings : kExitOk;
}

}  // namespace draguard::cli
