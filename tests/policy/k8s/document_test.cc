#include "policy/k8s/document.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace draguard::k8s {
namespace {

ParseResult Parse(const std::string& text, const ParseOptions& options = {}) {
  return ParseDocuments(SourceText("in.yaml", text), options);
}

// --- scalar resolution (go-yaml v2 / YAML 1.1 rules, as sigs.k8s.io/yaml applies them) ---

struct ScalarCase {
  std::string yaml;  // the value written after "v: "
  NodeKind kind;
  std::string text = "";
  int64_t int_value = 0;
  bool bool_value = false;
};

class ScalarResolveTest : public testing::TestWithParam<ScalarCase> {};

TEST_P(ScalarResolveTest, ResolvesLikeKubernetes) {
  const ScalarCase& c = GetParam();
  ParseResult r = Parse("v: " + c.yaml + "\n");
  ASSERT_TRUE(r.diagnostics.empty()) << c.yaml;
  ASSERT_EQ(r.documents.size(), 1u);
  const DocNode* v = r.documents[0].root.Find("v");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->kind, c.kind) << c.yaml;
  if (c.kind == NodeKind::kString) {
    EXPECT_EQ(v->text, c.text);
  }
  if (c.kind == NodeKind::kInt) {
    EXPECT_EQ(v->int_value, c.int_value);
  }
  if (c.kind == NodeKind::kBool) {
    EXPECT_EQ(v->bool_value, c.bool_value);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Scalars, ScalarResolveTest,
    testing::Values(
        ScalarCase{.yaml = "2", .kind = NodeKind::kInt, .int_value = 2},
        ScalarCase{.yaml = "\"2\"", .kind = NodeKind::kString, .text = "2"},
        ScalarCase{.yaml = "'2'", .kind = NodeKind::kString, .text = "2"},
        ScalarCase{.yaml = "-17", .kind = NodeKind::kInt, .int_value = -17},
        ScalarCase{.yaml = "0x1F", .kind = NodeKind::kInt, .int_value = 31},
        ScalarCase{.yaml = "1_000", .kind = NodeKind::kInt, .int_value = 1000},
        ScalarCase{.yaml = "9223372036854775807", .kind = NodeKind::kInt,
                   .int_value = INT64_MAX},
        ScalarCase{.yaml = "9223372036854775808", .kind = NodeKind::kFloat},
        ScalarCase{.yaml = "1.5", .kind = NodeKind::kFloat},
        ScalarCase{.yaml = "1e3", .kind = NodeKind::kFloat},
        ScalarCase{.yaml = ".inf", .kind = NodeKind::kFloat},
        ScalarCase{.yaml = "true", .kind = NodeKind::kBool, .bool_value = true},
        ScalarCase{.yaml = "\"true\"", .kind = NodeKind::kString, .text = "true"},
        ScalarCase{.yaml = "yes", .kind = NodeKind::kBool, .bool_value = true},
        ScalarCase{.yaml = "On", .kind = NodeKind::kBool, .bool_value = true},
        ScalarCase{.yaml = "off", .kind = NodeKind::kBool, .bool_value = false},
        ScalarCase{.yaml = "n", .kind = NodeKind::kBool, .bool_value = false},
        ScalarCase{.yaml = "~", .kind = NodeKind::kNull},
        ScalarCase{.yaml = "null", .kind = NodeKind::kNull},
        ScalarCase{.yaml = "", .kind = NodeKind::kNull},
        ScalarCase{.yaml = "!!str 5", .kind = NodeKind::kString, .text = "5"},
        ScalarCase{.yaml = "!!int \"5\"", .kind = NodeKind::kInt, .int_value = 5},
        ScalarCase{.yaml = "1Gi", .kind = NodeKind::kString, .text = "1Gi"},
        ScalarCase{.yaml = "yes please", .kind = NodeKind::kString, .text = "yes please"},
        ScalarCase{.yaml = "|\n  a\n  b", .kind = NodeKind::kString, .text = "a\nb\n"},
        ScalarCase{.yaml = ">-\n  a\n  b", .kind = NodeKind::kString, .text = "a b"}));

// --- structure and positions ---

TEST(DocumentTest, KeepsPositionsOfNodesAndKeys) {
  ParseResult r = Parse("kind: A\nspec:\n  count: 3\n  list: [x, 'y']\n");
  ASSERT_TRUE(r.diagnostics.empty());
  const DocNode& root = r.documents[0].root;
  ASSERT_EQ(root.kind, NodeKind::kMap);
  const DocNode* spec = root.Find("spec");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->entries[0].key.position, (SourcePosition{3, 3}));
  EXPECT_EQ(spec->entries[0].value.position, (SourcePosition{3, 10}));
  const DocNode* list = spec->Find("list");
  ASSERT_NE(list, nullptr);
  EXPECT_TRUE(list->flow);
  ASSERT_EQ(list->items.size(), 2u);
  EXPECT_EQ(list->items[1].style, ScalarStyle::kSingleQuoted);
  EXPECT_EQ(list->items[1].position, (SourcePosition{4, 13}));
}

