// TEST-ONLY reference allocator: enumerate everything, check at the leaves.
#include "tests/policy/allocator/reference_allocator.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "policy/allocator/internal/amount.h"

namespace draguard::alloc::testing {
namespace {

struct Dev {
  const k8s::ResourceSlice* slice;
  const k8s::Device* device;
  size_t id;
  bool in_use;
  bool multi;                                // allowMultipleAllocations with the gate on
  std::map<std::string, int64_t> committed;  // consumedCapacity of other claims' shares
};

struct Choice {  // one request slot filled
  size_t claim;
  std::string request;  // "req"
  std::string name;     // "req" or "req/sub"
  const k8s::DeviceRequestCommon* common;
  bool admin;
  size_t dev;
};

// The scheduler's allocator channel, written from the upstream sources independently of
// policy/common/release.cc: kube-scheduler's features from the gates, then the first of
// stable, incubating, experimental whose SupportedFeatures cover them (structured/allocator.go
// NewAllocator; internal/*/allocator_*.go at v0.34.0, v0.35.0, v0.36.0).
struct Channel {
  bool distinct = false;        // knows distinctAttribute (the ConsumableCapacity channels)
  bool capacity_check = false;  // fails a request with `capacity` while the feature is off
  bool binding_last = false;    // pools with binding-condition devices searched last
  bool sorts = false;           // slices of a pool by name (1.36 incubating, experimental)
};

Channel ChannelFor(const AllocatorOptions& o) {
  const FeatureGates& g = o.gates;
  const bool binding = g.Enabled(Gate::kDRADeviceBindingConditions) &&
                       g.Enabled(Gate::kDRAResourceClaimDeviceStatus);
  const bool capacity = g.Enabled(Gate::kDRAConsumableCapacity);
  const bool lists = g.Enabled(Gate::kDRAListTypeAttributes);
  const Channel experimental{true, true, true, o.version == KubernetesVersion::k1_36};
  if (o.version != KubernetesVersion::k1_36) {
    // stable supports nothing and incubating the basic four (admin access, prioritized list,
    // partitionable devices, taints): neither differs observably here; experimental adds
    // binding conditions and consumable capacity.
    return binding || capacity ? experimental : Channel{};
  }
  if (lists) return experimental;
  if (!binding && !capacity) return Channel{};  // stable: the basic four
  return Channel{true, true, true, true};       // incubating
}

class Reference {
 public:
  Reference(const InventoryInput& in, const std::vector<k8s::ResourceClaimSpec>& claims,
            SelectorEvaluator& eval, const AllocatorOptions& o)
      : in_(in), claims_(claims), eval_(eval), o_(o), channel_(ChannelFor(o)) {}

  ReferenceResult Run(int64_t max_assignments) {
    std::set<std::string> nodes;
    for (const auto& s : in_.slices) {
      if (s.spec.node_name) nodes.insert(*s.spec.node_name);
    }
    if (nodes.empty()) nodes.insert("");
    int64_t assignments = 0;
    for (const auto& node : nodes) {
      Collect(node);
      assignments = SaturatingAdd(assignments, Assignments());
    }
    ReferenceResult out;
    if (assignments > max_assignments) {
      out.verdict = ReferenceVerdict::kTooLarge;
      return out;
    }
    for (const auto& node : nodes) {
      Collect(node);
      error_ = SetupFails() || ClaimTooLarge();
      if (!error_ && Solve(0, 0)) out.feasible_nodes.push_back(node);
      // An error on any node fails the pod's scheduling cycle.
      if (error_) {
        out.verdict = ReferenceVerdict::kError;
        out.feasible_nodes.clear();
        return out;
      }
    }
    out.verdict = out.feasible_nodes.empty() ? ReferenceVerdict::kUnsatisfiable
                                             : ReferenceVerdict::kSatisfiable;
    return out;
  }

 private:
  static int64_t SaturatingAdd(int64_t a, int64_t b) {
    return a > INT64_MAX - b ? INT64_MAX : a + b;
  }
  static int64_t SaturatingMul(int64_t a, int64_t b) {
    return b != 0 && a > INT64_MAX / b ? INT64_MAX : a * b;
  }

