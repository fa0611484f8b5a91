// Table-driven checker tests: expression → result type, or → diagnostic code at an offset.
// Expected types and codes come from cel-go's checker (checker/checker.go, errors.go) in
// Kubernetes' environment (apiserver pkg/cel/environment/base.go, pkg/cel/library/).
#include "policy/cel/checker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "policy/cel/env.h"
#include "policy/cel/parser.h"
#include "tests/policy/cel/same_check.h"

namespace draguard::cel {
namespace {

constexpr EnvOptions kNew135{};
constexpr EnvOptions kNew134{.version = KubernetesVersion::k1_34};
constexpr EnvOptions kStored134{.version = KubernetesVersion::k1_34,
                                .mode = EnvOptions::kStoredExpressions};
constexpr EnvOptions kGateOn{.consumable_capacity_gate = true};

struct CheckCase {
  std::string name;
  std::string expr;
  EnvOptions env = kNew135;
  std::string type;        // expected result type when no code is given
  std::string code;        // expected first diagnostic code
  int offset = -1;         // expected value_offset of that diagnostic, when >= 0
};

class CheckerTest : public testing::TestWithParam<CheckCase> {};

TEST_P(CheckerTest, Runner) {
  const CheckCase& c = GetParam();
  ParseResult parsed = Parse(c.expr);
  ASSERT_TRUE(parsed.ok()) << c.expr;
  CheckResult r = Check(*parsed.ast, *Environment::ForDraSelector(c.env));
  if (c.code.empty()) {
    ASSERT_TRUE(r.ok()) << c.expr << ": " << r.issues.items().front().message;
    EXPECT_EQ(r.checked.result_type().DebugString(), c.type) << c.expr;
    return;
  }
  ASSERT_FALSE(r.ok()) << c.expr << " checked as " << r.checked.result_type().DebugString();
  EXPECT_EQ(r.issues.items().front().code, c.code) << r.issues.items().front().message;
  EXPECT_EQ(r.issues.items().front().field, "");
  if (c.offset >= 0) {
    EXPECT_EQ(r.issues.items().front().value_offset, c.offset);
  }
}

INSTANTIATE_TEST_SUITE_P(
    DraDeclarations, CheckerTest,
    testing::Values(
        CheckCase{.name = "Driver", .expr = "device.driver == 'a'", .type = "bool"},
        CheckCase{.name = "Attributes",
                  .expr = "device.attributes",
                  .type = "map(string, map(string, google.protobuf.Any))"},
        CheckCase{.name = "AttributeValueIsAny",
                  .expr = "device.attributes['d'].model",
                  .type = "google.protobuf.Any"},
        CheckCase{.name = "SelectThroughAnyIsDyn",
                  .expr = "device.attributes['d'].a.b",
                  .type = "dyn"},
        CheckCase{.name = "CapacityIsQuantity",
                  .expr = "device.capacity['d'].mem",
                  .type = "kubernetes.Quantity"},
        // The network libraries' type identifiers, resolved from the select itself.
        CheckCase{.name = "NetIpTypeIdentifier", .expr = "net.IP", .type = "type(net.IP)"},
        CheckCase{.name = "NetCidrTypeIdentifier", .expr = "net.CIDR", .type = "type(net.CIDR)"},
        CheckCase{.name = "NetOtherFieldIsUndeclared",
                  .expr = "net.Address",
                  .code = "cel.undeclared-reference",
                  .offset = 0},
        CheckCase{.name = "NetIpPresenceTestIsNotAType",
                  .expr = "has(net.IP)",
                  .code = "cel.undeclared-reference"},
        CheckCase{.name = "UndeclaredVariable",
                  .expr = "devce.driver == 'a'",
                  .code = "cel.undeclared-reference",
                  .offset = 0},
        CheckCase{.name = "UndefinedField",
                  .expr = "device.name == 'a'",
                  .code = "cel.undefined-field",
                  .offset = 6},
        CheckCase{.name = "GateOffHidesAllowMultipleAllocations",
                  .expr = "device.allowMultipleAllocations",
                  .code = "cel.undefined-field"},
        CheckCase{.name = "GateOnDeclaresAllowMultipleAllocations",
                  .expr = "device.allowMultipleAllocations",
                  .env = kGateOn,
                  .type = "bool"},
        CheckCase{.name = "StoredIgnoresGate",
                  .expr = "device.allowMultipleAllocations",
                  .env = kStored134,
                  .type = "bool"},
        CheckCase{.name = "FieldSelectionOnString",
                  .expr = "device.driver.x == 'a'",
                  .code = "cel.field-selection"}),
    [](const auto& p) { return p.param.name; });

INSTANTIATE_TEST_SUITE_P(
    Quirks, CheckerTest,
    testing::Values(
        CheckCase{.name = "MixedListLiteral",
                  .expr = "[1, 'a']",
                  .code = "cel.type-mismatch",
                  .offset = 4},
        CheckCase{.name = "MixedMapValues",
                  .expr = "{'a': 1, 'b': 'x'}",
                  .code = "cel.type-mismatch"},
        CheckCase{.name = "DynElementJoins", .expr = "[1, dyn('a')]", .type = "list(dyn)"},
        CheckCase{.name = "IntEqualsUintLiteral",
                  .expr = "1 == 1u",
                  .code = "cel.no-matching-overload"},
        CheckCase{.name = "CrossTypeOrdering", .expr = "1 < 1u && 2.0 > 1", .type = "bool"},
        CheckCase{.name = "MixedArithmetic",
                  .expr = "1 + 1.0 > 0.0",
                  .code = "cel.no-matching-overload"},
        CheckCase{.name = "AttributeEqualsUint",
                  .expr = "device.attributes['d'].x == 132u",
                  .type = "bool"},
        CheckCase{.name = "AttributeNotNull",
                  .expr = "device.attributes['d'].x != null",
                  .type = "bool"},
        CheckCase{.name = "StringIsNotNullable",
                  .expr = "device.driver == null",
                  .code = "cel.no-matching-overload"},
        CheckCase{.name = "AnyArithmeticIsDouble",
                  .expr = "device.attributes['d'].x * 1.5",
                  .type = "double"},
        CheckCase{.name = "NoQuantityOrdering",
                  .expr = "quantity('1') < quantity('2')",
                  .code = "cel.no-matching-overload"},
        CheckCase{.name = "NoSemverOrdering",
                  .expr = "semver('1.0.0') > semver('0.1.0')",
                  .code = "cel.no-matching-overload"},
        CheckCase{.name = "QuantityEqualsString",
                  .expr = "quantity('1') == '1'",
                  .code = "cel.no-matching-overload"},
        CheckCase{.name = "SignIsGlobalOnly",
                  .expr = "device.capacity['d'].mem.sign() == 1",
                  .code = "cel.no-matching-overload"},
        CheckCase{.name = "SignGlobal", .expr = "sign(quantity('1'))", .type = "int"},
        CheckCase{.name = "QuantityWrongArgument",
                  .expr = "device.capacity['d'].mem.isGreaterThan('1Gi')",
                  .code = "cel.no-matching-overload"},
        CheckCase{.name = "AnyReceiverResolvesAgainstAll",
                  .expr = "device.attributes['d'].v.isGreaterThan(semver('1.0.0'))",
                  .type = "bool"},
        CheckCase{.name = "AnyIsNotAComprehensionRange",
                  .expr = "device.attributes['d'].v.exists(x, x == 1)",
                  .code = "cel.comprehension-range"},
        CheckCase{.name = "InvalidRegexLiteral",
                  .expr = "'abc'.matches('[')",
                  .code = "cel.invalid-literal",
                  .offset = 14},
        CheckCase{.name = "InvalidDurationLiteral",
                  .expr = "duration('1x') > duration('1s')",
                  .code = "cel.invalid-literal",
                  .offset = 9},
        CheckCase{.name = "InvalidTimestampLiteral",
                  .expr = "timestamp('2024-13-01T00:00:00Z') < timestamp(0)",
                  .code = "cel.invalid-literal"},
        CheckCase{.name = "ValidTimeLiterals",
                  .expr = "timestamp('2024-01-01T00:00:00.5+01:00') + duration('1h30m') > "
                          "timestamp('2024-01-01T00:00:00Z')",
                  .type = "bool"},
        CheckCase{.name = "ConditionalNeedsBool",
                  .expr = "1 ? true : false",
                  .code = "cel.no-matching-overload"}),
    [](const auto& p) { return p.param.name; });

INSTANTIATE_TEST_SUITE_P(
    Libraries, CheckerTest,
    testing::Values(
        CheckCase{.name = "Size", .expr = "size('a') + 'b'.size()", .type = "int"},
        CheckCase{.name = "TypeDenotation", .expr = "type(1) == int", .type = "bool"},
        CheckCase{.name = "SetsContains", .expr = "sets.contains([1], [2])", .type = "bool"},
        CheckCase{.name = "SetsMixed",
                  .expr = "sets.intersects([1], ['a'])",
                  .code = "cel.no-matching-overload"},
        CheckCase{.name = "OptionalOf", .expr = "optional.of(1)", .type = "optional_type(int)"},
        CheckCase{.name = "OptionalIsLegacyNullable",
                  .expr = "optional.of(1) != null",
                  .type = "bool"},
        CheckCase{.name = "OptionalTypeDenotation",
                  .expr = "type(optional.none()) == optional_type",
                  .type = "bool"},
        CheckCase{.name = "FormatNamed",
                  .expr = "format.named('uuid')",
                  .type = "optional_type(kubernetes.NamedFormat)"},
        CheckCase{.name = "FormatValidateNeedsFormat",
                  .expr = "'uuid'.validate('a')",
                  .code = "cel.no-matching-overload"},
        CheckCase{.name = "OptionalSelect",
                  .expr = "device.attributes['d'].?ecc.orValue(false)",
                  .type = "google.protobuf.Any"},
        CheckCase{.name = "OptionalIndex",
                  .expr = "device.attributes[?'d'].hasValue()",
                  .type = "bool"},
        CheckCase{.name = "StringsQuote", .expr = "strings.quote('a')", .type = "string"},
        CheckCase{.name = "StringsExt",
                  .expr = "'a,b'.split(',').join('-').lowerAscii().charAt(0)",
                  .type = "string"},
        CheckCase{.name = "StringIndexOf", .expr = "'abc'.indexOf('b', 1)", .type = "int"},
        CheckCase{.name = "StringFormat", .expr = "'%s'.format(['a'])", .type = "string"},
        CheckCase{.name = "RegexFindAll", .expr = "'abc'.findAll('b', 1)", .type = "list(string)"},
        CheckCase{.name = "KubernetesLists",
                  .expr = "[1, 2].sum() + [1].indexOf(1) + [3].min()",
                  .type = "int"},
        CheckCase{.name = "ListsRange135", .expr = "lists.range(3)", .type = "list(int)"},
        CheckCase{.name = "ListsRange134New",
                  .expr = "lists.range(3)",
                  .env = kNew134,
                  .code = "cel.undeclared-reference"},
        CheckCase{.name = "ListsSort134New",
                  .expr = "[3, 1].sort()",
                  .env = kNew134,
                  .code = "cel.undeclared-reference"},
        CheckCase{.name = "ListsSort134Stored",
                  .expr = "[3, 1].sort()",
                  .env = kStored134,
                  .type = "list(int)"},
        CheckCase{.name = "SemverNormalize",
                  .expr = "semver('v1.0', true).major()",
                  .type = "int"},
        CheckCase{.name = "IsCanonical", .expr = "ip.isCanonical('1.2.3.4')", .type = "bool"},
        CheckCase{.name = "IpFamily", .expr = "ip('1.2.3.4').family()", .type = "int"},
        CheckCase{.name = "CidrContains",
                  .expr = "cidr('10.0.0.0/8').containsIP(ip('10.0.0.1'))",
                  .type = "bool"},
        CheckCase{.name = "UrlQuery",
                  .expr = "url('https://a/b').getQuery()",
                  .type = "map(string, list(string))"},
        CheckCase{.name = "FormatValidate",
                  .expr = "format.dns1123Label().validate('a')",
                  .type = "optional_type(list(string))"},
        CheckCase{.name = "MapMacro", .expr = "[1, 2].map(x, x * 2)", .type = "list(int)"},
        CheckCase{.name = "ExistsOverDomains",
                  .expr = "device.attributes.exists(d, d.startsWith('x'))",
                  .type = "bool"},
        CheckCase{.name = "ComprehensionScope",
                  .expr = "[1].all(x, x > 0) && x > 0",
                  .code = "cel.undeclared-reference"},
        CheckCase{.name = "TwoVariable",
                  .expr = "{'a': 1}.transformMap(k, v, v + 1)",
                  .type = "map(string, int)"},
        CheckCase{.name = "Bind",
                  .expr = "cel.bind(d, device.attributes['x'], d.a && d.b)",
                  .type = "bool"},
        CheckCase{.name = "NoMathExtension",
                  .expr = "math.greatest(1, 2)",
                  .code = "cel.undeclared-reference"}),
    [](const auto& p) { return p.param.name; });

TEST(CheckerTest, NoMatchingOverloadMessageUsesCelGoSignature) {
  // The signature format is cel-go's (checker/errors.go `noMatchingOverload`: receiver calls
  // print as `T.(args)`).
  ParseResult parsed = Parse("device.capacity['d'].m.isGreaterThan('1')");
  ASSERT_TRUE(parsed.ok());
  CheckResult r = Check(*parsed.ast, *Environment::ForDraSelector({}));
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues.items()[0].message,
            "found no matching overload for 'isGreaterThan' applied to "
            "'kubernetes.Quantity.(string)'");
}

TEST(CheckerTest, RecordsReferences) {
  ParseResult parsed = Parse("sets.contains([1], [device.attributes['d'].x])");
  ASSERT_TRUE(parsed.ok());
  CheckResult r = Check(*parsed.ast, *Environment::ForDraSelector({}));
  ASSERT_TRUE(r.ok());
  const Reference* ref = r.checked.ReferenceOf(parsed.ast->root().id);
  ASSERT_NE(ref, nullptr);
  EXPECT_EQ(ref->name, "sets.contains");
  EXPECT_TRUE(ref->target_is_namespace);
  ASSERT_EQ(ref->overload_ids.size(), 1u);
  EXPECT_EQ(ref->overload_ids[0], "list_sets_contains_list");
}

// The fast fit of overloads to concrete argument types against the general path (fresh type
// variables for every candidate): same issues and messages, types and references per node.
// The conformance suite runs the same comparison on every one of its cases.
TEST(CheckerTest, ConcreteOverloadFitMatchesGeneralPath) {
  const std::string kExprs[] = {
      "device.attributes['d'].model == 'a' && device.attributes['d'].v != 'x'",
      "device.capacity['d'].memory.compareTo(quantity('40Gi')) >= 0",
      "device.attributes['d'].productName.startsWith('NVIDIA')",
      "device.attributes['d']['x'] in ['a', 'b']",
      "[1, 2][0] + 1 == 3 && {'a': 1}['a'] > 0",
      "[] == [] && {} == {} && [1] + [] == [1]",
      "size([]) == 0 && [].all(x, x > 0) && [[]][0] == []",
      "dyn([1])[0] == 1 && type(1) == int",
      "[1, 'a'] == [1]",
      "1 == 'a'",
      "[].map(x, x + 1)[0] == 'a'",
      "optional.of(1).orValue(2) == 2 && optional.none().hasValue()",
      "device.attributes['d'].?x.orValue('') == ''",
      "sets.contains([1], [device.attributes['d'].x])",
      "[1, 2].exists(x, x == 'a')",
      "{'a': [1]}['a'].filter(x, x > 1).size() == 1",
      "device.capacity['d'].memory.isGreaterThan('1')",
      "semver('1.0.0').isLessThan(semver('2.0.0')) ? 1 : 'a'",
      "(true ? [] : [1])[0] == 1",
      "device.attributes.exists_one(k, v, k == 'd')",
      "size(1) == [][0]",
      // The result keeps the overload's parameter (optional(T)): each call needs its own
      // fresh variable, or the second comparison sees T bound to int by the first.
      "optional.none() == optional.of(1) && optional.none() == optional.of('a')",
  };
  for (const std::string& expr : kExprs) {
    ParseResult parsed = Parse(expr);
    ASSERT_TRUE(parsed.ok()) << expr;
    const auto env = Environment::ForDraSelector({});
    CheckResult fast = Check(*parsed.ast, *env);
    CheckResult general = Check(*parsed.ast, *env, CheckerOptions{.fit_concrete_overloads = false});
    EXPECT_EQ(CheckDifference(fast, general, parsed.ast->max_id()), "") << expr;
  }
}

// Overload ids are views of interned text: two inline, more spill to a vector; copies and
// moves keep every id, and a moved-from list is empty.
TEST(CheckerTest, OverloadIdsKeepEveryIdAcrossCopiesAndMoves) {
  const std::vector<std::string> texts = {"a_id", "b_id", "c_id", "d_id"};
  for (size_t n = 0; n <= texts.size(); ++n) {
    OverloadIds ids;
    for (size_t i = 0; i < n; ++i) ids.push_back(InternOverloadId(texts[i]));
    ASSERT_EQ(ids.size(), n);
    const OverloadIds copy = ids;
    OverloadIds assigned;
    assigned.push_back("x");
    assigned = copy;
    OverloadIds moved = std::move(ids);
    EXPECT_TRUE(ids.empty());  // NOLINT(bugprone-use-after-move): the contract says so
    for (const OverloadIds* list : {&copy, static_cast<const OverloadIds*>(&assigned),
                                    static_cast<const OverloadIds*>(&moved)}) {
      ASSERT_EQ(list->size(), n);
      size_t i = 0;
      for (std::string_view id : *list) EXPECT_EQ(id, texts[i++]) << n;
      EXPECT_TRUE(*list == copy);
    }
  }
}

TEST(CheckerTest, InternOverloadIdGivesOneLastingViewPerText) {
  std::string text = "my_overload_id_longer_than_small_strings";
  const std::string_view first = InternOverloadId(text);
  text.assign(text.size(), '?');  // the caller's text may change or go
  EXPECT_EQ(first, "my_overload_id_longer_than_small_strings");
  EXPECT_EQ(InternOverloadId("my_overload_id_longer_than_small_strings").data(), first.data());
  EXPECT_NE(InternOverloadId("another_id").data(), first.data());
}

// The checker records the environment's interned id (the same view EnvironmentBuilder set).
TEST(CheckerTest, ReferencesHoldInternedOverloadIds) {
  ParseResult parsed = Parse("device.driver.startsWith('gpu') && device.driver != 'x'");
  ASSERT_TRUE(parsed.ok());
  CheckResult r = Check(*parsed.ast, *Environment::ForDraSelector({}));
  ASSERT_TRUE(r.ok());
  const Reference* ref = r.checked.ReferenceOf(parsed.ast->root().id);
  ASSERT_NE(ref, nullptr);
  ASSERT_EQ(ref->overload_ids.size(), 1u);
  EXPECT_EQ(ref->overload_ids[0], "logical_and");
  EXPECT_EQ(ref->overload_ids[0].data(), InternOverloadId("logical_and").data());

  // dyn arguments fit several overloads: more ids than the inline two, all kept.
  ParseResult dyn = Parse("dyn(1) + dyn(2) == 3");
  ASSERT_TRUE(dyn.ok());
  CheckResult d = Check(*dyn.ast, *Environment::ForDraSelector({}));
  ASSERT_TRUE(d.ok());
  const CallExpr* eq = dyn.ast->root().as_call();
  ASSERT_NE(eq, nullptr);
  const Reference* add = d.checked.ReferenceOf(eq->args[0]->id);
  ASSERT_NE(add, nullptr);
  EXPECT_GT(add->overload_ids.size(), 2u);
  EXPECT_EQ(add->overload_ids[0], "add_int64");
  EXPECT_NE(std::find(add->overload_ids.begin(), add->overload_ids.end(), "add_string"),
            add->overload_ids.end());
}

TEST(CheckerTest, NodeLimit) {
  ParseResult parsed = Parse("1 + 2 + 3");
  ASSERT_TRUE(parsed.ok());
  CheckResult r = Check(*parsed.ast, *Environment::ForDraSelector({}),
                        CheckerOptions{.max_expression_node_count = 3});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.issues.items()[0].code, "cel.too-many-nodes");
}