// libyaml counts columns in characters: positions and offsets stay right after multi-byte
// text, on the line and below it.
TEST(DocumentTest, KeepsPositionsAfterMultibyteText) {
  const std::string text = "a: \"caf\xc3\xa9 \xe2\x82\xac\"\nb: [x, \"\xc3\xa9\", y]\n";
  ParseResult r = Parse(text);
  ASSERT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.documents.size(), 1u);
  const DocNode* b = r.documents[0].root.Find("b");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->items.size(), 3u);
  EXPECT_EQ(b->items[2].position, (SourcePosition{2, 13}));
  EXPECT_EQ(text.substr(b->items[2].offset, 1), "y");
  EXPECT_EQ(b->items[1].text, "\xc3\xa9");
  EXPECT_EQ(text.substr(b->items[1].offset, 1), "\"");
}

TEST(DocumentTest, SplitsMultipleDocumentsAndSkipsEmptyOnes) {
  ParseResult r = Parse("a: 1\n---\n# only a comment\n---\nb: 2\n");
  ASSERT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.documents.size(), 3u);
  EXPECT_FALSE(r.documents[0].empty);
  EXPECT_TRUE(r.documents[1].empty);
  EXPECT_EQ(r.documents[2].index, 2u);
  EXPECT_NE(r.documents[2].root.Find("b"), nullptr);
}

TEST(DocumentTest, ExpandsAliasesAndMergesNothingElse) {
  ParseResult r = Parse("base: &sel {cel: {expression: x}}\nother: *sel\n");
  ASSERT_TRUE(r.diagnostics.empty());
  const DocNode* other = r.documents[0].root.Find("other");
  ASSERT_NE(other, nullptr);
  EXPECT_TRUE(other->from_alias);
  ASSERT_NE(other->Find("cel"), nullptr);
  EXPECT_EQ(other->Find("cel")->Find("expression")->text, "x");
}

TEST(DocumentTest, AppliesMergeKeysLikeGoYaml) {
  ParseResult r = Parse("base: &b {a: 1, b: 2}\nm:\n  <<: *b\n  b: 3\n  c: 4\n");
  ASSERT_TRUE(r.diagnostics.empty());
  const DocNode* m = r.documents[0].root.Find("m");
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->entries.size(), 3u);
  EXPECT_EQ(m->Find("a")->int_value, 1);
  EXPECT_EQ(m->Find("b")->int_value, 3);  // the map's own key wins
  EXPECT_EQ(m->Find("<<"), nullptr);
}

TEST(DocumentTest, StylesOfAnchoredAndTaggedScalars) {
  ParseResult r = Parse("a: &x \"q\"\nb: !!str |\n  lit\n");
  ASSERT_TRUE(r.diagnostics.empty());
  const DocNode& root = r.documents[0].root;
  EXPECT_EQ(root.Find("a")->style, ScalarStyle::kDoubleQuoted);
  EXPECT_EQ(root.Find("a")->position, (SourcePosition{1, 7}));
  EXPECT_EQ(root.Find("b")->style, ScalarStyle::kLiteral);
}

