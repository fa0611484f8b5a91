#include "policy/k8s/field_reader.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "policy/common/json_text.h"
#include "policy/common/quantity.h"
#include "policy/common/suggest.h"

namespace draguard::k8s {
namespace {

// Most maps have a handful of keys, where a scan for repeated keys beats building a set; a map
// of more keys (a hostile or generated file) gets a set, so that finding repeats stays linear.
constexpr size_t kScanUpTo = 32;

// For each entry of a map, whether an earlier entry has the same key. Empty when no key
// repeats.
std::vector<bool> RepeatedKeys(const std::vector<MapEntry>& entries) {
  std::vector<bool> repeated;
  auto mark = [&](size_t i) {
    if (repeated.empty()) repeated.resize(entries.size());
    repeated[i] = true;
  };
  if (entries.size() <= kScanUpTo) {
    for (size_t i = 1; i < entries.size(); ++i) {
      const std::string& key = entries[i].key.text;
      for (size_t j = 0; j < i; ++j) {
        if (entries[j].key.text == key) {
          mark(i);
          break;
        }
      }
    }
    return repeated;
  }
  std::unordered_set<std::string_view> seen;
  seen.reserve(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!seen.insert(entries[i].key.text).second) mark(i);
  }
  return repeated;
}

// Whether an entry before entry i has its key.
bool EarlierHasKey(const std::vector<MapEntry>& entries, size_t i) {
  for (size_t j = 0; j < i; ++j) {
    if (entries[j].key.text == entries[i].key.text) return true;
  }
  return false;
}

// Reports a key an earlier entry of the same map already set (the API server's strict decoding
// rejects repeated keys in objects and in maps alike: "duplicate field").
void ReportRepeatedKey(const MapEntry& e, const FieldPath& at, DecodeContext& ctx) {
  const std::string& key = e.key.text;
  Diagnostic& dup = ctx.diagnostics->Error(
      "decode.duplicate-field", at,
      "field \"" + key + "\" is set more than once; the API server rejects duplicate fields",
      "remove one of the \"" + key + "\" entries");
  dup.position = e.key.position;
}

// Calls visit(entry) for each entry of the map `node` in order, reporting instead each entry
// whose key an earlier one set (the first entry's value is kept). `path()` makes the map's
// field path, which only such a finding needs.
template <class MakePath, class Visit>
void ForEachFirstEntry(const DocNode& node, const MakePath& path, DecodeContext& ctx,
                       Visit visit) {
  const std::vector<bool> repeated = RepeatedKeys(node.entries);
  for (size_t i = 0; i < node.entries.size(); ++i) {
    const MapEntry& e = node.entries[i];
    if (!repeated.empty() && repeated[i]) {
      ReportRepeatedKey(e, path().Key(e.key.text), ctx);
    } else {
      visit(e);
    }
  }
}

std::string Describe(const DocNode& node) {
  std::string kind(NodeKindName(node.kind));
  if (!node.is_scalar() || node.kind == NodeKind::kNull) return kind;
  std::string text = node.text.size() > 40 ? node.text.substr(0, 40) + "..." : node.text;
  return kind + " " + (node.kind == NodeKind::kString ? "\"" + text + "\"" : text);
}

void WrongType(const DocNode& node, std::string_view want, const FieldPath& path,
               DecodeContext& ctx) {
  std::string suggestion;
  if (want == "string" && node.is_scalar() && node.style == ScalarStyle::kPlain) {
    suggestion = "quote the value: \"" + node.text + "\"";
  } else if (want == "integer" && node.kind == NodeKind::kString) {
    suggestion = "remove the quotes: " + node.text;
  } else if (want == "array" && node.kind == NodeKind::kMap) {
    suggestion = "write a list: start each item with \"- \"";
  }
  ctx.diagnostics->Error("decode.wrong-type", path,
                         "expected " + std::string(want) + ", found " + Describe(node),
                         std::move(suggestion));
}

nlohmann::json ToJson(const DocNode& node) {
  switch (node.kind) {
    case NodeKind::kNull: return nullptr;
    case NodeKind::kBool: return node.bool_value;
    case NodeKind::kInt: return node.int_value;
    case NodeKind::kFloat: return node.float_value;
    case NodeKind::kString: return node.text;
    case NodeKind::kSequence: {
      nlohmann::json array = nlohmann::json::array();
      for (const DocNode& item : node.items) array.push_back(ToJson(item));
      return array;
    }
    case NodeKind::kMap: {
      nlohmann::json object = nlohmann::json::object();
      for (const MapEntry& e : node.entries) object[e.key.text] = ToJson(e.value);
      return object;
    }
  }
  return nullptr;
}

bool AppendCompactJson(const DocNode& node, std::string& out);

// An object as nlohmann holds it, in a std::map: members sorted by key, and of repeated keys
// the last one's value.
bool AppendJsonObject(const DocNode& node, std::string& out) {
  // Keys already in strictly increasing order (as a written config usually has them, and
  // every map of one entry) are that order, without repeats: written as they stand, with no
  // vector to sort (opaque parameters are printed on every admission request).
  const std::vector<MapEntry>& entries = node.entries;
  bool sorted = true;
  for (size_t i = 1; i < entries.size() && sorted; ++i) {
    sorted = entries[i - 1].key.text < entries[i].key.text;
  }
  if (sorted) {
    out += '{';
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i > 0) out += ',';
      if (!AppendJsonString(entries[i].key.text, out, NonAsciiJson::kRefuse)) return false;
      out += ':';
      if (!AppendCompactJson(entries[i].value, out)) return false;
    }
    out += '}';
    return true;
  }
  std::vector<const MapEntry*> members;
  members.reserve(node.entries.size());
  for (const MapEntry& e : node.entries) members.push_back(&e);
  std::stable_sort(members.begin(), members.end(), [](const MapEntry* a, const MapEntry* b) {
    return a->key.text < b->key.text;
  });
  out += '{';
  bool first = true;
  for (size_t i = 0; i < members.size(); ++i) {
    if (i + 1 < members.size() && members[i + 1]->key.text == members[i]->key.text) continue;
    if (!first) out += ',';
    first = false;
    if (!AppendJsonString(members[i]->key.text, out, NonAsciiJson::kRefuse)) return false;
    out += ':';
    if (!AppendCompactJson(members[i]->value, out)) return false;
  }
  out += '}';
  return true;
}

