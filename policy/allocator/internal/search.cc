// The per-node search.
//
// For each node: (1) the devices the node may use are collected (node_pools.cc); (2) for
// each alternative of each request the candidates are filtered in the scheduler's order
// (selectors, availability, taints, counters alone), counting survivors for the funnel;
// (3) necessary conditions are checked before any search: every request has an alternative
// with enough candidates, and every matchAttribute constraint has one value shared by
// enough candidates of each request it covers; (4) a depth-first search places devices:
// claims in order, requests in order, alternatives in order (full backtracking), and for
// ExactCount the devices of one request as combinations (increasing candidate index; the
// scheduler enumerates permutations). After a device's continuation fails, candidates that
// are interchangeable with it (DeviceFacts::SymmetryKey) are skipped at that slot: any
// solution using one maps to a solution using the other. Every placement counts against the
// budget. The node's reservations are released afterwards, so that every node starts from the
// committed state (devices visible from several nodes are shared between their searches).
// The search is never slower than plain DFS: it visits a subset of DFS's nodes.
#include "policy/allocator/internal/search.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

namespace draguard::alloc::internal {

bool Budget::Step() {
  if (exhausted) return false;
  ++steps;
  if (steps > max_steps || ((steps & 255) == 0 && std::chrono::steady_clock::now() > deadline)) {
    exhausted = true;
  }
  return !exhausted;
}

namespace {

struct ConstraintState {
  // matchAttribute: the values shared by every device placed so far, one entry per placed
  // device (the running intersection; a scalar is a one-element set).
  std::vector<AttributeSet> shared;
  std::vector<const AttributeSet*> seen;  // distinctAttribute values
};

// What `set` keeps of `shared`.
AttributeSet Intersect(const AttributeSet& shared, const AttributeSet& set) {
  AttributeSet out;
  std::set_intersection(shared.elements.begin(), shared.elements.end(), set.elements.begin(),
                        set.elements.end(), std::back_inserter(out.elements));
  return out;
}

std::string DeviceName(const Inventory& inv, size_t d) {
  DeviceView v = inv.View(d);
  return std::string(v.driver) + "/" + std::string(v.pool) + "/" + std::string(v.name);
}

class NodeSearch {
 public:
  NodeSearch(const Inventory& inv, const Plan& plan, std::string_view node,
             const NodeDevices& nd, const AllocatorOptions& o, DeviceFacts& facts,
             SelectorEvaluator& eval, Budget& budget)
      : inv_(inv), plan_(plan), node_(node), nd_(nd), o_(o), facts_(facts), eval_(eval),
        budget_(budget) {}

  NodeOutcome Run();

 private:
  bool CheckAllPools();
  bool BuildCandidates();
  bool CheckClaimSizes();
  bool SearchMayFail() const;
  void Fatal(Reason reason);
  void BuildAlternative(const Alternative& alt, size_t claim);
  bool PreCheckCounts();
  bool PreCheckMatch(size_t claim, const PlannedConstraint& pc);
  bool SolveRequest(size_t c, size_t r);
  bool PlaceSlot(size_t c, size_t r, const Alternative& alt, int64_t need, int64_t k, size_t start);
  bool ContinueAsFirst(size_t c, size_t r);
  enum class Fit { kOk, kUsed, kConstraint, kCounters, kTaint, kCapacity };
  Fit CanPlace(size_t c, const Alternative& alt, size_t d, bool tolerated = true);
  void Apply(size_t c, const Alternative& alt, size_t d);
  void Undo();
  void Infeasible(size_t claim, std::string code, std::string request, std::string message) {
    out_.reasons.push_back(Reason{.code = std::move(code), .claim = claim,
                                  .request = std::move(request), .node = node_,
                                  .message = std::move(message)});
  }

