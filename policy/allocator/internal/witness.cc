#include "policy/allocator/internal/witness.h"

#include <algorithm>
#include <set>

namespace draguard::alloc::internal {
namespace {

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// As `createNodeSelector`: node-local devices pin the claim to the node; otherwise
// single-term selectors merge.
std::optional<k8s::NodeSelector> ResultSelector(const Inventory& inv,
                                                const std::vector<const Pick*>& picks,
                                                const std::string& node) {
  k8s::NodeSelectorTerm merged;
  std::set<std::string> seen;
  auto merge = [&](const k8s::NodeSelector& sel) {
    if (sel.node_selector_terms.size() != 1) return;
    const auto& term = sel.node_selector_terms[0];
    for (const auto* list : {&term.match_expressions, &term.match_fields}) {
      for (const auto& r : *list) {
        std::string key = (list == &term.match_fields ? "f:" : "e:") + r.key + "\n" + r.op;
        for (const auto& v : r.values) key += "\n" + v;
        if (!seen.insert(key).second) continue;
        (list == &term.match_fields ? merged.match_fields : merged.match_expressions).push_back(r);
      }
    }
  };
  for (const Pick* p : picks) {
    const InventoryDevice& dev = inv.devices()[p->device];
    const auto& spec = inv.slices()[dev.slice].spec;
    const k8s::Device& d = *dev.device;
    if ((spec.node_name && !spec.node_name->empty()) || d.node_name ||
        d.binds_to_node.value_or(false)) {
      k8s::NodeSelector pinned;
      pinned.node_selector_terms.push_back(k8s::NodeSelectorTerm{
          .match_fields = {k8s::NodeSelectorRequirement{.key = "metadata.name", .op = "In",
                                                        .values = {node}}}});
      return pinned;
    }
    if (spec.node_selector) merge(*spec.node_selector);
    if (d.node_selector) merge(*d.node_selector);
  }
  if (merged.match_expressions.empty() && merged.match_fields.empty()) return std::nullopt;
  k8s::NodeSelector out;
  out.node_selector_terms.push_back(std::move(merged));
  return out;
}

void AddConfigs(const PlannedClaim& claim, const std::vector<const Pick*>& picks,
                k8s::DeviceAllocationResult& out) {
  std::vector<const k8s::DeviceClass*> classes;
  std::vector<std::vector<std::string>> users;
  std::vector<std::string> allocated;
  for (const Pick* p : picks) {
    if (!Contains(allocated, p->alt->name)) allocated.push_back(p->alt->name);
    if (!Contains(allocated, p->alt->request)) allocated.push_back(p->alt->request);
    auto it = std::find(classes.begin(), classes.end(), p->alt->device_class);
    if (it == classes.end()) {
      classes.push_back(p->alt->device_class);
      users.push_back({});
      it = classes.end() - 1;
    }
    auto& names = users[static_cast<size_t>(it - classes.begin())];
    if (!Contains(names, p->alt->name)) names.push_back(p->alt->name);
  }
  for (size_t i = 0; i < classes.size(); ++i) {
    for (const auto& cfg : classes[i]->spec.config) {
      k8s::DeviceAllocationConfiguration c;
      c.opaque = cfg.opaque;
      c.source = "FromClass";
      c.requests = users[i];
      out.config.push_back(std::move(c));
    }
  }
  for (const auto& cfg : claim.spec->devices.config) {
    bool applies = cfg.requests.empty() ||
                   std::any_of(cfg.requests.begin(), cfg.requests.end(),
                               [&](const std::string& r) { return Contains(allocated, r); });
    if (!applies) continue;
    k8s::DeviceAllocationConfiguration c;
    c.opaque = cfg.opaque;
    c.source = "FromClaim";
    c.requests = cfg.requests;
    out.config.push_back(std::move(c));
  }
}

// Milli-units as a quantity: whole units without suffix, else "<n>m".
std::string MilliText(int64_t milli) {
  return milli % 1000 == 0 ? std::to_string(milli / 1000) : std::to_string(milli) + "m";
}

// A share of a multi-allocatable device. Upstream draws a random UUID (`GenerateNewShareID`);
// the witness
// numbers its shares so that the output is deterministic.
void AddShare(const k8s::Device& device, const Pick& pick, int n,
              k8s::DeviceRequestAllocationResult& r) {
  std::string digits = std::to_string(n);
  r.share_id = "00000000-0000-4000-8000-" + std::string(12 - std::min<size_t>(12, digits.size()), '0') + digits;
  size_t i = 0;
  for (const auto& [name, capacity] : device.capacity) {
    if (i < pick.consumed.size()) r.consumed_capacity[name] = MilliText(pick.consumed[i]);
    ++i;
  }
}

}  // namespace

std::vector<k8s::AllocationResult> BuildAllocations(const Inventory& inv, const Plan& plan,
                                                    const std::vector<Pick>& picks,
                                                    const std::string& node,
                                                    const AllocatorOptions& o) {
  std::vector<k8s::AllocationResult> out(plan.claims.size());
  for (size_t c = 0; c < plan.claims.size(); ++c) {
    std::vector<const Pick*> mine;
    for (const Pick& p : picks) {
      if (p.claim == c) mine.push_back(&p);
    }
    k8s::AllocationResult& result = out[c];
    int shares = 0;
    for (const Pick* p : mine) {
      DeviceView v = inv.View(p->device);
      k8s::DeviceRequestAllocationResult r;
      r.request = p->alt->name;
      r.driver = std::string(v.driver);
      r.pool = std::string(v.pool);
      r.device = std::string(v.name);
      if (p->alt->admin) r.admin_access = true;
      if (o.release().alloc.result_tolerations && o.gates.Enabled(Gate::kDRADeviceTaints)) {
        r.tolerations = p->alt->common->tolerations;
      }
      if (BindingAndStatus(o.gates)) {
        r.binding_conditions = v.device->binding_conditions;
        r.binding_failure_conditions = v.device->binding_failure_conditions;
      }
      if (p->shared) AddShare(*v.device, *p, ++shares, r);
      result.devices.results.push_back(std::move(r));
    }
    AddConfigs(plan.claims[c], mine, result.devices);
    result.node_selector = ResultSelector(inv, mine, node);
  }
  return out;
}

}  // namespace draguard::alloc::internal
