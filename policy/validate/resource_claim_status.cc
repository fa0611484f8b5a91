// ResourceClaim status update (validation.go validateResourceClaimStatusUpdate): reservedFor,
// the write-once allocation and, with DRAResourceClaimDeviceStatus, status.devices.
#include <set>
#include <string>
#include <tuple>

#include "policy/validate/device_claim.h"
#include "policy/validate/equality.h"
#include "policy/validate/list_checks.h"
#include "policy/validate/names.h"
#include "policy/validate/resource_claim.h"
#include "policy/validate/shared_rules.h"

namespace draguard::validate {
namespace {

constexpr size_t kReservedForMaxSize = 256;
constexpr size_t kAllocationResultsMaxSize = 32;
constexpr size_t kAllocationConfigMaxSize = 64;
constexpr size_t kBindingConditionsMaxSize = 4;
constexpr size_t kDeviceConditionsMaxSize = 8;
constexpr size_t kDeviceDataMaxLength = 10 * 1024;
constexpr size_t kNetworkInterfaceNameMaxLength = 256;
constexpr size_t kNetworkHardwareAddressMaxLength = 128;
constexpr size_t kNetworkIPsMaxSize = 16;

void ValidateReservedFor(Reporter& r, const k8s::ResourceClaim& old_claim,
                         const k8s::ResourceClaim& claim, const ValidationOptions& options) {
  const k8s::ResourceClaimStatus& status = *claim.status;
  FieldPath path("status.reservedFor");
  internal::ValidateList(r, "claim.status.reserved-for.too-many", status.reserved_for,
                         kReservedForMaxSize, path, options,
                         [&](const k8s::ResourceClaimConsumerReference& ref, const FieldPath& at) {
                           if (ref.resource.empty())
                             r.Required("claim.status.reserved-for.required", at.Child("resource"));
                           if (ref.name.empty())
                             r.Required("claim.status.reserved-for.required", at.Child("name"));
                           if (ref.uid.empty())
                             r.Required("claim.status.reserved-for.required", at.Child("uid"));
                         });
  internal::CheckUnique(r, "claim.status.reserved-for.duplicate", status.reserved_for, path,
                        options, "",
                        [](const auto& ref) -> std::string_view { return ref.uid; });
  if (!status.reserved_for.empty() && !status.allocation.has_value()) {
    r.Forbidden("claim.status.reserved-for.forbidden", path,
                "may not be specified when `allocated` is not set");
  }
  if (claim.metadata.has_deletion_timestamp) {
    std::set<std::string> old_uids;
    if (old_claim.status.has_value()) {
      for (const auto& ref : old_claim.status->reserved_for) old_uids.insert(ref.uid);
    }
    for (const auto& ref : status.reserved_for) {
      if (old_uids.count(ref.uid) == 0) {
        r.Forbidden("claim.status.reserved-for.forbidden", path,
                    "new entries may not be added while `deallocationRequested` or "
                    "`deletionTimestamp` is set");
        break;
      }
    }
  }
}

void ValidateConditionNames(Reporter& r, const std::vector<std::string>& names,
                            const FieldPath& path, const ValidationOptions& options) {
  internal::ValidateList(r, "claim.status.binding-conditions.too-many", names,
                         kBindingConditionsMaxSize, path, options,
                         [&](const std::string& name, const FieldPath& at) {
                           ValidateLabelKey(r, "claim.status.binding-conditions.invalid", name, at);
                         });
  internal::CheckUnique(r, "claim.status.binding-conditions.duplicate", names, path, options, "",
                        [](const std::string& s) -> std::string_view { return s; });
}

void ValidateResult(Reporter& r, const k8s::DeviceRequestAllocationResult& result,
                    const FieldPath& at, const std::set<std::string, std::less<>>& names,
                    const ValidationOptions& options) {
  if (names.count(result.request) == 0) {
    r.Invalid("claim.status.allocation.request.invalid", at.Child("request"),
              FieldValue::String(result.request),
              "must be the name of a request in the claim or the name of a request and a "
              "subrequest separated by '/'");
  }
  ValidateDriverName(r, "claim.status.allocation.driver.invalid", result.driver,
                     at.Child("driver"));
  ValidatePoolName(r, "claim.status.allocation.pool.invalid", result.pool, at.Child("pool"));
  ValidateDNSLabel(r, "claim.status.allocation.device.invalid", result.device, at.Child("device"));
  ValidateConditionNames(r, result.binding_conditions, at.Child("bindingConditions"), options);
  ValidateConditionNames(r, result.binding_failure_conditions, at.Child("bindingFailureConditions"),
                         options);
  if (result.binding_conditions.empty() != result.binding_failure_conditions.empty()) {
    r.Invalid("claim.status.binding-conditions.invalid", at.Child("bindingConditions"),
              FieldValue::Null(),
              "bindingConditions and bindingFailureConditions must be set together");
  }
}

void ValidateAllocation(Reporter& r, const k8s::ResourceClaim& claim,
                        const ValidationOptions& options) {
  const k8s::AllocationResult& allocation = *claim.status->allocation;
  FieldPath devices("status.allocation.devices");
  auto names = internal::CollectRequestNames(claim.spec.devices);
  internal::ValidateList(r, "claim.status.allocation.results.too-many", allocation.devices.results,
                         kAllocationResultsMaxSize, devices.Child("results"), options,
                         [&](const auto& result, const FieldPath& at) {
                           ValidateResult(r, result, at, names, options);
                         });
  internal::ValidateList(
      r, "claim.status.allocation.config.too-many", allocation.devices.config,
      kAllocationConfigMaxSize, devices.Child("config"), options,
      [&](const k8s::DeviceAllocationConfiguration& config, const FieldPath& at) {
        if (config.source.empty()) {
          r.Required("claim.status.allocation.config.source.invalid", at.Child("source"));
        } else if (config.source != "FromClaim" && config.source != "FromClass") {
          r.NotSupported("claim.status.allocation.config.source.invalid", at.Child("source"),
                         FieldValue::String(config.source), {"FromClaim", "FromClass"});
        }
        for (size_t i = 0; i < config.requests.size(); ++i) {
          if (names.count(config.requests[i]) == 0) {
            r.Invalid("claim.status.allocation.request.invalid", at.Child("requests").Index(i),
                      FieldValue::String(config.requests[i]),
                      "must be the name of a request in the claim or the name of a request "
                      "and a subrequest separated by '/'");
          }
        }
        internal::ValidateDeviceConfiguration(r, config, at, /*stored=*/false);
      });
  if (allocation.node_selector.has_value() &&
      allocation.node_selector->node_selector_terms.empty()) {
    r.Required("claim.status.allocation.node-selector.invalid",
               FieldPath("status.allocation.nodeSelector.nodeSelectorTerms"),
               "must have at least one node selector term");
  }
}

// AuthorizedForAdminStatus: a newly written allocation with adminAccess needs the label.
void CheckAllocationAdminAccess(Reporter& r, const k8s::ResourceClaim& claim,
                                const ValidationOptions& options) {
  const auto& results = claim.status->allocation->devices.results;
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].admin_access != true) continue;
    internal::CheckAdminNamespace(
        r, claim.metadata.name_space,
        FieldPath("status.allocation.devices.results").Index(i).Child("adminAccess"), options);
    return;
  }
}

