// The CEL adapter of the allocator (cel_evaluator.h).
#include "policy/allocator/cel_evaluator.h"

#include <optional>
#include <utility>

#include "policy/k8s/resource_slice.h"

namespace draguard::alloc {

struct CelSelectorEvaluator::Prepared {
  std::optional<cel::PreparedDevice> device;
  std::string error;  // set when device is empty
};

namespace {

cel::EnvOptions EnvFor(const AllocatorOptions& options) {
  cel::EnvOptions env;
  env.version = options.version;
  env.mode = cel::EnvOptions::kStoredExpressions;
  env.consumable_capacity_gate = options.gates.Enabled(Gate::kDRAConsumableCapacity);
  env.list_type_attributes_gate = options.gates.Enabled(Gate::kDRAListTypeAttributes);
  return env;
}

// The first compile error the scheduler would also raise. The cost estimate is the API
// server's admission check; the scheduler compiles without it.
const Diagnostic* SchedulerCompileError(const cel::SelectorCompileResult& compiled) {
  for (const Diagnostic& d : compiled.issues) {
    if (d.is_error() && d.code != "cel.cost-exceeded") return &d;
  }
  return nullptr;
}

// Compiles and plans as the scheduler does; never throws.
CelProgramCache::Compiled CompileForScheduler(std::string_view expression,
                                              const cel::EnvOptions& env) {
  CelProgramCache::Compiled entry;
  const cel::SelectorCompileResult compiled = cel::CompileSelector(expression, env);
  if (const Diagnostic* error = SchedulerCompileError(compiled)) {
    entry.error = error->message;
  } else if (compiled.ast == nullptr) {
    entry.error = "compilation failed";
  } else {
    StatusOr<cel::Program> program = cel::Plan(*compiled.ast);
    if (program.ok()) {
      entry.program.emplace(std::move(program).value());
    } else {
      entry.error = std::string(program.status().message());
    }
  }
  return entry;
}

}  // namespace

std::shared_ptr<const CelProgramCache::Compiled> CelProgramCache::Get(
    std::string_view expression, const cel::EnvOptions& env) {
  thread_local std::string key;
  cel::SelectorCacheKey(expression, env, key);
  return cache_.FindOrMake(
      key,
      [&] { return std::make_shared<const Compiled>(CompileForScheduler(expression, env)); },
      [](const Compiled& c) {
        return sizeof(Compiled) + HeapBytes(c.error) +
               (c.program ? c.program->ApproximateBytes() : 0);
      });
}

CelSelectorEvaluator::CelSelectorEvaluator(const AllocatorOptions& options,
                                           std::shared_ptr<CelProgramCache> programs)
    : env_(EnvFor(options)),
      programs_(programs ? std::move(programs) : std::make_shared<CelProgramCache>()) {}

CelSelectorEvaluator::~CelSelectorEvaluator() = default;

const CelProgramCache::Compiled& CelSelectorEvaluator::Lookup(std::string_view expression) {
  if (last_ == nullptr || expression != last_expression_) {
    last_ = programs_->Get(expression, env_);
    last_expression_.assign(expression);
  }
  return *last_;
}

const CelSelectorEvaluator::Prepared& CelSelectorEvaluator::PrepareOnce(const DeviceView& view) {
  if (view.id >= devices_.size()) devices_.resize(view.id + 1);
  std::unique_ptr<Prepared>& slot = devices_[view.id];
  if (slot) return *slot;
  slot = std::make_unique<Prepared>();
  ++prepared_count_;
  cel::DeviceData data;
  data.driver = std::string(view.driver);
  if (view.device != nullptr) {
    data.attributes = view.device->attributes;
    for (const auto& [name, capacity] : view.device->capacity) data.capacity[name] = capacity.value;
    data.allow_multiple_allocations = view.device->allow_multiple_allocations;
  }
  StatusOr<cel::PreparedDevice> prepared = cel::PreparedDevice::Prepare(
      data, {.consumable_capacity = env_.consumable_capacity_gate,
             .list_type_attributes = env_.list_type_attributes_gate});
  if (prepared.ok()) {
    slot->device.emplace(std::move(prepared).value());
  } else {
    slot->error = std::string(prepared.status().message());
  }
  return *slot;
}

SelectorResult CelSelectorEvaluator::Evaluate(std::string_view expression,
                                              const DeviceView& device) {
  const CelProgramCache::Compiled& compiled = Lookup(expression);
  if (!compiled.program) return SelectorResult::Error(compiled.error);
  const Prepared& prepared = PrepareOnce(device);
  if (!prepared.device) return SelectorResult::Error(prepared.error);
  StatusOr<bool> result = cel::EvaluateSelector(*compiled.program, *prepared.device, state_);
  if (!result.ok()) return SelectorResult::Error(std::string(result.status().message()));
  return *result ? SelectorResult::Match() : SelectorResult::NoMatch();
}

}  // namespace draguard::alloc
