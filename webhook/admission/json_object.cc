#include "webhook/admission/json_object.h"

#include <cstdint>
#include <exception>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "policy/k8s/decode.h"
#include "policy/k8s/field_reader.h"

namespace draguard::webhook {
namespace {

using k8s::DocNode;
using k8s::NodeKind;

// Builds the DocNode tree from nlohmann's SAX events with an explicit stack (no recursion).
// Scalars get the kinds the YAML decoder gives JSON scalars: strings are double-quoted
// strings, numbers int (when they fit int64) or float, true/false bool, null null.
class TreeBuilder {
 public:
  using number_integer_t = nlohmann::json::number_integer_t;
  using number_unsigned_t = nlohmann::json::number_unsigned_t;
  using number_float_t = nlohmann::json::number_float_t;
  using string_t = nlohmann::json::string_t;
  using binary_t = nlohmann::json::binary_t;

  explicit TreeBuilder(size_t max_depth) : max_depth_(max_depth) {}

  bool null() { return Skipping() || Scalar(NodeKind::kNull, ""); }
  bool boolean(bool value) {
    if (Skipping()) return true;
    DocNode n;
    n.kind = NodeKind::kBool;
    n.bool_value = value;
    n.text = value ? "true" : "false";
    return Add(std::move(n));
  }
  bool number_integer(number_integer_t value) { return Skipping() || Int(value); }
  bool number_unsigned(number_unsigned_t value) {
    if (Skipping()) return true;
    if (value <= static_cast<number_unsigned_t>(std::numeric_limits<int64_t>::max())) {
      return Int(static_cast<int64_t>(value));
    }
    return Float(static_cast<double>(value), std::to_string(value));
  }
  bool number_float(number_float_t value, const string_t& text) {
    return Skipping() || Float(value, text);
  }
  bool string(string_t& value) {
    if (Skipping()) return true;
    DocNode n;
    n.kind = NodeKind::kString;
    n.style = k8s::ScalarStyle::kDoubleQuoted;
    n.text = std::move(value);
    return Add(std::move(n));
  }
  bool binary(binary_t&) { return false; }  // not produced by the JSON parser
  bool key(string_t& value) {
    if (skip_depth_ > 0) return true;
    // metadata.managedFields is the API server's bookkeeping, often half of a stored object;
    // no check reads it, so its subtree is not built.
    if (!stack_.empty() && stack_.back() == metadata_ && value == "managedFields") {
      skip_next_ = true;
      return true;
    }
    pending_key_ = std::move(value);
    return true;
  }
  bool start_object(size_t) { return Enter() || Open(NodeKind::kMap); }
  bool end_object() { return Leave() || Close(); }
  bool start_array(size_t) { return Enter() || Open(NodeKind::kSequence); }
  bool end_array() { return Leave() || Close(); }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;
  }

  // Skipping a value: a scalar is dropped at once; a collection until its matching end.
  bool Skipping() {
    if (skip_depth_ > 0) return true;
    if (!skip_next_) return false;
    skip_next_ = false;
    return true;
  }
  bool Enter() {
    if (skip_depth_ > 0) {
      ++skip_depth_;
      return true;
    }
    if (!skip_next_) return false;
    skip_next_ = false;
    skip_depth_ = 1;
    return true;
  }
  bool Leave() {
    if (skip_depth_ == 0) return false;
    --skip_depth_;
    return true;
  }

  std::optional<DocNode> Result() && {
    if (!done_) return std::nullopt;
    return std::move(root_);
  }

 private:
  bool Int(int64_t value) {
    DocNode n;
    n.kind = NodeKind::kInt;
    n.int_value = value;
    n.text = std::to_string(value);
    return Add(std::move(n));
  }
  bool Float(double value, std::string text) {
    DocNode n;
    n.kind = NodeKind::kFloat;
    n.float_value = value;
    n.text = std::move(text);
    return Add(std::move(n));
  }
  bool Scalar(NodeKind kind, const char* text) {
    DocNode n;
    n.kind = kind;
    n.text = text;
    return Add(std::move(n));
  }
  bool Open(NodeKind kind) {
    if (stack_.size() >= max_depth_) return false;
    DocNode n;
    n.kind = kind;
    n.flow = true;
    const bool metadata = stack_.size() == 1 && kind == NodeKind::kMap &&
                          stack_.front()->kind == NodeKind::kMap && pending_key_ == "metadata";
    if (!Add(std::move(n))) return false;
    stack_.push_back(last_);
    if (metadata) metadata_ = last_;
    return true;
  }
  bool Close() {
    stack_.pop_back();
    if (stack_.empty()) done_ = true;
    return true;
  }
  // Appends `n` to the open collection (or makes it the root) and remembers where it went.
  bool Add(DocNode n) {
    if (stack_.empty()) {
      if (have_root_) return false;
      root_ = std::move(n);
      have_root_ = true;
      last_ = &root_;
      done_ = root_.is_scalar();
      return true;
    }
    DocNode* parent = stack_.back();
    if (parent->kind == NodeKind::kMap) {
      k8s::MapEntry entry;
      entry.key.kind = NodeKind::kString;
      entry.key.style = k8s::ScalarStyle::kDoubleQuoted;
      entry.key.text = std::move(pending_key_);
      entry.value = std::move(n);
      parent->entries.push_back(std::move(entry));
      last_ = &parent->entries.back().value;
    } else {
      parent->items.push_back(std::move(n));
      last_ = &parent->items.back();
    }
    return true;
  }

  // Pointers into the tree stay valid: a collection's children are appended only while it is
  // the innermost open one, and its own slot in its parent never moves while it is open.
  std::vector<DocNode*> stack_;
  DocNode root_;
  DocNode* last_ = nullptr;
  DocNode* metadata_ = nullptr;  // the root's metadata map, once open
  std::string pending_key_;
  size_t skip_depth_ = 0;
  bool skip_next_ = false;
  size_t max_depth_;
  bool have_root_ = false;
  bool done_ = false;
};

}  // namespace

std::optional<DocNode> ParseJsonTree(std::string_view json, const JsonObjectOptions& options) {
  TreeBuilder builder(options.max_depth);
  try {
    if (!nlohmann::json::sax_parse(json.begin(), json.end(), &builder)) return std::nullopt;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception&) {
    return std::nullopt;  // nlohmann reports through parse_error; this is belt and braces
  }
  return std::move(builder).Result();
}

k8s::ObjectVariant DecodeAdmissionObject(std::string_view json, std::string_view kind,
                                         std::string_view version, Diagnostics& out) {
  std::optional<DocNode> root = ParseJsonTree(json);
  if (!root.has_value() || root->kind != NodeKind::kMap) {
    out.Error("webhook.object.invalid", FieldPath(),
              "request.object is not a JSON object within the nesting limit");
    return {};
  }
  Diagnostics found;
  k8s::ObjectVariant object =
      k8s::DecodeResourceTree(*root, kind, version, found, /*strict=*/false);
  for (Diagnostic& d : found.mutable_items()) {
    if (d.code != "decode.unknown-field") out.Add(std::move(d));
  }
  return object;
}

}  // namespace draguard::webhook