// Appends what ToJson(node).dump() gives. False when the tree holds a float or non-ASCII
// text: nlohmann's number formatting and UTF-8 handling are not repeated here.
bool AppendCompactJson(const DocNode& node, std::string& out) {
  switch (node.kind) {
    case NodeKind::kNull: out += "null"; return true;
    case NodeKind::kBool: out += node.bool_value ? "true" : "false"; return true;
    case NodeKind::kInt: out += std::to_string(node.int_value); return true;
    case NodeKind::kFloat: return false;
    case NodeKind::kString: return AppendJsonString(node.text, out, NonAsciiJson::kRefuse);
    case NodeKind::kSequence: {
      out += '[';
      for (size_t i = 0; i < node.items.size(); ++i) {
        if (i > 0) out += ',';
        if (!AppendCompactJson(node.items[i], out)) return false;
      }
      out += ']';
      return true;
    }
    case NodeKind::kMap: return AppendJsonObject(node, out);
  }
  return false;
}

}  // namespace

bool ExpectKind(const DocNode& node, NodeKind want, const FieldPath& path, DecodeContext& ctx) {
  if (node.kind == want) return true;
  WrongType(node, NodeKindName(want), path, ctx);
  return false;
}

// Opaque parameters are decoded on every admission request, and building an nlohmann value
// to print them cost about 15,000 instructions a request (callgrind, bench/webhook_bench.cc);
// the common trees are written directly, with the same text.
std::string NodeToJson(const DocNode& node) {
  std::string json;
  json.reserve(128);  // most parameters fit: one allocation instead of a doubling series
  if (AppendCompactJson(node, json)) return json;
  try {
    return ToJson(node).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const std::exception&) {
    return "null";
  }
}

