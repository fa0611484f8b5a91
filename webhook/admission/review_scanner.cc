// A single-pass, recursive-descent JSON validator that captures the AdmissionReview fields the
// handler needs. Each value is parsed with a Target saying what to do with it: ignore it (but
// still validate it), descend into one of the three objects we care about (the review, its
// `request`, and `request.kind`), decode it as a string or bool, or read it into a tree
// (json_object.h) and record its raw span.
// Recursion depth is bounded by ScanOptions::max_depth, so hostile nesting cannot overflow
// the stack.
#include "webhook/admission/review_scanner.h"

#include <string>
#include <utility>
#include <vector>

#include "policy/common/status.h"
#include "policy/common/status_macros.h"
#include "webhook/admission/direct_decode.h"
#include "webhook/admission/json_lexer.h"
#include "webhook/admission/json_object.h"

namespace draguard::webhook {
namespace {

enum class ReviewObjectRole { kOther, kReview, kRequest, kRequestKind };

// The error of a scan stopped at byte `pos`.
Status JsonError(size_t pos, std::string_view what) {
  return InvalidArgumentError("invalid JSON at byte " + std::to_string(pos) + ": " +
                              std::string(what));
}

// What a failed tree read says (Scanner::ParseTree, CompleteObjectSpec).
const char* TreeError(const JsonLexer& lexer) {
  return *lexer.error() != '\0' ? lexer.error() : "invalid JSON value";
}

struct Target {
  enum class Kind { kIgnore, kObject, kString, kBool, kTree };
  Kind kind = Kind::kIgnore;
  ReviewObjectRole role = ReviewObjectRole::kOther;
  std::string* str = nullptr;
  bool* boolean = nullptr;
  bool* present = nullptr;
  std::string_view* raw = nullptr;
  std::optional<k8s::DocNode>* tree = nullptr;
  std::optional<k8s::DocNode>* spare = nullptr;  // kTree: an earlier tree to read into
  std::string_view* spec = nullptr;  // kTree: where the root's spec text goes, if wanted
};

Target Ignore() { return {}; }
Target Object(ReviewObjectRole role) { return {.kind = Target::Kind::kObject, .role = role}; }
Target String(std::string* s, bool* present = nullptr) {
  return {.kind = Target::Kind::kString, .str = s, .present = present};
}
Target Bool(bool* b) { return {.kind = Target::Kind::kBool, .boolean = b}; }
Target Tree(std::string_view* raw, std::optional<k8s::DocNode>* tree,
            std::optional<k8s::DocNode>* spare, std::string_view* spec = nullptr) {
  return {.kind = Target::Kind::kTree, .raw = raw, .tree = tree, .spare = spare, .spec = spec};
}

// The trees of an earlier scan, whose storage the new trees reuse (ReadJsonTree).
struct SpareTrees {
  std::optional<k8s::DocNode> object;
  std::optional<k8s::DocNode> old_object;
};


class Scanner {
 public:
  Scanner(std::string_view text, const ScanOptions& options, ReviewFields& out,
          SpareTrees& spares)
      : text_(text), lexer_(text), options_(options), out_(out), spares_(spares) {}

  Status Run() {
    lexer_.SkipSpace();
    if (lexer_.Peek() != '{') return Fail("an AdmissionReview must be a JSON object");
    if (!ParseValue(0, Object(ReviewObjectRole::kReview))) return error_;
    lexer_.SkipSpace();
    if (!lexer_.AtEnd()) return Fail("unexpected data after the JSON object");
    return OkStatus();
  }

 private:
  Status Fail(std::string_view what) {
    error_ = JsonError(lexer_.pos(), what);
    return error_;
  }
  bool FailFalse(std::string_view what) {
    Fail(what).IgnoreError();
    return false;
  }
  // A token the lexer refused: its message.
  bool LexError() { return FailFalse(lexer_.error()); }

