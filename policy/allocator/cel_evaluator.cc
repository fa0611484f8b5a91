// The CEL adapter of the allocator (cel_evaluator.h).
#include "policy/allocator/cel_evaluator.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "policy/allocator/selector_reads.h"
#include "policy/cel/direct_predicate.h"
#include "policy/k8s/resource_slice.h"

namespace draguard::alloc {

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

// Evaluations of a program by the general evaluator before its fast form is built
// (RuntimeOptions::fast_path_after): a selector met once (the webhook's new selector, decided
// for one device per read class) does not pay for a form it would not use; one evaluated on
// many devices gets it from its fifth evaluation.
constexpr uint32_t kGeneralRunsBeforeFastForm = 4;

// The variable a selector sees.
constexpr std::string_view kVariable = "device";

// Plans a compile result as the scheduler would have it; never throws.
CelProgramCache::Compiled PlanForScheduler(const cel::SelectorCompileResult& compiled) {
  CelProgramCache::Compiled entry;
  if (const Diagnostic* error = SchedulerCompileError(compiled)) {
    entry.error = error->message;
  } else if (compiled.ast == nullptr) {
    entry.error = "compilation failed";
  } else {
    cel::RuntimeOptions runtime;
    runtime.fast_path_after = kGeneralRunsBeforeFastForm;
    StatusOr<cel::Program> program = cel::Plan(*compiled.ast, runtime);
    if (program.ok()) {
      entry.program.emplace(std::move(program).value());
      entry.reads = AttributesReadBy(compiled.ast->root());
    } else {
      entry.error = std::string(program.status().message());
    }
  }
  return entry;
}

}  // namespace

std::shared_ptr<const cel::SelectorCompileResult> CelProgramCache::Reusable(
    std::string_view expression, const cel::EnvOptions& env) const {
  if (compiled_ == nullptr) return nullptr;
  // The NewExpressions result first: admission validates new objects in that mode, so it is
  // the one there (a lookup that misses costs ~650 instructions, the key built and hashed).
  // Without a scheduler error it plans the same program as a StoredExpressions result would.
  if (env.mode == cel::EnvOptions::kStoredExpressions) {
    cel::EnvOptions new_env = env;
    new_env.mode = cel::EnvOptions::kNewExpressions;
    auto found = compiled_->Find(expression, new_env);
    if (found != nullptr && found->ast != nullptr && SchedulerCompileError(*found) == nullptr) {
      return found;
    }
  }
  return compiled_->Find(expression, env);
}

std::shared_ptr<const cel::SelectorCompileResult> CelProgramCache::CompileResult(
    std::string_view expression, const cel::EnvOptions& env) {
  if (std::shared_ptr<const cel::SelectorCompileResult> known = Reusable(expression, env)) {
    reused_.fetch_add(1, std::memory_order_relaxed);
    return known;
  }
  own_.fetch_add(1, std::memory_order_relaxed);
  return std::make_shared<const cel::SelectorCompileResult>(cel::CompileSelector(expression, env));
}

std::shared_ptr<const CelProgramCache::Compiled> CelProgramCache::PlanUnplanned(
    const cel::SelectorCompileResult& unplanned) {
  return std::make_shared<const Compiled>(PlanForScheduler(unplanned));
}

std::shared_ptr<const CelProgramCache::Compiled> CelProgramCache::Get(
    std::string_view expression, const cel::EnvOptions& env) {
  thread_local std::string key;
  cel::SelectorCacheKey(expression, env, key);
  const CacheKey hashed(key);
  if (std::shared_ptr<const Compiled> found = cache_.Find(hashed)) return found;
  std::shared_ptr<const cel::SelectorCompileResult> source = CompileResult(expression, env);
  // A first miss under kOnSecondMiss: the caller's alone, neither estimated nor kept, and in
  // the subset decided from the tree, not even planned.
  const bool keep = seen_ == nullptr || seen_->Saw(hashed.hash());
  if (!keep && source->ast != nullptr && SchedulerCompileError(*source) == nullptr &&
      cel::DirectlyEvaluable(source->ast->root(), kVariable)) {
    auto unplanned = std::make_shared<Compiled>();
    unplanned->reads = AttributesReadBy(source->ast->root());
    unplanned->unplanned = std::move(source);
    return unplanned;
  }
  auto made = std::make_shared<Compiled>(PlanForScheduler(*source));
  if (!keep) return made;
  size_t reads = 0;
  if (made->reads) {
    for (const AttributeName& a : *made->reads) {
      reads += sizeof(a) + HeapBytes(a.domain) + HeapBytes(a.name);
    }
  }
  made->bytes = sizeof(Compiled) + HeapBytes(made->error) + reads +
                (made->program ? made->program->ApproximateBytes() : 0);
  made->kept = true;
  return cache_.Insert(hashed, made, made->bytes);
}