bool ReadString(const DocNode& node, const FieldPath& path, DecodeContext& ctx,
                std::string* out) {
  if (node.kind == NodeKind::kNull) return false;
  if (!ExpectKind(node, NodeKind::kString, path, ctx)) return false;
  *out = node.text;
  return true;
}

MapReader::MapReader(const DocNode& node, FieldPath path, DecodeContext& ctx)
    : node_(&node), root_(std::move(path)), ctx_(ctx) {
  Init();
}

MapReader::MapReader(const DocNode& node, const Place& place, DecodeContext& ctx)
    : node_(&node), place_(place), ctx_(ctx) {
  Init();
}

void MapReader::Init() {
  const DocNode& node = *node_;
  if (node.kind == NodeKind::kNull) return;
  if (RecordsKeys() && ctx_.spare_keys != nullptr && !ctx_.spare_keys->empty()) {
    keys_ = std::move(ctx_.spare_keys->back());
    ctx_.spare_keys->pop_back();
  } else if (RecordsKeys()) {
    keys_.known.reserve(node.kind == NodeKind::kMap ? std::max<size_t>(8, node.entries.size())
                                                    : 0);
  }
  is_map_ = node.kind == NodeKind::kMap || ExpectKind(node, NodeKind::kMap, path(), ctx_);
}

FieldPath MapReader::path() const {
  if (place_.parent == nullptr) return root_.has_value() ? *root_ : FieldPath();
  FieldPath path = place_.parent->path().Child(place_.child);
  switch (place_.tail) {
    case Place::Tail::kNone: return path;
    case Place::Tail::kIndex: return path.Index(place_.index);
    case Place::Tail::kKey: return path.Key(place_.key);
  }
  return path;
}

MapReader::~MapReader() {
  Finish();
  if (ctx_.spare_keys == nullptr || keys_.known.capacity() == 0) return;
  keys_.known.clear();
  keys_.hints.clear();
  ctx_.spare_keys->push_back(std::move(keys_));
}

bool MapReader::Expect(const DocNode& value, NodeKind want, std::string_view key) {
  return value.kind == want || ExpectKind(value, want, path().Child(key), ctx_);
}

// DocNode::Find's match, keeping which entry matched.
const DocNode* MapReader::Get(std::string_view key) {
  if (RecordsKeys()) keys_.known.push_back(key);
  if (!is_map_) return nullptr;
  const std::vector<MapEntry>& entries = node_->entries;
  bool shadowed = false;  // an earlier non-scalar key has the same text: entry i repeats it
  for (size_t i = 0; i < entries.size(); ++i) {
    const MapEntry& e = entries[i];
    if (e.key.text != key) continue;
    if (!e.key.is_scalar()) {
      shadowed = true;
      continue;
    }
    if (i < 64 && !shadowed) found_ |= uint64_t{1} << i;
    return e.value.kind == NodeKind::kNull ? nullptr : &e.value;
  }
  return nullptr;
}

void MapReader::Ignore(std::initializer_list<std::string_view> keys) {
  if (RecordsKeys()) keys_.known.insert(keys_.known.end(), keys.begin(), keys.end());
}

void MapReader::Hint(std::string_view key, std::string_view suggestion) {
  if (RecordsKeys()) keys_.hints.emplace_back(key, suggestion);
}

bool MapReader::String(std::string_view key, std::string* out) {
  const DocNode* v = Get(key);
  if (v == nullptr || !Expect(*v, NodeKind::kString, key)) return false;
  *out = v->text;
  return true;
}

bool MapReader::String(std::string_view key, std::optional<std::string>* out) {
  std::string s;
  if (!String(key, &s)) return false;
  *out = std::move(s);
  return true;
}

