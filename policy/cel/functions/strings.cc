// String member functions of the standard library and cel-go's strings extension v2.
// Indices are code points: a string is decoded into code-point byte offsets on demand.
#include <string>
#include <vector>

#include "policy/cel/functions/registry.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;

bool BothStrings(Args a) {
  return a[0].kind() == Kind::kString && a[1].kind() == Kind::kString;
}

Value StringContains(Args a, EvalState&) {
  if (!BothStrings(a)) return NoSuchOverload();
  return Value::Bool(a[0].text().find(a[1].text()) != std::string_view::npos);
}
Value StartsWith(Args a, EvalState&) {
  if (!BothStrings(a)) return NoSuchOverload();
  return Value::Bool(a[0].text().starts_with(a[1].text()));
}
Value EndsWith(Args a, EvalState&) {
  if (!BothStrings(a)) return NoSuchOverload();
  return Value::Bool(a[0].text().ends_with(a[1].text()));
}

template <bool kUpper>
Value ChangeCase(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  std::string s(a[0].text());
  for (char& c : s) {
    if (kUpper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (!kUpper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return Value::String(std::move(s));
}

// Byte offset of every code point, plus the end offset.
std::vector<size_t> CodePointOffsets(std::string_view s) {
  std::vector<size_t> offsets;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) offsets.push_back(i);
  }
  offsets.push_back(s.size());
  return offsets;
}

// Code-point index of byte offset `byte` (which starts a code point).
int64_t CodePointIndex(const std::vector<size_t>& offsets, size_t byte) {
  size_t i = 0;
  while (i < offsets.size() && offsets[i] < byte) ++i;
  return static_cast<int64_t>(i);
}

Value OutOfRange(int64_t i) {
  return Value::Error("index out of range: " + std::to_string(i));
}

Value CharAt(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString || a[1].kind() != Kind::kInt) return NoSuchOverload();
  std::vector<size_t> off = CodePointOffsets(a[0].text());
  int64_t i = a[1].int_value();
  int64_t n = static_cast<int64_t>(off.size()) - 1;
  if (i < 0 || i > n) return OutOfRange(i);
  if (i == n) return Value::StringView("");
  size_t b = off[static_cast<size_t>(i)];
  return Value::String(std::string(a[0].text().substr(b, off[static_cast<size_t>(i) + 1] - b)));
}

Value IndexOfImpl(Args a, bool last) {
  if (a[0].kind() != Kind::kString || a[1].kind() != Kind::kString) return NoSuchOverload();
  std::string_view s = a[0].text();
  std::string_view sub = a[1].text();
  std::vector<size_t> off = CodePointOffsets(s);
  int64_t n = static_cast<int64_t>(off.size()) - 1;
  int64_t start = last ? n : 0;
  if (a.size() == 3) {
    if (a[2].kind() != Kind::kInt) return NoSuchOverload();
    start = a[2].int_value();
    if (start < 0 || start > n) return OutOfRange(start);
  }
  size_t byte = off[static_cast<size_t>(start)];
  size_t at = last ? s.rfind(sub, byte) : s.find(sub, byte);
  if (at == std::string_view::npos) return Value::Int(-1);
  return Value::Int(CodePointIndex(off, at));
}

Value Replace(Args a, EvalState&) {
  for (size_t i = 0; i < 3; ++i) {
    if (a[i].kind() != Kind::kString) return NoSuchOverload();
  }
  int64_t limit = -1;
  if (a.size() == 4) {
    if (a[3].kind() != Kind::kInt) return NoSuchOverload();
    limit = a[3].int_value();
  }
  std::string_view s = a[0].text();
  std::string_view from = a[1].text();
  std::string_view to = a[2].text();
  std::string out;
  size_t pos = 0;
  for (int64_t done = 0; limit < 0 || done < limit; ++done) {
    size_t at = s.find(from, pos);
    if (at == std::string_view::npos) break;
    out.append(s.substr(pos, at - pos)).append(to);
    if (from.empty()) {  // Go's strings.Replace: insert between code points
      if (at >= s.size()) { pos = s.size() + 1; break; }
      size_t next = at + 1;
      while (next < s.size() && (static_cast<unsigned char>(s[next]) & 0xC0) == 0x80) ++next;
      out.append(s.substr(at, next - at));
      pos = next;
    } else {
      pos = at + from.size();
    }
  }
  if (pos <= s.size()) out.append(s.substr(pos));
  return Value::String(std::move(out));
}

