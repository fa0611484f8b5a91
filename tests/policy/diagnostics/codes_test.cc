// The code registry and the generated docs/diagnostics.md.
#include "policy/diagnostics/codes.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace draguard::diagnostics {
namespace {

constexpr char kDocPath[] = DRAGUARD_SOURCE_DIR "/docs/diagnostics.md";

TEST(CodesTest, CodesAreUniqueDottedLowerCase) {
  std::set<std::string_view> seen;
  for (const CodeInfo& info : AllCodes()) {
    EXPECT_TRUE(seen.insert(info.code).second) << info.code;
    EXPECT_NE(info.code.find('.'), std::string_view::npos) << info.code;
    for (char c : info.code) {
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-')
          << info.code;
    }
    EXPECT_FALSE(info.summary.empty()) << info.code;
  }
  EXPECT_NE(FindCode("claim.request.count.invalid"), nullptr);
  EXPECT_EQ(FindCode("no.such.code"), nullptr);
}

TEST(CodesTest, DocsAreUpToDate) {
  std::string table = RenderCodeTable();
  if (const char* update = std::getenv("DRAGUARD_UPDATE_GOLDEN"); update && *update == '1') {
    std::ofstream(kDocPath) << table;
  }
  std::ifstream in(kDocPath);
  ASSERT_TRUE(in.good()) << kDocPath << " is missing; run with DRAGUARD_UPDATE_GOLDEN=1";
  std::stringstream content;
  content << in.rdbuf();
  EXPECT_TRUE(content.str() == table)
      << kDocPath << " is stale; regenerate with DRAGUARD_UPDATE_GOLDEN=1";
}

TEST(CodesTest, EveryCodeHasALongDescription) {
  for (const CodeInfo& info : AllCodes()) {
    std::string full = FullDescription(info);
    std::string short_text = ShortDescription(info);
    EXPECT_TRUE(short_text.ends_with('.')) << info.code;
    EXPECT_TRUE(full.starts_with(short_text)) << info.code;
    EXPECT_TRUE(full.ends_with('.')) << info.code;
    // More than the summary and the severity: the family's paragraph at least.
    EXPECT_GT(full.size(), short_text.size() + 150) << info.code << ": " << full;
  }
}

TEST(CodesTest, EveryCodeHasItsOwnDocsSection) {
  std::ifstream in(kDocPath);
  ASSERT_TRUE(in.good()) << kDocPath;
  std::stringstream content;
  content << in.rdbuf();
  std::set<std::string> anchors;
  for (const CodeInfo& info : AllCodes()) {
    EXPECT_NE(content.str().find("\n### " + std::string(info.code) + "\n"), std::string::npos)
        << info.code << " has no section in docs/diagnostics.md";
    EXPECT_TRUE(anchors.insert(DocsAnchor(info.code)).second) << info.code;
  }
  EXPECT_EQ(DocsAnchor("claim.request.count.invalid"), "claimrequestcountinvalid");
  EXPECT_EQ(DocsUrl("cel.syntax-error"), std::string(kDiagnosticsDocUrl) + "#celsyntax-error");
}

}  // namespace
}  // namespace draguard::diagnostics
