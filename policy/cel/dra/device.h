// The DRA `device` variable: a device's attributes and capacity prepared once as CEL
// values, and selector evaluation as the Kubernetes scheduler does it.
//
// Preparation applies the domain rule (dynamic-resource-allocation cel/compile.go
// `parseQualifiedName`): a qualified name is split at the
// first '/'; a name without '/' belongs to the driver's domain. Version attributes become
// Semver values, capacities Quantity values. The outer maps `device.attributes` and
// `device.capacity` are defaulting maps (compile.go `newStringInterfaceMapWithDefault`):
// an unknown domain reads as an empty map,
// while `in` sees the real key set. Evaluating a selector borrows the prepared data and
// copies nothing.
#ifndef DRAGUARD_POLICY_CEL_DEVICE_H_
#define DRAGUARD_POLICY_CEL_DEVICE_H_

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "policy/cel/program.h"
#include "policy/cel/value.h"
#include "policy/common/status_or.h"
#include "policy/k8s/resource_slice.h"

namespace draguard::cel {

// A device as published in a ResourceSlice, keyed by qualified name as written.
struct DeviceData {
  std::string driver;
  std::map<std::string, k8s::DeviceAttribute> attributes;  // "model", "gpu.example.com/family"
  std::map<std::string, std::string> capacity;              // name -> Quantity text
  std::optional<bool> allow_multiple_allocations;
};

struct DeviceOptions {
  // Feature gate DRAConsumableCapacity: exposes device.allowMultipleAllocations
  // (false when the device does not set it).
  bool consumable_capacity = false;
  // Feature gate DRAListTypeAttributes: list-typed attributes become CEL lists (versions:
  // lists of Semver). Off, a device with a list attribute cannot be prepared ("attribute
  // <name>: unsupported attribute value"), which fails every selector on it, as upstream.
  bool list_type_attributes = false;
};

// Immutable, movable, shareable across threads once built.
class PreparedDevice {
 public:
  // Errors: INVALID_ARGUMENT naming the attribute or capacity when an attribute sets
  // no value (or several), a version is not semver, or a capacity is not a quantity.
  static StatusOr<PreparedDevice> Prepare(const DeviceData& data, const DeviceOptions& options = {});

  PreparedDevice(PreparedDevice&&) noexcept;
  PreparedDevice& operator=(PreparedDevice&&) noexcept;
  ~PreparedDevice();

  // The value bound to `device` (borrows this object's storage).
  const Value& device() const;

 private:
  friend StatusOr<bool> EvaluateSelector(const Program& program, const PreparedDevice& device,
                                         EvalState& state);  // uses the prepared binding
  struct Storage;
  PreparedDevice();
  std::unique_ptr<Storage> storage_;
};

// Evaluates a selector program against a device, as the scheduler does. Returns the
// boolean result, or INVALID_ARGUMENT whose message is the scheduler's text:
// "CEL runtime error: no such key: ecc", or for a non-bool result
// "CEL result of type string could not be converted to bool: <value>".
StatusOr<bool> EvaluateSelector(const Program& program, const PreparedDevice& device,
                                EvalState& state);

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_DEVICE_H_