  // Allocate's checks before any search that depend on the channel: distinctAttribute
  // unknown ("empty constraint"), capacity requested while the feature is off.
  bool SetupFails() const {
    for (const auto& claim : claims_) {
      for (const auto& con : claim.devices.constraints) {
        if (!con.match_attribute && con.distinct_attribute && !channel_.distinct) return true;
      }
      if (!channel_.capacity_check || o_.gates.Enabled(Gate::kDRAConsumableCapacity)) continue;
      for (const auto& req : claim.devices.requests) {
        if (req.exactly && req.exactly->capacity) return true;
        for (const auto& sub : req.first_available) {
          if (sub.capacity) return true;
        }
      }
    }
    return false;
  }

  // Allocate's limit before any search: per claim, the least number of results (an All
  // request counts the devices it selects here, a firstAvailable request its smallest
  // subrequest) above max_results_per_claim is an error.
  bool ClaimTooLarge() {
    for (const auto& claim : claims_) {
      int64_t least = 0;
      for (const auto& req : claim.devices.requests) {
        int64_t smallest = INT64_MAX;
        auto count = [&](const k8s::DeviceRequestCommon& c) {
          if (c.allocation_mode != k8s::kAllocationModeAll) return std::max<int64_t>(c.count, 1);
          return static_cast<int64_t>(AllDevices(c).size());
        };
        if (req.exactly) smallest = count(*req.exactly);
        for (const auto& sub : req.first_available) smallest = std::min(smallest, count(sub));
        least += smallest;
      }
      if (least > o_.max_results_per_claim) return true;
    }
    return false;
  }

  // What an All request selects on the node, in the scheduler's device order.
  std::vector<size_t> AllDevices(const k8s::DeviceRequestCommon& common) {
    std::vector<size_t> out;
    for (const Dev& d : devs_) {
      bool fits = !o_.gates.Enabled(Gate::kDRAConsumableCapacity) || CapacityFits(d, {&common});
      if (Passes(common, d) && fits) out.push_back(d.id);
    }
    return out;
  }

  // The devices visible from `node`, in the scheduler's order: pools by (driver, pool name),
  // with the channels that know binding conditions the pools holding such a device last;
  // slices by name in 1.36 incubating/experimental, else in input order.
  void Collect(const std::string& node) {
    devs_.clear();
    const bool binding = o_.gates.Enabled(Gate::kDRADeviceBindingConditions) &&
                         o_.gates.Enabled(Gate::kDRAResourceClaimDeviceStatus);
    std::set<std::pair<std::string, std::string>> late;  // pools with binding conditions
    for (const auto& s : in_.slices) {
      bool visible = s.spec.all_nodes.value_or(false) || (s.spec.node_name && *s.spec.node_name == node);
      if (!visible) continue;
      for (const auto& d : s.spec.devices) {
        if (!d.binding_conditions.empty() && channel_.binding_last) {
          late.emplace(s.spec.driver, s.spec.pool.name);
        }
        if (!d.binding_conditions.empty() && !binding) continue;
        if (!d.consumes_counters.empty() && !o_.gates.Enabled(Gate::kDRAPartitionableDevices))
          continue;
        Dev dev{&s,
                &d,
                devs_.size(),
                InUse(s, d),
                o_.gates.Enabled(Gate::kDRAConsumableCapacity) &&
                    d.allow_multiple_allocations.value_or(false),
                {}};
        Shares(s, d, dev.committed);
        devs_.push_back(std::move(dev));
      }
    }
    const bool sorts = channel_.sorts;
    std::stable_sort(devs_.begin(), devs_.end(), [&](const Dev& a, const Dev& b) {
      auto key = [&](const Dev& d) {
        const auto& spec = d.slice->spec;
        return std::make_tuple(late.count({spec.driver, spec.pool.name}) != 0, spec.driver,
                               spec.pool.name, sorts ? d.slice->metadata.name : std::string());
      };
      return key(a) < key(b);
    });
    for (size_t i = 0; i < devs_.size(); ++i) devs_[i].id = i;
  }

