// Fuzzes the CEL runtime: every expression that parses is planned and evaluated twice
// against a fixed GPU device with small limits, and once more planned without the fast
// form (fast_predicate.h). Invariants: no crash or sanitizer report, a plan failure is a
// "program instantiation failed" status, evaluation is deterministic (same result text
// both times), and the fast form changes neither the result nor the actual cost.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "policy/cel/dra/device.h"
#include "policy/cel/parser.h"
#include "policy/cel/program.h"

namespace {

const draguard::cel::PreparedDevice& Device() {
  static const draguard::cel::PreparedDevice* device = [] {
    draguard::cel::DeviceData d;
    d.driver = "gpu.example.com";
    d.attributes["model"].string_value = "A100";
    d.attributes["numa.example.com/node"].int_value = 1;
    d.attributes["driverVersion"].version_value = "1.2.3-rc.1";
    d.attributes["ecc"].bool_value = true;
    d.capacity["memory"] = "80Gi";
    auto prepared = draguard::cel::PreparedDevice::Prepare(d, {.consumable_capacity = true});
    if (!prepared.ok()) std::abort();
    return new draguard::cel::PreparedDevice(*std::move(prepared));
  }();
  return *device;
}

std::string Describe(const draguard::StatusOr<bool>& r) {
  return r.ok() ? (*r ? "true" : "false") : r.status().message();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 2048) return 0;
  std::string_view expr(reinterpret_cast<const char*>(data), size);
  draguard::cel::ParseResult parsed = draguard::cel::Parse(expr);
  if (!parsed.ok()) return 0;
  draguard::cel::RuntimeOptions options{.cost_limit = 20000, .comprehension_max_iterations = 2000};
  auto program = draguard::cel::Plan(*parsed.ast, options);
  if (!program.ok()) {
    if (program.status().message().rfind("program instantiation failed: ", 0) != 0) std::abort();
    return 0;
  }
  draguard::cel::EvalState state;
  std::string first = Describe(draguard::cel::EvaluateSelector(*program, Device(), state));
  std::string second = Describe(draguard::cel::EvaluateSelector(*program, Device(), state));
  if (first != second) std::abort();
  options.fast_path = false;
  auto general = draguard::cel::Plan(*parsed.ast, options);
  if (!general.ok()) std::abort();  // the fast form is built after planning succeeded
  draguard::cel::EvalState general_state;
  std::string reference =
      Describe(draguard::cel::EvaluateSelector(*general, Device(), general_state));
  if (reference != first || general_state.cost() != state.cost()) std::abort();
  return 0;
}
