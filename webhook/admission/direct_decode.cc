// Direct decoders (direct_decode.h). Each reads its object member by member in document order,
// switching on the member's name; every member it knows has a bit, so that a repeated member
// is seen (the tree route reports it as decode.duplicate-field) and makes it give up.
#include "webhook/admission/direct_decode.h"

#include <charconv>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "policy/common/quantity.h"
#include "policy/k8s/document.h"
#include "policy/k8s/field_reader.h"
#include "webhook/admission/compact_json.h"
#include "webhook/admission/json_lexer.h"
#include "webhook/admission/json_object.h"

namespace draguard::webhook {
namespace {

// The tokens of the direct decoders, each false where the tree route would read something
// other than what the direct route takes (see direct_decode.h).
class DirectReader {
 public:
  DirectReader(JsonLexer& lexer, size_t max_depth) : lexer_(lexer), max_depth_(max_depth) {}

  JsonLexer& lexer() { return lexer_; }

  // An object at the lexer's position whose own nesting is `depth` (the tree route refuses
  // one deeper than max_depth): `member(key)` reads each member's value, the key a view that
  // is valid until the value is read.
  template <class Member>
  bool Object(size_t depth, Member&& member) {
    if (depth > max_depth_ || !lexer_.Consume('{')) return false;
    lexer_.SkipSpace();
    if (lexer_.Consume('}')) return true;
    while (true) {
      std::string_view key;
      if (lexer_.Peek() != '"' || !lexer_.ReadStringView(key, scratch_)) return false;
      lexer_.SkipSpace();
      if (!lexer_.Consume(':')) return false;
      lexer_.SkipSpace();
      if (!member(key)) return false;
      if (!Next('}')) return last_closed_;
    }
  }

  // An array of `depth`: `item()` reads each item.
  template <class Item>
  bool Array(size_t depth, Item&& item) {
    if (depth > max_depth_ || !lexer_.Consume('[')) return false;
    lexer_.SkipSpace();
    if (lexer_.Consume(']')) return true;
    while (true) {
      if (!item()) return false;
      if (!Next(']')) return last_closed_;
    }
  }

  // A string (not null) into `out`, which it replaces.
  bool String(std::string& out) {
    out.clear();
    return lexer_.Peek() == '"' && lexer_.ReadString(&out);
  }

  // A plain integer that fits int64 (the tree route's kInt): no fraction, no exponent.
  bool Int(int64_t& out) {
    const char c = lexer_.Peek();
    if (c != '-' && (c < '0' || c > '9')) return false;
    const std::string_view number = lexer_.ReadNumber();
    if (number.empty() || number.find_first_of(".eE") != std::string_view::npos) return false;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), out);
    return ec == std::errc() && end == number.data() + number.size();
  }

  bool StringList(size_t depth, std::vector<std::string>& out) {
    return Array(depth, [&] { return String(out.emplace_back()); });
  }

  // An object of strings; a repeated key gives up (the tree route reports it).
  bool StringMap(size_t depth, std::map<std::string, std::string>& out) {
    return Object(depth, [&](std::string_view key) {
      auto [it, added] = out.try_emplace(std::string(key));
      return added && String(it->second);
    });
  }

  // Any value, `depth` collections deep, checked and dropped: true only for a value the tree
  // route reads too (SkipJsonValue).
  bool Skip(size_t depth) { return SkipJsonValue(lexer_, depth, max_depth_); }

  // A boolean (not null).
  bool Bool(std::optional<bool>& out) {
    const char c = lexer_.Peek();
    if (c != 't' && c != 'f') return false;
    out = c == 't';
    return lexer_.ReadLiteral(c == 't' ? "true" : "false");
  }

  // A quantity written as a string (a number gives up) that k8s ReadQuantity accepts without a
  // finding: any text but one Quantity::Parse calls malformed.
  bool QuantityString(std::string& out) {
    if (!String(out)) return false;
    const StatusOr<Quantity> parsed = Quantity::Parse(out);
    return parsed.ok() || parsed.status().code() != StatusCode::kInvalidArgument;
  }

  // An object of quantities; a repeated key gives up.
  bool QuantityMap(size_t depth, std::map<std::string, std::string>& out) {
    return Object(depth, [&](std::string_view key) {
      auto [it, added] = out.try_emplace(std::string(key));
      return added && QuantityString(it->second);
    });
  }