using DeviceKey = std::tuple<std::string, std::string, std::string, std::string>;

FieldValue DeviceValue(const k8s::AllocatedDeviceStatus& dev) {
  return FieldValue::Raw("{" + dev.driver + " " + dev.pool + " " + dev.device + "}");
}

void ValidateNetworkData(Reporter& r, const k8s::AllocatedDeviceStatus& dev, const FieldPath& at,
                         const ValidationOptions& options) {
  constexpr std::string_view kCode = "claim.status.device.network-data.invalid";
  FieldPath net = at.Child("networkData");
  if (dev.network_interface_name.has_value() &&
      dev.network_interface_name->size() > kNetworkInterfaceNameMaxLength) {
    r.TooLong(kCode, net.Child("interfaceName"), kNetworkInterfaceNameMaxLength);
  }
  if (dev.network_hardware_address.has_value() &&
      dev.network_hardware_address->size() > kNetworkHardwareAddressMaxLength) {
    r.TooLong(kCode, net.Child("hardwareAddress"), kNetworkHardwareAddressMaxLength);
  }
  if (dev.network_ips.size() > kNetworkIPsMaxSize) {
    r.TooMany(kCode, net.Child("ips"), static_cast<int64_t>(dev.network_ips.size()),
              kNetworkIPsMaxSize);
  }
  internal::CheckUnique(r, kCode, dev.network_ips, net.Child("ips"), options, "",
                        [](const std::string& s) -> std::string_view { return s; });
}

