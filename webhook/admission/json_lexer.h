// JsonLexer: the JSON tokens of RFC 8259, read in place, for the webhook's two hand-written
// readers (review_scanner.cc, which picks the few AdmissionReview fields the handler needs,
// and json_object.cc, which builds the object's tree). One definition of what the webhook
// accepts: strings must be valid UTF-8 without raw control characters, and a \u escape of a
// lone surrogate decodes to U+FFFD, as Go's encoding/json (the API server's) decodes it.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_JSON_LEXER_H_
#define DRAGUARD_WEBHOOK_ADMISSION_JSON_LEXER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

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
  void SkipSpace() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
      ++pos_;
    }
  }

  // The Read functions start at the token's first byte and leave pos() after it. On failure
  // they return false (or an empty view) with pos() at the offending byte and error() saying
  // what is wrong.

  // A string token; its decoded text is appended to *out unless `out` is null.
  bool ReadString(std::string* out);
  // A number token; returns its text.
  std::string_view ReadNumber();
  // `word` (true, false or null).
  bool ReadLiteral(std::string_view word);

  const char* error() const { return error_; }

 private:
  bool Fail(const char* what) {
    error_ = what;
    return false;
  }
  bool ReadEscape(std::string* out);
  bool ReadHex4(uint32_t& value);
  bool Digits();

  std::string_view text_;
  size_t pos_ = 0;
  const char* error_ = "";
};

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_JSON_LEXER_H_