  bool ParseValue(size_t depth, const Target& target) {
    if (target.kind == Target::Kind::kIgnore) return SkipValue(depth);
    lexer_.SkipSpace();
    if (target.kind == Target::Kind::kTree) return ParseTree(depth, target);
    char c = lexer_.Peek();
    if (c == '"') return ParseStringValue(target);
    if (c == '{') return ParseObject(depth + 1, target);
    if (c == '[') return ParseArray(depth + 1, target);
    if (c == 't' || c == 'f') return ParseBool(target);
    if (c == 'n') return lexer_.ReadLiteral("null") || LexError();
    if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(target);
    return FailFalse(lexer_.AtEnd() ? "unexpected end of input" : "unexpected character");
  }

  // ParseValue for a value nothing is taken from (most of a review outside request.object):
  // the same checks and the same errors, without the targets' bookkeeping. Checked by
  // SkipJsonValue; a value it refuses is read again by CheckValue for the error.
  bool SkipValue(size_t depth) {
    lexer_.SkipSpace();
    const size_t begin = lexer_.pos();
    if (SkipJsonValue(lexer_, depth, options_.max_depth)) return true;
    lexer_.Seek(begin);
    return CheckValue(depth);
  }

  // SkipValue's reader for the error of a value SkipJsonValue refused (or, past 64 levels,
  // accepts): recursive, with the scanner's messages; its members and items are read by it
  // too, not by SkipValue (whose fast pass again at each level would cost the depth times the
  // value's length on deep input).
  bool CheckValue(size_t depth) {
    lexer_.SkipSpace();
    const char c = lexer_.Peek();
    if (c == '"') return lexer_.ReadString(nullptr) || LexError();
    if (c == '{') return CheckObject(depth + 1);
    if (c == '[') return CheckArray(depth + 1);
    if (c == 't' || c == 'f') return lexer_.ReadLiteral(c == 't' ? "true" : "false") || LexError();
    if (c == 'n') return lexer_.ReadLiteral("null") || LexError();
    if (c == '-' || (c >= '0' && c <= '9')) return !lexer_.ReadNumber().empty() || LexError();
    return FailFalse(lexer_.AtEnd() ? "unexpected end of input" : "unexpected character");
  }

  // ParseArray and ParseObject for CheckValue.
  bool CheckArray(size_t depth) {
    if (depth > options_.max_depth) return FailFalse("nesting too deep");
    lexer_.Advance();
    lexer_.SkipSpace();
    if (lexer_.Consume(']')) return true;
    while (true) {
      if (!CheckValue(depth)) return false;
      lexer_.SkipSpace();
      const char c = lexer_.Peek();
      lexer_.Advance();
      if (c == ']') return true;
      if (c != ',') return FailFalse("expected ',' or ']' in array");
    }
  }

  bool CheckObject(size_t depth) {
    if (depth > options_.max_depth) return FailFalse("nesting too deep");
    lexer_.Advance();
    lexer_.SkipSpace();
    if (lexer_.Consume('}')) return true;
    while (true) {
      lexer_.SkipSpace();
      if (lexer_.Peek() != '"') return FailFalse("expected a member name");
      if (!lexer_.ReadString(nullptr)) return LexError();
      lexer_.SkipSpace();
      if (!lexer_.Consume(':')) return FailFalse("expected ':' after a member name");
      if (!CheckValue(depth)) return false;
      lexer_.SkipSpace();
      const char c = lexer_.Peek();
      lexer_.Advance();
      if (c == '}') return true;
      if (c != ',') return FailFalse("expected ',' or '}' in object");
    }
  }

