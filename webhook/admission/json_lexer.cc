#include "webhook/admission/json_lexer.h"

#include <cstdint>

#include "policy/common/json_text.h"
#include "policy/common/utf8.h"

namespace draguard::webhook {

// Plain characters are appended a run at a time; escapes and the closing quote end a run.
// Strings are most of an AdmissionReview's bytes, so the next special byte is found 16 bytes
// a step (policy/common/json_text.h).
bool JsonLexer::ReadStringFrom(size_t plain_end, std::string* out) {
  const char* const data = text_.data();
  const size_t size = text_.size();
  size_t run = pos_ + 1;  // after the opening quote
  size_t pos = plain_end;
  while (true) {
    pos = FindNonPlainJsonByte(text_, pos);
    if (pos >= size) {
      pos_ = pos;
      return Fail("unterminated string");
    }
    const auto c = static_cast<unsigned char>(data[pos]);
    pos_ = pos;
    if (c >= 0x80) {
      const size_t length = Utf8SequenceLength(text_, pos);
      if (length == 0) return Fail("invalid UTF-8 in string");
      pos += length;
      continue;
    }
    if (c < 0x20) return Fail("control character in string");
    if (out != nullptr) out->append(data + run, pos - run);
    if (c == '"') {
      pos_ = pos + 1;
      return true;
    }
    // \" \\ and \/ (a CEL expression's quotes) decode to the byte they escape: that byte
    // starts the next run, without ReadEscape's call and a byte's append.
    if (pos + 1 < size && (data[pos + 1] == '"' || data[pos + 1] == '\\' || data[pos + 1] == '/')) {
      run = pos + 1;
      pos += 2;
      continue;
    }
    if (!ReadEscape(out)) return false;
    pos = run = pos_;
  }
}

bool JsonLexer::ReadHex4(uint32_t& value) {
  if (text_.size() - pos_ < 4) return Fail("truncated \\u escape");
  value = 0;
  for (int i = 0; i < 4; ++i) {
    const int digit = HexValue(text_[pos_ + i]);
    if (digit < 0) return Fail("invalid \\u escape");
    value = value * 16 + static_cast<uint32_t>(digit);
  }
  pos_ += 4;
  return true;
}

bool JsonLexer::ReadEscape(std::string* out) {
  ++pos_;  // backslash
  if (pos_ >= text_.size()) return Fail("unterminated escape");
  char decoded = 0;
  switch (text_[pos_]) {
    case '"': decoded = '"'; break;
    case '\\': decoded = '\\'; break;
    case '/': decoded = '/'; break;
    case 'b': decoded = '\b'; break;
    case 'f': decoded = '\f'; break;
    case 'n': decoded = '\n'; break;
    case 'r': decoded = '\r'; break;
    case 't': decoded = '\t'; break;
    case 'u': {
      ++pos_;
      uint32_t code = 0;
      if (!ReadHex4(code)) return false;
      if (code >= 0xD800 && code < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
        const size_t save = pos_;
        pos_ += 2;
        uint32_t low = 0;
        if (!ReadHex4(low)) return false;
        if (low >= 0xDC00 && low < 0xE000) {
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        } else {
          pos_ = save;  // the second escape stands on its own
        }
      }
      if (code >= 0xD800 && code < 0xE000) code = 0xFFFD;
      if (out != nullptr) AppendUtf8(code, *out);
      return true;
    }
    default: return Fail("invalid escape");
  }
  ++pos_;
  if (out != nullptr) *out += decoded;
  return true;
}

bool JsonLexer::Digits() {
  const size_t begin = pos_;
  while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
  return pos_ > begin;
}

std::string_view JsonLexer::ReadNumber() {
  const size_t start = pos_;
  Consume('-');
  bool ok = Consume('0') || Digits();
  if (ok && Consume('.')) ok = Digits();
  if (ok && (Consume('e') || Consume('E'))) {
    if (!Consume('+')) Consume('-');
    ok = Digits();
  }
  if (!ok) {
    Fail("invalid number");
    return {};
  }
  return text_.substr(start, pos_ - start);
}

namespace {

// A member name and its colon, with the space around them.
[[gnu::always_inline]] inline bool SkipKey(JsonLexer& lexer) {
  if (lexer.Peek() != '"' || !lexer.ReadString(nullptr)) return false;
  lexer.SkipSpace();
  if (!lexer.Consume(':')) return false;
  lexer.SkipSpace();
  return true;
}

// A string, number or literal starting with `c`.
[[gnu::always_inline]] inline bool SkipScalar(JsonLexer& lexer, char c) {
  switch (c) {
    case '"': return lexer.ReadString(nullptr);
    case 't': return lexer.ReadLiteral("true");
    case 'f': return lexer.ReadLiteral("false");
    case 'n': return lexer.ReadLiteral("null");
    default: return !lexer.ReadNumber().empty();
  }
}

}  // namespace

bool SkipJsonValue(JsonLexer& lexer, size_t depth, size_t max_depth) {
  uint64_t objects = 0;  // bit i: the i-th collection open here is an object
  size_t open = 0;
  while (true) {
    const char c = lexer.Peek();
    bool closed = false;  // the value just read is complete
    if (c == '{' || c == '[') {
      if (open == 64 || depth + open + 1 > max_depth) return false;
      lexer.Advance();
      lexer.SkipSpace();
      const bool object = c == '{';
      if (lexer.Consume(object ? '}' : ']')) {
        closed = true;
      } else {
        objects = (objects & ~(uint64_t{1} << open)) | (uint64_t{object} << open);
        ++open;
        if (object && !SkipKey(lexer)) return false;
      }
    } else if (!SkipScalar(lexer, c)) {
      return false;
    } else {
      closed = true;
    }
    if (!closed) continue;
    // After a value: a comma and the next member or item, or closing brackets.
    while (true) {
      if (open == 0) return true;
      lexer.SkipSpace();
      const bool object = (objects >> (open - 1) & 1) != 0;
      if (lexer.Consume(',')) {
        lexer.SkipSpace();
        if (object && !SkipKey(lexer)) return false;
        break;
      }
      if (!lexer.Consume(object ? '}' : ']')) return false;
      --open;
    }
  }
}

}  // namespace draguard::webhook
