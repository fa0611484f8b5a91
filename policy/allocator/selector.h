// How the allocator asks whether a device passes a CEL selector.
//
// The allocator never compiles CEL itself: callers pass a SelectorEvaluator (the CEL adapter
// in production, a fake in tests). Each device is presented as a DeviceView whose `id` is
// stable for the lifetime of one Inventory, so an adapter can prepare the device once
// (driver, attributes keyed by qualified name, capacity quantities) and reuse it for every
// expression. The allocator itself memoises results per (request, device content) across
// nodes: devices equal in what CEL sees (InventoryDevice::selector_class) share one result.
#ifndef DRAGUARD_POLICY_ALLOCATOR_SELECTOR_H_
#define DRAGUARD_POLICY_ALLOCATOR_SELECTOR_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/k8s/resource_slice.h"

namespace draguard::alloc {

// One device as CEL sees it. Pointers and views stay valid as long as the Inventory lives.
struct DeviceView {
  size_t id = 0;               // dense index in Inventory::devices(); a cache key
  std::string_view driver;     // device.driver
  std::string_view pool;
  std::string_view name;
  const k8s::Device* device = nullptr;  // attributes, capacity, allowMultipleAllocations
};

enum class SelectorOutcome { kMatch, kNoMatch, kError };

struct SelectorResult {
  SelectorOutcome outcome = SelectorOutcome::kNoMatch;
  std::string error;  // the CEL compile or runtime error text when outcome == kError

  static SelectorResult Match() { return {SelectorOutcome::kMatch, {}}; }
  static SelectorResult NoMatch() { return {SelectorOutcome::kNoMatch, {}}; }
  static SelectorResult Error(std::string text) { return {SelectorOutcome::kError, std::move(text)}; }
};

// Decides whether a device passes one CEL selector. An error is fatal for the claim, as in the
// scheduler (allocator_*.go `selectorsMatch`). Implementations may cache compiled programs; they
// are called from one thread per CheckClaim call and must not throw. The result (and an error's
// text) must depend only on what CEL sees of the device: the driver, the attributes, the capacity
// values and allowMultipleAllocations, never on the device's name or pool, because the allocator
// evaluates one device per distinct content and reuses the result.
// One attribute a selector reads: `device.attributes["domain"].name`.
struct AttributeName {
  std::string domain;
  std::string name;
  friend bool operator==(const AttributeName&, const AttributeName&) = default;
  friend auto operator<=>(const AttributeName&, const AttributeName&) = default;
};

class SelectorEvaluator {
 public:
  virtual ~SelectorEvaluator() = default;
  virtual SelectorResult Evaluate(std::string_view expression, const DeviceView& device) = 0;

  // The attributes `expression` reads (by name, in any context: a value, a presence test),
  // when that can be told without evaluating it: then its result and error on a device depend
  // only on those attributes, the driver, the capacities and allowMultipleAllocations. nullopt
  // (the default) when it may read any attribute (the whole map of a domain, a shadowed
  // `device`, an expression that does not compile). The allocator uses it to decide devices
  // that differ only in attributes no selector of a check reads (per-device uuids) as one
  // (Inventory's shape classes); without it, every distinct device content is decided apart.
  virtual std::optional<std::vector<AttributeName>> AttributesRead(std::string_view expression) {
    (void)expression;
    return std::nullopt;
  }
};

}  // namespace draguard::alloc

#endif  // DRAGUARD_POLICY_ALLOCATOR_SELECTOR_H_