  // request.object or oldObject: read into its tree in this same pass; null leaves both the
  // tree and the span empty.
  bool ParseTree(size_t depth, const Target& target) {
    const size_t start = lexer_.pos();
    target.tree->reset();
    *target.raw = {};
    if (target.spec != nullptr) *target.spec = {};
    if (lexer_.Peek() == 'n') return lexer_.ReadLiteral("null") || LexError();
    k8s::DocNode& tree = target.spare->has_value() ? target.tree->emplace(std::move(**target.spare))
                                                   : target.tree->emplace();
    target.spare->reset();
    DeferredSpec* defer = options_.defer_object_spec && target.spec != nullptr
                              ? &out_.object_spec_deferred
                              : nullptr;
    DirectMetadata* direct = options_.direct_object_metadata && target.spec != nullptr
                                 ? &out_.object_metadata
                                 : nullptr;
    if (!ReadJsonTree(lexer_, depth, options_.max_depth, tree, target.spec, defer, direct)) {
      target.tree->reset();
      return FailFalse(TreeError(lexer_));
    }
    *target.raw = text_.substr(start, lexer_.pos() - start);
    return true;
  }

  // The Parse* functions below read a value some field is taken from (ParseValue hands
  // ignored values to SkipValue): one of another JSON type than the target's is an error.

  bool ParseBool(const Target& target) {
    bool value = lexer_.Peek() == 't';
    if (!lexer_.ReadLiteral(value ? "true" : "false")) return LexError();
    if (target.kind != Target::Kind::kBool) {
      return FailFalse("expected a different type than a boolean");
    }
    *target.boolean = value;
    return true;
  }

  bool ParseNumber(const Target&) {
    return FailFalse("expected a different type than a number");
  }

  bool ParseStringValue(const Target& target) {
    if (target.kind != Target::Kind::kString) {
      return FailFalse("expected a different type than a string");
    }
    target.str->clear();
    if (target.present != nullptr) *target.present = true;
    return lexer_.ReadString(target.str) || LexError();
  }

  bool ParseArray(size_t depth, const Target&) {
    if (depth > options_.max_depth) return FailFalse("nesting too deep");
    return FailFalse("expected a different type than an array");
  }

  // The review, its request or request.kind: the members named there are read into their
  // targets, the others skipped.
  bool ParseObject(size_t depth, const Target& target) {
    if (depth > options_.max_depth) return FailFalse("nesting too deep");
    if (target.kind != Target::Kind::kObject) {
      return FailFalse("expected a different type than an object");
    }
    const ReviewObjectRole role = target.role;
    if (role == ReviewObjectRole::kRequest) out_.has_request = true;
    lexer_.Advance();
    lexer_.SkipSpace();
    if (lexer_.Consume('}')) return true;
    std::string scratch;  // a member name with an escape, decoded
    std::string_view key;
    while (true) {
      lexer_.SkipSpace();
      if (lexer_.Peek() != '"') return FailFalse("expected a member name");
      if (!lexer_.ReadStringView(key, scratch)) return LexError();
      lexer_.SkipSpace();
      if (!lexer_.Consume(':')) return FailFalse("expected ':' after a member name");
      if (!ParseValue(depth, ChildTarget(role, key))) return false;
      lexer_.SkipSpace();
      char c = lexer_.Peek();
      lexer_.Advance();
      if (c == '}') return true;
      if (c != ',') return FailFalse("expected ',' or '}' in object");
    }
  }

  // `key` as a view: compared with each name by its length first, without a call (a
  // std::string against a literal is compared through strlen and compare).
  Target ChildTarget(ReviewObjectRole role, std::string_view key) {
    switch (role) {
      case ReviewObjectRole::kReview:
        if (key == "apiVersion") return String(&out_.api_version);
        if (key == "kind") return String(&out_.review_kind);
        if (key == "request") return Object(ReviewObjectRole::kRequest);
        return Ignore();
      case ReviewObjectRole::kRequest: return RequestChild(key);
      case ReviewObjectRole::kRequestKind:
        if (key == "group") return String(&out_.group);
        if (key == "version") return String(&out_.version);
        if (key == "kind") return String(&out_.kind);
        return Ignore();
      case ReviewObjectRole::kOther: return Ignore();
    }
    return Ignore();
  }