  // How many complete assignments Solve enumerates on the collected devices: per request the
  // sum over its alternatives of devices^count (All: one), multiplied over all requests.
  int64_t Assignments() const {
    const int64_t n = static_cast<int64_t>(devs_.size());
    int64_t total = 1;
    for (const auto& claim : claims_) {
      for (const auto& req : claim.devices.requests) {
        int64_t ways = 0;
        auto add = [&](const k8s::DeviceRequestCommon& c) {
          int64_t w = 1;
          if (c.allocation_mode != k8s::kAllocationModeAll) {
            for (int64_t i = 0; i < c.count; ++i) w = SaturatingMul(w, n);
          }
          ways = SaturatingAdd(ways, w);
        };
        if (req.exactly) add(*req.exactly);
        for (const auto& sub : req.first_available) add(sub);
        total = SaturatingMul(total, ways);
      }
    }
    return total;
  }

  bool InUse(const k8s::ResourceSlice& s, const k8s::Device& d) const {
    for (const auto& c : in_.claims) {
      if (!c.status || !c.status->allocation) continue;
      for (const auto& r : c.status->allocation->devices.results) {
        bool shared = !r.share_id.empty() && o_.gates.Enabled(Gate::kDRAConsumableCapacity);
        if (!r.admin_access.value_or(false) && !shared && r.driver == s.spec.driver &&
            r.pool == s.spec.pool.name && r.device == d.name) {
          return true;
        }
      }
    }
    return false;
  }

  void Shares(const k8s::ResourceSlice& s, const k8s::Device& d,
              std::map<std::string, int64_t>& committed) const {
    if (!o_.gates.Enabled(Gate::kDRAConsumableCapacity)) return;
    for (const auto& c : in_.claims) {
      if (!c.status || !c.status->allocation) continue;
      for (const auto& r : c.status->allocation->devices.results) {
        if (r.share_id.empty() || r.driver != s.spec.driver || r.pool != s.spec.pool.name ||
            r.device != d.name) {
          continue;
        }
        for (const auto& [name, amount] : r.consumed_capacity) {
          committed[name] += *internal::ParseMilli(amount);
        }
      }
    }
  }

  // What one allocation for `c` takes from each capacity of `d`; nullopt: cannot serve.
  static std::optional<std::map<std::string, int64_t>> Demand(const k8s::DeviceRequestCommon& c,
                                                               const Dev& d) {
    std::map<std::string, int64_t> out;
    if (c.capacity) {
      for (const auto& [name, amount] : c.capacity->requests) {
        if (!d.device->capacity.count(name)) return std::nullopt;
      }
    }
    for (const auto& [name, cap] : d.device->capacity) {
      int64_t value = *internal::ParseMilli(cap.value);
      const k8s::CapacityRequestPolicy* policy = cap.request_policy ? &*cap.request_policy : nullptr;
      std::optional<int64_t> want;
      if (c.capacity && c.capacity->requests.count(name)) {
        want = *internal::ParseMilli(c.capacity->requests.at(name));
      }
      int64_t take = value;
      if (!want) {
        if (policy && policy->default_value) take = *internal::ParseMilli(*policy->default_value);
      } else if (!policy || !policy->valid_range) {
        take = *want;
      } else {
        const auto& range = *policy->valid_range;
        int64_t min = *internal::ParseMilli(range.min);
        int64_t step = range.step ? *internal::ParseMilli(*range.step) : 0;
        take = min;
        while (take < *want) take += step > 0 ? step : (*want - take);
        if (range.max && take > *internal::ParseMilli(*range.max)) return std::nullopt;
      }
      out[name] = take;
    }
    return out;
  }

  // Committed shares + `extra` allocations fit every capacity of `d`.
  static bool CapacityFits(const Dev& d, const std::vector<const k8s::DeviceRequestCommon*>& extra) {
    std::map<std::string, int64_t> total = d.committed;
    for (const auto* c : extra) {
      auto demand = Demand(*c, d);
      if (!demand) return false;
      for (const auto& [name, amount] : *demand) total[name] += amount;
    }
    for (const auto& [name, cap] : d.device->capacity) {
      if (total[name] > *internal::ParseMilli(cap.value)) return false;
    }
    return true;
  }

