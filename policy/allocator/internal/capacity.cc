// Consumption of one device allocation (capacity.h), following the scheduler's
// structured/internal/experimental/consumable_capacity.go (`GetConsumedCapacityFromRequest`,
// `CmpRequestOverCapacity`).
#include "policy/allocator/internal/capacity.h"

#include <algorithm>

#include "policy/allocator/internal/amount.h"

namespace draguard::alloc::internal {
namespace {

// Rounds `want` up under the policy; nullopt when the policy forbids it.
std::optional<int64_t> ApplyPolicy(int64_t want, const k8s::CapacityRequestPolicy& policy) {
  if (policy.default_value) {
    std::optional<int64_t> def = ParseMilli(*policy.default_value);
    if (def && *def == want) return want;
  }
  if (!policy.valid_values.empty()) {
    std::optional<int64_t> best;
    for (const std::string& text : policy.valid_values) {
      std::optional<int64_t> v = ParseMilli(text);
      if (!v) return std::nullopt;
      if (*v >= want && (!best || *v < *best)) best = v;
    }
    return best;
  }
  if (policy.valid_range) {
    std::optional<int64_t> min = ParseMilli(policy.valid_range->min);
    if (!min) return std::nullopt;
    int64_t amount = std::max(want, *min);
    if (policy.valid_range->step) {
      std::optional<int64_t> step = ParseMilli(*policy.valid_range->step);
      if (!step || *step <= 0) return std::nullopt;
      int64_t over = amount - *min;
      amount = *min + (over + *step - 1) / *step * *step;
    }
    if (policy.valid_range->max) {
      std::optional<int64_t> max = ParseMilli(*policy.valid_range->max);
      if (!max || amount > *max) return std::nullopt;
    }
    return amount;
  }
  return want;
}

thread_local size_t capacity_parses = 0;

}  // namespace

size_t CapacityParsesOnThisThread() { return capacity_parses; }

std::optional<std::vector<int64_t>> CapacityValues(const k8s::Device& device) {
  ++capacity_parses;
  std::vector<int64_t> out;
  for (const auto& [name, capacity] : device.capacity) {
    std::optional<int64_t> v = ParseMilli(capacity.value);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::optional<std::vector<int64_t>> CapacityDemand(const k8s::Device& device,
                                                   const k8s::CapacityRequirements* requests) {
  ++capacity_parses;
  if (requests != nullptr) {
    for (const auto& [name, amount] : requests->requests) {
      if (!device.capacity.count(name)) return std::nullopt;
    }
  }
  std::vector<int64_t> out;
  for (const auto& [name, capacity] : device.capacity) {
    std::optional<int64_t> value = ParseMilli(capacity.value);
    if (!value) return std::nullopt;
    const std::string* requested = nullptr;
    if (requests != nullptr) {
      auto it = requests->requests.find(name);
      if (it != requests->requests.end()) requested = &it->second;
    }
    const auto& policy = capacity.request_policy;
    std::optional<int64_t> amount;
    if (requested == nullptr) {
      amount = policy && policy->default_value ? ParseMilli(*policy->default_value) : value;
    } else {
      std::optional<int64_t> want = ParseMilli(*requested);
      if (want) amount = policy ? ApplyPolicy(*want, *policy) : want;
    }
    if (!amount) return std::nullopt;
    out.push_back(*amount);
  }
  return out;
}

std::vector<int64_t> CommittedShares(
    const k8s::Device& device, const std::vector<const std::map<std::string, std::string>*>& shares) {
  std::vector<int64_t> out(device.capacity.size(), 0);
  for (const auto* consumed : shares) {
    size_t i = 0;
    for (const auto& [name, capacity] : device.capacity) {
      auto it = consumed->find(name);
      if (it != consumed->end()) {
        std::optional<int64_t> used = ParseMilli(it->second);
        out[i] += used ? *used : ParseMilli(capacity.value).value_or(0);
      }
      ++i;
    }
  }
  return out;
}

}  // namespace draguard::alloc::internal