  // A list of objects (no null item), each read by `item(object_depth)` into a new element.
  template <class T, class Item>
  bool ObjectList(size_t depth, std::vector<T>& out, Item&& item) {
    return Array(depth, [&] { return lexer_.Peek() == '{' && item(out.emplace_back()); });
  }

  // Any value into a tree, as the tree route reads it (for opaque parameters, which keep its
  // JSON text).
  bool Tree(size_t depth, k8s::DocNode& node) {
    return ReadJsonValue(lexer_, depth, max_depth_, node);
  }
  // Any value's compact text, where it can be printed without its tree (compact_json.h).
  bool CompactJson(size_t depth, std::string& out) {
    return AppendCompactJsonValue(lexer_, depth, max_depth_, out);
  }

  // Marks member `bit` of the object being read as seen; false when it was seen before.
  static bool FirstTime(uint32_t& seen, int bit) {
    const uint32_t mask = uint32_t{1} << bit;
    if ((seen & mask) != 0) return false;
    seen |= mask;
    return true;
  }

 private:
  // After an element: true for a comma (more to come), false at the closing bracket (with
  // last_closed_ true) or at anything else (last_closed_ false).
  bool Next(char close) {
    lexer_.SkipSpace();
    if (lexer_.Consume(',')) {
      lexer_.SkipSpace();
      return true;
    }
    last_closed_ = lexer_.Consume(close);
    return false;
  }

  JsonLexer& lexer_;
  size_t max_depth_;
  bool last_closed_ = false;
  std::string scratch_;  // a key with an escape, decoded
};

// Dispatches `key` to the index of its name in `names`, once each: -1 for a name not there or
// seen before (`seen` has a bit per name).
template <size_t N>
int MemberIndex(std::string_view key, const std::string_view (&names)[N], uint32_t& seen) {
  static_assert(N <= 32);
  for (size_t i = 0; i < N; ++i) {
    if (key == names[i]) {
      return DirectReader::FirstTime(seen, static_cast<int>(i)) ? static_cast<int>(i) : -1;
    }
  }
  return -1;
}

// The claim's spec, object by object; `depth` is each value's nesting (the collections around
// it), as the tree route counts it.
class ClaimSpecReader {
 public:
  explicit ClaimSpecReader(DirectReader& in) : in_(in) {}

  // spec: {devices}
  bool Spec(size_t depth, k8s::ResourceClaimSpec& spec) {
    static constexpr std::string_view kNames[] = {"devices"};
    uint32_t seen = 0;
    return in_.Object(depth + 1, [&](std::string_view key) {
      return MemberIndex(key, kNames, seen) == 0 && Devices(depth + 1, spec.devices);
    });
  }

 private:
  bool Devices(size_t depth, k8s::DeviceClaim& devices) {
    static constexpr std::string_view kNames[] = {"requests", "constraints", "config"};
    uint32_t seen = 0;
    const size_t inner = depth + 1;
    return in_.Object(inner, [&](std::string_view key) {
      switch (MemberIndex(key, kNames, seen)) {
        case 0:
          return in_.ObjectList(inner + 1, devices.requests,
                                [&](k8s::DeviceRequest& r) { return Request(inner + 1, r); });
        case 1:
          return in_.ObjectList(inner + 1, devices.constraints,
                                [&](k8s::DeviceConstraint& c) { return Constraint(inner + 1, c); });
        case 2:
          return in_.ObjectList(inner + 1, devices.config, [&](k8s::DeviceClaimConfiguration& c) {
            return Config(inner + 1, c);
          });
        default: return false;
      }
    });
  }

  // A v1 request; the v1beta1 shape's flat fields are unknown here and give up (the tree route
  // warns about them).
  bool Request(size_t depth, k8s::DeviceRequest& r) {
    static constexpr std::string_view kNames[] = {"name", "exactly", "firstAvailable"};
    uint32_t seen = 0;
    const size_t inner = depth + 1;
    return in_.Object(inner, [&](std::string_view key) {
      switch (MemberIndex(key, kNames, seen)) {
        case 0: return in_.String(r.name);
        case 1: return Common(inner, r.exactly.emplace(), &r.exactly->admin_access, nullptr);
        case 2:
          return in_.ObjectList(inner + 1, r.first_available, [&](k8s::DeviceSubRequest& s) {
            return Common(inner + 1, s, nullptr, &s.name);
          });
        default: return false;
      }
    });
  }

