// Node signatures (node_signature.h).
#include "policy/allocator/internal/node_signature.h"

#include <cstdint>

namespace draguard::alloc::internal {

NodeSignature::NodeSignature(const Inventory& inventory, const AllocatorOptions& options,
                             bool shape)
    : inv_(inventory),
      layout_(CounterLayout(options.version)),
      gate_(options.gates.Enabled(Gate::kDRAConsumableCapacity)),
      shape_(shape),
      local_scope_(inventory.CounterScopes(layout_).size()) {}

const std::vector<int64_t>& NodeSignature::Compute(const NodeDevices& nd) {
  key_.clear();
  key_.push_back(nd.visible);
  key_.push_back(static_cast<int64_t>(nd.pools.size()));
  for (const NodePool& p : nd.pools) key_.push_back(static_cast<int64_t>(p.state));
  key_.push_back(static_cast<int64_t>(nd.devices.size()));
  size_t last_scope = SIZE_MAX, last_local = 0;  // neighbours usually share a scope
  for (size_t d : nd.devices) {
    const InventoryDevice& dev = inv_.devices()[d];
    // Which devices draw from the same counters matters, not which scope that is.
    size_t local = 0;  // none
    if (dev.consumes_counters) {
      size_t scope = dev.counter_scope[layout_];
      if (scope != last_scope) {
        size_t& entry = local_scope_[scope];
        if (entry == 0) {
          scopes_.push_back(scope);
          entry = scopes_.size();
        }
        last_scope = scope;
        last_local = entry;
      }
      local = last_local;
    }
    // One word per device: the fact class (32 bits) and the local scope number.
    const uint32_t facts = shape_ ? dev.shape_fact_class : dev.fact_class;
    key_.push_back(static_cast<int64_t>((uint64_t{facts} << 32) | local));
  }
  for (size_t scope : scopes_) {
    key_.push_back(inv_.CounterScopes(layout_)[scope].state_class[gate_]);
    local_scope_[scope] = 0;
  }
  scopes_.clear();
  return key_;
}

size_t SignatureHash::operator()(const std::vector<int64_t>& key) const {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a over the 64-bit words
  for (int64_t v : key) {
    h ^= static_cast<uint64_t>(v);
    h *= 1099511628211ULL;
  }
  return static_cast<size_t>(h);
}

}  // namespace draguard::alloc::internal
