// The API server's selector compile order and verdicts (validation.go `validateCELSelector`,
// dynamic-resource-allocation cel/compile.go `CompileCELExpression`).
#include "policy/cel/compiler.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace draguard::cel {
namespace {

struct CompileCase {
  std::string name;
  std::string expr;
  std::string code;  // empty: accepted
  EnvOptions env = {};
};

class CompileSelectorTest : public testing::TestWithParam<CompileCase> {};

TEST_P(CompileSelectorTest, Runner) {
  const CompileCase& c = GetParam();
  SelectorCompileResult r = CompileSelector(c.expr, c.env);
  if (c.code.empty()) {
    EXPECT_TRUE(r.ok()) << (r.issues.empty() ? "" : r.issues.items()[0].message);
    return;
  }
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.issues.items()[0].code, c.code) << r.issues.items()[0].message;
}

INSTANTIATE_TEST_SUITE_P(
    ApiServer, CompileSelectorTest,
    testing::Values(
        CompileCase{"Bool", "device.driver == 'gpu.example.com'", ""},
        CompileCase{"AnyResultAccepted", "device.attributes['d'].flag", ""},
        CompileCase{"DynResultRejected", "device.attributes['d'].a.b", "cel.result-type"},
        CompileCase{"IntResultRejected", "size(device.driver)", "cel.result-type"},
        CompileCase{"SyntaxError", "device.driver ==", "cel.syntax-error"},
        CompileCase{"CheckError", "device.name == 'x'", "cel.undefined-field"},
        CompileCase{"ListsV3New134", "[2, 1].sort() == [1, 2]", "cel.undeclared-reference",
                    EnvOptions{.version = KubernetesVersion::k1_34}},
        CompileCase{"ListsV3New135", "[2, 1].sort() == [1, 2]", ""},
        CompileCase{"BadConstantFindPattern", "device.driver.find('(') == ''",
                    "cel.program-instantiation"},
        CompileCase{"BadConstantMatchesPattern", "device.driver.matches('(')", "cel.invalid-literal"},
        CompileCase{"DynamicFindPattern", "device.driver.find(device.driver) == ''", ""},
        CompileCase{"FormatMixedList", "'%s=%d'.format(['a', 1]) == device.driver", ""},
        CompileCase{"FormatBadClause", "'%d'.format(['a']) == device.driver", "cel.invalid-format"},
        CompileCase{"FormatValidate",
                    "!format.dns1123Label().validate(device.driver).hasValue()", ""},
        CompileCase{"TooLong", std::string(10241, ' ') + "true", "cel.expression-too-long"},
        CompileCase{"LongestAccepted", std::string(10236, ' ') + "true", ""}),
    [](const auto& p) { return p.param.name; });

TEST(CompileSelectorTest, CompileErrorsCarryApiServerPrefixAndNodeOffset) {
  SelectorCompileResult r = CompileSelector("device.name == 'x'", EnvOptions{});
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues.items()[0].value_offset, 6);
  // The detail starts as the API server's does (`CompileCELExpression`); the cel-go caret block is
  // replaced by the diagnostic's own position inside the expression.
  EXPECT_EQ(r.issues.items()[0].message, "compilation failed: undefined field 'name'");
}

TEST(CompileSelectorTest, ProgramInstantiationFailuresAreNotCompileErrors) {
  SelectorCompileResult r = CompileSelector("device.driver.findAll('[') == []", EnvOptions{});
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues.items()[0].value_offset, 22);
  EXPECT_EQ(r.issues.items()[0].message,
            "program instantiation failed: error parsing regexp: missing closing ]: `[`");
}

TEST(SelectorCacheTest, ReturnsSharedResultsPerOptions) {
  SelectorCache cache({.max_entries = 2, .max_bytes = 1 << 20});
  auto a = cache.Compile("device.driver == 'a'", EnvOptions{});
  auto b = cache.Compile("device.driver == 'a'", EnvOptions{});
  EXPECT_EQ(a.get(), b.get());
  auto c = cache.Compile("device.driver == 'a'",
                         EnvOptions{.mode = EnvOptions::kStoredExpressions});
  EXPECT_NE(a.get(), c.get());
  EXPECT_EQ(cache.size(), 2u);
  cache.Compile("true", EnvOptions{});
  EXPECT_EQ(cache.size(), 2u);  // evicted the least recently used
  EXPECT_TRUE(a->ok());          // evicted results stay valid
}

// Find looks without compiling and without counting (the allocator's program cache looks
// into the admission checks' cache this way, issue 16).
TEST(SelectorCacheTest, FindNeitherCompilesNorCounts) {
  SelectorCache cache;
  EXPECT_EQ(cache.Find("device.driver == 'a'", EnvOptions{}), nullptr);
  auto compiled = cache.Compile("device.driver == 'a'", EnvOptions{});
  EXPECT_EQ(cache.Find("device.driver == 'a'", EnvOptions{}).get(), compiled.get());
  EXPECT_EQ(cache.Find("device.driver == 'a'",
                       EnvOptions{.mode = EnvOptions::kStoredExpressions}),
            nullptr);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.stats().misses, 1u);
  EXPECT_EQ(cache.stats().hits, 0u);
}

