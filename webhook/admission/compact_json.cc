#include "webhook/admission/compact_json.h"

#include <charconv>
#include <cstdint>
#include <string_view>
#include <system_error>

#include "policy/common/json_text.h"

namespace draguard::webhook {
namespace {

// One value: the grammar and depth rule of json_object.cc's TreeParser (a collection opened
// at `depth` counts depth + 1, refused above the maximum), the output rules of
// policy/k8s/field_reader.cc's AppendCompactJson.
class CompactWriter {
 public:
  CompactWriter(JsonLexer& lexer, size_t max_depth, std::string& out)
      : lexer_(lexer), max_depth_(max_depth), out_(out) {}

  bool Value(size_t depth) {
    switch (lexer_.Peek()) {
      case '"': return String();
      case '{': return Object(depth + 1);
      case '[': return Array(depth + 1);
      case 't': return Literal("true");
      case 'f': return Literal("false");
      case 'n': return Literal("null");
      default: return Integer();
    }
  }

 private:
  bool String() {
    std::string_view text;
    return lexer_.ReadStringView(text, scratch_) &&
           AppendJsonString(text, out_, NonAsciiJson::kRefuse);
  }

  bool Literal(std::string_view word) {
    if (!lexer_.ReadLiteral(word)) return false;
    out_ += word;
    return true;
  }

  // The tree holds an integer within int64 as its value ("-0" is 0, "007" is not JSON and
  // the lexer refuses it); anything else is a float there, which nlohmann prints.
  bool Integer() {
    const std::string_view number = lexer_.ReadNumber();
    if (number.empty() || number.find_first_of(".eE") != std::string_view::npos) return false;
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || end != number.data() + number.size()) return false;
    char digits[24];
    const auto printed = std::to_chars(digits, digits + sizeof digits, value);
    out_.append(digits, printed.ptr);
    return true;
  }

  bool Open(size_t depth) {
    if (depth > max_depth_) return false;
    lexer_.Advance();  // '{' or '['
    lexer_.SkipSpace();
    return true;
  }

  // After an element: true with `closed` set at the bracket, true at a comma (space after it
  // skipped), false on anything else.
  bool After(char close, bool& closed) {
    lexer_.SkipSpace();
    const char c = lexer_.Peek();
    lexer_.Advance();
    closed = c == close;
    if (!closed && c != ',') return false;
    if (!closed) lexer_.SkipSpace();
    return true;
  }

  bool Object(size_t depth) {
    if (!Open(depth)) return false;
    out_ += '{';
    if (lexer_.Consume('}')) return Close('}');
    // The previous key, to see that the keys increase (the tree's printer sorts them and drops
    // repeats: such objects take the tree). A key is a view of the input when it has no
    // escape, of `key_copy` otherwise.
    std::string key_copy;
    std::string_view previous;
    bool first = true;
    for (bool closed = false; !closed;) {
      if (lexer_.Peek() != '"') return false;
      std::string_view key;
      if (!lexer_.ReadStringView(key, scratch_)) return false;
      if (!first && !(previous < key)) return false;
      if (key.data() == scratch_.data()) {
        key_copy.assign(key);
        key = key_copy;
      }
      previous = key;
      if (!first) out_ += ',';
      first = false;
      if (!AppendJsonString(key, out_, NonAsciiJson::kRefuse)) return false;
      lexer_.SkipSpace();
      if (!lexer_.Consume(':')) return false;
      lexer_.SkipSpace();
      out_ += ':';
      if (!Value(depth) || !After('}', closed)) return false;
    }
    return Close('}');
  }

  bool Array(size_t depth) {
    if (!Open(depth)) return false;
    out_ += '[';
    if (lexer_.Consume(']')) return Close(']');
    for (bool closed = false, first = true; !closed; first = false) {
      if (!first) out_ += ',';
      if (!Value(depth) || !After(']', closed)) return false;
    }
    return Close(']');
  }

  bool Close(char bracket) {
    out_ += bracket;
    return true;
  }

  JsonLexer& lexer_;
  const size_t max_depth_;
  std::string& out_;
  std::string scratch_;  // a string with escapes, decoded
};

}  // namespace

bool AppendCompactJsonValue(JsonLexer& lexer, size_t depth, size_t max_depth, std::string& out) {
  return CompactWriter(lexer, max_depth, out).Value(depth);
}

}  // namespace draguard::webhook
