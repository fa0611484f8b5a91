// Builds the nested domain -> identifier -> value maps of a device once, in storage
// whose addresses never move, so that every Value handed to the evaluator is a borrowed
// view; then the index of device[k1][k2][k3] over those maps (path_index.h).
//
// The storage is sized before it is filled (Storage::Reserve counts what the device needs
// at most), so that its vectors and its one text buffer never reallocate: a webhook keeps one
// prepared device per inventory device, and deques (a 512-byte block each, five per device)
// once made that ~7.5 KB a device; now ~5 KB, 2 KB of it the path index (measured with
// heaptrack on bench/fleet-inventory.sh's GPUs).
#include "policy/cel/dra/device.h"

#include <cstdlib>
#include <utility>
#include <vector>

#include "policy/cel/activation.h"
#include "policy/cel/path_index.h"

namespace draguard::cel {

struct PreparedDevice::Storage {
  std::string text;  // every kept string, back to back; never grows past its reservation
  std::vector<Quantity> quantities;
  std::vector<Semver> semvers;
  std::vector<ListData> lists;
  std::vector<MapData> inner;
  MapData attributes{.entries = {}, .defaulting = true};
  MapData capacity{.entries = {}, .defaulting = true};
  MapData device;
  PathIndex paths;  // device[k1][k2][k3], for the fast form's attribute and capacity lookups
  Value device_value = Value::MapRef(&device);  // what device() returns
  FastPredicate::Binding binding;  // device_value and its index, bound once for the fast form

  // Reserves room for everything Prepare may keep of `data`, so that nothing moves later.
  void Reserve(const DeviceData& data) {
    size_t bytes = data.driver.size(), semver_count = 0, list_count = 0;
    for (const auto& [name, attr] : data.attributes) {
      bytes += name.size() + data.driver.size();  // domain and identifier at most
      if (attr.string_value) bytes += attr.string_value->size();
      if (attr.string_values) {
        for (const std::string& v : *attr.string_values) bytes += v.size();
      }
      semver_count += attr.version_value.has_value();
      if (attr.version_values) semver_count += attr.version_values->size();
      list_count += attr.has_list();
    }
    for (const auto& [name, text_value] : data.capacity) bytes += name.size() + data.driver.size();
    text.reserve(bytes);
    quantities.reserve(data.capacity.size());
    semvers.reserve(semver_count);
    lists.reserve(list_count);
    inner.reserve(data.attributes.size() + data.capacity.size());
  }

  // Appends `s` to the text buffer; the view stays valid because the buffer never grows past
  // what Reserve counted (checked: a miscount must not leave dangling views).
  std::string_view Keep(std::string_view s) {
    if (text.size() + s.size() > text.capacity()) std::abort();
    const size_t at = text.size();
    text.append(s);
    return std::string_view(text).substr(at, s.size());
  }

  // Appends to a vector reserved by Reserve (checked as Keep is).
  template <typename T, typename... Args>
  static T& Add(std::vector<T>& into, Args&&... args) {
    if (into.size() == into.capacity()) std::abort();
    return into.emplace_back(std::forward<Args>(args)...);
  }

  // The inner map for `domain` inside `outer`, created on first use.
  MapData& Domain(MapData& outer, std::string_view domain) {
    if (const Value* v = outer.Find(Value::StringView(domain))) {
      return const_cast<MapData&>(v->map());
    }
    MapData& map = Add(inner);
    outer.entries.emplace_back(Value::StringView(Keep(domain)), Value::MapRef(&map));
    return map;
  }

  // Splits a qualified name at the first '/'; no '/' means the driver's domain.
  static std::pair<std::string_view, std::string_view> Split(std::string_view name,
                                                             std::string_view driver) {
    size_t slash = name.find('/');
    if (slash == std::string_view::npos) return {driver, name};
    return {name.substr(0, slash), name.substr(slash + 1)};
  }

  // Sets id in map (later writes replace earlier ones).
  void Put(MapData& map, std::string_view id, Value value) {
    for (auto& entry : map.entries) {
      if (entry.first.text() == id) {
        entry.second = value;
        return;
      }
    }
    map.entries.emplace_back(Value::StringView(Keep(id)), value);
  }

