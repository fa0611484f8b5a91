// `draguard cel`: debug a device selector.
//   draguard cel check EXPR                 compile as the API server does; print diagnostics
//                                           and the estimated cost
//   draguard cel eval EXPR --device FILE[:DEVICE]
//                                           compile, then evaluate on one device of a
//                                           ResourceSlice as the scheduler does
// Exit codes: 0 the selector compiles (and, for eval, evaluated to a value), 1 compile or
// runtime error, 2 usage or I/O problem.
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cluster_flags.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "policy/cel/compiler.h"
#include "policy/cel/cost.h"
#include "policy/cel/dra/device.h"
#include "policy/cel/program.h"
#include "policy/common/source.h"
#include "policy/common/status_macros.h"
#include "policy/k8s/decode.h"
#include "policy/validate/cel_selectors.h"
#include "policy/validate/options.h"

namespace draguard::cli {
namespace {

struct CelFlags {
  std::string device;
  std::string output = "text";
  ClusterFlags cluster;
  bool help = false;
};

// What `cel eval` reports: a result, or an error of one phase.
struct Outcome {
  bool ok = false;
  bool value = false;
  std::string phase;  // "compile" or "runtime"
  std::string code;
  std::string message;
};

void PrintOutcome(const Outcome& o, bool json, std::ostream& out) {
  if (json) {
    nlohmann::json j;
    if (o.ok) {
      j["result"] = o.value;
    } else {
      j["error"] = {{"phase", o.phase}, {"code", o.code}, {"message", o.message}};
    }
    // Messages may quote bytes of the selector that are not UTF-8: replace them, never throw.
    out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return;
  }
  if (o.ok) {
    out << (o.value ? "true" : "false") << "\n";
  } else {
    out << o.phase << " error: " << o.message << " [" << o.code << "]\n";
  }
}

StatusOr<std::string> ReadFile(const std::string& path, std::istream& in) {
  if (path == "-") return std::string(std::istreambuf_iterator<char>(in), {});
  std::ifstream file(path, std::ios::binary);
  if (!file) return NotFoundError("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

// Splits FILE[:DEVICE]; a colon that is part of the path (no device after it) is kept.
std::pair<std::string, std::string> SplitDeviceSpec(const std::string& spec) {
  size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon + 1 == spec.size() ||
      spec.find('/', colon) != std::string::npos) {
    return {spec, ""};
  }
  return {spec.substr(0, colon), spec.substr(colon + 1)};
}

// Finds the device (first one when `name` is empty) among the ResourceSlices of the file,
// decoded as `version` serves them.
StatusOr<cel::DeviceData> LoadDevice(const std::string& spec, std::istream& in,
                                     KubernetesVersion version) {
  auto [path, name] = SplitDeviceSpec(spec);
  DRAGUARD_ASSIGN_OR_RETURN(std::string text, ReadFile(path, in));
  k8s::DecodeOptions options;
  options.version = version;
  k8s::DecodeResult decoded = k8s::Decode(SourceText(path, std::move(text)), options);
  for (const k8s::DecodedObject& object : decoded.objects) {
    const auto* slice = std::get_if<k8s::ResourceSlice>(&object.object);
    if (slice == nullptr) continue;
    for (const k8s::Device& device : slice->spec.devices) {
      if (!name.empty() && device.name != name) continue;
      cel::DeviceData data;
      data.driver = slice->spec.driver;
      data.attributes = device.attributes;
      for (const auto& [key, capacity] : device.capacity) data.capacity[key] = capacity.value;
      data.allow_multiple_allocations = device.allow_multiple_allocations;
      return data;
    }
  }
  if (!name.empty()) return NotFoundError("no device \"" + name + "\" in the ResourceSlices of " + path);
  return NotFoundError("no ResourceSlice with devices in " + path);
}

Outcome CompileOutcome(const cel::SelectorCompileResult& compiled) {
  Outcome o;
  for (const Diagnostic& d : compiled.issues) {
    if (!d.is_error()) continue;
    o.phase = "compile";
    o.code = d.code;
    o.message = d.message;
    return o;
  }
  o.ok = true;
  return o;
}

Outcome Evaluate(const cel::SelectorCompileResult& compiled, const cel::DeviceData& data,
                 const cel::DeviceOptions& device_options) {
  Outcome o;
  o.phase = "runtime";
  StatusOr<cel::Program> program = cel::Plan(*compiled.ast);
  if (!program.ok()) {
    o.code = "cel.program-instantiation";
    o.message = program.status().message();
    return o;
  }
  StatusOr<cel::PreparedDevice> device =
      cel::PreparedDevice::Prepare(data, device_options);
  if (!device.ok()) {
    o.code = "cel.invalid-device";
    o.message = device.status().message();
    return o;
  }
  cel::EvalState state;
  StatusOr<bool> result = cel::EvaluateSelector(*program, *device, state);
  if (!result.ok()) {
    o.code = "cel.runtime-error";
    o.message = result.status().message();
    return o;
  }
  o.ok = true;
  o.value = *result;
  return o;
}

// `cel check --output json`: {"ok", "resultType", "cost", "costLimit", "diagnostics": [...]}
// with each diagnostic's severity, code, message, suggestion, line and column in the
// expression (1-based).
void PrintCheckJson(const std::string& expression, const cel::SelectorCompileResult& compiled,
                    std::ostream& out) {
  const SourceText source("<input>", expression);
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const Diagnostic& d : compiled.issues) {
    SourcePosition pos = source.PositionOf(d.value_offset < 0 ? 0 : d.value_offset);
    nlohmann::json j = {{"severity", std::string(SeverityName(d.severity))},
                        {"code", d.code},
                        {"message", d.message},
                        {"line", pos.line},
                        {"column", pos.column}};
    if (!d.suggestion.empty()) j["suggestion"] = d.suggestion;
    diagnostics.push_back(std::move(j));
  }
  nlohmann::json doc = {{"ok", compiled.ok()}, {"diagnostics", std::move(diagnostics)}};
  if (compiled.ok()) {
    doc["resultType"] = compiled.checked.result_type().DebugString();
    doc["cost"] = compiled.cost.max;
    doc["costLimit"] = cel::kMaxSelectorCost;
  }
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void PrintCheck(const std::string& expression, const cel::SelectorCompileResult& compiled,
                std::ostream& out) {
  const SourceText source("<input>", expression);
  for (const Diagnostic& d : compiled.issues) {
    SourcePosition pos = source.PositionOf(d.value_offset < 0 ? 0 : d.value_offset);
    out << "<input>:" << pos.line << ":" << pos.column << ": " << SeverityName(d.severity)
        << ": " << d.message << " [" << d.code << "]\n"
        << RenderSnippet(source, pos) << "\n";
    if (!d.suggestion.empty()) out << "  suggestion: " << d.suggestion << "\n";
  }
  if (compiled.ok()) {
    out << "ok: result type " << compiled.checked.result_type().DebugString()
        << ", estimated cost " << compiled.cost.max << " (limit " << cel::kMaxSelectorCost
        << ")\n";
  }
}

}  // namespace

int RunCel(const std::vector<std::string>& args, CommandContext& context) {
  CelFlags flags;
  FlagSet set(
      "draguard cel check EXPR [flags]\n"
      "       draguard cel eval EXPR --device FILE[:DEVICE] [flags]");
  set.AddString("device", &flags.device, "FILE[:DEVICE]",
                "ResourceSlice file (YAML or JSON, - for stdin) and device name (default: the "
                "first device)");
  set.AddString("output", &flags.output, "text|json", "output format of check and eval");
  flags.cluster.Register(set);
  set.AddBool("help", &flags.help, "show this help");
  std::vector<std::string> positional;
  if (Status s = set.Parse(args, &positional); !s.ok()) {
    context.err << "draguard cel: " << s.message() << "\n";
    return kExitUsage;
  }
  if (flags.help) {
    context.out << set.Help(context.program);
    return kExitOk;
  }
  if (positional.size() != 2 || (positional[0] != "check" && positional[0] != "eval")) {
    context.err << "draguard cel: expected `check EXPR` or `eval EXPR --device FILE`\n"
                << set.Help(context.program);
    return kExitUsage;
  }
  if (flags.output != "text" && flags.output != "json") {
    context.err << "draguard cel: --output must be text or json\n";
    return kExitUsage;
  }
  StatusOr<ClusterSettings> settings = ResolveClusterFlags(flags.cluster, context.err);
  if (!settings.ok()) {
    context.err << "draguard cel: " << settings.status().message() << "\n";
    return kExitUsage;
  }
  const validate::ValidationOptions options = settings->Validation();
  const std::string& expression = positional[1];
  cel::SelectorCompileResult compiled = cel::CompileSelector(
      expression, validate::CelEnvOptions(options, validate::SelectorKind::kNewExpression));

  if (positional[0] == "check") {
    if (flags.output == "json") {
      PrintCheckJson(expression, compiled, context.out);
    } else {
      PrintCheck(expression, compiled, context.out);
    }
    return compiled.ok() ? kExitOk : kExitFindings;
  }
  if (flags.device.empty()) {
    context.err << "draguard cel eval: --device FILE[:DEVICE] is required\n";
    return kExitUsage;
  }
  StatusOr<cel::DeviceData> device = LoadDevice(flags.device, context.in, settings->version);
  if (!device.ok()) {
    context.err << "draguard cel eval: " << device.status().message() << "\n";
    return kExitUsage;
  }
  Outcome outcome = CompileOutcome(compiled);
  if (outcome.ok) {
    outcome = Evaluate(compiled, *device,
                       {.consumable_capacity = options.Enabled(Gate::kDRAConsumableCapacity),
                        .list_type_attributes = options.Enabled(Gate::kDRAListTypeAttributes)});
  }
  PrintOutcome(outcome, flags.output == "json", context.out);
  return outcome.ok ? kExitOk : kExitFindings;
}

}  // namespace draguard::cli
