// A single-pass, recursive-descent JSON validator that captures the AdmissionReview fields the
// handler needs. Each value is parsed with a Target saying what to do with it: ignore it (but
// still validate it), descend into one of the three objects we care about (the review, its
// `request`, and `request.kind`), decode it as a string or bool, or record its raw span.
// Recursion depth is bounded by ScanOptions::max_depth, so hostile nesting cannot overflow
// the stack.
#include "webhook/admission/review_scanner.h"

#include <cstdint>
#include <string>

#include "policy/common/status.h"
#include "policy/common/utf8.h"

namespace draguard::webhook {
namespace {

enum class ObjectRole { kOther, kReview, kRequest, kRequestKind };

struct Target {
  enum class Kind { kIgnore, kObject, kString, kBool, kRaw };
  Kind kind = Kind::kIgnore;
  ObjectRole role = ObjectRole::kOther;
  std::string* str = nullptr;
  bool* boolean = nullptr;
  bool* present = nullptr;
  std::string_view* raw = nullptr;
};

Target Ignore() { return {}; }
Target Object(ObjectRole role) { return {.kind = Target::Kind::kObject, .role = role}; }
Target String(std::string* s, bool* present = nullptr) {
  return {.kind = Target::Kind::kString, .str = s, .present = present};
}
Target Bool(bool* b) { return {.kind = Target::Kind::kBool, .boolean = b}; }
Target Raw(std::string_view* r) { return {.kind = Target::Kind::kRaw, .raw = r}; }


class Scanner {
 public:
  Scanner(std::string_view text, const ScanOptions& options, ReviewFields& out)
      : text_(text), options_(options), out_(out) {}

  Status Run() {
    SkipSpace();
    if (Peek() != '{') return Fail("an AdmissionReview must be a JSON object");
    if (!ParseValue(0, Object(ObjectRole::kReview))) return error_;
    SkipSpace();
    if (pos_ != text_.size()) return Fail("unexpected data after the JSON object");
    return OkStatus();
  }

 private:
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool AtEnd() const { return pos_ >= text_.size(); }

  void SkipSpace() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      ++pos_;
    }
  }

  Status Fail(std::string_view what) {
    error_ = InvalidArgumentError("invalid JSON at byte " + std::to_string(pos_) + ": " +
                                  std::string(what));
    return error_;
  }
  bool FailFalse(std::string_view what) {
    Fail(what).IgnoreError();
    return false;
  }

  bool ParseValue(size_t depth, const Target& target) {
    SkipSpace();
    size_t start = pos_;
    bool ok = ParseValueNoRaw(depth, target);
    if (ok && target.kind == Target::Kind::kRaw) {
      std::string_view span = text_.substr(start, pos_ - start);
      *target.raw = span == "null" ? std::string_view() : span;
    }
    return ok;
  }

  bool ParseValueNoRaw(size_t depth, const Target& target) {
    char c = Peek();
    if (c == '"') return ParseStringValue(target);
    if (c == '{') return ParseObject(depth + 1, target);
    if (c == '[') return ParseArray(depth + 1, target);
    if (c == 't' || c == 'f') return ParseBool(target);
    if (c == 'n') return ParseLiteral("null");
    if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(target);
    return FailFalse(AtEnd() ? "unexpected end of input" : "unexpected character");
  }

  bool WrongType(const Target& target) {
    return target.kind != Target::Kind::kIgnore && target.kind != Target::Kind::kRaw;
  }

  bool ParseLiteral(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return FailFalse("invalid literal");
    pos_ += word.size();
    return true;
  }

  bool ParseBool(const Target& target) {
    bool value = Peek() == 't';
    if (!ParseLiteral(value ? "true" : "false")) return false;
    if (target.kind == Target::Kind::kBool) {
      *target.boolean = value;
      return true;
    }
    return !WrongType(target) || FailFalse("expected a different type than a boolean");
  }

  bool Digits() {
    size_t begin = pos_;
    while (Peek() >= '0' && Peek() <= '9') ++pos_;
    return pos_ > begin;
  }

  bool ParseNumber(const Target& target) {
    if (WrongType(target)) return FailFalse("expected a different type than a number");
    if (Peek() == '-') ++pos_;
    if (Peek() == '0') {
      ++pos_;
    } else if (!Digits()) {
      return FailFalse("invalid number");
    }
    if (Peek() == '.') {
      ++pos_;
      if (!Digits()) return FailFalse("invalid number");
    }
    if (Peek() == 'e' || Peek() == 'E') {
      ++pos_;
      if (Peek() == '+' || Peek() == '-') ++pos_;
      if (!Digits()) return FailFalse("invalid number");
    }
    return true;
  }

  // Parses a string at pos_; decodes it into `out` when non-null.
  bool ParseString(std::string* out) {
    ++pos_;  // opening quote
    while (true) {
      if (AtEnd()) return FailFalse("unterminated string");
      char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return FailFalse("control character in string");
      if (static_cast<unsigned char>(c) >= 0x80) {
        size_t len = Utf8SequenceLength(text_, pos_);
        if (len == 0) return FailFalse("invalid UTF-8 in string");
        if (out != nullptr) out->append(text_.substr(pos_, len));
        pos_ += len;
        continue;
      }
      if (c != '\\') {
        if (out != nullptr) *out += c;
        ++pos_;
        continue;
      }
      if (!ParseEscape(out)) return false;
    }
  }

