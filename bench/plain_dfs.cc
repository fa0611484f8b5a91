// Plain depth-first search (plain_dfs.h).
#include "bench/plain_dfs.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "policy/allocator/internal/node_pools.h"

namespace draguard::alloc::bench {
namespace {

struct Request {
  const k8s::DeviceClass* device_class = nullptr;
  const k8s::ExactDeviceRequest* exactly = nullptr;
  std::vector<int8_t> memo;  // per device: 0 unknown, 1 match, 2 no match
};

bool SameValue(const k8s::DeviceAttribute& a, const k8s::DeviceAttribute& b) {
  return a.int_value == b.int_value && a.bool_value == b.bool_value &&
         a.string_value == b.string_value && a.version_value == b.version_value;
}

class PlainDfs {
 public:
  PlainDfs(const Inventory& inv, const k8s::ResourceClaimSpec& claim, SelectorEvaluator& eval,
           const AllocatorOptions& o)
      : inv_(inv), claim_(claim), eval_(eval), o_(o) {}

  PlainDfsVerdict Run() {
    if (!Prepare()) {
      out_.kind = VerdictKind::kError;
      return out_;
    }
    internal::NodeDevices nd;
    for (size_t i = 0; i < inv_.node_names().size() && !error_ && !exhausted_; ++i) {
      const NodeView node = inv_.NodeAt(i);
      internal::CollectNodeDevices(inv_, node, o_, nd);
      devices_ = &nd.devices;
      picked_.clear();
      used_.clear();
      if (Slot(0, 0)) out_.feasible_nodes.emplace_back(node.name);
    }
    out_.kind = error_                        ? VerdictKind::kError
                : exhausted_                  ? VerdictKind::kUndecided
                : out_.feasible_nodes.empty() ? VerdictKind::kUnsatisfiable
                                              : VerdictKind::kSatisfiable;
    return out_;
  }

 private:
  bool Prepare() {
    for (const auto& r : claim_.devices.requests) {
      if (!r.exactly || r.exactly->allocation_mode != k8s::kAllocationModeExactCount ||
          r.exactly->admin_access.value_or(false) || !r.exactly->tolerations.empty() ||
          r.exactly->capacity) {
        return false;
      }
      Request req{.device_class = inv_.FindClass(r.exactly->device_class_name),
                  .exactly = &*r.exactly};
      if (req.device_class == nullptr) return false;
      req.memo.assign(inv_.devices().size(), 0);
      requests_.push_back(std::move(req));
    }
    for (const auto& c : claim_.devices.constraints) {
      if (!c.match_attribute || !c.requests.empty()) return false;
      attributes_.push_back(*c.match_attribute);
    }
    return !o_.gates.Enabled(Gate::kDRAConsumableCapacity) &&
           !o_.gates.Enabled(Gate::kDRADeviceTaints);
  }

  bool Selected(Request& r, size_t d) {
    int8_t& m = r.memo[d];
    if (m == 0) {
      DeviceView view = inv_.View(d);
      m = 1;
      for (const auto* sels : {&r.device_class->spec.selectors, &r.exactly->selectors}) {
        for (const auto& sel : *sels) {
          if (m != 1 || !sel.cel) continue;
          SelectorResult res = eval_.Evaluate(sel.cel->expression, view);
          if (res.outcome == SelectorOutcome::kError) error_ = true;
          if (res.outcome != SelectorOutcome::kMatch) m = 2;
        }
      }
    }
    return m == 1;
  }

  const k8s::DeviceAttribute* Attribute(const std::string& name, size_t d) const {
    const InventoryDevice& dev = inv_.devices()[d];
    const auto& attrs = dev.device->attributes;
    auto it = attrs.find(name);
    const std::string& driver = inv_.slices()[dev.slice].spec.driver;
    if (it == attrs.end() && name.size() > driver.size() && name.compare(0, driver.size(), driver) == 0 &&
        name[driver.size()] == '/') {
      it = attrs.find(name.substr(driver.size() + 1));
    }
    return it == attrs.end() ? nullptr : &it->second;
  }

