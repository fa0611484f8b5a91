// JsonLexer: the JSON tokens of RFC 8259, read in place, for the webhook's two hand-written
// readers (review_scanner.cc, which picks the few AdmissionReview fields the handler needs,
// and json_object.cc, which builds the object's tree). One definition of what the webhook
// accepts: strings must be valid UTF-8 without raw control characters, and a \u escape of a
// lone surrogate decodes to U+FFFD, as Go's encoding/json (the API server's) decodes it.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_JSON_LEXER_H_
#define DRAGUARD_WEBHOOK_ADMISSION_JSON_LEXER_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "policy/common/json_text.h"

namespace draguard::webhook {

class JsonLexer {
 public:
  explicit JsonLexer(std::string_view text) : text_(text) {}

  size_t pos() const { return pos_; }
  std::string_view text() const { return text_; }
  bool AtEnd() const { return pos_ >= text_.size(); }
  // The current byte, or '\0' at the end.
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void Advance() { ++pos_; }
  // Moves to byte `pos` (at most text().size()) of the text.
  void Seek(size_t pos) { pos_ = pos; }
  // Consumes `c` if it is the current byte.
  bool Consume(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  // Every byte above a space ends the space at once, with one compare: the readers call this
  // between all tokens, and the API server sends reviews without space.
  void SkipSpace() {
    while (pos_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (c > ' ' || (c != ' ' && c != '\n' && c != '\r' && c != '\t')) return;
      ++pos_;
    }
  }

  // The Read functions start at the token's first byte and leave pos() after it. On failure
  // they return false (or an empty view) with pos() at the offending byte and error() saying
  // what is wrong.

  // A string token; its decoded text is appended to *out unless `out` is null.
  //
  // Most strings of a review (member names, names, labels, UIDs) hold neither an escape nor a
  // non-ASCII byte: those are read here, sixteen bytes a step, inline in the readers' loops
  // (a call and the general reader's set-up cost more than such a string's scan). At the
  // first other special byte, or within 16 bytes of the text's end, the general reader takes
  // over from the plain bytes found so far: the same result and the same error either way
  // (tests/webhook/admission/json_lexer_test.cc reads each string both ways).
  bool ReadString(std::string* out) {
    const size_t begin = pos_ + 1;  // after the opening quote
    size_t pos = begin;
    if (!FindPlainEnd(pos)) return ReadStringFrom(pos, out);
    if (out != nullptr) out->append(text_.data() + begin, pos - begin);
    pos_ = pos + 1;
    return true;
  }
  // The same for a caller that only looks at the text: a string of plain bytes only (member
  // names nearly always) is given as a view of the input, without a copy; any other is
  // decoded into `scratch` and given as a view of it. The same result and the same errors as
  // ReadString.
  bool ReadStringView(std::string_view& view, std::string& scratch) {
    const size_t begin = pos_ + 1;
    size_t pos = begin;
    if (FindPlainEnd(pos)) {
      view = text_.substr(begin, pos - begin);
      pos_ = pos + 1;
      return true;
    }
    scratch.clear();
    if (!ReadStringFrom(pos, &scratch)) return false;
    view = scratch;
    return true;
  }
  // A number token; returns its text.
  std::string_view ReadNumber();
  // `word` (true, false or null). Inline: a call and memcmp's cost ~50 instructions for a
  // compare of four or five bytes.
  bool ReadLiteral(std::string_view word) {
    if (text_.size() - pos_ < word.size()) return Fail("invalid literal");
    for (size_t i = 0; i < word.size(); ++i) {
      if (text_[pos_ + i] != word[i]) return Fail("invalid literal");
    }
    pos_ += word.size();
    return true;
  }

  const char* error() const { return error_; }

 private:
  bool Fail(const char* what) {
    error_ = what;
    return false;
  }
  // The readers' fast path: from `pos`, just after the opening quote, sixteen bytes a step.
  // True when the string's bytes are all plain, with `pos` at its closing quote; false with
  // `pos` where the general reader (ReadStringFrom) takes over: the first other special byte,
  // or within 16 bytes of the text's end (at once without SSE2).
  bool FindPlainEnd(size_t& pos) const {
#if defined(__SSE2__)
    for (; text_.size() - pos >= 16; pos += 16) {
      const unsigned mask = NonPlainJsonMask16(text_.data() + pos);
      if (mask == 0) continue;
      pos += static_cast<size_t>(std::countr_zero(mask));
      return text_[pos] == '"';
    }
#endif
    return false;
  }
  // ReadString's general reader: the string opened at pos() (the quote), its bytes before
  // `plain_end` known to be plain.
  bool ReadStringFrom(size_t plain_end, std::string* out);
  bool ReadEscape(std::string* out);
  bool ReadHex4(uint32_t& value);
  bool Digits();

  std::string_view text_;
  size_t pos_ = 0;
  const char* error_ = "";
};

// Checks and steps over the JSON value at `lexer`'s position, which is `depth` collections
// deep: true, with the lexer after it, for a value the webhook's readers accept (JsonLexer's
// tokens; no collection more than `max_depth` deep in all). False for any other, and for a
// value with more than 64 levels of its own, with the lexer's position unspecified: a caller
// that reports errors reads the value again with its own reader for the message. Iterative,
// one bit a level: the readers' recursion per value cost twice as much on the members nothing
// is taken from (managedFields, userInfo, options: issue 16).
bool SkipJsonValue(JsonLexer& lexer, size_t depth, size_t max_depth);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_JSON_LEXER_H_