namespace {

// Prepares `view` as CEL sees it; never throws.
std::unique_ptr<PreparedDevices::Entry> MakeEntry(const DeviceView& view,
                                                  const cel::DeviceOptions& options) {
  auto entry = std::make_unique<PreparedDevices::Entry>();
  cel::DeviceData data;
  data.driver = std::string(view.driver);
  if (view.device != nullptr) {
    data.attributes = view.device->attributes;
    for (const auto& [name, capacity] : view.device->capacity) data.capacity[name] = capacity.value;
    data.allow_multiple_allocations = view.device->allow_multiple_allocations;
  }
  StatusOr<cel::PreparedDevice> prepared = cel::PreparedDevice::Prepare(data, options);
  if (prepared.ok()) {
    entry->device.emplace(std::move(prepared).value());
  } else {
    entry->error = std::string(prepared.status().message());
  }
  return entry;
}

}  // namespace

PreparedDevices::PreparedDevices(size_t devices)
    : slots_(std::make_unique<std::atomic<const Entry*>[]>(devices)), capacity_(devices) {
  for (size_t i = 0; i < devices; ++i) slots_[i].store(nullptr, std::memory_order_relaxed);
}

PreparedDevices::~PreparedDevices() {
  for (size_t i = 0; i < capacity_; ++i) Release(slots_[i].load(std::memory_order_relaxed));
}

void PreparedDevices::Release(const Entry* entry) {
  if (entry != nullptr && entry->tables.fetch_sub(1, std::memory_order_acq_rel) == 1) delete entry;
}

size_t PreparedDevices::ShareFrom(const PreparedDevices& previous,
                                  const std::vector<size_t>& same) {
  size_t shared = 0;
  for (size_t id = 0; id < same.size() && id < capacity_; ++id) {
    if (same[id] >= previous.capacity_) continue;  // kNoDevice, or beyond its table
    const Entry* entry = previous.slots_[same[id]].load(std::memory_order_acquire);
    if (entry == nullptr) continue;
    entry->tables.fetch_add(1, std::memory_order_relaxed);
    const Entry* expected = nullptr;
    if (!slots_[id].compare_exchange_strong(expected, entry, std::memory_order_acq_rel,
                                            std::memory_order_acquire)) {
      Release(entry);
      continue;
    }
    size_.fetch_add(1, std::memory_order_relaxed);
    ++shared;
  }
  return shared;
}

const PreparedDevices::Entry& PreparedDevices::Get(const DeviceView& view,
                                                   const cel::DeviceOptions& options,
                                                   std::unique_ptr<Entry>& spare) {
  if (view.id >= capacity_) {
    spare = MakeEntry(view, options);
    return *spare;
  }
  std::atomic<const Entry*>& slot = slots_[view.id];
  if (const Entry* known = slot.load(std::memory_order_acquire)) return *known;
  std::unique_ptr<Entry> made = MakeEntry(view, options);
  const Entry* expected = nullptr;
  if (slot.compare_exchange_strong(expected, made.get(), std::memory_order_acq_rel,
                                   std::memory_order_acquire)) {
    size_.fetch_add(1, std::memory_order_relaxed);
    made_.fetch_add(1, std::memory_order_relaxed);
    return *made.release();
  }
  return *expected;  // another thread prepared it first; ours is dropped
}

void PreparedDevices::MoveInto(PreparedDevices& larger) {
  for (size_t i = 0; i < capacity_ && i < larger.capacity_; ++i) {
    const Entry* entry = slots_[i].exchange(nullptr, std::memory_order_relaxed);
    if (entry == nullptr) continue;
    Release(larger.slots_[i].exchange(entry, std::memory_order_relaxed));
    larger.size_.fetch_add(1, std::memory_order_relaxed);
  }
  size_.store(0, std::memory_order_relaxed);
}

