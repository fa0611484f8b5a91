#include "policy/common/json_text.h"

#include "policy/common/utf8.h"

namespace draguard {

bool AppendJsonString(std::string_view text, std::string& out, NonAsciiJson non_ascii) {
  out += '"';
  size_t i = 0;     // the text before this byte is written
  size_t scan = 0;  // and before this one looked at (i < scan after a quote or backslash)
  while (true) {
    const size_t special = FindNonPlainJsonByte(text, scan);
    out.append(text.data() + i, special - i);
    if (special == text.size()) break;
    const auto c = static_cast<unsigned char>(text[special]);
    scan = special + 1;
    if (c == '"' || c == '\\') {
      // Its escape is a backslash before it: the byte itself starts the next run (a warning
      // quotes names; a byte's escape appended apart cost more than the run's copy).
      out += '\\';
      i = special;
      continue;
    }
    if (c < 0x80) {
      AppendEscapedJsonAscii(c, out);
      i = special + 1;
      continue;
    }
    if (non_ascii == NonAsciiJson::kRefuse) return false;
    const size_t len = Utf8SequenceLength(text, special);
    if (len == 0) {
      out += "\\ufffd";
      i = special + 1;
      continue;
    }
    out.append(text.data() + special, len);
    i = scan = special + len;
  }
  out += '"';
  return true;
}

}  // namespace draguard