  bool ConstraintsHold(size_t d) const {
    for (const std::string& name : attributes_) {
      const k8s::DeviceAttribute* v = Attribute(name, d);
      if (v == nullptr) return false;
      if (!picked_.empty()) {
        const k8s::DeviceAttribute* first = Attribute(name, picked_.front());
        if (!SameValue(*v, *first)) return false;
      }
    }
    return true;
  }

  // Draws the device's counters if they fit; false (nothing drawn) otherwise.
  bool DrawCounters(size_t d, int sign) {
    const InventoryDevice& dev = inv_.devices()[d];
    size_t layout = CounterLayout(o_.version);
    const auto& draws = dev.draws[layout];
    if (!draws) return false;
    size_t scope = dev.counter_scope[layout];
    const CounterScope& cs = inv_.CounterScopes(layout)[scope];
    for (const CounterDraw& draw : *draws) {
      auto key = std::make_pair(scope, draw.ordinal);
      if (sign > 0 && Committed(scope, draw.ordinal) + used_[key] + draw.milli > cs.capacity[draw.ordinal]) {
        return false;
      }
    }
    for (const CounterDraw& draw : *draws) used_[{scope, draw.ordinal}] += sign * draw.milli;
    return true;
  }

  int64_t Committed(size_t scope, size_t ordinal) {
    size_t layout = CounterLayout(o_.version);
    auto [it, inserted] = committed_.emplace(std::make_pair(scope, ordinal), 0);
    if (!inserted) return it->second;
    for (size_t s : inv_.CounterScopes(layout)[scope].slices) {
      auto [begin, end] = inv_.SliceDevices(s);
      for (size_t id = begin; id < end; ++id) {
        const auto& draws = inv_.devices()[id].draws[layout];
        if (!inv_.devices()[id].in_use || !draws) continue;
        for (const CounterDraw& draw : *draws) it->second += draw.ordinal == ordinal ? draw.milli : 0;
      }
    }
    return it->second;
  }

  // Request r, slot k: every device of the node, in order.
  bool Slot(size_t r, int64_t k) {
    if (r == requests_.size()) return true;
    Request& req = requests_[r];
    if (k == req.exactly->count) return Slot(r + 1, 0);
    for (size_t d : *devices_) {
      if (++out_.steps > o_.max_steps) {
        exhausted_ = true;
        return false;
      }
      if (inv_.devices()[d].in_use) continue;
      if (std::find(picked_.begin(), picked_.end(), d) != picked_.end()) continue;
      if (!Selected(req, d)) {
        if (error_) return false;
        continue;
      }
      if (!ConstraintsHold(d) || !DrawCounters(d, +1)) continue;
      picked_.push_back(d);
      if (Slot(r, k + 1)) return true;
      picked_.pop_back();
      DrawCounters(d, -1);
      if (exhausted_) return false;
    }
    return false;
  }

  const Inventory& inv_;
  const k8s::ResourceClaimSpec& claim_;
  SelectorEvaluator& eval_;
  const AllocatorOptions& o_;
  std::vector<Request> requests_;
  std::vector<std::string> attributes_;
  const std::vector<size_t>* devices_ = nullptr;
  std::vector<size_t> picked_;
  std::map<std::pair<size_t, size_t>, int64_t> used_;       // (scope, ordinal) -> milli
  std::map<std::pair<size_t, size_t>, int64_t> committed_;  // (scope, ordinal) -> milli
  bool error_ = false;
  bool exhausted_ = false;
  PlainDfsVerdict out_;
};

}  // namespace

PlainDfsVerdict PlainDfsCheck(const Inventory& inventory, const k8s::ResourceClaimSpec& claim,
                              SelectorEvaluator& evaluator, const AllocatorOptions& options) {
  return PlainDfs(inventory, claim, evaluator, options).Run();
}

}  // namespace draguard::alloc::bench