TEST(DocumentTest, JsonKeepsTypes) {
  ParseResult r = Parse(R"({"a": true, "b": "true", "c": 1, "d": "1", "e": null})");
  ASSERT_TRUE(r.diagnostics.empty());
  const DocNode& root = r.documents[0].root;
  EXPECT_EQ(root.Find("a")->kind, NodeKind::kBool);
  EXPECT_EQ(root.Find("b")->kind, NodeKind::kString);
  EXPECT_EQ(root.Find("c")->kind, NodeKind::kInt);
  EXPECT_EQ(root.Find("d")->kind, NodeKind::kString);
  EXPECT_EQ(root.Find("e")->kind, NodeKind::kNull);
}

struct ErrorCase {
  std::string name;
  std::string text;
  ParseOptions options = {};
  std::string code;
  SourcePosition position = {};  // column 0: only the line is checked
};

class ParseErrorTest : public testing::TestWithParam<ErrorCase> {};

TEST_P(ParseErrorTest, ReportsPositionedDiagnostic) {
  const ErrorCase& c = GetParam();
  ParseResult r = Parse(c.text, c.options);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  const Diagnostic& d = *r.diagnostics.begin();
  EXPECT_EQ(d.code, c.code);
  EXPECT_TRUE(d.is_error());
  EXPECT_EQ(d.file, "in.yaml");
  if (c.position.known()) {
    EXPECT_EQ(d.position.line, c.position.line);
  }
  if (c.position.column > 0) {
    EXPECT_EQ(d.position.column, c.position.column);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Errors, ParseErrorTest,
    testing::Values(
        ErrorCase{.name = "UnclosedFlow", .text = "a: [1, 2\n", .code = "decode.yaml-syntax"},
        ErrorCase{.name = "BadIndent",
                  .text = "a:\n  b: 1\n c: 2\n",
                  .code = "decode.yaml-syntax",
                  .position = {3, 0}},
        // go-yaml: "unknown anchor 'nope' referenced".
        ErrorCase{.name = "UnknownAlias",
                  .text = "a: 1\nb: *nope\n",
                  .code = "decode.yaml-syntax",
                  .position = {2, 4}},
        // libyaml and go-yaml (its port, Kubernetes' decoder) refuse bytes that are not
        // UTF-8 and tabs as indentation, where they are.
        ErrorCase{.name = "NotUtf8",
                  .text = "a: 1\nb: \"caf\xff\"\n",
                  .code = "decode.yaml-syntax",
                  .position = {2, 8}},
        ErrorCase{.name = "TabIndent",
                  .text = "a:\n\tb: 1\n",
                  .code = "decode.yaml-syntax",
                  .position = {2, 1}},
        ErrorCase{.name = "TooDeep",
                  .text = "a: [[[[[1]]]]]\n",
                  .options = {.max_depth = 4},
                  .code = "decode.too-deep",
                  .position = {1, 7}},
        ErrorCase{.name = "TooDeepThroughAliases",
                  .text = "a: &a [[[1]]]\nb: &b [[[*a]]]\n",
                  .options = {.max_depth = 5},
                  .code = "decode.too-deep",
                  .position = {2, 10}},
        ErrorCase{.name = "TooLarge",
                  .text = "a: 12345\n",
                  .options = {.max_bytes = 4},
                  .code = "decode.too-large"},
        ErrorCase{.name = "BillionLaughs",
                  .text = "a: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nc: [*b, *b, *b, *b]\n",
                  .options = {.max_nodes = 40},
                  .code = "decode.too-many-nodes"}),
    [](const testing::TestParamInfo<ErrorCase>& param) { return param.param.name; });

// Issue 17 item 4: the size limit is the API server's, per object: one document, or one item
// of a `kind: ...List`. An object over it is reported on its first line and dropped; the
// others are kept, before and after it.
TEST(ParseSizeTest, LimitIsPerDocument) {
  ParseResult r = Parse("a: 1\n---\nb: xxxxxxxxxxxxxxxxxxxx\n---\nc: 3\n", {.max_bytes = 10});
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics.begin()->code, "decode.too-large");
  EXPECT_EQ(r.diagnostics.begin()->position.line, 3);
  ASSERT_EQ(r.documents.size(), 3u);
  EXPECT_NE(r.documents[0].root.Find("a"), nullptr);
  EXPECT_TRUE(r.documents[1].empty);
  EXPECT_EQ(r.documents[2].index, 2u);
  EXPECT_NE(r.documents[2].root.Find("c"), nullptr);
}