bool MapReader::Int(std::string_view key, int64_t* out) {
  const DocNode* v = Get(key);
  if (v == nullptr || !Expect(*v, NodeKind::kInt, key)) return false;
  *out = v->int_value;
  return true;
}

bool MapReader::Int(std::string_view key, std::optional<int64_t>* out) {
  int64_t i = 0;
  if (!Int(key, &i)) return false;
  *out = i;
  return true;
}

bool MapReader::Bool(std::string_view key, std::optional<bool>* out) {
  const DocNode* v = Get(key);
  if (v == nullptr || !Expect(*v, NodeKind::kBool, key)) return false;
  *out = v->bool_value;
  return true;
}

// StringList and StringMap build an item's path only for a finding (an item that is not a
// string): metadata's labels and annotations are read on every admission request, and their
// paths, one allocation each, were most of that read.
bool MapReader::StringList(std::string_view key, std::vector<std::string>* out) {
  const DocNode* v = Get(key);
  if (v == nullptr || !Expect(*v, NodeKind::kSequence, key)) return false;
  out->reserve(out->size() + v->items.size());
  for (size_t i = 0; i < v->items.size(); ++i) {
    const DocNode& item = v->items[i];
    std::string s;
    if (item.kind == NodeKind::kString) {
      s = item.text;
    } else {
      ReadString(item, path().Child(key).Index(i), ctx_, &s);
    }
    out->push_back(std::move(s));
  }
  return true;
}

bool MapReader::StringMap(std::string_view key, std::map<std::string, std::string>* out) {
  const DocNode* v = Get(key);
  if (v == nullptr || !Expect(*v, NodeKind::kMap, key)) return false;
  const auto path = [&] { return this->path().Child(key); };
  ForEachFirstEntry(*v, path, ctx_, [&](const MapEntry& e) {
    std::string& s = (*out)[e.key.text];
    s.clear();
    if (e.value.kind == NodeKind::kString) {
      s = e.value.text;
    } else {
      ReadString(e.value, path().Key(e.key.text), ctx_, &s);
    }
  });
  return true;
}

namespace {

// A quantity is a string or a JSON number (resource.Quantity unmarshals both). `path` makes
// the value's field path, which only a finding needs.
template <class MakePath>
bool ReadQuantity(const DocNode& node, const MakePath& path, DecodeContext& ctx,
                  std::string* out) {
  if (node.kind == NodeKind::kInt || node.kind == NodeKind::kFloat ||
      node.kind == NodeKind::kString) {
    *out = node.text;
    // Malformed quantities fail decoding in the API server (HTTP 400). Values past
    // Quantity's exact bound (OUT_OF_RANGE) are accepted by Kubernetes, so only syntax errors
    // are reported.
    StatusOr<draguard::Quantity> parsed = draguard::Quantity::Parse(node.text);
    if (!parsed.ok() && parsed.status().code() == StatusCode::kInvalidArgument) {
      ctx.diagnostics->Error("decode.invalid-quantity", path(),
                             "\"" + node.text + "\" is not a valid quantity: " +
                                 std::string(parsed.status().message()),
                             "write a number with an optional suffix: 40Gi, 500M, 2, 0.5");
      return false;
    }
    return true;
  }
  WrongType(node, "quantity (string or number)", path(), ctx);
  return false;
}

}  // namespace

bool MapReader::Quantity(std::string_view key, std::string* out) {
  const DocNode* v = Get(key);
  return v != nullptr && ReadQuantity(*v, [&] { return path().Child(key); }, ctx_, out);
}

bool MapReader::Quantity(std::string_view key, std::optional<std::string>* out) {
  std::string s;
  if (!Quantity(key, &s)) return false;
  *out = std::move(s);
  return true;
}

bool MapReader::QuantityMap(std::string_view key, std::map<std::string, std::string>* out) {
  const DocNode* v = Get(key);
  if (v == nullptr || !Expect(*v, NodeKind::kMap, key)) return false;
  const auto path = [&] { return this->path().Child(key); };
  ForEachFirstEntry(*v, path, ctx_, [&](const MapEntry& e) {
    std::string s;
    if (e.value.kind != NodeKind::kNull) {
      ReadQuantity(e.value, [&] { return path().Key(e.key.text); }, ctx_, &s);
    }
    (*out)[e.key.text] = std::move(s);
  });
  return true;
}