// The checker counts nodes only when Ast::max_id() exceeds the limit; max_id is a bound, not
// the count (a map entry takes an id but is no node), so the walk still decides.
TEST(CheckerTest, NodeLimitCountsNodesNotIds) {
  struct Case {
    std::string expr;
    int limit;
    bool too_many;
  };
  const Case kCases[] = {
      {"{1: 2}[1] == 2", 7, false},  // 8 ids, 7 nodes
      {"{1: 2}[1] == 2", 6, true},
      {"{1: 2, 3: 4}.size() == 2", 8, false},  // 10 ids, 8 nodes
      {"{1: 2, 3: 4}.size() == 2", 7, true},
      {"1 + 2 + 3", 5, false},
  };
  for (const Case& c : kCases) {
    ParseResult parsed = Parse(c.expr);
    ASSERT_TRUE(parsed.ok()) << c.expr;
    CheckResult r = Check(*parsed.ast, *Environment::ForDraSelector({}),
                          CheckerOptions{.max_expression_node_count = c.limit});
    const bool reported = !r.issues.empty() && r.issues.items()[0].code == "cel.too-many-nodes";
    EXPECT_EQ(reported, c.too_many) << c.expr << " limit " << c.limit;
  }
}

}  // namespace
}  // namespace draguard::cel