  bool Passes(const k8s::DeviceRequestCommon& c, const Dev& d) {
    auto key = std::make_pair(&c, d.device);
    auto it = passes_.find(key);
    if (it == passes_.end()) it = passes_.emplace(key, Evaluate(c, d)).first;
    return it->second;
  }

  bool Evaluate(const k8s::DeviceRequestCommon& c, const Dev& d) {
    const k8s::DeviceClass* cls = nullptr;
    for (const auto& k : in_.classes) {
      if (k.metadata.name == c.device_class_name) cls = &k;
    }
    if (!cls) return false;
    DeviceView view{.id = d.id, .driver = d.slice->spec.driver, .pool = d.slice->spec.pool.name,
                    .name = d.device->name, .device = d.device};
    for (const auto* sels : {&cls->spec.selectors, &c.selectors}) {
      for (const auto& s : *sels) {
        if (eval_.Evaluate(s.cel->expression, view).outcome != SelectorOutcome::kMatch) return false;
      }
    }
    return true;
  }

  // Claims in order, requests in order; every alternative; every device for every slot.
  bool Solve(size_t c, size_t r) {
    if (error_) return false;
    if (c == claims_.size()) return Valid();
    const auto& reqs = claims_[c].devices.requests;
    if (r == reqs.size()) return Solve(c + 1, 0);
    const auto& req = reqs[r];
    if (req.exactly) {
      return Fill(c, r, req.name, req.name, *req.exactly, req.exactly->admin_access.value_or(false));
    }
    for (const auto& sub : req.first_available) {
      if (Fill(c, r, req.name, req.name + "/" + sub.name, sub, false)) return true;
      if (error_) return false;
    }
    return false;
  }

  bool Fill(size_t c, size_t r, const std::string& request, const std::string& name,
            const k8s::DeviceRequestCommon& common, bool admin) {
    if (common.allocation_mode == k8s::kAllocationModeAll) {
      // The scheduler gets here only with a valid partial allocation, then takes the devices
      // in order; one that breaks a claim constraint is an error (allocateDevice with
      // must=true), after the in-use, counter and taint checks (which only fail).
      if (error_ || !Valid()) return false;
      const std::vector<size_t> all = AllDevices(common);
      size_t before = chosen_.size();
      int64_t in_claim = 0;
      for (const Choice& ch : chosen_) in_claim += ch.claim == c;
      bool ok = !all.empty() && in_claim + static_cast<int64_t>(all.size()) <= o_.max_results_per_claim;
      for (size_t i = 0; ok && i < all.size(); ++i) {
        chosen_.push_back(Choice{c, request, name, &common, admin, all[i]});
        const Choice& ch = chosen_.back();
        const Dev& d = devs_[ch.dev];
        if ((d.in_use && !admin) || !SharingHolds() || !CountersFit() || !Tolerated(ch, d)) {
          ok = false;
        } else if (!ConstraintsHold()) {
          error_ = true;
          ok = false;
        } else {
          ok = CapacitiesFit();
        }
      }
      ok = ok && Solve(c, r + 1);
      chosen_.resize(before);
      return ok;
    }
    return Slots(c, r, request, name, common, admin, common.count);
  }

  bool Slots(size_t c, size_t r, const std::string& request, const std::string& name,
             const k8s::DeviceRequestCommon& common, bool admin, int64_t left) {
    if (left == 0) return Solve(c, r + 1);
    for (const Dev& d : devs_) {
      chosen_.push_back(Choice{c, request, name, &common, admin, d.id});
      bool ok = Slots(c, r, request, name, common, admin, left - 1);
      chosen_.pop_back();
      if (ok) return true;
      if (error_) return false;
    }
    return false;
  }

  bool Tolerated(const Choice& ch, const Dev& d) const {
    if (!o_.gates.Enabled(Gate::kDRADeviceTaints)) return true;
    for (const auto& t : d.device->taints) {
      // 1.34: every effect blocks; later only NoSchedule and NoExecute (None never).
      const bool blocks = o_.release().alloc.all_taint_effects_block || t.effect == "NoSchedule" ||
                          t.effect == "NoExecute";
      if (!blocks) continue;
      bool ok = false;
      for (const auto& tol : ch.common->tolerations) {
        bool effect = tol.effect.empty() || tol.effect == t.effect;
        bool key = tol.key.empty() ? tol.op == "Exists" : tol.key == t.key;
        bool value = tol.op == "Exists" || tol.value == t.value;
        ok = ok || (effect && key && value);
      }
      if (!ok) return false;
    }
    return true;
  }

