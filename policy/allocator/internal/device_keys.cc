// Canonical device keys (device_keys.h). Each field is tagged, each string is
// length-prefixed and each number fixed-width, so that the encoding is injective.
#include "policy/allocator/internal/device_keys.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "policy/common/strings.h"

namespace draguard::alloc::internal {
namespace {

// Numbers and lengths are written in fixed-width bytes (AppendKeyInt, AppendKeyString): the
// keys are never shown, only interned, and formatting numbers as text was a fifth of
// Inventory::Build on a fleet.

void Opt(std::string& key, const std::optional<std::string>& s) {
  key += s ? '+' : '-';
  if (s) AppendKeyString(key, *s);
}

void Flag(std::string& key, const std::optional<bool>& b) {
  key += !b ? '-' : *b ? 'T' : 'F';
}

void Requirements(std::string& key, const std::vector<k8s::NodeSelectorRequirement>& list) {
  AppendKeyInt(key, static_cast<int64_t>(list.size()));
  for (const auto& r : list) {
    AppendKeyString(key, r.key);
    AppendKeyString(key, r.op);
    AppendKeyInt(key, static_cast<int64_t>(r.values.size()));
    for (const auto& v : r.values) AppendKeyString(key, v);
  }
}

void Taints(std::string& key, const std::vector<k8s::DeviceTaint>& taints) {
  AppendKeyInt(key, static_cast<int64_t>(taints.size()));
  for (const auto& t : taints) {
    AppendKeyString(key, t.key);
    AppendKeyString(key, t.value);
    AppendKeyString(key, t.effect);
  }
}

void Strings(std::string& key, const std::vector<std::string>& list) {
  AppendKeyInt(key, static_cast<int64_t>(list.size()));
  for (const auto& s : list) AppendKeyString(key, s);
}

// The list members of an attribute (DRAListTypeAttributes), each tagged.
void Lists(std::string& key, const k8s::DeviceAttribute& a) {
  if (!a.has_list()) return;
  key += 'L';
  key += a.int_values ? 'i' : '-';
  if (a.int_values) {
    AppendKeyInt(key, static_cast<int64_t>(a.int_values->size()));
    for (int64_t v : *a.int_values) AppendKeyInt(key, v);
  }
  key += a.bool_values ? 'b' : '-';
  if (a.bool_values) {
    AppendKeyInt(key, static_cast<int64_t>(a.bool_values->size()));
    for (bool v : *a.bool_values) key += v ? 'T' : 'F';
  }
  key += a.string_values ? 's' : '-';
  if (a.string_values) Strings(key, *a.string_values);
  key += a.version_values ? 'v' : '-';
  if (a.version_values) Strings(key, *a.version_values);
}

// Whether attribute `key` of a device of `driver` is in `skip` (sorted), without copies.
bool Skipped(const std::vector<AttributeName>& skip, std::string_view driver,
             std::string_view key) {
  std::string_view domain = driver, name = key;
  if (size_t slash = key.find('/'); slash != std::string_view::npos) {
    domain = key.substr(0, slash);
    name = key.substr(slash + 1);
  }
  auto less = [](const AttributeName& a, std::pair<std::string_view, std::string_view> b) {
    return std::string_view(a.domain) < b.first ||
           (std::string_view(a.domain) == b.first && std::string_view(a.name) < b.second);
  };
  auto it = std::lower_bound(skip.begin(), skip.end(), std::make_pair(domain, name), less);
  return it != skip.end() && it->domain == domain && it->name == name;
}

// A single string, int or bool: a value CEL always prepares.
bool PlainScalar(const k8s::DeviceAttribute& a) {
  return a.set_count() == 1 && !a.has_list() && !a.version_value;
}

// An attribute's typed value.
void Value(std::string& key, const k8s::DeviceAttribute& a) {
  key += a.int_value ? 'i' : '-';
  if (a.int_value) AppendKeyInt(key, *a.int_value);
  Flag(key, a.bool_value);
  Opt(key, a.string_value);
  Opt(key, a.version_value);
  Lists(key, a);
}

// The capacity values and allowMultipleAllocations.
void CapacityAndSharing(const k8s::Device& d, std::string& key) {
  key += 'C';
  AppendKeyInt(key, static_cast<int64_t>(d.capacity.size()));
  for (const auto& [name, c] : d.capacity) {
    AppendKeyString(key, name);
    AppendKeyString(key, c.value);
  }
  key += 'M';
  Flag(key, d.allow_multiple_allocations);
}

void SelectorKey(std::string_view driver, const k8s::Device& d,
                 const std::vector<AttributeName>* skip, std::string& key) {
  key += 'D';
  AppendKeyString(key, driver);
  key += 'A';
  AppendKeyInt(key, static_cast<int64_t>(d.attributes.size()));
  for (const auto& [name, a] : d.attributes) {
    AppendKeyString(key, name);
    if (skip != nullptr && !skip->empty() && Skipped(*skip, driver, name)) {
      key += 'x';
      continue;
    }
    Value(key, a);
  }
  CapacityAndSharing(d, key);
}

// The request policies of the capacities, in order.
void Policies(const k8s::Device& d, std::string& key) {
  key += 'P';
  for (const auto& [name, c] : d.capacity) {
    key += c.request_policy ? '+' : '-';
    if (!c.request_policy) continue;
    const k8s::CapacityRequestPolicy& p = *c.request_policy;
    Opt(key, p.default_value);
    Strings(key, p.valid_values);
    key += p.valid_range ? '+' : '-';
    if (p.valid_range) {
      AppendKeyString(key, p.valid_range->min);
      Opt(key, p.valid_range->max);
      Opt(key, p.valid_range->step);
    }
  }
}

}  // namespace

bool SkipMemo::Skipped(const std::vector<AttributeName>& skip, std::string_view driver,
                       size_t position, std::string_view name) {
  if (driver != driver_) {
    driver_ = driver;
    by_position_.clear();
  }
  if (position >= by_position_.size()) by_position_.resize(position + 1);
  auto& [known, skipped] = by_position_[position];
  if (known.data() == nullptr || known != name) {
    known = name;
    skipped = internal::Skipped(skip, driver, name);
  }
  return skipped;
}

void AppendShapeKeyAndIdentity(std::string_view driver, const k8s::Device& d,
                               const std::vector<AttributeName>& skip, SkipMemo& memo,
                               std::string& key, std::string& identity) {
  key += 'D';
  AppendKeyString(key, driver);
  key += 'A';
  AppendKeyInt(key, static_cast<int64_t>(d.attributes.size()));
  size_t position = 0;
  for (const auto& [name, a] : d.attributes) {
    AppendKeyString(key, name);
    if (memo.Skipped(skip, driver, position++, name)) {
      key += 'x';
      Value(identity, a);
      continue;
    }
    Value(key, a);
  }
  CapacityAndSharing(d, key);
}

void AppendIdentity(std::string_view driver, const k8s::Device& d,
                    const std::vector<AttributeName>& skip, SkipMemo& memo,
                    std::string& identity) {
  size_t position = 0;
  for (const auto& [name, a] : d.attributes) {
    if (memo.Skipped(skip, driver, position++, name)) Value(identity, a);
  }
}

bool SameAttributes(std::string_view driver, const k8s::Device& a, std::string_view other_driver,
                    const k8s::Device& b) {
  // Each attribute's name and every typed field (what Value appends).
  auto same_attribute = [](const auto& x, const auto& y) {
    const k8s::DeviceAttribute& p = x.second;
    const k8s::DeviceAttribute& q = y.second;
    return x.first == y.first && p.int_value == q.int_value && p.bool_value == q.bool_value &&
           p.string_value == q.string_value && p.version_value == q.version_value &&
           p.int_values == q.int_values && p.bool_values == q.bool_values &&
           p.string_values == q.string_values && p.version_values == q.version_values;
  };
  return driver == other_driver && std::equal(a.attributes.begin(), a.attributes.end(),
                                              b.attributes.begin(), b.attributes.end(),
                                              same_attribute);
}

bool SameSelectorContent(std::string_view driver, const k8s::Device& a,
                         std::string_view other_driver, const k8s::Device& b) {
  // What SelectorKey appends: the driver and attributes, the capacities' names and values,
  // allowMultipleAllocations.
  auto same_capacity = [](const auto& x, const auto& y) {
    return x.first == y.first && x.second.value == y.second.value;
  };
  return a.allow_multiple_allocations == b.allow_multiple_allocations &&
         std::equal(a.capacity.begin(), a.capacity.end(), b.capacity.begin(), b.capacity.end(),
                    same_capacity) &&
         SameAttributes(driver, a, other_driver, b);
}

void AppendCapacityKey(const k8s::Device& device, std::string& key) {
  CapacityAndSharing(device, key);
  Policies(device, key);
}

AttributeName QualifiedAttribute(std::string_view driver, std::string_view key) {
  size_t slash = key.find('/');
  if (slash == std::string_view::npos) {
    return AttributeName{.domain = std::string(driver), .name = std::string(key)};
  }
  return AttributeName{.domain = std::string(key.substr(0, slash)),
                       .name = std::string(key.substr(slash + 1))};
}

void AppendSelectorKey(std::string_view driver, const k8s::Device& device, std::string& key) {
  SelectorKey(driver, device, nullptr, key);
}

void AppendShapeKey(std::string_view driver, const k8s::Device& device,
                    const std::vector<AttributeName>& skip, std::string& key) {
  SelectorKey(driver, device, &skip, key);
}

void AppendReadKey(std::string_view driver, const k8s::Device& device,
                   const std::vector<AttributeName>& reads, std::string& key) {
  key += 'D';
  AppendKeyString(key, driver);
  for (const auto& [name, a] : device.attributes) {
    if (PlainScalar(a) && !Skipped(reads, driver, name)) continue;
    key += 'a';
    AppendKeyString(key, name);
    Value(key, a);
  }
  CapacityAndSharing(device, key);
}

void AppendFactKey(const InventoryDevice& dev, std::string& key) {
  const k8s::Device& d = *dev.device;
  Policies(d, key);
  key += 'U';
  AppendKeyInt(key, static_cast<int64_t>(d.consumes_counters.size()));
  for (const auto& use : d.consumes_counters) {
    AppendKeyString(key, use.counter_set);
    AppendKeyInt(key, static_cast<int64_t>(use.counters.size()));
    for (const auto& [name, c] : use.counters) {
      AppendKeyString(key, name);
      AppendKeyString(key, c.value);
    }
  }
  for (const auto& draws : dev.draws) {
    key += draws ? '+' : '-';
    if (!draws) continue;
    AppendKeyInt(key, static_cast<int64_t>(draws->size()));
    for (const CounterDraw& draw : *draws) {
      AppendKeyInt(key, static_cast<int64_t>(draw.ordinal));
      AppendKeyInt(key, draw.milli);
    }
  }
  key += 'T';
  Taints(key, d.taints);
  Taints(key, dev.rule_taints);
  key += dev.in_use ? 'I' : 'i';
  AppendKeyInt(key, static_cast<int64_t>(dev.shares.size()));
  for (const auto* share : dev.shares) {
    AppendKeyInt(key, static_cast<int64_t>(share->size()));
    for (const auto& [name, amount] : *share) {
      AppendKeyString(key, name);
      AppendKeyString(key, amount);
    }
  }
  key += 'N';
  Opt(key, d.node_name);
  key += d.node_selector ? '+' : '-';
  if (d.node_selector) {
    AppendKeyInt(key, static_cast<int64_t>(d.node_selector->node_selector_terms.size()));
    for (const auto& term : d.node_selector->node_selector_terms) {
      Requirements(key, term.match_expressions);
      Requirements(key, term.match_fields);
    }
  }
  Flag(key, d.all_nodes);
  Flag(key, d.binds_to_node);
  key += 'B';
  Strings(key, d.binding_conditions);
  Strings(key, d.binding_failure_conditions);
}

}  // namespace draguard::alloc::internal