  bool ParseHex4(uint32_t& cp) {
    if (text_.size() - pos_ < 4) return FailFalse("truncated \\u escape");
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      int h = HexValue(text_[pos_ + i]);
      if (h < 0) return FailFalse("invalid \\u escape");
      cp = cp * 16 + static_cast<uint32_t>(h);
    }
    pos_ += 4;
    return true;
  }

  bool ParseEscape(std::string* out) {
    ++pos_;  // backslash
    if (AtEnd()) return FailFalse("unterminated escape");
    char e = text_[pos_++];
    char decoded = 0;
    switch (e) {
      case '"': decoded = '"'; break;
      case '\\': decoded = '\\'; break;
      case '/': decoded = '/'; break;
      case 'b': decoded = '\b'; break;
      case 'f': decoded = '\f'; break;
      case 'n': decoded = '\n'; break;
      case 'r': decoded = '\r'; break;
      case 't': decoded = '\t'; break;
      case 'u': return ParseUnicodeEscape(out);
      default: return FailFalse("invalid escape");
    }
    if (out != nullptr) *out += decoded;
    return true;
  }

  // A \uXXXX escape, joining a surrogate pair; a lone surrogate decodes to U+FFFD as in Go.
  bool ParseUnicodeEscape(std::string* out) {
    uint32_t cp = 0;
    if (!ParseHex4(cp)) return false;
    if (cp >= 0xD800 && cp < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
      size_t save = pos_;
      pos_ += 2;
      uint32_t low = 0;
      if (!ParseHex4(low)) return false;
      if (low >= 0xDC00 && low < 0xE000) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      } else {
        pos_ = save;
      }
    }
    if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD;
    if (out != nullptr) AppendUtf8(cp, *out);
    return true;
  }

  bool ParseStringValue(const Target& target) {
    if (target.kind == Target::Kind::kString) {
      target.str->clear();
      if (target.present != nullptr) *target.present = true;
      return ParseString(target.str);
    }
    if (WrongType(target)) return FailFalse("expected a different type than a string");
    return ParseString(nullptr);
  }

  bool ParseArray(size_t depth, const Target& target) {
    if (depth > options_.max_depth) return FailFalse("nesting too deep");
    if (WrongType(target)) return FailFalse("expected a different type than an array");
    ++pos_;
    SkipSpace();
    if (Peek() == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      if (!ParseValue(depth, Ignore())) return false;
      SkipSpace();
      char c = Peek();
      ++pos_;
      if (c == ']') return true;
      if (c != ',') return FailFalse("expected ',' or ']' in array");
    }
  }

  bool ParseObject(size_t depth, const Target& target) {
    if (depth > options_.max_depth) return FailFalse("nesting too deep");
    if (WrongType(target) && target.kind != Target::Kind::kObject) {
      return FailFalse("expected a different type than an object");
    }
    ObjectRole role = target.kind == Target::Kind::kObject ? target.role : ObjectRole::kOther;
    if (role == ObjectRole::kRequest) out_.has_request = true;
    ++pos_;
    SkipSpace();
    if (Peek() == '}') {
      ++pos_;
      return true;
    }
    std::string key;
    while (true) {
      SkipSpace();
      if (Peek() != '"') return FailFalse("expected a member name");
      key.clear();
      if (!ParseString(&key)) return false;
      SkipSpace();
      if (Peek() != ':') return FailFalse("expected ':' after a member name");
      ++pos_;
      if (!ParseValue(depth, ChildTarget(role, key))) return false;
      SkipSpace();
      char c = Peek();
      ++pos_;
      if (c == '}') return true;
      if (c != ',') return FailFalse("expected ',' or '}' in object");
    }
  }

  Target ChildTarget(ObjectRole role, const std::string& key) {
    switch (role) {
      case ObjectRole::kReview:
        if (key == "apiVersion") return String(&out_.api_version);
        if (key == "kind") return String(&out_.review_kind);
        if (key == "request") return Object(ObjectRole::kRequest);
        return Ignore();
      case ObjectRole::kRequest: return RequestChild(key);
      case ObjectRole::kRequestKind:
        if (key == "group") return String(&out_.group);
        if (key == "version") return String(&out_.version);
        if (key == "kind") return String(&out_.kind);
        return Ignore();
      case ObjectRole::kOther: return Ignore();
    }
    return Ignore();
  }

  Target RequestChild(const std::string& key) {
    if (key == "uid") return String(&out_.uid, &out_.has_uid);
    if (key == "kind") return Object(ObjectRole::kRequestKind);
    if (key == "operation") return String(&out_.operation);
    if (key == "namespace") return String(&out_.name_space);
    if (key == "name") return String(&out_.name);
    if (key == "dryRun") return Bool(&out_.dry_run);
    if (key == "object") return Raw(&out_.object);
    if (key == "oldObject") return Raw(&out_.old_object);
    return Ignore();
  }

  std::string_view text_;
  const ScanOptions& options_;
  ReviewFields& out_;
  size_t pos_ = 0;
  Status error_;
};

}  // namespace

StatusOr<ReviewFields> ScanAdmissionReview(std::string_view json, const ScanOptions& options) {
  ReviewFields fields;
  Scanner scanner(json, options, fields);
  Status status = scanner.Run();
  if (!status.ok()) return status;
  return fields;
}

}  // namespace draguard::webhook