  // ExactDeviceRequest (with `admin_access`) or DeviceSubRequest (with `name`).
  bool Common(size_t depth, k8s::DeviceRequestCommon& c, std::optional<bool>* admin_access,
              std::string* name) {
    static constexpr std::string_view kNames[] = {
        "deviceClassName", "selectors", "allocationMode", "count", "tolerations",
        "capacity",        "adminAccess", "name"};
    uint32_t seen = 0;
    const size_t inner = depth + 1;
    if (lexer().Peek() != '{') return false;
    return in_.Object(inner, [&](std::string_view key) {
      switch (MemberIndex(key, kNames, seen)) {
        case 0: return in_.String(c.device_class_name);
        case 1:
          return in_.ObjectList(inner + 1, c.selectors,
                                [&](k8s::DeviceSelector& s) { return Selector(inner + 1, s); });
        case 2: return in_.String(c.allocation_mode);
        case 3: return c.count_set = in_.Int(c.count);
        case 4:
          return in_.ObjectList(inner + 1, c.tolerations, [&](k8s::DeviceToleration& t) {
            return Toleration(inner + 1, t);
          });
        case 5: return Capacity(inner, c.capacity.emplace());
        case 6: return admin_access != nullptr && in_.Bool(*admin_access);
        case 7: return name != nullptr && in_.String(*name);
        default: return false;
      }
    });
  }

  bool Selector(size_t depth, k8s::DeviceSelector& s) {
    static constexpr std::string_view kNames[] = {"cel"};
    static constexpr std::string_view kCel[] = {"expression"};
    uint32_t seen = 0;
    const size_t inner = depth + 1;
    return in_.Object(inner, [&](std::string_view key) {
      if (MemberIndex(key, kNames, seen) != 0) return false;
      k8s::CELDeviceSelector& cel = s.cel.emplace();
      uint32_t cel_seen = 0;
      return in_.Object(inner + 1, [&](std::string_view name) {
        return MemberIndex(name, kCel, cel_seen) == 0 && in_.String(cel.expression);
      });
    });
  }

  bool Toleration(size_t depth, k8s::DeviceToleration& t) {
    static constexpr std::string_view kNames[] = {"key", "operator", "value", "effect",
                                                  "tolerationSeconds"};
    uint32_t seen = 0;
    return in_.Object(depth + 1, [&](std::string_view key) {
      switch (MemberIndex(key, kNames, seen)) {
        case 0: return in_.String(t.key);
        case 1: return in_.String(t.op);
        case 2: return in_.String(t.value);
        case 3: return in_.String(t.effect);
        case 4: return in_.Int(t.toleration_seconds.emplace());
        default: return false;
      }
    });
  }

  bool Capacity(size_t depth, k8s::CapacityRequirements& capacity) {
    static constexpr std::string_view kNames[] = {"requests"};
    uint32_t seen = 0;
    const size_t inner = depth + 1;
    return in_.Object(inner, [&](std::string_view key) {
      return MemberIndex(key, kNames, seen) == 0 && in_.QuantityMap(inner + 1, capacity.requests);
    });
  }

  bool Constraint(size_t depth, k8s::DeviceConstraint& c) {
    static constexpr std::string_view kNames[] = {"requests", "matchAttribute",
                                                  "distinctAttribute"};
    uint32_t seen = 0;
    const size_t inner = depth + 1;
    return in_.Object(inner, [&](std::string_view key) {
      switch (MemberIndex(key, kNames, seen)) {
        case 0: return in_.StringList(inner + 1, c.requests);
        case 1: return in_.String(c.match_attribute.emplace());
        case 2: return in_.String(c.distinct_attribute.emplace());
        default: return false;
      }
    });
  }

  bool Config(size_t depth, k8s::DeviceClaimConfiguration& c) {
    static constexpr std::string_view kNames[] = {"requests", "opaque"};
    static constexpr std::string_view kOpaque[] = {"driver", "parameters"};
    uint32_t seen = 0;
    const size_t inner = depth + 1;
    return in_.Object(inner, [&](std::string_view key) {
      switch (MemberIndex(key, kNames, seen)) {
        case 0: return in_.StringList(inner + 1, c.requests);
        case 1: {
          k8s::OpaqueDeviceConfiguration& opaque = c.opaque.emplace();
          uint32_t opaque_seen = 0;
          return in_.Object(inner + 1, [&](std::string_view name) {
            switch (MemberIndex(name, kOpaque, opaque_seen)) {
              case 0: return in_.String(opaque.driver);
              case 1: return Parameters(inner + 1, opaque);
              default: return false;
            }
          });
        }
        default: return false;
      }
    });
  }

