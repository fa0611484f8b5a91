// DeviceClaim validation follows validateDeviceClaim (validation.go): requests first (collecting
// the names that constraints and config may reference: every request name, plus "req/sub" for each
// subrequest of a firstAvailable request), then constraints, then config.
#include "policy/validate/device_claim.h"

#include <algorithm>
#include <cstddef>
#include <set>
#include <string>
#include <utility>

#include "policy/common/quantity.h"
#include "policy/common/suggest.h"
#include "policy/validate/list_checks.h"
#include "policy/validate/names.h"
#include "policy/validate/shared_rules.h"

namespace draguard::validate::internal {
namespace {

constexpr char kAdminLabel[] = "resource.kubernetes.io/admin-access";
constexpr char kRefMessage[] =
    "must be the name of a request in the claim or the name of a request and a subrequest "
    "separated by '/'";

void ValidateAllocationMode(Reporter& r, const k8s::DeviceRequestCommon& req, const FieldPath& at) {
  if (req.allocation_mode == k8s::kAllocationModeExactCount) {
    if (req.count <= 0) {
      r.Invalid("claim.request.count.invalid", at.Child("count"), FieldValue::Int(req.count),
                "must be greater than zero")
          .suggestion = "set count to the number of devices needed (omit it for 1)";
    }
  } else if (req.allocation_mode == k8s::kAllocationModeAll) {
    if (req.count != 0) {
      r.Invalid("claim.request.count.invalid", at.Child("count"), FieldValue::Int(req.count),
                "must not be specified when allocationMode is 'All'")
          .suggestion = "remove count, or use allocationMode: ExactCount";
    }
  } else {
    Diagnostic& d =
        r.NotSupported("claim.request.allocation-mode.unsupported", at.Child("allocationMode"),
                       FieldValue::String(req.allocation_mode), {"All", "ExactCount"});
    if (auto m = ClosestMatch(req.allocation_mode, {"All", "ExactCount"})) d.suggestion = *m;
  }
}

// draguard's own checks of capacity requests, which upstream does not validate
// (validation.go's `validateExactDeviceRequest` has no capacity check).
void AdviseCapacity(Reporter& r, const k8s::CapacityRequirements& capacity, const FieldPath& at) {
  FieldPath requests = at.Child("capacity").Child("requests");
  for (const auto& [key, value] : capacity.requests) {
    Diagnostics scratch;
    Reporter probe(scratch);
    ValidateQualifiedName(probe, "claim.request.capacity.key.invalid", key, requests.Key(key));
    if (!scratch.empty()) {
      r.Warning("claim.request.capacity.key.invalid", requests.Key(key),
                "\"" + key + "\" is not a valid capacity name (" + scratch.items()[0].message +
                    "); the API server accepts it but no device can match it");
    }
    StatusOr<Quantity> quantity = Quantity::Parse(value);
    if (quantity.ok() && quantity->Sign() <= 0) {
      r.Warning("claim.request.capacity.value.not-positive", requests.Key(key),
                "capacity request " + value +
                    " is not positive: the API server accepts it, but it requests nothing");
    }
  }
}

// When the check of `value` reported a finding (the reporter held `before` findings when it
// began), offers a valid DNS name as that finding's suggestion. Only then: names are checked
// on every admission request, and most are valid.
void SuggestDNSNameIfReported(Reporter& r, size_t before, std::string_view value,
                              bool allow_dots, size_t max_length) {
  if (r.diagnostics().size() == before) return;
  std::string better = SuggestDNSName(value, allow_dots, max_length);
  if (!better.empty()) r.diagnostics().mutable_items().back().suggestion = std::move(better);
}

void ValidateRequestCommon(Reporter& r, const k8s::DeviceRequestCommon& req, const FieldPath& at,
                           const ValidationOptions& options, bool stored) {
  if (req.device_class_name.empty()) {
    r.Required("claim.request.device-class-name.required", at.Child("deviceClassName"));
  } else {
    size_t before = r.diagnostics().size();
    ValidateDNSSubdomain(r, "claim.request.device-class-name.invalid", req.device_class_name,
                         {at, "deviceClassName"});
    SuggestDNSNameIfReported(r, before, req.device_class_name, /*allow_dots=*/true, 253);
  }
  ValidateSelectors(r, req.selectors, at.Child("selectors"), options,
                    stored ? SelectorKind::kStoredExpression : SelectorKind::kNewExpression);
  ValidateAllocationMode(r, req, at);
  // Tolerations that reach validation are checked whatever the gate: with DRADeviceTaints off
  // they were dropped unless the stored object already used them (update ratcheting).
  // (An empty list has nothing to check: its path is not built.)
  if (!req.tolerations.empty()) {
    ValidateTolerations(r, req.tolerations, at.Child("tolerations"), options);
  }
  if (req.capacity.has_value()) AdviseCapacity(r, *req.capacity, at);
}

void ValidateRequest(Reporter& r, const k8s::DeviceRequest& request, const FieldPath& at,
                     const ValidationOptions& options, bool stored) {
  size_t before = r.diagnostics().size();
  ValidateDNSLabel(r, "claim.request.name.invalid", request.name, {at, "name"});
  SuggestDNSNameIfReported(r, before, request.name, /*allow_dots=*/false, 63);
  bool has_exactly = request.exactly.has_value();
  bool has_first = !request.first_available.empty();
  if (has_exactly && has_first) {
    r.Invalid("claim.request.exactly-or-first-available.both", at, FieldValue::Null(),
              "exactly one of `exactly` or `firstAvailable` is required, but multiple fields "
              "are set");
    return;
  }
  if (!has_exactly && !has_first) {
    r.Required("claim.request.exactly-or-first-available.missing", at,
               "exactly one of `exactly` or `firstAvailable` is required")
        .suggestion = "exactly: {deviceClassName: <class>}";
    return;
  }
  if (has_exactly) {
    ValidateRequestCommon(r, *request.exactly, at.Child("exactly"), options, stored);
    return;
  }
  FieldPath subs = at.Child("firstAvailable");
  ValidateList(r, "claim.request.first-available.too-many", request.first_available,
               kFirstAvailableDeviceRequestMaxSize, subs, options,
               [&](const k8s::DeviceSubRequest& sub, const FieldPath& sub_at) {
                 ValidateDNSLabel(r, "claim.subrequest.name.invalid", sub.name,
                                  {sub_at, "name"});
                 ValidateRequestCommon(r, sub, sub_at, options, stored);
               });
  if (request.first_available.size() <= kFirstAvailableDeviceRequestMaxSize ||
      !options.dialect().too_many_short_circuits) {
    CheckUnique(r, "claim.subrequest.name.duplicate", request.first_available, subs, options,
                "name",
                [](const k8s::DeviceSubRequest& s) -> std::string_view { return s.name; });
  }
}

// The codes of one list of request references (a constraint's or a config's), spelled out so
// that no code string is built unless a finding is reported.
struct RequestRefCodes {
  std::string_view too_many, duplicate, invalid, unknown;
};

constexpr RequestRefCodes kConstraintRefCodes = {
    "claim.constraint.requests.too-many", "claim.constraint.requests.duplicate",
    "claim.constraint.requests.invalid", "claim.constraint.requests.unknown"};
constexpr RequestRefCodes kConfigRefCodes = {
    "claim.config.requests.too-many", "claim.config.requests.duplicate",
    "claim.config.requests.invalid", "claim.config.requests.unknown"};

// validation.go validateRequestNameRef.
void ValidateRequestRef(Reporter& r, const RequestRefCodes& codes, const std::string& ref,
                        const FieldPath& at, const RequestNames& names) {
  if (std::count(ref.begin(), ref.end(), '/') > 1) {
    r.Invalid(codes.invalid, at, FieldValue::String(ref), kRefMessage);
    return;
  }
  ForEachSplitPart(ref, '/', [&](std::string_view segment) {
    if (IsDNS1123LabelValid(segment)) return;
    for (const std::string& m : IsDNS1123Label(segment)) {
      r.Invalid(codes.invalid, at, FieldValue::String(segment), m);
    }
  });
  if (names.count(ref) == 0) {
    Diagnostic& d = r.Invalid(codes.unknown, at, FieldValue::String(ref), kRefMessage);
    std::vector<std::string_view> candidates(names.begin(), names.end());
    if (auto m = ClosestMatch(ref, candidates)) d.suggestion = *m;
  }
}

// Whether ValidateRequestRef would report nothing about `ref`: its conditions, kept beside it.
bool RequestRefIsValid(std::string_view ref, const RequestNames& names) {
  if (std::count(ref.begin(), ref.end(), '/') > 1 || names.find(ref) == names.end()) return false;
  bool valid = true;
  ForEachSplitPart(ref, '/', [&](std::string_view segment) {
    valid = valid && IsDNS1123LabelValid(segment);
  });
  return valid;
}

// `field` is the list's path, made only for a finding: a claim's references are nearly
// always valid, and their paths (the list's and one per item) were most of their check.
void ValidateRequestRefs(Reporter& r, const RequestRefCodes& codes,
                         const std::vector<std::string>& refs, const FieldPathRef& field,
                         const ValidationOptions& options, const RequestNames& names) {
  // What the checks below would find nothing in: within the limit, each reference valid
  // and named once (the repeat scan is CheckUnique's for such a short list).
  bool clean = refs.size() <= kUniqueScanUpTo && refs.size() <= kDeviceRequestsMaxSize;
  for (size_t i = 0; clean && i < refs.size(); ++i) {
    clean = RequestRefIsValid(refs[i], names) &&
            std::find(refs.begin(), refs.begin() + static_cast<std::ptrdiff_t>(i), refs[i]) ==
                refs.begin() + static_cast<std::ptrdiff_t>(i);
  }
  if (clean) return;
  const FieldPath at = field.Get();
  ValidateList(r, codes.too_many, refs, kDeviceRequestsMaxSize, at, options,
               [&](const std::string& ref, const FieldPath& ref_at) {
                 ValidateRequestRef(r, codes, ref, ref_at, names);
               });
  if (refs.size() <= kDeviceRequestsMaxSize || !options.dialect().too_many_short_circuits) {
    CheckUnique(r, codes.duplicate, refs, at, options, "",
                [](const std::string& s) -> std::string_view { return s; });
  }
}

void AdviseAttribute(Reporter& r, const k8s::DeviceConstraint& c, const FieldPath& at) {
  if (c.match_attribute.has_value() && c.distinct_attribute.has_value()) {
    r.Warning("claim.constraint.attribute.both", at.Child("distinctAttribute"),
              "both matchAttribute and distinctAttribute are set; the API server only checks "
              "matchAttribute and the scheduler applies both, which is rarely intended",
              "keep one of matchAttribute or distinctAttribute");
  }
  for (const auto* attr : {&c.match_attribute, &c.distinct_attribute}) {
    if (attr->has_value() && std::count((*attr)->begin(), (*attr)->end(), '/') > 1) {
      r.Warning("claim.constraint.attribute.unchecked",
                at.Child(attr == &c.match_attribute ? "matchAttribute" : "distinctAttribute"),
                "\"" + **attr +
                    "\" has more than one '/': the API server does not check such "
                    "names and no device attribute can have one");
    }
  }
}

void ValidateConstraint(Reporter& r, const k8s::DeviceConstraint& c, const FieldPath& at,
                        const ValidationOptions& options, const RequestNames& names) {
  ValidateRequestRefs(r, kConstraintRefCodes, c.requests, {at, "requests"}, options,
                      names);
  if (c.match_attribute.has_value()) {
    ValidateFullyQualifiedName(r, "claim.constraint.match-attribute.invalid", *c.match_attribute,
                               {at, "matchAttribute"});
  } else if (c.distinct_attribute.has_value()) {
    ValidateFullyQualifiedName(r, "claim.constraint.distinct-attribute.invalid",
                               *c.distinct_attribute, {at, "distinctAttribute"});
  } else if (options.Enabled(Gate::kDRAConsumableCapacity)) {
    r.Required("claim.constraint.attribute.required", at,
               "exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but "
               "multiple fields are set");
  } else {
    r.Required("claim.constraint.attribute.required", at.Child("matchAttribute"));
  }
  AdviseAttribute(r, c, at);
}

}  // namespace

RequestNames CollectRequestNames(const k8s::DeviceClaim& claim) {
  RequestNames names;
  for (const k8s::DeviceRequest& request : claim.requests) {
    names.insert(request.name);
    if (request.exactly.has_value()) continue;
    for (const k8s::DeviceSubRequest& sub : request.first_available) {
      names.insert(request.name + "/" + sub.name);
    }
  }
  return names;
}

void ValidateDeviceClaim(Reporter& r, const k8s::DeviceClaim& claim, const FieldPath& devices,
                         const ValidationOptions& options, bool stored) {
  FieldPath requests = devices.Child("requests");
  ValidateList(r, "claim.requests.too-many", claim.requests, kDeviceRequestsMaxSize, requests,
               options, [&](const k8s::DeviceRequest& req, const FieldPath& at) {
                 ValidateRequest(r, req, at, options, stored);
               });
  if (claim.requests.size() <= kDeviceRequestsMaxSize ||
      !options.dialect().too_many_short_circuits) {
    CheckUnique(r, "claim.request.name.duplicate", claim.requests, requests, options, "name",
                [](const k8s::DeviceRequest& req) -> std::string_view { return req.name; });
  }
  RequestNames names = CollectRequestNames(claim);
  ValidateList(r, "claim.constraints.too-many", claim.constraints, kDeviceConstraintsMaxSize,
               devices.Child("constraints"), options,
               [&](const k8s::DeviceConstraint& c, const FieldPath& at) {
                 ValidateConstraint(r, c, at, options, names);
               });
  ValidateList(r, "claim.config.too-many", claim.config, kDeviceConfigMaxSize,
               devices.Child("config"), options,
               [&](const k8s::DeviceClaimConfiguration& config, const FieldPath& at) {
                 ValidateRequestRefs(r, kConfigRefCodes, config.requests, {at, "requests"},
                                     options, names);
                 ValidateDeviceConfiguration(r, config, at, stored);
               });
}

void CheckAdminNamespace(Reporter& r, std::string_view name_space, const FieldPath& at,
                         const ValidationOptions& options) {
  auto ns = options.namespace_labels.find(std::string(name_space));
  if (name_space.empty() || ns == options.namespace_labels.end()) {
    std::string which = name_space.empty() ? std::string("the object has no metadata.namespace, so")
                                           : "the labels of namespace \"" +
                                                 std::string(name_space) + "\" are unknown, so";
    r.Warning("claim.admin-access.unverified", at,
              "adminAccess is requested but " + which +
                  " the admin-access check could not be made; the API server rejects the "
                  "object unless its namespace has the label "
                  "resource.kubernetes.io/admin-access: \"true\"",
              "provide the Namespace object or --namespace-labels NAMESPACE:"
              "resource.kubernetes.io/admin-access=true");
    return;
  }
  auto label = ns->second.find(kAdminLabel);
  if (label == ns->second.end() || label->second != "true") {
    r.Forbidden("claim.admin-access.forbidden", at,
                "admin access to devices requires the `resource.kubernetes.io/admin-access: "
                "true` label on the containing namespace")
        .suggestion = "kubectl label namespace " + std::string(name_space) +
                      " resource.kubernetes.io/admin-access=true";
  }
}

void CheckAdminAccess(Reporter& r, const k8s::DeviceClaim& claim, std::string_view name_space,
                      const FieldPathRef& requests, const ValidationOptions& options) {
  for (size_t i = 0; i < claim.requests.size(); ++i) {
    const auto& exactly = claim.requests[i].exactly;
    if (!exactly.has_value() || exactly->admin_access != true) continue;
    CheckAdminNamespace(r, name_space, requests.Get().Index(i).Child("adminAccess"), options);
    return;
  }
}

}  // namespace draguard::validate::internal