  const Inventory& inv_;
  const Plan& plan_;
  const std::string node_;
  const NodeDevices& nd_;
  const AllocatorOptions& o_;
  DeviceFacts& facts_;
  SelectorEvaluator& eval_;
  Budget& budget_;
  NodeOutcome out_;
  std::vector<std::vector<size_t>> cands_;  // per alternative id
  std::vector<char> alt_ok_;
  std::vector<char> alt_multi_;  // some candidate may back several results
  std::vector<Pick> picks_;
  std::vector<size_t> claim_start_;
  std::vector<std::vector<ConstraintState>> cstate_;
  bool fatal_ = false;
};

NodeOutcome NodeSearch::Run() {
  for (const NodePool& p : nd_.pools) {
    if (p.state != PoolState::kInvalid || out_.invalid_pool) continue;
    out_.invalid_pool = true;
    const PoolInfo& info = inv_.pools()[p.pool];
    out_.invalid_pool_problem =
        "pool " + info.name + " of driver " + info.driver + ": " + p.problem;
  }
  if (!CheckAllPools() || !BuildCandidates() || !CheckClaimSizes()) {
    out_.kind = NodeOutcome::kFatal;
    return std::move(out_);
  }
  bool pre = PreCheckCounts();
  for (size_t c = 0; pre && c < plan_.claims.size(); ++c) {
    for (const PlannedConstraint& pc : plan_.claims[c].constraints) {
      if (pc.match && !PreCheckMatch(c, pc)) pre = false;
    }
  }
  // A failed pre-check proves that no allocation exists, but the scheduler's ordered search
  // may fail outright before it finds out (an All request whose device breaks a constraint,
  // issue #19 item 23). Only then is the search run anyway, to learn which comes first.
  if (!pre && !SearchMayFail()) return std::move(out_);
  claim_start_.assign(plan_.claims.size() + 1, 0);
  cstate_.resize(plan_.claims.size());
  for (size_t c = 0; c < plan_.claims.size(); ++c) {
    cstate_[c].resize(plan_.claims[c].constraints.size());
  }
  const size_t explained = out_.reasons.size();
  bool found = SolveRequest(0, 0);
  if (fatal_) {
    out_.kind = NodeOutcome::kFatal;
  } else if (found) {
    out_.kind = NodeOutcome::kFeasible;
    out_.picks = picks_;
  } else if (budget_.exhausted) {
    out_.kind = NodeOutcome::kAborted;
  } else if (explained == 0) {
    Infeasible(0, "alloc.search.exhausted", "",
               "enough devices pass each request's filters, but no combination satisfies the "
               "constraints, counters and device sharing rules together");
  }
  while (!picks_.empty()) Undo();
  return std::move(out_);
}

// True when the ordered search can end in an error rather than "no solution": some All
// request is covered by a claim constraint (allocateDevice with must=true).
bool NodeSearch::SearchMayFail() const {
  for (const PlannedClaim& claim : plan_.claims) {
    for (const PlannedRequest& pr : claim.requests) {
      for (const Alternative& alt : pr.alternatives) {
        if (!alt.all) continue;
        for (const PlannedConstraint& pc : claim.constraints) {
          if (pc.Covers(alt)) return true;
        }
      }
    }
  }
  return false;
}

void NodeSearch::Fatal(Reason reason) {
  out_.reasons.clear();
  reason.node = node_;
  out_.reasons.push_back(std::move(reason));
  fatal_ = true;
}

// Allocate's per-claim limit on this node: the least number of results each claim needs, an
// All request counting every device it selects here (zero when none), a firstAvailable request
// its smallest subrequest. Over the limit the scheduler fails the claim, it does not try.
bool NodeSearch::CheckClaimSizes() {
  for (size_t c = 0; c < plan_.claims.size(); ++c) {
    int64_t least = 0;
    for (const PlannedRequest& pr : plan_.claims[c].requests) {
      int64_t smallest = INT64_MAX;
      for (const Alternative& alt : pr.alternatives) {
        const int64_t n = alt.all ? static_cast<int64_t>(cands_[alt.id].size()) : alt.count;
        smallest = std::min(smallest, n);
      }
      least += smallest;
    }
    if (least <= o_.max_results_per_claim) continue;
    Fatal(Reason{.code = "alloc.request.too-many-results", .claim = c,
                 .message = "number of requested devices " + std::to_string(least) +
                            " exceeds the claim limit of " +
                            std::to_string(o_.max_results_per_claim) + " on node " + node_});
    return false;
  }
  return true;
}

// All mode with an incomplete or invalid pool visible from the node is fatal (allocator_*.go
// `validateDeviceRequest`).
bool NodeSearch::CheckAllPools() {
  for (size_t c = 0; c < plan_.claims.size(); ++c) {
    for (const PlannedRequest& pr : plan_.claims[c].requests) {
      for (const Alternative& alt : pr.alternatives) {
        if (!alt.all) continue;
        for (const NodePool& p : nd_.pools) {
          if (p.state == PoolState::kComplete) continue;
          Fatal(Reason{
              .code = "alloc.request.all-incomplete-pool", .claim = c, .request = alt.name,
              .message = "request " + alt.name + " asks for all devices, but " + p.problem +
                         (p.state == PoolState::kInvalid ? " (pool is invalid)"
                                                         : " (pool is being updated)")});
          return false;
        }
      }
    }
  }
  return true;
}

bool NodeSearch::BuildCandidates() {
  cands_.assign(plan_.alternatives.size(), {});
  alt_ok_.assign(plan_.alternatives.size(), 0);
  alt_multi_.assign(plan_.alternatives.size(), 0);
  out_.funnels.resize(plan_.alternatives.size());
  for (size_t c = 0; c < plan_.claims.size(); ++c) {
    for (const PlannedRequest& pr : plan_.claims[c].requests) {
      for (const Alternative& alt : pr.alternatives) {
        BuildAlternative(alt, c);
        if (fatal_) return false;
      }
    }
  }
  return true;
}

void NodeSearch::BuildAlternative(const Alternative& alt, size_t claim) {
  RequestFunnel& f = out_.funnels[alt.id];
  f.request = alt.name;
  f.node = node_;
  f.needed = alt.count;
  f.visible = nd_.visible;
  std::vector<size_t>& cands = cands_[alt.id];
  bool all_usable = true;
  std::string blocker;
  for (size_t d : nd_.devices) {
    bool in_use = facts_.InUse(d) && !alt.admin;
    SelectorState s = facts_.Selectors(alt.selection ? *alt.selection : alt, d, eval_);
    if (s == SelectorState::kError && (!in_use || alt.all)) {
      const SelectorFailure& fail = facts_.Failure(alt, d);
      Fatal(Reason{
          .code = "alloc.selector.error", .claim = claim, .request = alt.name,
          .device = DeviceName(inv_, d),
          .message = "request " + alt.name + ": " + (fail.from_class ? "class" : "request") +
                     " selector \"" + fail.expression + "\" fails on device " +
                     DeviceName(inv_, d) + ": " + fail.error});
      return;
    }
    if (s == SelectorState::kClassMismatch || s == SelectorState::kError) continue;
    ++f.class_match;
    if (s != SelectorState::kMatch) continue;
    ++f.selector_match;
    bool tolerated = facts_.Tolerated(d, alt.common->tolerations);
    bool counters = !facts_.DrawsCounters(d) || facts_.FitsCounters(d);
    // All takes only devices whose remaining capacity can take the request
    // (`validateDeviceRequest`'s `CmpRequestOverCapacity` check).
    if (!facts_.FitsCapacity(alt, d)) {
      if (!in_use) ++f.available;
      if (!in_use && tolerated) ++f.tolerated;
      continue;
    }
    if (alt.all) {
      cands.push_back(d);
      if ((in_use || !tolerated || !counters) && all_usable) {
        all_usable = false;
        blocker = DeviceName(inv_, d) + (in_use ? " is allocated to another claim"
                                                : !tolerated ? " has a taint that is not tolerated"
                                                             : " lacks shared counters");
      }
    }
    if (in_use) continue;
    ++f.available;
    if (!tolerated) continue;
    ++f.tolerated;
    if (!counters) continue;
    ++f.usable;
    if (!alt.all) cands.push_back(d);
    if (!alt.all && facts_.Multi(d)) alt_multi_[alt.id] = 1;
  }
  if (alt.all) {
    // The scheduler tries an All request whenever it selects a device: an unusable one
    // ends the request in device order, after the devices before it were placed (a
    // constraint they break first is fatal), so it is found by the search, not here.
    alt_ok_[alt.id] = !cands.empty();
    if (!cands.empty() && !all_usable) {
      Infeasible(claim, "alloc.request.all-unavailable", alt.name,
                 "request " + alt.name + " asks for all matching devices, but " + blocker);
    }
  } else {
    alt_ok_[alt.id] = static_cast<int64_t>(cands.size()) >= alt.count ||
                      (alt_multi_[alt.id] && !cands.empty());
  }
}

// Upper bound on how many of `cands` fit the counters together: devices are grouped by the
// first counter they draw; a group can contribute at most remaining / smallest amount.
int64_t CounterBound(DeviceFacts& facts, const std::vector<size_t>& cands) {
  std::map<size_t, std::pair<int64_t, int64_t>> groups;  // counter -> (members, min amount)
  int64_t free = 0;
  for (size_t d : cands) {
    const auto& use = facts.Consumption(d);
    if (!use || use->empty()) {
      ++free;
      continue;
    }
    auto [it, inserted] = groups.emplace(use->front().first, std::make_pair(0, use->front().second));
    ++it->second.first;
    it->second.second = std::min(it->second.second, use->front().second);
  }
  const CounterState& cs = facts.counters();
  for (const auto& [idx, g] : groups) {
    int64_t left = cs.capacity[idx] - cs.committed[idx] - cs.used[idx];
    free += g.second <= 0 ? g.first : std::min(g.first, std::max<int64_t>(left, 0) / g.second);
  }
  return free;
}

bool NodeSearch::PreCheckCounts() {
  bool ok = true;
  std::vector<char> counter_limited(plan_.alternatives.size(), 0);
  for (const Alternative* alt : plan_.alternatives) {
    // A multi-allocatable device draws its counters once however often it is picked.
    if (!alt_ok_[alt->id] || alt->all || alt_multi_[alt->id]) continue;
    int64_t bound = CounterBound(facts_, cands_[alt->id]);
    if (bound >= alt->count) continue;
    alt_ok_[alt->id] = 0;
    counter_limited[alt->id] = 1;
    Infeasible(alt->claim, "alloc.counters.exhausted", alt->name,
               "request " + alt->name + ": the shared counters of node " + node_ +
                   " leave room for at most " + std::to_string(bound) + " of the " +
                   std::to_string(cands_[alt->id].size()) + " usable devices, " +
                   std::to_string(alt->count) + " needed");
  }
  for (size_t c = 0; c < plan_.claims.size(); ++c) {
    for (const PlannedRequest& pr : plan_.claims[c].requests) {
      bool any = std::any_of(pr.alternatives.begin(), pr.alternatives.end(),
                             [&](const Alternative& a) { return alt_ok_[a.id] != 0; });
      if (any) continue;
      ok = false;
      // Counter-limited alternatives have their own reason; a count would contradict it.
      bool counted = std::any_of(pr.alternatives.begin(), pr.alternatives.end(),
                                 [&](const Alternative& a) { return !counter_limited[a.id]; });
      if (!counted) continue;
      const Alternative& a = pr.alternatives.front();
      const RequestFunnel& f = out_.funnels[a.id];
      Infeasible(c, "alloc.request.insufficient-devices", a.request,
                 "request " + a.request + ": " + std::to_string(f.usable) +
                     " usable devices on node " + node_ + ", " +
                     (a.all ? std::string("at least one") : std::to_string(a.count)) + " needed");
    }
  }
  return ok;
}

// Some value v must be carried by count_r candidates of every covered request, and by
// their sum overall. Only requests with a single ExactCount alternative are checked.
bool NodeSearch::PreCheckMatch(size_t claim, const PlannedConstraint& pc) {
  std::vector<const Alternative*> alts;
  for (const PlannedRequest& pr : plan_.claims[claim].requests) {
    if (!std::any_of(pr.alternatives.begin(), pr.alternatives.end(),
                     [&](const Alternative& a) { return pc.Covers(a); })) {
      continue;
    }
    if (pr.alternatives.size() != 1 || pr.alternatives[0].all) return true;
    if (alt_multi_[pr.alternatives[0].id]) return true;  // one device may fill several slots
    alts.push_back(&pr.alternatives[0]);
  }
  if (alts.empty()) return true;
  // One group per value: the devices that carry it (a list joins the group of each element).
  std::map<std::string, std::pair<std::vector<int64_t>, std::set<size_t>>> groups;
  for (size_t i = 0; i < alts.size(); ++i) {
    for (size_t d : cands_[alts[i]->id]) {
      const auto& v = facts_.Attribute(pc.attribute_id, d);
      if (!v) continue;
      for (const std::string& element : v->elements) {
        auto& g = groups[element];
        g.first.resize(alts.size());
        ++g.first[i];
        g.second.insert(d);
      }
    }
  }
  int64_t total = 0, largest = 0;
  for (const Alternative* a : alts) total += a->count;
  for (const auto& [value, g] : groups) {
    largest = std::max<int64_t>(largest, static_cast<int64_t>(g.second.size()));
    bool fits = static_cast<int64_t>(g.second.size()) >= total;
    for (size_t i = 0; i < alts.size(); ++i) fits = fits && g.first[i] >= alts[i]->count;
    if (fits) return true;
  }
  Infeasible(claim, "alloc.constraint.match-attribute", alts.front()->request,
             "matchAttribute " + pc.attribute + ": largest group of usable devices sharing one "
             "value on node " + node_ + " is " + std::to_string(largest) + ", " +
             std::to_string(total) + " needed");
  return false;
}

bool NodeSearch::SolveRequest(size_t c, size_t r) {
  if (c == plan_.claims.size()) return true;
  const PlannedClaim& claim = plan_.claims[c];
  if (r == claim.requests.size()) {
    claim_start_[c + 1] = picks_.size();
    return SolveRequest(c + 1, 0);
  }
  if (r == 0) claim_start_[c] = picks_.size();
  int64_t so_far = static_cast<int64_t>(picks_.size() - claim_start_[c]);
  for (const Alternative& alt : claim.requests[r].alternatives) {
    if (!alt_ok_[alt.id]) continue;
    int64_t need = alt.all ? static_cast<int64_t>(cands_[alt.id].size()) : alt.count;
    if (so_far + need + claim.min_after[r + 1] > o_.max_results_per_claim) continue;
    if (PlaceSlot(c, r, alt, need, 0, 0)) return true;
    if (budget_.exhausted || fatal_) return false;
  }
  return false;
}

bool NodeSearch::PlaceSlot(size_t c, size_t r, const Alternative& alt, int64_t need, int64_t k,
                           size_t start) {
  if (k == need) return SolveRequest(c, r + 1);
  const std::vector<size_t>& cands = cands_[alt.id];
  if (alt.all) {
    size_t d = cands[static_cast<size_t>(k)];
    if (!budget_.Step()) return false;
    // allocateDevice's order: in use, counters, taints, then the constraints, whose failure
    // is an error because the request must have this device.
    if (facts_.InUse(d) && !alt.admin) return false;
    Fit fit = CanPlace(c, alt, d, facts_.Tolerated(d, alt.common->tolerations));
    if (fit == Fit::kConstraint) {
      Fatal(Reason{.code = "alloc.request.all-constraint", .claim = c, .request = alt.name,
                   .device = DeviceName(inv_, d),
                   .message = "request " + alt.name + ": cannot add device " +
                              DeviceName(inv_, d) +
                              " because a claim constraint would not be satisfied (the "
                              "request asks for all matching devices)"});
      return false;
    }
    if (fit != Fit::kOk) return false;
    Apply(c, alt, d);
    const bool lost_index = k == 0 && alt.sub_index > 0 && !o_.release().alloc.first_available_all_fixed;
    if (lost_index ? ContinueAsFirst(c, r) : PlaceSlot(c, r, alt, need, k + 1, 0)) return true;
    Undo();
    return false;
  }
  const bool multi = alt_multi_[alt.id] != 0;
  std::vector<std::pair<uint32_t, size_t>> tried;  // symmetry keys whose continuation failed
  for (size_t i = start; i < cands.size(); ++i) {
    if (!multi && static_cast<int64_t>(cands.size() - i) < need - k) break;
    size_t d = cands[i];
    // Interchangeable devices are only symmetric while the search has not shared one of them.
    bool fresh = facts_.SearchShares(d) == 0;
    std::pair<uint32_t, size_t> cls = facts_.SymmetryKey(d);
    if (fresh && std::find(tried.begin(), tried.end(), cls) != tried.end()) continue;
    if (!budget_.Step()) return false;
    if (CanPlace(c, alt, d) != Fit::kOk) continue;
    Apply(c, alt, d);
    // A multi-allocatable device may take the next slot too: combinations with repetition.
    if (PlaceSlot(c, r, alt, need, k + 1, facts_.Multi(d) ? i : i + 1)) return true;
    Undo();
    if (budget_.exhausted || fatal_) return false;
    if (fresh) tried.push_back(cls);
  }
  return false;
}

// 1.34/1.35: after the first device of an All subrequest at index >= 1 the scheduler lost the
// subrequest index and went on as subrequest 0 would at its second device (allocateOne's
// recursion for All omitted subRequestIndex; fixed in 1.36 by kubernetes/kubernetes#137347).
bool NodeSearch::ContinueAsFirst(size_t c, size_t r) {
  const Alternative& first = plan_.claims[c].requests[r].alternatives.front();
  const int64_t need = first.all ? static_cast<int64_t>(cands_[first.id].size()) : first.count;
  if (first.all && need == 0) return false;
  if (need <= 1) return SolveRequest(c, r + 1);
  // Results so far (the one just placed included) plus the rest of subrequest 0's.
  const int64_t results = static_cast<int64_t>(picks_.size() - claim_start_[c]);
  if (results + need - 1 > o_.max_results_per_claim) return false;
  return PlaceSlot(c, r, first, need, 1, 0);
}

// In the order of the scheduler's allocateDevice: in use, counters, taints, constraints,
// capacity (only the order of constraint failures against the others is observable: with
// All it decides between "no solution" and an error).
NodeSearch::Fit NodeSearch::CanPlace(size_t c, const Alternative& alt, size_t d, bool tolerated) {
  for (size_t i = 0; i < picks_.size() && !facts_.Multi(d); ++i) {
    if (picks_[i].device != d) continue;
    // Admin access may reuse a device picked by another claim, never within its own claim.
    if (!alt.admin || i >= claim_start_[c]) return Fit::kUsed;
  }
  if (facts_.DrawsCounters(d) && !facts_.FitsCounters(d)) return Fit::kCounters;
  if (!tolerated) return Fit::kTaint;
  const PlannedClaim& claim = plan_.claims[c];
  for (size_t j = 0; j < claim.constraints.size(); ++j) {
    const PlannedConstraint& pc = claim.constraints[j];
    if (!pc.Covers(alt)) continue;
    const auto& v = facts_.Attribute(pc.attribute_id, d);
    if (!v) return Fit::kConstraint;
    const ConstraintState& st = cstate_[c][j];
    if (pc.match && !st.shared.empty()) {
      // Scalar comparison (list gate off): a list is of unknown type once a second device
      // joins, even when it is the same multi-allocatable device again.
      if (!facts_.list_semantics() && (v->list || st.shared.back().list)) return Fit::kConstraint;
      if (!st.shared.back().Intersects(*v)) return Fit::kConstraint;
    }
    if (!pc.match) {
      // Scalar comparison (list gate off) cannot compare a list with anything.
      if (v->list && !facts_.list_semantics() && !st.seen.empty()) return Fit::kConstraint;
      for (const AttributeSet* seen : st.seen) {
        if (seen->Intersects(*v)) return Fit::kConstraint;
      }
    }
  }
  if (!facts_.FitsCapacity(alt, d)) return Fit::kCapacity;
  return Fit::kOk;
}

void NodeSearch::Apply(size_t c, const Alternative& alt, size_t d) {
  Pick pick{.claim = c, .alt = &alt, .device = d};
  if (facts_.Multi(d)) {
    pick.shared = true;
    if (const std::vector<int64_t>* demand = facts_.Demand(alt, d)) pick.consumed = *demand;
  }
  picks_.push_back(std::move(pick));
  const PlannedClaim& claim = plan_.claims[c];
  for (size_t j = 0; j < claim.constraints.size(); ++j) {
    const PlannedConstraint& pc = claim.constraints[j];
    if (!pc.Covers(alt)) continue;
    const AttributeSet* v = &*facts_.Attribute(pc.attribute_id, d);
    ConstraintState& st = cstate_[c][j];
    if (pc.match) {
      st.shared.push_back(st.shared.empty() ? *v : Intersect(st.shared.back(), *v));
    } else {
      st.seen.push_back(v);
    }
  }
  if (facts_.DrawsCounters(d)) {
    for (const auto& [idx, amount] : *facts_.Consumption(d)) facts_.counters().used[idx] += amount;
  }
  facts_.UseCapacity(alt, d, +1);
}

void NodeSearch::Undo() {
  Pick p = picks_.back();
  picks_.pop_back();
  const PlannedClaim& claim = plan_.claims[p.claim];
  for (size_t j = 0; j < claim.constraints.size(); ++j) {
    const PlannedConstraint& pc = claim.constraints[j];
    if (!pc.Covers(*p.alt)) continue;
    ConstraintState& st = cstate_[p.claim][j];
    if (pc.match) {
      st.shared.pop_back();
    } else {
      st.seen.pop_back();
    }
  }
  facts_.UseCapacity(*p.alt, p.device, -1);
  if (facts_.DrawsCounters(p.device)) {
    for (const auto& [idx, amount] : *facts_.Consumption(p.device)) {
      facts_.counters().used[idx] -= amount;
    }
  }
}

}  // namespace

NodeOutcome SearchNode(const Inventory& inventory, const Plan& plan, std::string_view node,
                       const NodeDevices& devices, const AllocatorOptions& options,
                       DeviceFacts& facts, SelectorEvaluator& evaluator, Budget& budget) {
  NodeSearch search(inventory, plan, node, devices, options, facts, evaluator, budget);
  return search.Run();
}

}  // namespace draguard::alloc::internal
