// The dump is written into one string by a small indenting writer: Newline() starts a new
// line at the current indentation, so nested calls line up without post-processing.
#include "policy/cel/debug_string.h"

#include <charconv>
#include <cstdio>
#include <type_traits>

namespace draguard::cel {
namespace {

void AppendQuoted(std::string_view value, bool bytes, std::string& out) {
  out += bytes ? "b\"" : "\"";
  for (char ch : value) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      default: break;
    }
    if (c < 0x20 || c == 0x7F || (bytes && c >= 0x80)) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  out += '"';
}

class Printer {
 public:
  std::string Take() { return std::move(out_); }

  void Print(const Expr& e) {
    std::visit([&](const auto& k) { PrintKind(e, k); }, e.kind);
  }

 private:
  void Newline() {
    out_ += '\n';
    out_.append(static_cast<size_t>(indent_) * 2, ' ');
  }
  void Tag(const Expr& e, const char* kind) { Tag(e.id, kind); }
  void Tag(int64_t id, const char* kind) {
    out_ += "^#";
    out_ += std::to_string(id);
    out_ += ':';
    out_ += kind;
    out_ += '#';
  }
  void PrintOrNull(const ExprPtr& e) {
    if (e) {
      Print(*e);
    } else {
      out_ += "<null>";
    }
  }

  void PrintKind(const Expr& e, const std::monostate&) {
    out_ += "<error>";
    Tag(e, "Error");
  }
  void PrintKind(const Expr& e, const ConstExpr& c) {
    const char* kind = std::visit(
        [&](const auto& v) -> const char* {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, NullValueTag>) {
            out_ += "null";
            return "null";
          } else if constexpr (std::is_same_v<V, bool>) {
            out_ += v ? "true" : "false";
            return "bool";
          } else if constexpr (std::is_same_v<V, int64_t>) {
            out_ += std::to_string(v);
            return "int64";
          } else if constexpr (std::is_same_v<V, uint64_t>) {
            out_ += std::to_string(v) + "u";
            return "uint64";
          } else if constexpr (std::is_same_v<V, double>) {
            char buf[64];
            auto res = std::to_chars(buf, buf + sizeof(buf), v);
            out_.append(buf, res.ptr);
            return "double";
          } else if constexpr (std::is_same_v<V, std::string>) {
            AppendQuoted(v, false, out_);
            return "string";
          } else {
            AppendQuoted(v.value, true, out_);
            return "bytes";
          }
        },
        c.value);
    Tag(e, kind);
  }
  void PrintKind(const Expr& e, const IdentExpr& i) {
    out_ += i.name;
    Tag(e, "Ident");
  }
  void PrintKind(const Expr& e, const SelectExpr& s) {
    PrintOrNull(s.operand);
    out_ += '.';
    out_ += s.field;
    if (s.test_only) out_ += "~test-only~";
    Tag(e, "Select");
  }
  void PrintKind(const Expr& e, const CallExpr& c) {
    if (c.target) {
      Print(*c.target);
      out_ += '.';
    }
    out_ += c.function;
    out_ += '(';
    PrintItems(c.args.size(), [&](size_t i) { PrintOrNull(c.args[i]); });
    out_ += ')';
    Tag(e, "Call");
  }
  void PrintKind(const Expr& e, const ListExpr& l) {
    out_ += '[';
    PrintItems(l.elements.size(), [&](size_t i) {
      for (int32_t opt : l.optional_indices) {
        if (static_cast<size_t>(opt) == i) out_ += '?';
      }
      PrintOrNull(l.elements[i]);
    });
    out_ += ']';
    Tag(e, "List");
  }
  void PrintKind(const Expr& e, const StructExpr& s) {
    out_ += s.message_name;
    out_ += '{';
    PrintItems(s.entries.size(), [&](size_t i) {
      const StructEntry& entry = s.entries[i];
      if (entry.optional) out_ += '?';
      if (entry.key) {
        Print(*entry.key);
      } else {
        out_ += entry.field;
      }
      out_ += ':';
      PrintOrNull(entry.value);
      Tag(entry.id, "Entry");
    });
    out_ += '}';
    Tag(e, s.message_name.empty() ? "Map" : "Struct");
  }
  void PrintKind(const Expr& e, const ComprehensionExpr& c) {
    out_ += "__comprehension__(";
    ++indent_;
    Section("Variable");
    out_ += c.iter_var + ",";
    if (!c.iter_var2.empty()) {
      Section("Variable2");
      out_ += c.iter_var2 + ",";
    }
    Section("Target");
    PrintOrNull(c.iter_range);
    out_ += ',';
    Section("Accumulator");
    out_ += c.accu_var + ",";
    Section("Init");
    PrintOrNull(c.accu_init);
    out_ += ',';
    Section("LoopCondition");
    PrintOrNull(c.loop_condition);
    out_ += ',';
    Section("LoopStep");
    PrintOrNull(c.loop_step);
    out_ += ',';
    Section("Result");
    PrintOrNull(c.result);
    --indent_;
    out_ += ')';
    Tag(e, "Comprehension");
  }
  void Section(const char* name) {
    Newline();
    out_ += "// ";
    out_ += name;
    Newline();
  }

  // Children one per line, comma separated, indented; nothing between empty brackets.
  template <typename F>
  void PrintItems(size_t n, F print) {
    if (n == 0) return;
    ++indent_;
    for (size_t i = 0; i < n; ++i) {
      Newline();
      print(i);
      if (i + 1 < n) out_ += ',';
    }
    --indent_;
    Newline();
  }

  std::string out_;
  int indent_ = 0;
};

}  // namespace

std::string DebugString(const Expr& expr) {
  Printer p;
  p.Print(expr);
  return p.Take();
}

std::string DebugString(const Ast& ast) { return DebugString(ast.root()); }

}  // namespace draguard::cel
