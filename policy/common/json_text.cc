#include "policy/common/json_text.h"

#include "policy/common/utf8.h"

namespace draguard {

bool AppendJsonString(std::string_view text, std::string& out, NonAsciiJson non_ascii) {
  out += '"';
  size_t i = 0;
  while (true) {
    const size_t special = FindNonPlainJsonByte(text, i);
    out.append(text.data() + i, special - i);
    if (special == text.size()) break;
    const auto c = static_cast<unsigned char>(text[special]);
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
    i = special + len;
  }
  out += '"';
  return true;
}

}  // namespace draguard