  Target RequestChild(std::string_view key) {
    if (key == "uid") return String(&out_.uid, &out_.has_uid);
    if (key == "kind") return Object(ReviewObjectRole::kRequestKind);
    if (key == "operation") return String(&out_.operation);
    if (key == "namespace") return String(&out_.name_space);
    if (key == "name") return String(&out_.name);
    if (key == "dryRun") return Bool(&out_.dry_run);
    if (key == "object") {
      return Tree(&out_.object, &out_.object_tree, &spares_.object, &out_.object_spec);
    }
    if (key == "oldObject") {
      return Tree(&out_.old_object, &out_.old_object_tree, &spares_.old_object);
    }
    return Ignore();
  }

  std::string_view text_;
  JsonLexer lexer_;
  const ScanOptions& options_;
  ReviewFields& out_;
  SpareTrees& spares_;
  Status error_;
};

// CompleteObjectSpec's direct route (ScanOptions::direct_object_spec): true when the deferred
// spec was decoded into fields.object_spec_direct, which proves it valid JSON within the
// depth limit (what reading it into the tree would have checked).
bool DecodeSpecDirect(JsonLexer& lexer, const ScanOptions& options, ReviewFields& fields) {
  DeferredSpec& spec = fields.object_spec_deferred;
  DirectSpec& direct = fields.object_spec_direct;
  const bool is_template = fields.kind == "ResourceClaimTemplate";
  if (fields.group != "resource.k8s.io" || fields.version != "v1" ||
      (fields.kind != "ResourceClaim" && !is_template) || !fields.object_tree.has_value()) {
    return false;
  }
  direct = DirectSpec();
  lexer.Seek(spec.begin);
  if (!DecodeClaimSpecDirect(lexer, spec.depth, options.max_depth, direct.spec,
                             is_template ? &direct.template_metadata : nullptr)) {
    direct = DirectSpec();
    return false;
  }
  direct.decoded = true;
  direct.kind = fields.kind;
  spec.deferred = false;
  return true;
}

}  // namespace

Status ScanAdmissionReview(std::string_view json, const ScanOptions& options, ReviewFields& out) {
  // A fresh ReviewFields, every field at its default (an earlier review's values must not
  // survive into this one), keeping only storage for the next scan: the trees as spares, the
  // deferred spec's entries.
  SpareTrees spares{.object = std::move(out.object_tree),
                    .old_object = std::move(out.old_object_tree)};
  std::vector<k8s::MapEntry> spec_storage = std::move(out.object_spec_deferred.storage);
  out = ReviewFields{};
  out.object_spec_deferred.storage = std::move(spec_storage);
  Status status = Scanner(json, options, out, spares).Run();
  // A deferred spec lies before whatever failed: its own error, if it has one, comes first.
  if (!status.ok() && out.object_spec_deferred.deferred) {
    DRAGUARD_RETURN_IF_ERROR(CompleteObjectSpec(json, options, out));
  }
  return status;
}

Status CompleteObjectSpec(std::string_view json, const ScanOptions& options, ReviewFields& fields) {
  DeferredSpec& spec = fields.object_spec_deferred;
  if (!spec.deferred) return OkStatus();
  JsonLexer lexer(json);
  if (options.direct_object_spec && DecodeSpecDirect(lexer, options, fields)) return OkStatus();
  k8s::DocNode* root = fields.object_tree.has_value() ? &*fields.object_tree : nullptr;
  if (!ReadDeferredSpec(lexer, options.max_depth, spec, root)) {
    return JsonError(lexer.pos(), TreeError(lexer));
  }
  spec.deferred = false;
  return OkStatus();
}

StatusOr<ReviewFields> ScanAdmissionReview(std::string_view json, const ScanOptions& options) {
  ReviewFields fields;
  Status status = ScanAdmissionReview(json, options, fields);
  if (!status.ok()) return status;
  return fields;
}

}  // namespace draguard::webhook