  // The CEL list of list-typed attribute `name` (upstream: versions parsed one by one).
  StatusOr<Value> ListOf(std::string_view name, const k8s::DeviceAttribute& attr) {
    ListData& list = Add(lists);
    if (attr.int_values) {
      for (int64_t v : *attr.int_values) list.elements.push_back(Value::Int(v));
    } else if (attr.bool_values) {
      for (bool v : *attr.bool_values) list.elements.push_back(Value::Bool(v));
    } else if (attr.string_values) {
      for (const std::string& v : *attr.string_values) {
        list.elements.push_back(Value::StringView(Keep(v)));
      }
    } else if (attr.version_values) {
      for (const std::string& text : *attr.version_values) {
        StatusOr<Semver> v = Semver::Parse(text);
        if (!v.ok()) {
          return InvalidArgumentError("attribute " + std::string(name) +
                                      ": parse semantic version: " + v.status().message());
        }
        list.elements.push_back(Value::SemverRef(&Add(semvers, *std::move(v))));
      }
    }
    return Value::ListRef(&list);
  }
};

namespace {

Status AttributeError(std::string_view name, std::string_view why) {
  return InvalidArgumentError("attribute " + std::string(name) + ": " + std::string(why));
}

}  // namespace

PreparedDevice::PreparedDevice() : storage_(std::make_unique<Storage>()) {}
PreparedDevice::PreparedDevice(PreparedDevice&&) noexcept = default;
PreparedDevice& PreparedDevice::operator=(PreparedDevice&&) noexcept = default;
PreparedDevice::~PreparedDevice() = default;

StatusOr<PreparedDevice> PreparedDevice::Prepare(const DeviceData& data,
                                                 const DeviceOptions& options) {
  PreparedDevice device;
  Storage& s = *device.storage_;
  s.Reserve(data);
  std::string_view driver = s.Keep(data.driver);
  for (const auto& [name, attr] : data.attributes) {
    // Upstream getAttributeValue: without the gate a list is no supported value.
    if (attr.set_count() != 1 || (attr.has_list() && !options.list_type_attributes)) {
      return AttributeError(name, "unsupported attribute value");
    }
    auto [domain, id] = Storage::Split(name, driver);
    Value value;
    if (attr.has_list()) {
      StatusOr<Value> list = s.ListOf(name, attr);
      if (!list.ok()) return list.status();
      value = *list;
    }
    if (attr.int_value) value = Value::Int(*attr.int_value);
    if (attr.bool_value) value = Value::Bool(*attr.bool_value);
    if (attr.string_value) value = Value::StringView(s.Keep(*attr.string_value));
    if (attr.version_value) {
      StatusOr<Semver> v = Semver::Parse(*attr.version_value);
      if (!v.ok()) return AttributeError(name, v.status().message());
      value = Value::SemverRef(&Storage::Add(s.semvers, *std::move(v)));
    }
    s.Put(s.Domain(s.attributes, domain), id, value);
  }
  for (const auto& [name, text] : data.capacity) {
    StatusOr<Quantity> q = Quantity::Parse(text);
    if (!q.ok()) return InvalidArgumentError("capacity " + name + ": " + q.status().message());
    auto [domain, id] = Storage::Split(name, driver);
    s.Put(s.Domain(s.capacity, domain), id, Value::QuantityRef(&Storage::Add(s.quantities, *q)));
  }
  s.device.entries.emplace_back(Value::StringView("driver"), Value::StringView(driver));
  s.device.entries.emplace_back(Value::StringView("attributes"), Value::MapRef(&s.attributes));
  s.device.entries.emplace_back(Value::StringView("capacity"), Value::MapRef(&s.capacity));
  if (options.consumable_capacity) {
    s.device.entries.emplace_back(Value::StringView("allowMultipleAllocations"),
                                  Value::Bool(data.allow_multiple_allocations.value_or(false)));
  }
  s.paths = PathIndex::Build(s.device);
  s.device.path_index = &s.paths;
  s.binding = FastPredicate::Bind(&s.device_value);
  return device;
}

const Value& PreparedDevice::device() const { return storage_->device_value; }

namespace {

// Kept out of EvaluateSelector so that the fast path, which decides nearly every
// selector, does not pay for this path's stack frame.
[[gnu::noinline]] StatusOr<bool> EvaluateInGeneral(const Program& program,
                                                   const PreparedDevice& device,
                                                   EvalState& state) {
  Value result = program.EvaluateGeneral("device", device.device(), state);
  if (result.is_bool()) return result.bool_value();
  if (result.is_error()) {
    return InvalidArgumentError("CEL runtime error: " + std::string(result.text()));
  }
  return InvalidArgumentError("CEL result of type " + std::string(result.TypeName()) +
                              " could not be converted to bool: " + result.DebugString());
}

}  // namespace

StatusOr<bool> EvaluateSelector(const Program& program, const PreparedDevice& device,
                                EvalState& state) {
  if (std::optional<bool> fast = program.TryFast("device", device.storage_->binding, state)) {
    return *fast;
  }
  return EvaluateInGeneral(program, device, state);
}

}  // namespace draguard::cel