void ValidateDeviceStatus(Reporter& r, const k8s::AllocatedDeviceStatus& dev, const FieldPath& at,
                          const ValidationOptions& options) {
  if (dev.condition_count > kDeviceConditionsMaxSize) {
    r.TooMany("claim.status.device.conditions.too-many", at.Child("conditions"),
              static_cast<int64_t>(dev.condition_count), kDeviceConditionsMaxSize);
  }
  if (dev.data_json.has_value() && dev.data_raw_size > 0) {
    if (dev.data_raw_size > kDeviceDataMaxLength) {
      r.TooLong("claim.status.device.data.invalid", at.Child("data"), kDeviceDataMaxLength);
    } else if (!dev.data_is_object) {
      r.Invalid("claim.status.device.data.invalid", at.Child("data"), FieldValue::Omitted(),
                "must be a valid JSON object");
    }
  }
  ValidateNetworkData(r, dev, at, options);
}

void ValidateDeviceStatuses(Reporter& r, const k8s::ResourceClaim& claim,
                            const ValidationOptions& options) {
  std::set<DeviceKey> allocated, seen;
  if (claim.status->allocation.has_value()) {
    for (const auto& res : claim.status->allocation->devices.results) {
      allocated.insert({res.driver, res.pool, res.device, res.share_id});
    }
  }
  const auto& devices = claim.status->devices;
  for (size_t i = 0; i < devices.size(); ++i) {
    const k8s::AllocatedDeviceStatus& dev = devices[i];
    FieldPath at = FieldPath("status.devices").Index(i);
    DeviceKey key{dev.driver, dev.pool, dev.device, dev.share_id};
    if (!seen.insert(key).second) {
      r.Duplicate("claim.status.device.duplicate", at, DeviceValue(dev));
    } else if (allocated.count(key) == 0) {
      r.Invalid("claim.status.device.not-allocated", at, DeviceValue(dev),
                "must be an allocated device in the claim");
    }
    ValidateDeviceStatus(r, dev, at, options);
  }
}

}  // namespace

void ValidateResourceClaimStatusUpdate(const k8s::ResourceClaim& old_claim,
                                       const k8s::ResourceClaim& new_claim,
                                       const ValidationOptions& options, Diagnostics& diagnostics) {
  if (!new_claim.status.has_value()) return;
  size_t start = diagnostics.size();
  Reporter r(diagnostics);
  ValidateReservedFor(r, old_claim, new_claim, options);
  const auto& old_alloc =
      old_claim.status.has_value() ? old_claim.status->allocation : std::nullopt;
  const auto& new_alloc = new_claim.status->allocation;
  if (old_alloc.has_value() && new_alloc.has_value()) {
    if (!internal::Equal(*old_alloc, *new_alloc)) {
      r.Invalid("claim.status.allocation.immutable", FieldPath("status.allocation"),
                FieldValue::Raw("{...}"), "field is immutable");
    }
  } else if (new_alloc.has_value()) {
    ValidateAllocation(r, new_claim, options);
    CheckAllocationAdminAccess(r, new_claim, options);
  }
  if (options.Enabled(Gate::kDRAResourceClaimDeviceStatus)) {
    ValidateDeviceStatuses(r, new_claim, options);
  } else if (!new_claim.status->devices.empty()) {
    r.Warning("claim.status.devices.dropped", FieldPath("status.devices"),
              "status.devices will be ignored: the API server drops it because the "
              "DRAResourceClaimDeviceStatus feature gate is disabled");
  }
  CapDiagnostics(diagnostics, start, options.limits);
}

}  // namespace draguard::validate
