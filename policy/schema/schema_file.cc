// The schema file format (docs/schema.md), shared by the built-in catalog and --schema files:
//
//   domains:
//     - domain: gpu.example.com        # required
//       drivers: [gpu.example.com]     # drivers publishing it (default: the domain itself)
//       shared: false                  # true: any driver may publish it (no drivers)
//       complete: true                 # false: names not listed are only "maybe unknown"
//       typeAttribute: type            # attribute telling device types apart
//       deviceTypes: [gpu, partition]
//       attributes:
//         - {name: model, type: string, list: false, examples: [X], values: [closed, set], on: [gpu],
//            optional: false, deprecated: false, removedIn: "1.2.0", replacedBy: x, note: ...}
//       capacities:
//         - {name: memory, examples: [80Gi], on: [...], optional: ..., note: ...}
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "policy/k8s/document.h"
#include "policy/schema/schema.h"

namespace draguard::schema {
namespace {

class FileReader {
 public:
  FileReader(const SourceText& file, Origin origin, Diagnostics& out)
      : file_(file), origin_(origin), out_(out) {}

  void Read(const k8s::DocNode& root, Schema& into) {
    if (root.kind != k8s::NodeKind::kMap) return Fail(root, "a schema file is a map with `domains`");
    for (const k8s::MapEntry& e : root.entries) {
      if (e.key.text != "domains") Unknown(e.key);
    }
    const k8s::DocNode* domains = root.Find("domains");
    if (domains == nullptr || domains->kind != k8s::NodeKind::kSequence) {
      return Fail(root, "`domains` must be a list of domain entries");
    }
    for (const k8s::DocNode& d : domains->items) ReadDomain(d, into);
  }

 private:
  void ReadDomain(const k8s::DocNode& node, Schema& into) {
    if (node.kind != k8s::NodeKind::kMap) return Fail(node, "a domain entry must be a map");
    static const std::vector<std::string_view> kKeys = {
        "domain", "drivers", "shared", "complete", "typeAttribute", "deviceTypes",
        "attributes", "capacities"};
    CheckKeys(node, kKeys);
    const std::string name = String(node, "domain");
    if (name.empty()) return Fail(node, "a domain entry needs `domain`");
    DomainSchema& domain = into.MutableDomain(name);
    if (!Bool(node, "shared", false)) {
      std::vector<std::string> drivers = Strings(node, "drivers");
      if (drivers.empty()) drivers.push_back(name);
      for (std::string& d : drivers) {
        if (std::find(domain.drivers.begin(), domain.drivers.end(), d) == domain.drivers.end()) {
          domain.drivers.push_back(std::move(d));
        }
      }
    }
    domain.complete = Bool(node, "complete", true);
    if (const std::string t = String(node, "typeAttribute"); !t.empty()) domain.type_attribute = t;
    for (std::string& t : Strings(node, "deviceTypes")) {
      if (std::find(domain.device_types.begin(), domain.device_types.end(), t) ==
          domain.device_types.end()) {
        domain.device_types.push_back(std::move(t));
      }
    }
    ReadEntries(node.Find("attributes"), /*capacity=*/false, domain.attributes);
    ReadEntries(node.Find("capacities"), /*capacity=*/true, domain.capacities);
  }

