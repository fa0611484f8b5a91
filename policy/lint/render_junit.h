// The JUnit XML renderer (`--output junit`), for CI systems that show test reports.
//
// One <testsuite> per linted file (name = file); one <testcase> per object in that file
// (name "Kind namespace/name", classname = file), plus a test case named "(file)" when
// diagnostics concern the file as a whole (undecodable documents) rather than an object.
// A test case with errors has one <failure> whose `message` is the first error
// ("field: message"), whose `type` is its code and whose text lists every error as
// "line:column: field: message [code]". Warnings and infos go to the test case's <system-out>.
#ifndef DRAGUARD_POLICY_LINT_RENDER_JUNIT_H_
#define DRAGUARD_POLICY_LINT_RENDER_JUNIT_H_

#include <string>
#include <string_view>

#include "policy/lint/report.h"

namespace draguard::lint {

// The report as a UTF-8 XML document. Never fails.
std::string RenderJunit(const LintReport& report);

// Escapes &, <, >, " and ', drops control characters that XML 1.0 forbids and replaces bytes
// that are not UTF-8 with U+FFFD. Exposed for tests.
std::string XmlEscape(std::string_view text);

}  // namespace draguard::lint

#endif  // DRAGUARD_POLICY_LINT_RENDER_JUNIT_H_