// With sightings (the webhook's), a compile is kept from its second lookup: a first one's
// result is the caller's, found again only by its thread (Find: the satisfiability check's
// planning in the same request) among its last kThreadRecent first sights; a stream of
// selectors seen once leaves the cache as it was. Without, kept from the first (above).
TEST(SelectorCacheTest, WithSightingsKeptFromTheSecondLookup) {
  SelectorCache cache(SelectorCache::kDefaultLimits, SelectorCache::kShapeLimits, 64);
  const std::string text = "device.driver == 'a'";
  auto first = cache.Compile(text, EnvOptions{});
  ASSERT_TRUE(first->ok());
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.Find(text, EnvOptions{}).get(), first.get()) << "this thread's";
  std::shared_ptr<const SelectorCompileResult> elsewhere = first;
  std::thread([&] { elsewhere = cache.Find(text, EnvOptions{}); }).join();
  EXPECT_EQ(elsewhere, nullptr) << "another thread's";
  auto second = cache.Compile(text, EnvOptions{});
  EXPECT_EQ(second.get(), first.get()) << "not compiled again";
  EXPECT_EQ(cache.size(), 1u);
  std::thread([&] { elsewhere = cache.Find(text, EnvOptions{}); }).join();
  EXPECT_EQ(elsewhere.get(), first.get()) << "kept: every thread's";

  for (int i = 0; i < 20; ++i) {
    const std::string once = "device.driver == 'once-" + std::to_string(i) + "'";
    EXPECT_TRUE(cache.Compile(once, EnvOptions{})->ok());
  }
  EXPECT_EQ(cache.size(), 1u) << "selectors seen once are not kept";
  // Only the last kThreadRecent of them are found again without a compile.
  EXPECT_EQ(cache.Find("device.driver == 'once-0'", EnvOptions{}), nullptr);
  EXPECT_NE(cache.Find("device.driver == 'once-19'", EnvOptions{}), nullptr);
}

// A later stage takes what an earlier one compiled, in order and by content (validation
// compiles a defaulted copy of the spec); out of step or under other options it gets null
// and looks the text up in the SelectorCache.
TEST(CompiledSelectorsTest, HandsOnResultsInOrderByText) {
  SelectorCache cache;
  const EnvOptions env;
  const EnvOptions stored{.mode = EnvOptions::kStoredExpressions};
  CompiledSelectors compiled;
  const auto a = cache.Compile("device.driver == 'a'", env);
  const auto b = cache.Compile("device.driver == 'b'", env);
  const auto broken = cache.Compile("device.driver ==", env);
  compiled.Remember(env, a);
  compiled.Remember(env, broken);  // not kept: no parsed expression to hand on
  compiled.Remember(env, b);
  EXPECT_EQ(compiled.Next("device.driver == 'b'", env), nullptr);  // out of step
  EXPECT_EQ(compiled.Next("device.driver == 'a'", stored), nullptr);  // other options
  const std::string copy = "device.driver == 'a'";  // another string with the same text
  EXPECT_EQ(compiled.Next(copy, env).get(), a.get());
  EXPECT_EQ(compiled.Next("a class's selector", env), nullptr);  // the cursor stays
  EXPECT_EQ(compiled.Next("device.driver == 'b'", env).get(), b.get());
  EXPECT_EQ(compiled.Next("device.driver == 'b'", env), nullptr);  // each handed on once
}

// Issue 17 item 0: the cache holds its byte limit whatever the texts (a 10 KB selector's
// result holds hundreds of KB, so an entry limit alone let 4,096 of them take gigabytes).
TEST(SelectorCacheTest, LongSelectorsStayWithinTheByteLimit) {
  SelectorCache cache({.max_entries = 4096, .max_bytes = 2 << 20});
  for (int i = 0; i < 60; ++i) {
    std::string expression = "device.driver == 'x" + std::to_string(i) + "'";
    for (int j = 0; j < 200; ++j) expression += " || device.driver == 'y" + std::to_string(j) + "'";
    EXPECT_TRUE(cache.Compile(expression, EnvOptions{})->ok());
    const CacheStats stats = cache.stats();
    ASSERT_LE(stats.bytes, stats.limits.max_bytes) << "after " << i;
  }
  EXPECT_GT(cache.stats().evictions, 0u);
  EXPECT_LT(cache.size(), 60u);
}

TEST(SelectorCacheTest, ConcurrentCompiles) {
  SelectorCache cache;
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&cache] {
      for (int j = 0; j < 20; ++j) {
        auto r = cache.Compile("device.attributes['d'].n > " + std::to_string(j % 5), {});
        EXPECT_TRUE(r->ok());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(cache.size(), 5u);
}

}  // namespace
}  // namespace draguard::cel
