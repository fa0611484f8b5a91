// `draguard lint [PATH|-]... [flags]`: exit 0 without errors, 1 with errors, 2 for usage or
// I/O problems.
#include "cli/command.h"
#include "cli/lint_flags.h"
#include "policy/validate/codes.h"

namespace draguard::cli {
namespace {

constexpr char kLintUsage[] = "draguard lint [PATH|-]... [flags]";
constexpr char kLintDescription[] =
    "Lint DRA manifests (ResourceClaim, ResourceClaimTemplate, DeviceClass, ResourceSlice,\n"
    "DeviceTaintRule, and the Pods and workloads that use them) as the API server would\n"
    "validate them, plus cross-object checks. PATH is a file, a directory (searched\n"
    "recursively for *.yaml, *.yml, *.json) or - for standard input; default: -.\n"
    "Exit status: 0 no errors, 1 errors found, 2 usage or I/O problem.\n\n";

lint::RenderOptions MakeRenderOptions(const LintSettings& settings, const CommandContext& ctx) {
  lint::RenderOptions render;
  render.text.color = ctx.out_is_tty && !ctx.no_color;
  render.text.quiet = settings.quiet;
  render.sarif.tool_version = std::string(Version());
  render.sarif.describe_rule = [](std::string_view code) {
    const validate::CodeInfo* info = validate::FindCode(code);
    return info == nullptr ? std::string() : std::string(info->summary);
  };
  return render;
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
    context.out << kLintDescription << flags.Help();
    return kExitOk;
  }
  StatusOr<LintSettings> settings = ToLintSettings(raw, context.err);
  if (!settings.ok()) {
    context.err << "draguard lint: " << settings.status().message() << "\n";
    return kExitUsage;
  }
  if (paths.empty()) paths.push_back("-");
  std::vector<lint::Input> inputs;
  for (std::string& path : paths) inputs.push_back({std::move(path)});
  settings->options.input.stdin_stream = &context.in;
  StatusOr<lint::LintReport> report = lint::Lint(inputs, settings->options);
  if (!report.ok()) {
    context.err << "draguard lint: " << report.status().message() << "\n";
    return kExitUsage;
  }
  context.out << lint::Render(settings->format, *report,
                              MakeRenderOptions(*settings, context));
  return report->Summary().errors > 0 ? kExitFindings : kExitOk;
}

}  // namespace draguard::cli