Value Split(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString || a[1].kind() != Kind::kString) return NoSuchOverload();
  int64_t limit = -1;
  if (a.size() == 3) {
    if (a[2].kind() != Kind::kInt) return NoSuchOverload();
    limit = a[2].int_value();
  }
  auto list = std::make_shared<ListData>();
  std::string_view s = a[0].text();
  std::string_view sep = a[1].text();
  if (limit == 0) return Value::List(std::move(list));
  if (sep.empty()) {
    std::vector<size_t> off = CodePointOffsets(s);
    for (size_t i = 0; i + 1 < off.size(); ++i) {
      if (limit > 0 && static_cast<int64_t>(list->elements.size()) == limit - 1) {
        list->elements.push_back(Value::String(std::string(s.substr(off[i]))));
        return Value::List(std::move(list));
      }
      list->elements.push_back(Value::String(std::string(s.substr(off[i], off[i + 1] - off[i]))));
    }
    return Value::List(std::move(list));
  }
  size_t pos = 0;
  while (limit < 0 || static_cast<int64_t>(list->elements.size()) < limit - 1) {
    size_t at = s.find(sep, pos);
    if (at == std::string_view::npos) break;
    list->elements.push_back(Value::String(std::string(s.substr(pos, at - pos))));
    pos = at + sep.size();
  }
  list->elements.push_back(Value::String(std::string(s.substr(pos))));
  return Value::List(std::move(list));
}

Value Substring(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString || a[1].kind() != Kind::kInt) return NoSuchOverload();
  std::vector<size_t> off = CodePointOffsets(a[0].text());
  int64_t n = static_cast<int64_t>(off.size()) - 1;
  int64_t start = a[1].int_value();
  int64_t end = n;
  if (a.size() == 3) {
    if (a[2].kind() != Kind::kInt) return NoSuchOverload();
    end = a[2].int_value();
  }
  if (start < 0 || start > n) return OutOfRange(start);
  if (end < 0 || end > n) return OutOfRange(end);
  if (end < start) {
    return Value::Error("invalid substring range. start: " + std::to_string(start) +
                        ", end: " + std::to_string(end));
  }
  size_t b = off[static_cast<size_t>(start)];
  return Value::String(std::string(a[0].text().substr(b, off[static_cast<size_t>(end)] - b)));
}

bool IsSpaceAt(std::string_view s, size_t i, size_t* len) {
  static constexpr std::string_view kMultiByte[] = {
      "\u0085", "\u00a0", "\u1680", "\u2000", "\u2001", "\u2002", "\u2003", "\u2004",
      "\u2005", "\u2006", "\u2007", "\u2008", "\u2009", "\u200a", "\u2028", "\u2029",
      "\u202f", "\u205f", "\u3000"};
  char c = s[i];
  if (c == ' ' || (c >= '\t' && c <= '\r')) {
    *len = 1;
    return true;
  }
  for (std::string_view ws : kMultiByte) {
    if (s.substr(i).starts_with(ws)) {
      *len = ws.size();
      return true;
    }
  }
  return false;
}

Value Trim(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  std::string_view s = a[0].text();
  size_t len = 0;
  while (!s.empty() && IsSpaceAt(s, 0, &len)) s.remove_prefix(len);
  bool trimmed = true;
  while (!s.empty() && trimmed) {
    trimmed = false;
    for (size_t back = 1; back <= 3 && back <= s.size(); ++back) {
      size_t i = s.size() - back;
      if (IsSpaceAt(s, i, &len) && i + len == s.size()) {
        s.remove_suffix(len);
        trimmed = true;
        break;
      }
    }
  }
  return Value::String(std::string(s));
}

Value Join(Args a, EvalState&) {
  if (a[0].kind() != Kind::kList) return NoSuchOverload();
  std::string_view sep;
  if (a.size() == 2) {
    if (a[1].kind() != Kind::kString) return NoSuchOverload();
    sep = a[1].text();
  }
  std::string out;
  const auto& elements = a[0].list().elements;
  for (size_t i = 0; i < elements.size(); ++i) {
    if (elements[i].kind() != Kind::kString) return NoSuchOverload();
    if (i > 0) out.append(sep);
    out.append(elements[i].text());
  }
  return Value::String(std::move(out));
}

Value StringsQuote(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  std::string out = "\"";
  for (char c : a[0].text()) {
    switch (c) {
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      default: out += c;
    }
  }
  return Value::String(out + "\"");
}

}  // namespace

Value StringIndexOf(std::span<const Value> a, EvalState&) { return IndexOfImpl(a, false); }
Value StringLastIndexOf(std::span<const Value> a, EvalState&) { return IndexOfImpl(a, true); }

void RegisterStringFunctions(Registry& r) {
  r.Add("charAt", 2, CharAt);
  r.Add("indexOf", 2, StringIndexOf);
  r.Add("indexOf", 3, StringIndexOf);
  r.Add("lastIndexOf", 2, StringLastIndexOf);
  r.Add("lastIndexOf", 3, StringLastIndexOf);
  r.Add("replace", 3, Replace);
  r.Add("replace", 4, Replace);
  r.Add("split", 2, Split);
  r.Add("split", 3, Split);
  r.Add("substring", 2, Substring);
  r.Add("substring", 3, Substring);
  r.Add("trim", 1, Trim);
  r.Add("join", 1, Join);
  r.Add("join", 2, Join);
  r.Add("strings.quote", 1, StringsQuote);
  r.Add("contains", 2, StringContains);
  r.Add("startsWith", 2, StartsWith);
  r.Add("endsWith", 2, EndsWith);
  r.Add("lowerAscii", 1, ChangeCase<false>);
  r.Add("upperAscii", 1, ChangeCase<true>);
}

}  // namespace draguard::cel