  void ReadEntries(const k8s::DocNode* list, bool capacity,
                   std::map<std::string, Entry, std::less<>>& into) {
    if (list == nullptr || list->kind == k8s::NodeKind::kNull) return;
    if (list->kind != k8s::NodeKind::kSequence) return Fail(*list, "expected a list of entries");
    for (const k8s::DocNode& node : list->items) {
      if (node.kind != k8s::NodeKind::kMap) {
        Fail(node, "an attribute or capacity entry must be a map");
        continue;
      }
      static const std::vector<std::string_view> kKeys = {
          "name", "type", "list", "examples", "values", "on", "optional",
          "deprecated", "removedIn", "replacedBy", "note"};
      CheckKeys(node, kKeys);
      Entry entry;
      entry.origin = origin_;
      entry.name = String(node, "name");
      if (entry.name.empty()) {
        Fail(node, "an entry needs `name`");
        continue;
      }
      if (capacity) {
        entry.type = ValueType::kQuantity;
        if (const k8s::DocNode* t = node.Find("type"); t != nullptr && t->text != "quantity") {
          Fail(*t, "a capacity is always a quantity; leave `type` out");
        }
        if (const k8s::DocNode* l = node.Find("list"); l != nullptr) {
          Fail(*l, "a capacity is never a list; leave `list` out");
        }
      } else {
        const k8s::DocNode* t = node.Find("type");
        std::optional<ValueType> type = t ? ParseValueType(t->text) : std::nullopt;
        if (!type || *type == ValueType::kQuantity) {
          Fail(t ? *t : node, "an attribute needs `type`: int, bool, string or version");
          continue;
        }
        entry.type = *type;
        entry.declared_type = *type;
        // Published as a list of `type` (ints/bools/strings/versions, DRAListTypeAttributes).
        entry.list = Bool(node, "list", false);
      }
      entry.examples = Strings(node, "examples");
      entry.closed_values = Strings(node, "values");
      entry.device_types = Strings(node, "on");
      entry.optional = Bool(node, "optional", false);
      entry.deprecated = Bool(node, "deprecated", false);
      if (const std::string r = String(node, "removedIn"); !r.empty()) entry.removed_in = r;
      entry.replaced_by = String(node, "replacedBy");
      entry.note = String(node, "note");
      into[entry.name] = std::move(entry);
    }
  }

  void CheckKeys(const k8s::DocNode& node, const std::vector<std::string_view>& keys) {
    for (const k8s::MapEntry& e : node.entries) {
      if (std::find(keys.begin(), keys.end(), e.key.text) == keys.end()) {
        Unknown(e.key);
      }
    }
  }

  std::string String(const k8s::DocNode& node, std::string_view key) {
    const k8s::DocNode* v = node.Find(key);
    if (v == nullptr || v->kind == k8s::NodeKind::kNull) return {};
    if (!v->is_scalar()) {
      Fail(*v, "`" + std::string(key) + "` must be a single value");
      return {};
    }
    return v->text;
  }

  bool Bool(const k8s::DocNode& node, std::string_view key, bool fallback) {
    const k8s::DocNode* v = node.Find(key);
    if (v == nullptr || v->kind == k8s::NodeKind::kNull) return fallback;
    if (v->kind != k8s::NodeKind::kBool) {
      Fail(*v, "`" + std::string(key) + "` must be true or false");
      return fallback;
    }
    return v->bool_value;
  }

  std::vector<std::string> Strings(const k8s::DocNode& node, std::string_view key) {
    std::vector<std::string> out;
    const k8s::DocNode* v = node.Find(key);
    if (v == nullptr || v->kind == k8s::NodeKind::kNull) return out;
    if (v->kind != k8s::NodeKind::kSequence) {
      Fail(*v, "`" + std::string(key) + "` must be a list");
      return out;
    }
    for (const k8s::DocNode& item : v->items) {
      if (!item.is_scalar()) {
        Fail(item, "`" + std::string(key) + "` items must be single values");
        continue;
      }
      out.push_back(item.text);
    }
    return out;
  }

  void Unknown(const k8s::DocNode& key) {
    Add(key, "schema.file.unknown-field", "unknown field `" + key.text + "` in a schema file");
  }
  void Fail(const k8s::DocNode& node, std::string message) {
    Add(node, "schema.file.invalid", std::move(message));
  }
  void Add(const k8s::DocNode& node, std::string code, std::string message) {
    Diagnostic d;
    d.code = std::move(code);
    d.message = std::move(message);
    d.file = file_.name();
    d.position = node.position;
    out_.Add(std::move(d));
  }

  const SourceText& file_;
  Origin origin_;
  Diagnostics& out_;
};

}  // namespace

void LoadSchemaFile(const SourceText& file, Origin origin, Schema& into, Diagnostics& out) {
  k8s::ParseResult parsed = k8s::ParseDocuments(file);
  for (const Diagnostic& d : parsed.diagnostics) {
    Diagnostic copy = d;
    copy.code = "schema.file.invalid";
    out.Add(std::move(copy));
  }
  FileReader reader(file, origin, out);
  for (const k8s::Document& doc : parsed.documents) {
    if (!doc.empty) reader.Read(doc.root, into);
  }
}

}  // namespace draguard::schema
