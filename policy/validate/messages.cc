#include "policy/validate/messages.h"

#include <cstdio>

namespace draguard::validate {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when invalid.
size_t Utf8Length(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  }
  return n;
}

std::string WithDetail(std::string head, std::string_view detail) {
  if (!detail.empty()) {
    head += ": ";
    head += detail;
  }
  return head;
}

}  // namespace

std::string GoQuote(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    size_t n = Utf8Length(s, i);
    if (n > 1) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    char buf[8];
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (n == 1 && static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) {
          out += c;
        } else {
          std::snprintf(buf, sizeof(buf), "\\x%02x", static_cast<unsigned char>(c));
          out += buf;
        }
    }
    ++i;
  }
  out += '"';
  return out;
}

FieldValue FieldValue::String(std::string_view s) { return FieldValue(GoQuote(s)); }
FieldValue FieldValue::Int(int64_t i) { return FieldValue(std::to_string(i)); }
FieldValue FieldValue::Bool(bool b) { return FieldValue(b ? "true" : "false"); }
FieldValue FieldValue::Null() { return FieldValue("null"); }
FieldValue FieldValue::Raw(std::string_view text) { return FieldValue(std::string(text)); }

std::string RequiredMessage(std::string_view detail) {
  return WithDetail("Required value", detail);
}

std::string InvalidMessage(const FieldValue& value, std::string_view detail) {
  return WithDetail("Invalid value: " + value.rendered(), detail);
}

std::string TooManyMessage(int64_t actual, int64_t max) {
  return "Too many: " + std::to_string(actual) + ": must have at most " + std::to_string(max) +
         (max == 1 ? " item" : " items");
}

std::string TooLongMessage(int64_t max_bytes) {
  return "Too long: may not be more than " + std::to_string(max_bytes) + " bytes";
}

std::string NotSupportedMessage(const FieldValue& value,
                                std::initializer_list<std::string_view> supported) {
  std::string detail;
  for (std::string_view s : supported) {
    detail += detail.empty() ? "supported values: " : ", ";
    detail += GoQuote(s);
  }
  return WithDetail("Unsupported value: " + value.rendered(), detail);
}

std::string DuplicateMessage(const FieldValue& value) {
  return "Duplicate value: " + value.rendered();
}

std::string ForbiddenMessage(std::string_view detail) { return WithDetail("Forbidden", detail); }

std::string InternalMessage(std::string_view detail) {
  return WithDetail("Internal error", detail);
}

std::string NotFoundMessage(const FieldValue& value) { return "Not found: " + value.rendered(); }

}  // namespace draguard::validate
