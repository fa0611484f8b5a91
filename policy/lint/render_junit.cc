#include "policy/lint/render_junit.h"

#include <vector>

#include "policy/common/utf8.h"

namespace draguard::lint {
namespace {

// A test case being assembled: an object of a file (or the file itself) and its findings.
struct Case {
  std::string name;
  ObjectRef ref;
  std::vector<const Diagnostic*> diagnostics;
  size_t errors = 0;
};

std::string CaseName(const ObjectRef& ref) {
  std::string name = ref.kind.empty() ? std::string("(object)") : ref.kind;
  name += ' ';
  if (!ref.name_space.empty()) name += ref.name_space + "/";
  name += ref.name.empty() ? std::string("(unnamed)") : ref.name;
  return name;
}

std::string Line(const Diagnostic& d) {
  std::string out;
  if (d.position.known()) {
    out += std::to_string(d.position.line) + ":" + std::to_string(d.position.column) + ": ";
  }
  if (d.severity != Severity::kError) out += std::string(SeverityName(d.severity)) + ": ";
  if (!d.field.empty()) out += d.field + ": ";
  out += d.message;
  if (!d.code.empty()) out += " [" + d.code + "]";
  return out + "\n";
}

std::vector<Case> CasesOf(const LintReport& report, const std::string& file) {
  std::vector<Case> cases;
  for (const LintedObject& object : report.objects) {
    if (object.file == file) cases.push_back({CaseName(object.ref), object.ref, {}, 0});
  }
  Case whole{"(file)", {}, {}, 0};
  for (const Diagnostic& d : report.diagnostics) {
    if (d.file != file) continue;
    Case* target = &whole;
    for (Case& c : cases) {
      if (c.ref == d.object) target = &c;
    }
    target->diagnostics.push_back(&d);
    if (d.is_error()) ++target->errors;
  }
  if (!whole.diagnostics.empty()) cases.insert(cases.begin(), std::move(whole));
  return cases;
}

std::string RenderCase(const Case& c, const std::string& file) {
  std::string out = "    <testcase name=\"" + XmlEscape(c.name) + "\" classname=\"" +
                    XmlEscape(file) + "\" time=\"0\"";
  if (c.diagnostics.empty()) return out + "/>\n";
  out += ">\n";
  std::string failures;
  std::string other;
  const Diagnostic* first_error = nullptr;
  for (const Diagnostic* d : c.diagnostics) {
    (d->is_error() ? failures : other) += Line(*d);
    if (d->is_error() && first_error == nullptr) first_error = d;
  }
  if (first_error != nullptr) {
    std::string message = first_error->field.empty()
                              ? first_error->message
                              : first_error->field + ": " + first_error->message;
    out += "      <failure message=\"" + XmlEscape(message) + "\" type=\"" +
           XmlEscape(first_error->code) + "\">" + XmlEscape(failures) + "</failure>\n";
  }
  if (!other.empty()) out += "      <system-out>" + XmlEscape(other) + "</system-out>\n";
  return out + "    </testcase>\n";
}

}  // namespace

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      // Input text (names, values quoted in messages) may hold bytes that are not UTF-8,
      // which make the document ill-formed: replace them with U+FFFD as the JSON output does.
      const size_t n = Utf8SequenceLength(text, i);
      if (n == 0) {
        AppendUtf8(0xFFFD, out);
      } else {
        out.append(text.substr(i, n));
        i += n - 1;
      }
      continue;
    }
    if (u < 0x20 && c != '\n' && c != '\t' && c != '\r') continue;
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string RenderJunit(const LintReport& report) {
  std::string suites;
  size_t total_tests = 0;
  size_t total_failures = 0;
  for (const std::string& file : report.files) {
    std::vector<Case> cases = CasesOf(report, file);
    size_t failures = 0;
    std::string body;
    for (const Case& c : cases) {
      if (c.errors > 0) ++failures;
      body += RenderCase(c, file);
    }
    total_tests += cases.size();
    total_failures += failures;
    suites += "  <testsuite name=\"" + XmlEscape(file) + "\" tests=\"" +
              std::to_string(cases.size()) + "\" failures=\"" + std::to_string(failures) +
              "\" errors=\"0\" skipped=\"0\" time=\"0\">\n" + body + "  </testsuite>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"draguard lint\" tests=\"" +
         std::to_string(total_tests) + "\" failures=\"" + std::to_string(total_failures) +
         "\" errors=\"0\">\n" + suites + "</testsuites>\n";
}

}  // namespace draguard::lint
