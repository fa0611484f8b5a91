// Differential test of the selector shape path (selector_shape.h) against CompileSelector:
// every selector of ../shared/corpus, of cel_bench, of the CEL tests' sources and of the table
// below, and generated mutations of their literals (lengths, escapes, unicode, raw, bytes and
// triple-quoted strings, ints, uints, doubles, signs, invalid patterns, durations, overflow),
// of their spacing and comments, compiled through a template of the original's shape and
// from scratch: the tree with every node's offset, types, references, cost and diagnostics
// must be identical. Through SelectorCache too, where a failed instantiation falls back.
#include "policy/cel/selector_shape.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "policy/cel/compiler.h"
#include "policy/cel/debug_string.h"
#include "policy/cel/lexer.h"
#include "policy/cel/parser_options.h"
#include "tests/policy/cel/same_check.h"

namespace draguard::cel {
namespace {

namespace fs = std::filesystem;

void DumpOffsets(const Expr& e, std::string& out) {
  out += std::to_string(e.id) + "@" + std::to_string(e.offset) + " ";
  if (const StructExpr* st = e.as_struct()) {
    for (const StructEntry& entry : st->entries) {
      out += "e" + std::to_string(entry.id) + "@" + std::to_string(entry.offset) + " ";
    }
  }
  ForEachChild(e, [&](const Expr& child) { DumpOffsets(child, out); });
}

// Everything a compile result says, as text.
std::string Dump(const SelectorCompileResult& r) {
  std::string out;
  for (const Diagnostic& d : r.issues) {
    out += "issue " + std::string(d.is_error() ? "E " : "W ") + d.code + " " + d.message + " @" +
           std::to_string(d.value_offset) + "+" + std::to_string(d.value_length) + "\n";
  }
  out += "ok " + std::to_string(r.ok()) + " cost " + std::to_string(r.cost.min) + ".." +
         std::to_string(r.cost.max) + "\n";
  if (r.ast == nullptr) return out + "no ast\n";
  out += "source " + r.ast->source().name() + ": " + r.ast->source().text() + "\n";
  out += DebugString(*r.ast) + "\n";
  DumpOffsets(r.ast->root(), out);
  out += "\nmax_id " + std::to_string(r.ast->max_id()) + "\n";
  for (int64_t id = 0; id <= r.ast->max_id(); ++id) {
    out += std::to_string(id) + ": " + r.checked.TypeOf(id).DebugString() + " " +
           ReferenceText(r.checked.ReferenceOf(id)) + "\n";
  }
  return out + "result " + r.checked.result_type().DebugString() + "\n";
}

bool IsValueLiteral(TokenKind k) {
  return k == TokenKind::kIntLit || k == TokenKind::kUintLit || k == TokenKind::kDoubleLit ||
         k == TokenKind::kStringLit || k == TokenKind::kBytesLit;
}

const std::vector<std::string>& Replacements(TokenKind kind) {
  static const std::vector<std::string> strings = {
      R"~("")~", R"~("x")~", R"~('single')~", R"~("NVIDIA A100-SXM4-80GB with a much longer name")~",
      R"~("esc\n\t\"q\\")~", R"~("\u00e9\U0001F600\x41\101")~", R"~("ünïcødé 日本")~",
      R"~(r"raw\d+(x)")~", R"~(R'raw\')~", R"~("""triple "quoted" """)~", R"~('''t
two lines''')~", R"~("(")~", R"~("[a-z")~", R"~("^[a-z]+$")~", R"~("1.2.3")~", R"~("v1.x")~",
      R"~("10Gi")~", R"~("bogus!")~", R"~("192.168.0.1")~", R"~("10.0.0.0/8")~",
      R"~("https://x.y/z")~", R"~("\xZZ")~", R"~("\ud800")~", R"~("%d")~", R"~("%s %s")~",
      R"~("%s")~", R"~("1h30m")~", R"~("1x")~", R"~("2024-01-01T00:00:00Z")~", R"~("bad-ts")~",
      R"~(b"bytes")~", R"~("\"")~", R"~('')~", R"~("a\
b")~", "\"" + std::string(300, 'y') + "\""};
  static const std::vector<std::string> ints = {"0",  "7", "123456789", "0x1F", "0XfF",
                                                "9223372036854775807", "9223372036854775808",
                                                "99999999999999999999", "1u", "2.5"};
  static const std::vector<std::string> uints = {"0u", "18446744073709551615u",
                                                 "18446744073709551616u", "0x10U", "5"};
  static const std::vector<std::string> doubles = {"0.0", "1e308", "1e309", ".5", "2.5e-3",
                                                   "1.7976931348623157e308", "3"};
  static const std::vector<std::string> bytes = {R"~(b"")~", R"~(B'\xff\000')~",
                                                 R"~(br"raw\n")~", R"~(b"""tri""")~",
                                                 R"~("str")~"};
  switch (kind) {
    case TokenKind::kIntLit: return ints;
    case TokenKind::kUintLit: return uints;
    case TokenKind::kDoubleLit: return doubles;
    case TokenKind::kBytesLit: return bytes;
    default: return strings;
  }
}

// Texts of the same shape as `expr` (and some of another: kind changes), at most ~`limit`.
std::vector<std::string> Mutations(const std::string& expr, size_t limit) {
  Diagnostics issues;
  const std::vector<Token> tokens = Lex(expr, issues);
  std::vector<std::string> out;
  std::vector<size_t> literals;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (IsValueLiteral(tokens[i].kind)) literals.push_back(i);
  }
  auto replace = [&](const std::vector<std::pair<size_t, std::string>>& with) {
    std::string s = expr;
    for (auto it = with.rbegin(); it != with.rend(); ++it) {  // from the end: offsets hold
      const Token& t = tokens[it->first];
      s.replace(static_cast<size_t>(t.offset), static_cast<size_t>(t.length), it->second);
    }
    out.push_back(std::move(s));
  };
  if (!literals.empty()) {
    const size_t per_literal = std::max<size_t>(4, limit / literals.size());
    for (size_t li = 0; li < literals.size(); ++li) {
      const std::vector<std::string>& reps = Replacements(tokens[literals[li]].kind);
      const size_t stride = std::max<size_t>(1, reps.size() / per_literal);
      for (size_t r = li % stride; r < reps.size(); r += stride) replace({{literals[li], reps[r]}});
    }
    // All literals at once, each with its kind's r-th replacement.
    for (size_t r = 0; r < 8; ++r) {
      std::vector<std::pair<size_t, std::string>> with;
      for (size_t i : literals) {
        const std::vector<std::string>& reps = Replacements(tokens[i].kind);
        with.emplace_back(i, reps[(r * 5 + i) % reps.size()]);
      }
      replace(with);
    }
  }
  // Spacing and comments move every offset after them.
  std::string spaced;
  for (char c : expr) spaced += c == ' ' ? std::string(" \n\t ") : std::string(1, c);
  out.push_back(spaced);
  out.push_back("// leading comment\n  " + expr + "  // trailing");
  if (!literals.empty()) {
    const Token& t = tokens[literals[0]];
    std::string s = expr;
    s.replace(static_cast<size_t>(t.offset), static_cast<size_t>(t.length),
              Replacements(t.kind)[3 % Replacements(t.kind).size()]);
    out.push_back("  " + s);
  }
  return out;
}

std::vector<Token> LexOk(const std::string& text, bool* ok) {
  Diagnostics issues;
  std::vector<Token> tokens = Lex(text, issues);
  *ok = issues.empty();
  return tokens;
}

struct Tally {
  size_t selectors = 0;
  size_t mutations = 0;
  size_t instantiated = 0;  // built through a template and compared
};

// Compares, for every mutation of `expr`, the shape path with CompileSelector under each of
// the option sets.
// `all_options`: under each of three option sets; otherwise under the default options only.
void CheckSelector(const std::string& expr, Tally& tally, size_t limit = 40,
                   bool all_options = true) {
  static const std::vector<EnvOptions> kOptions = {
      EnvOptions{}, EnvOptions{.version = KubernetesVersion::k1_34},
      EnvOptions{.mode = EnvOptions::kStoredExpressions}};
  ++tally.selectors;
  const std::vector<std::string> mutations = Mutations(expr, limit);
  for (size_t o = 0; o < (all_options ? kOptions.size() : 1); ++o) {
    const EnvOptions& options = kOptions[o];
    bool ok = false;
    const std::vector<Token> tokens = LexOk(expr, &ok);
    if (!ok || expr.size() > kMaxSelectorExpressionBytes) continue;
    auto base = std::make_shared<const SelectorCompileResult>(CompileSelector(expr, options));
    std::shared_ptr<const SelectorShape> shape = SelectorShape::Make(base, tokens);
    std::string base_key;
    const bool shareable = AppendSelectorShape(expr, tokens, base_key);
    SelectorCache cache;
    cache.Compile(expr, options);
    for (const std::string& m : mutations) {
      ++tally.mutations;
      const SelectorCompileResult scratch = CompileSelector(m, options);
      const std::string want = Dump(scratch);
      // Through the cache: the template, or the fallback to a compile from scratch.
      EXPECT_EQ(Dump(*cache.Compile(m, options)), want) << "base: " << expr << "\ntext: " << m;
      bool m_ok = false;
      const std::vector<Token> m_tokens = LexOk(m, &m_ok);
      std::string key;
      if (shape == nullptr || !shareable || !m_ok || !AppendSelectorShape(m, m_tokens, key) ||
          key != base_key) {
        continue;
      }
      std::unique_ptr<SelectorCompileResult> built = shape->Instantiate(m, m_tokens, options);
      if (built == nullptr) {
        // Only where a compile from scratch reports something.
        EXPECT_FALSE(scratch.ok() && scratch.issues.empty()) << "base: " << expr << "\ntext: " << m;
        continue;
      }
      ++tally.instantiated;
      EXPECT_EQ(Dump(*built), want) << "base: " << expr << "\ntext: " << m;
    }
  }
}

// C++ string literals ("..." with escapes, R"(...)") holding `device.` in `path`.
std::vector<std::string> SelectorsInSource(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string src = ss.str();
  std::vector<std::string> out;
  for (size_t i = 0; i < src.size(); ++i) {
    std::string lit;
    if (src.compare(i, 3, "R\"(") == 0) {
      const size_t end = src.find(")\"", i + 3);
      if (end == std::string::npos) break;
      lit = src.substr(i + 3, end - i - 3);
      i = end + 1;
    } else if (src[i] == '"' && (i == 0 || src[i - 1] != '\'')) {
      size_t j = i + 1;
      for (; j < src.size() && src[j] != '"' && src[j] != '\n'; ++j) {
        if (src[j] == '\\' && j + 1 < src.size()) {
          ++j;
          const char c = src[j];
          lit += c == 'n' ? '\n' : c == 't' ? '\t' : c;
        } else {
          lit += src[j];
        }
      }
      i = j;
    } else {
      continue;
    }
    if (lit.find("device.") != std::string::npos) out.push_back(lit);
  }
  return out;
}

// The values of `expression:` keys in a YAML file (plain, quoted or block scalars; escapes
// are not undone: any text serves).
std::vector<std::string> SelectorsInYaml(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::vector<std::string> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    const size_t k = lines[i].find("expression:");
    if (k == std::string::npos) continue;
    std::string v = lines[i].substr(k + 11);
    v.erase(0, v.find_first_not_of(' '));
    if (v.empty()) continue;
    if (v[0] == '|' || v[0] == '>') {
      const size_t indent = lines[i].find_first_not_of(' ');
      std::string block;
      for (size_t j = i + 1; j < lines.size(); ++j) {
        const size_t ind = lines[j].find_first_not_of(' ');
        if (ind != std::string::npos && ind <= indent) break;
        block += (ind == std::string::npos ? "" : lines[j].substr(ind)) + "\n";
      }
      out.push_back(block);
    } else if ((v[0] == '"' || v[0] == '\'') && v.size() > 1 && v.back() == v[0]) {
      out.push_back(v.substr(1, v.size() - 2));
    } else {
      out.push_back(v);
    }
  }
  return out;
}

TEST(SelectorShapeTest, TableSelectors) {
  const std::vector<std::string> table = {
      R"(device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA A100") && device.attributes["gpu.nvidia.com"].productName != "x1764-12345")",
      R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0)",
      R"(device.driver.matches("^gpu\\.[a-z]+$") && device.driver.find("[0-9]+") != "")",
      R"(device.driver.findAll("x(") == [])",
      R"(duration("1h") > duration("30m") && timestamp("2024-01-01T00:00:00Z") < timestamp("2025-01-01T00:00:00Z"))",
      R"("%s-%d".format([device.driver, 1]) == "gpu-1")",
      R"("%d".format(["a"]) == device.driver)",
      R"(device.attributes["d"].v == -5 && device.attributes["d"].w == - 2.5 && device.attributes["d"].u == 3u)",
      R"(device.attributes["d"].v > -9223372036854775808)",
      R"({"a": 1, "b": 2}["a"] == 1 && device.driver in {"x": "y"})",
      R"(device.driver == (device.attributes["d"].flag == true ? "a" : "b"))",
      R"([1, 2, 3].exists(x, x == 2) && [4, 5].all(x, x > 3) && [6].exists_one(x, x == 6))",
      R"(device.attributes.exists(k, k == "gpu.nvidia.com") && size(device.driver) < 64)",
      R"(cel.bind(x, "abc", x + "def" == device.driver))",
      R"(device.driver.split(".").size() > 2 && device.driver.replace("a", "b") != "c")",
      R"(b"abc" == bytes(device.driver) && 1.5 < 2.0 && 0x10 == 16 && 16u == 0x10u)",
      R"(device.allowMultipleAllocations == true || device.driver.lowerAscii() == "gpu")",
      R"(optional.of("x").optMap(v, v + "y").orValue("") == device.driver)",
      R"(device.attributes["d"].?v.orValue(0) == 1 && [?optional.of(2)][0] == 2)",
      R"(semver("1.2.3").isGreaterThan(semver("1.0.0")) && isSemver("v1"))",
      R"(ip("10.0.0.1").family() == 4 && cidr("10.0.0.0/8").containsIP(ip("10.1.1.1")) && isURL("https://a"))",
      R"(url("https://x.y/z").getHost() == "x.y" && isQuantity("1Gi") && quantity("1Gi").isInteger())",
      R"(device.driver.size() + 1 == 5 && "x" + "y" == "xy" && device.driver.substring(1, 3) == "pu")",
      R"(device.driver.matches(r"^a+" + "b"))",
      R"(device.driver == "a" && device.driver == "a")",
      R"("abc" == "abc")",
      R"([1, 2].map(x, x * 2).filter(y, y > 2).size() == 1 && device.driver.contains("日本"))",
      R"(device.driver.endsWith('''x''') || device.driver.startsWith("""y"""))",
      R"(device.driver + "x" == device.driver + "y")",
  };
  Tally tally;
  for (const std::string& s : table) CheckSelector(s, tally, 80);
  // The test compares something: most mutations keep the shape and build.
  EXPECT_GT(tally.instantiated, tally.mutations / 6) << tally.mutations;
}

// The bench, test and corpus sets (~400 selectors) are compared under the default options
// with fewer mutations each: under every option set they took ~24 s of make test's ctest
// (ASan). The table above covers the other option sets and more mutations per selector.
constexpr size_t kSuiteMutations = 8;

TEST(SelectorShapeTest, BenchAndTestSelectors) {
  const fs::path src(DRAGUARD_SOURCE_DIR);
  std::set<std::string> selectors;
  for (const std::string& s : SelectorsInSource(src / "bench" / "cel_bench.cc")) selectors.insert(s);
  const size_t bench = selectors.size();
  ASSERT_GE(bench, 5u);
  for (const auto& entry : fs::directory_iterator(src / "tests" / "policy" / "cel")) {
    if (entry.path().extension() != ".cc") continue;
    for (const std::string& s : SelectorsInSource(entry.path())) selectors.insert(s);
  }
  Tally tally;
  for (const std::string& s : selectors) CheckSelector(s, tally, kSuiteMutations, /*all_options=*/false);
  EXPECT_GT(tally.instantiated, 100u);
  std::printf("bench and CEL test selectors: %zu (%zu from cel_bench), %zu mutations, %zu built\n",
              tally.selectors, bench, tally.mutations, tally.instantiated);
}

TEST(SelectorShapeTest, CorpusSelectors) {
  const fs::path root = fs::path(DRAGUARD_SHARED_DIR) / "corpus";
  if (!fs::exists(root)) GTEST_SKIP() << "no corpus at " << root.string() << ": not compared";
  std::set<std::string> selectors;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml")) continue;
    for (const std::string& s : SelectorsInYaml(entry.path())) selectors.insert(s);
  }
  ASSERT_FALSE(selectors.empty());
  Tally tally;
  for (const std::string& s : selectors) CheckSelector(s, tally, kSuiteMutations, /*all_options=*/false);
  std::printf("corpus selectors: %zu, %zu mutations, %zu built\n", tally.selectors,
              tally.mutations, tally.instantiated);
}

TEST(SelectorShapeTest, KeptLiteralsStayInTheShape) {
  auto key = [](std::string_view text) {
    Diagnostics issues;
    const std::vector<Token> tokens = Lex(text, issues);
    std::string k;
    AppendSelectorShape(text, tokens, k);
    return k;
  };
  // An index key, a map key and a field name are part of the shape; a compared value not.
  EXPECT_NE(key(R"(device.attributes["a"].x == "v")"), key(R"(device.attributes["b"].x == "v")"));
  EXPECT_NE(key(R"({"a": 1}["a"] == 1)"), key(R"({"b": 1}["a"] == 1)"));
  EXPECT_NE(key(R"(device.attributes["a"].x == "v")"), key(R"(device.attributes["a"].y == "v")"));
  EXPECT_EQ(key(R"(device.attributes["a"].x == "v")"), key(R"(device.attributes["a"].x == 'w w')"));
  EXPECT_NE(key(R"(device.attributes["a"].x == "v")"), key(R"(device.attributes["a"].x == b"v")"));
}

TEST(SelectorShapeTest, CacheBuildsFromTheShapeAndFallsBack) {
  SelectorCache cache;
  const EnvOptions options;
  cache.Compile(R"(device.driver.matches("^a+$"))", options);
  EXPECT_EQ(cache.shape_stats().hits, 0u);
  // Same shape: built from the template.
  auto built = cache.Compile(R"(device.driver.matches("^b+$"))", options);
  EXPECT_TRUE(built->ok());
  EXPECT_EQ(cache.shape_stats().hits, 1u);
  // Same shape, an invalid pattern: compiled from scratch, with the diagnostic.
  auto invalid = cache.Compile(R"(device.driver.matches("("))", options);
  EXPECT_FALSE(invalid->ok());
  EXPECT_EQ(invalid->issues.items()[0].code, "cel.invalid-literal");
  EXPECT_EQ(cache.shape_stats().hits, 2u);
}

}  // namespace
}  // namespace draguard::cel