bool MapReader::Object(std::string_view key, FunctionRef<void(MapReader&)> read) {
  const DocNode* v = Get(key);
  if (v == nullptr) return false;
  MapReader child(*v, Place{.parent = this, .child = key}, ctx_);
  if (!child.is_map()) return false;
  read(child);
  return true;
}

bool MapReader::ObjectList(std::string_view key, FunctionRef<void(MapReader&)> read) {
  const DocNode* v = Get(key);
  if (v == nullptr || !Expect(*v, NodeKind::kSequence, key)) return false;
  for (size_t i = 0; i < v->items.size(); ++i) {
    MapReader item(v->items[i],
                   Place{.parent = this, .child = key, .tail = Place::Tail::kIndex, .index = i},
                   ctx_);
    if (item.is_map() || v->items[i].kind == NodeKind::kNull) read(item);
  }
  return true;
}

bool MapReader::ObjectMap(std::string_view key,
                          FunctionRef<void(const std::string&, MapReader&)> read) {
  const DocNode* v = Get(key);
  if (v == nullptr || !Expect(*v, NodeKind::kMap, key)) return false;
  const auto path = [&] { return this->path().Child(key); };
  ForEachFirstEntry(*v, path, ctx_, [&](const MapEntry& e) {
    MapReader item(
        e.value,
        Place{.parent = this, .child = key, .tail = Place::Tail::kKey, .key = e.key.text}, ctx_);
    if (item.is_map() || e.value.kind == NodeKind::kNull) read(e.key.text, item);
  });
  return true;
}

void MapReader::Finish() {
  if (finished_) return;
  finished_ = true;
  if (!is_map_) return;
  const std::vector<MapEntry>& entries = node_->entries;
  const size_t n = entries.size();
  // Maps of up to kScanUpTo entries (all tracked in found_) check an entry Get did not find
  // against the earlier ones; larger maps mark repeats in one linear pass (RepeatedKeys).
  if (n <= kScanUpTo && found_ == (uint64_t{1} << n) - 1) return;
  const std::vector<bool> repeated = n <= kScanUpTo ? std::vector<bool>() : RepeatedKeys(entries);
  for (size_t i = 0; i < n; ++i) {
    if (i < 64 && (found_ >> i & 1) != 0) continue;
    const MapEntry& e = entries[i];
    const std::string& key = e.key.text;
    const bool is_repeated =
        n <= kScanUpTo ? EarlierHasKey(entries, i) : !repeated.empty() && repeated[i];
    if (is_repeated) {
      ReportRepeatedKey(e, path().Child(key), ctx_);
      continue;
    }
    if (ctx_.unknown_fields == UnknownFields::kIgnore) continue;
    if (std::find(keys_.known.begin(), keys_.known.end(), key) != keys_.known.end()) continue;
    std::string suggestion;
    const auto hint = std::find_if(keys_.hints.rbegin(), keys_.hints.rend(),
                                   [&](const auto& h) { return h.first == key; });
    if (hint != keys_.hints.rend()) {
      suggestion = std::string(hint->second);
    } else if (auto match = ClosestMatch(key, keys_.known)) {
      suggestion = *match;
    }
    const FieldPath here = path();
    Diagnostic d;
    d.severity =
        ctx_.unknown_fields == UnknownFields::kError ? Severity::kError : Severity::kWarning;
    d.code = "decode.unknown-field";
    d.field = here.Child(key).String();
    d.message = "unknown field \"" + key + "\"" +
                (here.empty() ? std::string() : " in " + here.String());
    d.suggestion = std::move(suggestion);
    d.position = e.key.position;
    ctx_.diagnostics->Add(std::move(d));
  }
}

}  // namespace draguard::k8s
