#include "tests/policy/cel/conformance/textproto.h"

#include <cctype>
#include <cstdint>

#include "policy/common/utf8.h"

namespace draguard::cel::conformance {

const TextField* TextMessage::Find(std::string_view name) const {
  for (const TextField& f : fields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const TextMessage* TextMessage::Message(std::string_view name) const {
  for (const TextField& f : fields) {
    if (f.name == name && f.message) return f.message.get();
  }
  return nullptr;
}

std::vector<const TextMessage*> TextMessage::Messages(std::string_view name) const {
  std::vector<const TextMessage*> out;
  for (const TextField& f : fields) {
    if (f.name == name && f.message) out.push_back(f.message.get());
  }
  return out;
}

std::string TextMessage::Scalar(std::string_view name) const {
  const TextField* f = Find(name);
  return f == nullptr || f->message ? std::string() : f->scalar;
}

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
         c == '+';
}

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  Status ReadFields(TextMessage& msg, char close) {
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size()) {
        return close == '\0' ? Status() : Error("unexpected end of input");
      }
      if (text_[pos_] == close) {
        ++pos_;
        return Status();
      }
      std::string name;
      if (text_[pos_] == '[') {
        size_t end = text_.find(']', pos_);
        if (end == std::string_view::npos) return Error("unterminated [name]");
        name = std::string(text_.substr(pos_, end + 1 - pos_));
        pos_ = end + 1;
      } else {
        name = ReadToken();
        if (name.empty()) return Error("expected a field name");
      }
      SkipSpace();
      bool colon = Consume(':');
      SkipSpace();
      if (Peek() == '{' || Peek() == '<') {
        if (Status s = ReadMessageField(name, msg); !s.ok()) return s;
      } else if (colon && Peek() == '[') {
        if (Status s = ReadList(name, msg); !s.ok()) return s;
      } else if (colon) {
        TextField field{.name = name};
        if (Status s = ReadScalar(field); !s.ok()) return s;
        msg.fields.push_back(std::move(field));
      } else {
        return Error("expected ':' or '{' after " + name);
      }
      SkipSpace();
      if (Peek() == ',' || Peek() == ';') ++pos_;
    }
  }

 private:
  Status ReadMessageField(const std::string& name, TextMessage& msg) {
    char close = text_[pos_++] == '{' ? '}' : '>';
    auto nested = std::make_shared<TextMessage>();
    if (Status s = ReadFields(*nested, close); !s.ok()) return s;
    msg.fields.push_back(TextField{.name = name, .message = std::move(nested)});
    return Status();
  }

  Status ReadList(const std::string& name, TextMessage& msg) {
    ++pos_;  // '['
    while (true) {
      SkipSpace();
      if (Consume(']')) return Status();
      if (Peek() == '{' || Peek() == '<') {
        if (Status s = ReadMessageField(name, msg); !s.ok()) return s;
      } else {
        TextField field{.name = name};
        if (Status s = ReadScalar(field); !s.ok()) return s;
        msg.fields.push_back(std::move(field));
      }
      SkipSpace();
      Consume(',');
    }
  }

  Status ReadScalar(TextField& field) {
    if (Peek() != '"' && Peek() != '\'') {
      field.scalar = ReadToken();
      if (field.scalar.empty()) return Error("expected a value for " + field.name);
      return Status();
    }
    field.quoted = true;
    // Adjacent string literals concatenate.
    while (Peek() == '"' || Peek() == '\'') {
      if (Status s = ReadQuoted(field.scalar); !s.ok()) return s;
      SkipSpace();
    }
    return Status();
  }

  Status ReadQuoted(std::string& out) {
    const char quote = text_[pos_++];
    while (pos_ < text_.size() && text_[pos_] != quote) {
      char c = text_[pos_++];
      if (c == '\n') return Error("newline in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) break;
      if (Status s = ReadEscape(out); !s.ok()) return s;
    }
    if (!Consume(quote)) return Error("unterminated string");
    return Status();
  }

  Status ReadEscape(std::string& out) {
    char c = text_[pos_++];
    switch (c) {
      case 'n': out += '\n'; return Status();
      case 't': out += '\t'; return Status();
      case 'r': out += '\r'; return Status();
      case 'a': out += '\a'; return Status();
      case 'b': out += '\b'; return Status();
      case 'f': out += '\f'; return Status();
      case 'v': out += '\v'; return Status();
      case '\\': case '\'': case '"': case '?': out += c; return Status();
      case 'x': case 'X': return ReadNumericEscape(16, 2, out, /*code_point=*/false);
      case 'u': return ReadNumericEscape(16, 4, out, true);
      case 'U': return ReadNumericEscape(16, 8, out, true);
      default:
        if (c >= '0' && c <= '7') {
          --pos_;
          return ReadNumericEscape(8, 3, out, false);
        }
        return Error(std::string("unknown escape \\") + c);
    }
  }

  // Up to `max_digits` digits in `base`; a byte, or a code point appended as UTF-8.
  Status ReadNumericEscape(int base, int max_digits, std::string& out, bool code_point) {
    uint32_t value = 0;
    int digits = 0;
    while (digits < max_digits && pos_ < text_.size()) {
      int d = HexDigit(text_[pos_]);
      if (d < 0 || d >= base) break;
      value = value * static_cast<uint32_t>(base) + static_cast<uint32_t>(d);
      ++pos_;
      ++digits;
    }
    if (digits == 0) return Error("escape without digits");
    if (code_point) {
      AppendUtf8(value, out);
    } else {
      out += static_cast<char>(value & 0xFF);
    }
    return Status();
  }

  std::string ReadToken() {
    size_t start = pos_;
    while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  void SkipSpace() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        if (c == '\n') ++line_;
        ++pos_;
      } else {
        return;
      }
    }
  }

  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool Consume(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  Status Error(const std::string& what) const {
    return InvalidArgumentError("textproto line " + std::to_string(line_) + ": " + what);
  }

  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

StatusOr<TextMessage> ParseTextproto(std::string_view text) {
  TextMessage root;
  Reader reader(text);
  if (Status s = reader.ReadFields(root, '\0'); !s.ok()) return s;
  return root;
}

}  // namespace draguard::cel::conformance