TEST(ParseSizeTest, LimitIsPerListItem) {
  ParseResult r = Parse(
      "kind: List\nitems:\n- {a: 1}\n- {b: xxxxxxxxxxxxxxxxxxxx}\n- {c: 3}\n", {.max_bytes = 12});
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics.begin()->code, "decode.too-large");
  EXPECT_EQ(r.diagnostics.begin()->position.line, 4);
  ASSERT_EQ(r.documents.size(), 1u);
  const DocNode* items = r.documents[0].root.Find("items");
  ASSERT_NE(items, nullptr);
  ASSERT_EQ(items->items.size(), 2u);
  EXPECT_NE(items->items[1].Find("c"), nullptr);
}

TEST(ParseSizeTest, SyntaxErrorStopsTheStreamPositionedInItsDocument) {
  ParseResult r = Parse("a: 1\n---\nb: [2\n---\nc: 3\n");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics.begin()->code, "decode.yaml-syntax");
  EXPECT_GE(r.diagnostics.begin()->position.line, 3);
  ASSERT_EQ(r.documents.size(), 1u) << "kubectl stops at a document it cannot read";
}


// Issue 16 item 4: ForEachDocument builds each tree in the previous document's nodes
// (TreeRecycler); ParseDocuments moves every tree out, so each of its trees is built fresh.
// Documents of every shape in a row, through both YAML paths (the fast one and libyaml's for
// anchors, merge keys, block scalars), empty ones and one over the size limit between them,
// give the same trees either way, in either order.
TEST(DocumentRecycleTest, TreesBuiltInEarlierTreesEqualFreshOnes) {
  std::vector<std::string> docs = {
      "kind: A\nspec:\n  devices:\n  - {name: a, attributes: {x: {int: 1}, y: {string: s}}}\n"
      "  - name: b\n    attributes:\n      long-attribute-name: {string: a-long-string-value}\n",
      "kind: B\nspec: {devices: [x, [1, 2, {k: v}], {}]}\n",
      "# only a comment\n",
      "plain scalar root\n",
      "base: &b {x: 1, y: [1, 2]}\nderived:\n  <<: *b\n  y: 3\nz: *b\n",
      "text: |\n  line one\n  line two\nother: yes\n",
      "too: large " + std::string(200, 'x') + "\n",
      "{\"json\": [1, 2.5, true, null, \"s\"], \"k\": {}}\n",
      "- a\n- b: c\n  d: [e]\n",
      "kind: A\nspec:\n  devices: []\n"};
  for (const bool reversed : {false, true}) {
    if (reversed) std::reverse(docs.begin(), docs.end());
    std::string text;
    for (const std::string& doc : docs) text += "---\n" + doc;
    const ParseOptions options{.max_bytes = 190};
    std::string recycled;
    const Diagnostics diagnostics =
        ForEachDocument(SourceText("in.yaml", text), options, [&](Document& doc) {
          recycled += "document " + std::to_string(doc.index) + (doc.empty ? " empty\n" : "\n") +
                      doc.root.DebugString();
        });
    const ParseResult fresh = Parse(text, options);
    for (const Diagnostic& d : diagnostics) {
      recycled += d.code + " " + std::to_string(d.position.line) + ":" +
                  std::to_string(d.position.column) + " " + d.message + "\n";
    }
    EXPECT_EQ(recycled, DebugString(fresh)) << reversed;
    EXPECT_EQ(fresh.documents.size(), docs.size()) << reversed;
  }
}

}  // namespace
}  // namespace draguard::k8s
