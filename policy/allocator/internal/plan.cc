// Up-front validation of the claims (allocator_*.go `Allocate` and `validateDeviceRequest`:
// feature checks, subrequests, the AllocationResultsMaxSize limit).
#include "policy/allocator/internal/plan.h"

#include <algorithm>
#include <string>

namespace draguard::alloc::internal {
namespace {

Reason Fatal(size_t claim, std::string code, std::string request, std::string message) {
  return Reason{.code = std::move(code), .claim = claim, .request = std::move(request),
                .message = std::move(message)};
}

Alternative MakeAlternative(const k8s::DeviceRequestCommon& common, std::string name,
                            std::string request) {
  Alternative alt;
  alt.name = std::move(name);
  alt.request = std::move(request);
  alt.common = &common;
  alt.all = common.allocation_mode == k8s::kAllocationModeAll;
  alt.count = alt.all ? 0 : std::max<int64_t>(common.count, 1);
  return alt;
}

// Feature and class checks for one alternative; false with a reason when fatal/unsatisfiable.
bool CheckAlternative(const Inventory& inv, const AllocatorOptions& o, size_t claim,
                      Alternative& alt, VerdictKind& kind, std::vector<Reason>& reasons) {
  alt.device_class = inv.FindClass(alt.common->device_class_name);
  if (alt.device_class == nullptr) {
    kind = VerdictKind::kUnsatisfiable;
    reasons.push_back(Fatal(claim, "alloc.class.not-found", alt.name,
                            "request " + alt.name + ": DeviceClass \"" +
                                alt.common->device_class_name + "\" does not exist"));
    return false;
  }
  // A channel that supports consumable capacity rejects `capacity` while the feature is off
  // (tested on Capacity != nil); the others ignore it (allocator_{incubating,experimental}.go
  // `Allocate`).
  if (alt.common->capacity.has_value() && o.channel().ChecksCapacityGate() &&
      !o.gates.Enabled(Gate::kDRAConsumableCapacity)) {
    kind = VerdictKind::kError;
    reasons.push_back(Fatal(claim, "alloc.feature.disabled", alt.name,
                            "request " + alt.name + ": has capacity requests, but the "
                            "DRAConsumableCapacity feature is disabled (" +
                                std::string(o.channel().name) + " allocator)"));
    return false;
  }
  return true;
}

bool PlanRequest(const Inventory& inv, const AllocatorOptions& o, size_t claim,
                 const k8s::DeviceRequest& req, PlannedRequest& out, VerdictKind& kind,
                 std::vector<Reason>& reasons) {
  if (req.exactly) {
    if (req.exactly->admin_access.has_value() && !o.gates.Enabled(Gate::kDRAAdminAccess)) {
      kind = VerdictKind::kError;
      reasons.push_back(Fatal(claim, "alloc.feature.disabled", req.name,
                              "request " + req.name + " sets adminAccess but the DRAAdminAccess "
                              "feature gate is off"));
      return false;
    }
    Alternative alt = MakeAlternative(*req.exactly, req.name, req.name);
    alt.admin = req.exactly->admin_access.value_or(false);
    out.alternatives.push_back(std::move(alt));
  } else {
    if (!o.gates.Enabled(Gate::kDRAPrioritizedList)) {
      kind = VerdictKind::kError;
      reasons.push_back(Fatal(claim, "alloc.feature.disabled", req.name,
                              "request " + req.name + " uses firstAvailable but the "
                              "DRAPrioritizedList feature gate is off"));
      return false;
    }
    out.first_available = true;
    for (const auto& sub : req.first_available) {
      out.alternatives.push_back(MakeAlternative(sub, req.name + "/" + sub.name, req.name));
      out.alternatives.back().sub_index = out.alternatives.size() - 1;
    }
  }
  if (out.alternatives.empty()) {
    kind = VerdictKind::kError;
    reasons.push_back(Fatal(claim, "alloc.request.empty", req.name,
                            "request " + req.name + " has neither exactly nor firstAvailable"));
    return false;
  }
  out.min_count = INT64_MAX;
  for (Alternative& alt : out.alternatives) {
    if (!CheckAlternative(inv, o, claim, alt, kind, reasons)) return false;
    out.min_count = std::min(out.min_count, alt.all ? int64_t{1} : alt.count);
  }
  return true;
}

bool PlanConstraints(const AllocatorOptions& o, size_t claim, const k8s::DeviceClaim& devices,
                     PlannedClaim& out, VerdictKind& kind, std::vector<Reason>& reasons) {
  for (const auto& c : devices.constraints) {
    PlannedConstraint pc{.requests = c.requests};
    if (c.match_attribute) {
      pc.attribute = *c.match_attribute;
    } else if (c.distinct_attribute && o.channel().KnowsDistinctAttribute()) {
      pc.match = false;
      pc.attribute = *c.distinct_attribute;
    } else {
      // The scheduler's words; the channel decides, not the gate (a 1.36 incubating
      // allocator honours distinctAttribute with DRAConsumableCapacity off).
      kind = VerdictKind::kError;
      reasons.push_back(Fatal(
          claim, "alloc.feature.disabled", "",
          c.distinct_attribute
              ? "empty constraint (unsupported constraint type?): the " +
                    std::string(o.channel().name) +
                    " allocator this feature-gate set selects does not know distinctAttribute "
                    "(it needs DRAConsumableCapacity)"
              : "a constraint sets neither matchAttribute nor distinctAttribute"));
      return false;
    }
    out.constraints.push_back(std::move(pc));
  }
  return true;
}

// 1.34/1.35 Allocate validated subrequest i under the selector-cache key of subrequest i-1
// (the index was updated after the call; fixed in 1.36 by kubernetes/kubernetes#137347). So an
// All subrequest 1 reuses the results of an All subrequest 0, and an All subrequest i+1
// stores its own results where the ExactCount subrequest i later reads them.
void LinkBuggySelections(PlannedRequest& pr) {
  std::vector<Alternative>& alts = pr.alternatives;
  for (size_t i = 0; i < alts.size(); ++i) {
    if (alts[i].all && i == 1 && alts[0].all) alts[i].selection = &alts[0];
    if (!alts[i].all && i + 1 < alts.size() && alts[i + 1].all) alts[i].selection = &alts[i + 1];
  }
}

}  // namespace

bool PlannedConstraint::Covers(const Alternative& alt) const {
  if (requests.empty()) return true;
  return std::any_of(requests.begin(), requests.end(), [&](const std::string& r) {
    return r == alt.request || r == alt.name;
  });
}

bool BuildPlan(const Inventory& inv, const std::vector<const k8s::ResourceClaimSpec*>& claims,
               const AllocatorOptions& o, Plan& plan, VerdictKind& kind,
               std::vector<Reason>& reasons) {
  plan.claims.resize(claims.size());
  for (size_t c = 0; c < claims.size(); ++c) {
    PlannedClaim& pc = plan.claims[c];
    pc.spec = claims[c];
    for (const auto& req : claims[c]->devices.requests) {
      PlannedRequest pr;
      if (!PlanRequest(inv, o, c, req, pr, kind, reasons)) return false;
      pc.requests.push_back(std::move(pr));
    }
    if (!PlanConstraints(o, c, claims[c]->devices, pc, kind, reasons)) return false;
    pc.min_after.assign(pc.requests.size() + 1, 0);
    for (size_t r = pc.requests.size(); r-- > 0;) {
      pc.min_after[r] = pc.min_after[r + 1] + pc.requests[r].min_count;
    }
    // Allocate's check before any search, on every node: an All request counts the devices
    // it selects on the node (at least zero; the node's own count is checked by the search).
    int64_t least = 0;
    for (const PlannedRequest& pr : pc.requests) {
      int64_t smallest = INT64_MAX;
      for (const Alternative& alt : pr.alternatives) smallest = std::min(smallest, alt.count);
      least += smallest;
    }
    if (least > o.max_results_per_claim) {
      kind = VerdictKind::kError;
      reasons.push_back(Fatal(c, "alloc.request.too-many-results", "",
                              "number of requested devices " + std::to_string(least) +
                                  " exceeds the claim limit of " +
                                  std::to_string(o.max_results_per_claim)));
      return false;
    }
  }
  for (size_t c = 0; c < plan.claims.size(); ++c) {
    for (PlannedConstraint& pc : plan.claims[c].constraints) {
      auto it = std::find(plan.attributes.begin(), plan.attributes.end(), pc.attribute);
      pc.attribute_id = static_cast<size_t>(it - plan.attributes.begin());
      if (it == plan.attributes.end()) plan.attributes.push_back(pc.attribute);
    }
    for (PlannedRequest& pr : plan.claims[c].requests) {
      if (pr.first_available && !o.release().alloc.first_available_all_fixed) {
        LinkBuggySelections(pr);
      }
      for (Alternative& alt : pr.alternatives) {
        alt.claim = c;
        alt.id = plan.alternatives.size();
        plan.alternatives.push_back(&alt);
      }
    }
  }
  return true;
}

}  // namespace draguard::alloc::internal