  // An attribute value as typed elements ("s:x"); `list` when it came from a list member.
  struct AttrValue {
    std::set<std::string> elements;
    bool list = false;
  };

  static std::optional<AttrValue> Attr(const Dev& d, const std::string& name) {
    const auto& attrs = d.device->attributes;
    auto it = attrs.find(name);
    if (it == attrs.end() && name.rfind(d.slice->spec.driver + "/", 0) == 0) {
      it = attrs.find(name.substr(d.slice->spec.driver.size() + 1));
    }
    if (it == attrs.end()) return std::nullopt;
    const auto& a = it->second;
    AttrValue v;
    if (a.string_values && !a.string_values->empty()) {
      v.list = true;
      for (const auto& e : *a.string_values) v.elements.insert("s" + e);
    } else if (a.int_value) {
      v.elements.insert("i" + std::to_string(*a.int_value));
    } else if (a.bool_value) {
      v.elements.insert(*a.bool_value ? "bt" : "bf");
    } else if (a.string_value) {
      v.elements.insert("s" + *a.string_value);
    } else if (a.version_value) {
      v.elements.insert("v" + *a.version_value);
    } else {
      return std::nullopt;
    }
    return v;
  }

  static bool Meet(const AttrValue& a, const AttrValue& b) {
    for (const auto& e : a.elements) {
      if (b.elements.count(e)) return true;
    }
    return false;
  }

  // With DRAListTypeAttributes (1.36 experimental allocator): matchAttribute needs a value
  // common to all devices, distinctAttribute pairwise disjoint sets. Without it a list is a
  // value of unknown type: only the first device of the group may have one (match), and a
  // later device may not have one (distinct).
  bool ValuesHold(const k8s::DeviceConstraint& con,
                  const std::vector<std::optional<AttrValue>>& values) const {
    const bool sets = o_.gates.Enabled(Gate::kDRAListTypeAttributes);
    for (const auto& v : values) {
      if (!v) return false;
    }
    if (con.match_attribute) {
      if (sets) {
        std::set<std::string> common = values.empty() ? std::set<std::string>{} : values[0]->elements;
        for (const auto& v : values) {
          std::set<std::string> next;
          for (const auto& e : common) {
            if (v->elements.count(e)) next.insert(e);
          }
          common = std::move(next);
        }
        return values.empty() || !common.empty();
      }
      for (size_t i = 1; i < values.size(); ++i) {
        if (values[i]->list || values[0]->list || values[i]->elements != values[0]->elements) {
          return false;
        }
      }
      return true;
    }
    for (size_t i = 0; i < values.size(); ++i) {
      if (!sets && i > 0 && values[i]->list) return false;
      for (size_t j = 0; j < i; ++j) {
        if (sets ? Meet(*values[i], *values[j])
                 : !values[i]->list && !values[j]->list && values[i]->elements == values[j]->elements) {
          return false;
        }
      }
    }
    return true;
  }

  bool ConstraintsHold() const {
    for (size_t c = 0; c < claims_.size(); ++c) {
      for (const auto& con : claims_[c].devices.constraints) {
        std::string attr = con.match_attribute ? *con.match_attribute : *con.distinct_attribute;
        std::vector<std::optional<AttrValue>> values;
        for (const Choice& ch : chosen_) {
          bool in_scope = ch.claim == c &&
                          (con.requests.empty() ||
                           std::count(con.requests.begin(), con.requests.end(), ch.request) ||
                           std::count(con.requests.begin(), con.requests.end(), ch.name));
          if (in_scope) values.push_back(Attr(devs_[ch.dev], attr));
        }
        if (!ValuesHold(con, values)) return false;
      }
    }
    return true;
  }