namespace {

constexpr size_t kOwnTableMinimum = 64;

}  // namespace

CelSelectorEvaluator::CelSelectorEvaluator(const AllocatorOptions& options,
                                           std::shared_ptr<CelProgramCache> programs,
                                           std::shared_ptr<PreparedDevices> devices)
    : env_(EnvFor(options)),
      programs_(programs ? std::move(programs) : std::make_shared<CelProgramCache>()),
      shared_(std::move(devices)) {}

CelSelectorEvaluator::~CelSelectorEvaluator() = default;

CelSelectorEvaluator::Recent& CelSelectorEvaluator::Lookup(std::string_view expression) {
  for (size_t k = 0; k < kRecent; ++k) {
    // The most recent first: a run of lookups of one selector stops at the first compare.
    Recent& r = recent_[(newest_ + kRecent - k) % kRecent];
    if (r.compiled != nullptr && r.expression == expression) return r;
  }
  std::shared_ptr<const CelProgramCache::Compiled> found = programs_->Get(expression, env_);
  // The previous newest, if large, is dropped: only the newest may be large.
  Recent& previous = recent_[newest_];
  if (previous.compiled != nullptr &&
      (previous.compiled->bytes > kRecentMaxBytes ||
       (!previous.compiled->kept && previous.expression.size() > kRecentMaxUncountedText))) {
    previous.compiled.reset();
    previous.planned.reset();
  }
  newest_ = (newest_ + 1) % kRecent;
  Recent& slot = recent_[newest_];
  slot.compiled = std::move(found);
  slot.planned.reset();
  slot.expression.assign(expression);
  return slot;
}

const PreparedDevices::Entry& CelSelectorEvaluator::PrepareOnce(const DeviceView& view) {
  PreparedDevices* table = shared_.get();
  if (table == nullptr) {
    if (own_ == nullptr || view.id >= own_->capacity()) {
      auto larger = std::make_unique<PreparedDevices>(
          std::max({kOwnTableMinimum, view.id + 1, own_ ? 2 * own_->capacity() : 0}));
      if (own_ != nullptr) own_->MoveInto(*larger);
      own_ = std::move(larger);
    }
    table = own_.get();
  }
  const size_t before = table->size();
  const PreparedDevices::Entry& entry =
      table->Get(view,
                 {.consumable_capacity = env_.consumable_capacity_gate,
                  .list_type_attributes = env_.list_type_attributes_gate},
                 spare_);
  if (table->size() != before || &entry == spare_.get()) ++prepared_count_;
  return entry;
}

SelectorResult CelSelectorEvaluator::Evaluate(std::string_view expression,
                                              const DeviceView& device) {
  Recent& recent = Lookup(expression);
  const CelProgramCache::Compiled* compiled = recent.compiled.get();
  if (compiled->unplanned != nullptr) {
    // Nothing in the subset fails to plan, so the device's error comes first as it would.
    const PreparedDevices::Entry& prepared = PrepareOnce(device);
    if (!prepared.device) return SelectorResult::Error(prepared.error);
    if (recent.planned == nullptr) {
      switch (cel::EvaluateDirect(compiled->unplanned->ast->root(), kVariable,
                                  prepared.device->device())) {
        case cel::DirectOutcome::kTrue: return SelectorResult::Match();
        case cel::DirectOutcome::kFalse: return SelectorResult::NoMatch();
        case cel::DirectOutcome::kBail: break;
      }
      recent.planned = CelProgramCache::PlanUnplanned(*compiled->unplanned);
    }
    compiled = recent.planned.get();
  }
  if (!compiled->program) return SelectorResult::Error(compiled->error);
  const PreparedDevices::Entry& prepared = PrepareOnce(device);
  if (!prepared.device) return SelectorResult::Error(prepared.error);
  StatusOr<bool> result = cel::EvaluateSelector(*compiled->program, *prepared.device, state_);
  if (!result.ok()) return SelectorResult::Error(std::string(result.status().message()));
  return *result ? SelectorResult::Match() : SelectorResult::NoMatch();
}

std::optional<std::vector<AttributeName>> CelSelectorEvaluator::AttributesRead(
    std::string_view expression) {
  return Lookup(expression).compiled->reads;
}

}  // namespace draguard::alloc