  // The parameters' text, as k8s ReadOpaque writes their tree: printed from the tokens where
  // compact_json.h can, else from the tree; null gives up (absent there).
  bool Parameters(size_t depth, k8s::OpaqueDeviceConfiguration& opaque) {
    if (lexer().Peek() == 'n') return false;
    const size_t begin = lexer().pos();
    std::string& json = opaque.parameters_json.emplace();
    json.reserve(128);  // as NodeToJson: most parameters fit
    if (in_.CompactJson(depth, json)) {
      opaque.parameters_raw_size = json.size();
      opaque.parameters_is_object = lexer().text()[begin] == '{';
      return true;
    }
    lexer().Seek(begin);
    k8s::DocNode node;
    if (!in_.Tree(depth, node)) {
      opaque.parameters_json.reset();
      return false;
    }
    opaque.parameters_json = k8s::NodeToJson(node);
    opaque.parameters_raw_size = opaque.parameters_json->size();
    opaque.parameters_is_object = node.kind == k8s::NodeKind::kMap;
    return true;
  }

  JsonLexer& lexer() { return in_.lexer(); }

  DirectReader& in_;
};

}  // namespace

bool DecodeClaimSpecDirect(JsonLexer& lexer, size_t depth, size_t max_depth,
                           k8s::ResourceClaimSpec& spec, k8s::ObjectMeta* template_metadata) {
  DirectReader in(lexer, max_depth);
  ClaimSpecReader reader(in);
  if (template_metadata == nullptr) return lexer.Peek() == '{' && reader.Spec(depth, spec);
  // A template's spec: {metadata, spec}.
  static constexpr std::string_view kNames[] = {"metadata", "spec"};
  uint32_t seen = 0;
  const size_t inner = depth + 1;
  return in.Object(inner, [&](std::string_view key) {
    switch (MemberIndex(key, kNames, seen)) {
      case 0:
        return lexer.Peek() == '{' &&
               DecodeObjectMetaDirect(lexer, inner, max_depth, *template_metadata);
      case 1: return lexer.Peek() == '{' && reader.Spec(inner, spec);
      default: return false;
    }
  });
}

bool DecodeObjectMetaDirect(JsonLexer& lexer, size_t depth, size_t max_depth,
                            k8s::ObjectMeta& meta) {
  DirectReader in(lexer, max_depth);
  const size_t inner = depth + 1;  // the metadata object's own nesting
  uint32_t seen = 0;
  return in.Object(inner, [&](std::string_view key) {
    // The members of k8s ReadObjectMeta, in its order; those it ignores are checked and
    // dropped; any other gives up (the tree route ignores it too, but a name this does not
    // know is not worth the risk of differing).
    int bit = -1;
    if (key == "name") bit = 0;
    else if (key == "generateName") bit = 1;
    else if (key == "namespace") bit = 2;
    else if (key == "labels") bit = 3;
    else if (key == "annotations") bit = 4;
    else if (key == "uid") bit = 5;
    else if (key == "resourceVersion") bit = 6;
    else if (key == "generation") bit = 7;
    else if (key == "finalizers") bit = 8;
    else if (key == "deletionTimestamp") bit = 9;
    else if (key == "creationTimestamp") bit = 10;
    else if (key == "deletionGracePeriodSeconds") bit = 11;
    else if (key == "ownerReferences") bit = 12;
    else if (key == "managedFields") bit = 13;
    else if (key == "selfLink") bit = 14;
    if (bit < 0 || !DirectReader::FirstTime(seen, bit)) return false;
    switch (bit) {
      case 0: return in.String(meta.name);
      case 1: return in.String(meta.generate_name);
      case 2: return in.String(meta.name_space);
      case 3: return in.StringMap(inner + 1, meta.labels);
      case 4: return in.StringMap(inner + 1, meta.annotations);
      case 5: return in.String(meta.uid);
      case 6: return in.String(meta.resource_version);
      case 7: return in.Int(meta.generation);
      case 8: return in.StringList(inner + 1, meta.finalizers);
      case 9:
        // Any value but null sets it (MapReader::Get); null gives up like any null.
        meta.has_deletion_timestamp = true;
        return in.lexer().Peek() != 'n' && in.Skip(inner);
      default: return in.Skip(inner);  // the members ReadObjectMeta ignores
    }
  });
}

}  // namespace draguard::webhook