  bool CountersFit() const {
    std::map<std::string, int64_t> left;  // "slice/set/counter"
    for (const Dev& d : devs_) {
      for (const auto& cs : d.slice->spec.shared_counters) {
        for (const auto& [n, v] : cs.counters) {
          left[d.slice->metadata.name + "/" + cs.name + "/" + n] = *internal::ParseMilli(v.value);
        }
      }
    }
    auto draw = [&](const Dev& d) {
      for (const auto& cc : d.device->consumes_counters) {
        for (const auto& [n, v] : cc.counters) {
          left[d.slice->metadata.name + "/" + cc.counter_set + "/" + n] -= *internal::ParseMilli(v.value);
        }
      }
    };
    for (const Dev& d : devs_) {
      if (d.in_use || (d.multi && !d.committed.empty())) draw(d);
    }
    std::set<std::string> touched;  // slices a chosen device draws from: all their counters count
    std::set<size_t> drawn;         // a multi-allocatable device draws once
    for (const Choice& ch : chosen_) {
      const Dev& d = devs_[ch.dev];
      if (d.multi && (!d.committed.empty() || !drawn.insert(ch.dev).second)) continue;
      draw(d);
      if (!devs_[ch.dev].device->consumes_counters.empty()) {
        touched.insert(devs_[ch.dev].slice->metadata.name + "/");
      }
    }
    for (const auto& [k, v] : left) {
      if (v < 0 && touched.count(k.substr(0, k.find('/') + 1))) return false;
    }
    return true;
  }

  // No device is taken twice except as allowed (admin access, multiple allocations).
  bool SharingHolds() const {
    for (size_t i = 0; i < chosen_.size(); ++i) {
      const Choice& ch = chosen_[i];
      const Dev& d = devs_[ch.dev];
      for (size_t j = 0; j < chosen_.size() && !d.multi; ++j) {
        if (j == i || chosen_[j].dev != ch.dev) continue;
        if (chosen_[j].claim == ch.claim) return false;   // never twice in one claim
        if (!ch.admin || !chosen_[j].admin) {
          // Two claims share a device only when the later one uses admin access.
          const Choice& later = j > i ? chosen_[j] : ch;
          if (!later.admin) return false;
        }
      }
    }
    return true;
  }

  bool Valid() const {
    std::vector<int> per_claim(claims_.size());
    for (size_t i = 0; i < chosen_.size(); ++i) {
      const Choice& ch = chosen_[i];
      const Dev& d = devs_[ch.dev];
      if (++per_claim[ch.claim] > o_.max_results_per_claim) return false;
      if (!const_cast<Reference*>(this)->Passes(*ch.common, d)) return false;
      if (d.in_use && !ch.admin) return false;
      if (!Tolerated(ch, d)) return false;
    }
    return SharingHolds() && ConstraintsHold() && CountersFit() && CapacitiesFit();
  }

  bool CapacitiesFit() const {
    if (!o_.gates.Enabled(Gate::kDRAConsumableCapacity)) return true;
    std::map<size_t, std::vector<const k8s::DeviceRequestCommon*>> by_device;
    for (const Choice& ch : chosen_) by_device[ch.dev].push_back(ch.common);
    for (const auto& [dev, commons] : by_device) {
      if (!CapacityFits(devs_[dev], commons)) return false;
    }
    return true;
  }

  const InventoryInput& in_;
  const std::vector<k8s::ResourceClaimSpec>& claims_;
  SelectorEvaluator& eval_;
  const AllocatorOptions& o_;
  std::vector<Dev> devs_;
  std::vector<Choice> chosen_;
  const Channel channel_;
  bool error_ = false;  // the scheduler fails the claims on this node
  std::map<std::pair<const k8s::DeviceRequestCommon*, const k8s::Device*>, bool> passes_;
};

}  // namespace

ReferenceResult ReferenceCheck(const InventoryInput& input,
                               const std::vector<k8s::ResourceClaimSpec>& claims,
                               SelectorEvaluator& evaluator, const AllocatorOptions& options,
                               int64_t max_assignments) {
  Reference ref(input, claims, evaluator, options);
  return ref.Run(max_assignments);
}

}  // namespace draguard::alloc::testing
