// cel-spec conformance: runs the upstream "simple" test files (DRAGUARD_SHARED_DIR/
// conformance/cel-spec) against a standard-CEL environment plus the extensions Kubernetes
// enables. One CTest test per file. A test listed in conformance_skips.txt (with its
// reason) is not required to pass; every other failure fails the file's test.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "policy/cel/checker.h"
#include "policy/cel/env.h"
#include "policy/cel/functions/registry.h"
#include "policy/cel/parser.h"
#include "policy/cel/program.h"
#include "tests/policy/cel/conformance/textproto.h"
#include "tests/policy/cel/same_check.h"

namespace draguard::cel::conformance {
namespace {

namespace fs = std::filesystem;

// The files relevant to standard CEL without protobuf messages (issue item 8). The other
// upstream files (proto2, proto3, enums, wrappers, math_ext, encoders_ext, block_ext,
// unknowns) test protobuf or extensions Kubernetes does not enable and are not run.
constexpr const char* kFiles[] = {
    "basic",     "comparisons", "conversions", "dynamic",      "fp_math",
    "integer_math", "lists",    "logic",       "macros",       "macros2",
    "namespace", "optionals",   "parse",       "plumbing",     "string",
    "string_ext", "bindings_ext", "timestamps", "type_deduction", "network_ext",
};

fs::path SpecDir() { return fs::path(DRAGUARD_SHARED_DIR) / "conformance" / "cel-spec"; }

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "file/section/test" -> reason.
std::map<std::string, std::string> LoadSkips() {
  std::map<std::string, std::string> skips;
  std::ifstream in(DRAGUARD_CEL_CONFORMANCE_SKIPS);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    // "<file>/<section>/<test> | <reason>"; test names may contain spaces.
    size_t bar = line.find(" | ");
    std::string id = line.substr(0, bar);
    std::string reason = bar == std::string::npos ? "" : line.substr(bar + 3);
    skips[id] = reason;
  }
  return skips;
}

// ---- types -------------------------------------------------------------------------

StatusOr<Type> TypeFromText(const TextMessage& t);

StatusOr<Type> ParamType(const TextMessage& t, std::string_view field) {
  const TextMessage* m = t.Message(field);
  if (m == nullptr) return InvalidArgumentError("missing " + std::string(field));
  return TypeFromText(*m);
}

StatusOr<Type> PrimitiveType(const std::string& name) {
  static const std::map<std::string, Type, std::less<>> kPrimitives = {
      {"BOOL", Type::Bool()},     {"INT64", Type::Int()},   {"UINT64", Type::Uint()},
      {"DOUBLE", Type::Double()}, {"STRING", Type::String()}, {"BYTES", Type::Bytes()}};
  auto it = kPrimitives.find(name);
  if (it == kPrimitives.end()) return InvalidArgumentError("primitive " + name);
  return it->second;
}

StatusOr<Type> TypeFromText(const TextMessage& t) {
  if (t.Has("primitive")) return PrimitiveType(t.Scalar("primitive"));
  if (t.Has("dyn")) return Type::Dyn();
  if (t.Has("null")) return Type::Null();
  if (t.Has("error")) return Type::Error();
  if (t.Has("type_param")) return Type::Param(t.Scalar("type_param"));
  if (t.Has("well_known")) {
    std::string wk = t.Scalar("well_known");
    if (wk == "TIMESTAMP") return Type::Timestamp();
    if (wk == "DURATION") return Type::Duration();
    if (wk == "ANY") return Type::Any();
    return InvalidArgumentError("well_known " + wk);
  }
  if (const TextMessage* l = t.Message("list_type")) {
    StatusOr<Type> elem = ParamType(*l, "elem_type");
    if (!elem.ok()) return elem.status();
    return Type::List(*elem);
  }
  if (const TextMessage* m = t.Message("map_type")) {
    StatusOr<Type> key = ParamType(*m, "key_type");
    StatusOr<Type> value = ParamType(*m, "value_type");
    if (!key.ok()) return key.status();
    if (!value.ok()) return value.status();
    return Type::Map(*key, *value);
  }
  if (const TextMessage* inner = t.Message("type")) {
    if (inner->fields.empty()) return Type::TypeType();
    StatusOr<Type> of = TypeFromText(*inner);
    if (!of.ok()) return of.status();
    return Type::TypeOf(*of);
  }
  if (const TextMessage* a = t.Message("abstract_type")) {
    std::vector<Type> params;
    for (const TextMessage* p : a->Messages("parameter_types")) {
      StatusOr<Type> pt = TypeFromText(*p);
      if (!pt.ok()) return pt.status();
      params.push_back(*pt);
    }
    if (a->Scalar("name") == "optional_type" && params.size() == 1) {
      return Type::Optional(params[0]);
    }
    return Type::Opaque(a->Scalar("name"), std::move(params));
  }
  // message_type, wrapper, enum: protobuf types.
  return InvalidArgumentError("unsupported type (protobuf)");
}

// ---- values ------------------------------------------------------------------------

template <typename T>
StatusOr<T> ParseInteger(const std::string& text) {
  T v{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return InvalidArgumentError("bad integer " + text);
  }
  return v;
}

StatusOr<Value> ValueFromText(const TextMessage& v) {
  if (v.Has("int64_value")) {
    StatusOr<int64_t> i = ParseInteger<int64_t>(v.Scalar("int64_value"));
    if (!i.ok()) return i.status();
    return Value::Int(*i);
  }
  if (v.Has("uint64_value")) {
    StatusOr<uint64_t> u = ParseInteger<uint64_t>(v.Scalar("uint64_value"));
    if (!u.ok()) return u.status();
    return Value::Uint(*u);
  }
  if (v.Has("double_value")) return Value::Double(std::strtod(v.Scalar("double_value").c_str(), nullptr));
  if (v.Has("string_value")) return Value::String(v.Scalar("string_value"));
  if (v.Has("bytes_value")) return Value::Bytes(v.Scalar("bytes_value"));
  if (v.Has("bool_value")) return Value::Bool(v.Scalar("bool_value") == "true");
  if (v.Has("null_value")) return Value::Null();
  if (v.Has("type_value")) {
    // Value::Type wants static text; intern the (few) names the files use.
    static auto* names = new std::map<std::string, std::string, std::less<>>();
    std::string name = v.Scalar("type_value");
    auto [it, inserted] = names->emplace(name, name);
    return Value::Type(it->second);
  }
  if (const TextMessage* l = v.Message("list_value")) {
    auto list = std::make_shared<ListData>();
    for (const TextMessage* e : l->Messages("values")) {
      StatusOr<Value> ev = ValueFromText(*e);
      if (!ev.ok()) return ev.status();
      list->elements.push_back(*ev);
    }
    return Value::List(std::move(list));
  }
  if (const TextMessage* m = v.Message("map_value")) {
    auto map = std::make_shared<MapData>();
    for (const TextMessage* e : m->Messages("entries")) {
      const TextMessage* key = e->Message("key");
      const TextMessage* value = e->Message("value");
      if (key == nullptr || value == nullptr) return InvalidArgumentError("bad map entry");
      StatusOr<Value> kv = ValueFromText(*key);
      StatusOr<Value> vv = ValueFromText(*value);
      if (!kv.ok()) return kv.status();
      if (!vv.ok()) return vv.status();
      map->entries.emplace_back(*kv, *vv);
    }
    return Value::Map(std::move(map));
  }
  // object_value, enum_value: protobuf values.
  return InvalidArgumentError("unsupported value (protobuf)");
}

// Conformance equality: same kind (no heterogeneous numeric equality), NaN equals NaN,
// maps compared without regard to order.
bool StrictEqual(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::kDouble:
      if (std::isnan(a.double_value())) return std::isnan(b.double_value());
      return a.double_value() == b.double_value();
    case Kind::kList: {
      const auto& x = a.list().elements;
      const auto& y = b.list().elements;
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!StrictEqual(x[i], y[i])) return false;
      }
      return true;
    }
    case Kind::kMap: {
      const auto& x = a.map().entries;
      const auto& y = b.map().entries;
      if (x.size() != y.size()) return false;
      for (const auto& [k, v] : x) {
        bool found = false;
        for (const auto& [k2, v2] : y) {
          if (StrictEqual(k, k2)) {
            found = StrictEqual(v, v2);
            break;
          }
        }
        if (!found) return false;
      }
      return true;
    }
    case Kind::kType:
    case Kind::kString:
    case Kind::kBytes:
      return a.text() == b.text();
    default:
      return ValuesEqual(a, b);
  }
}

// ---- running one test ---------------------------------------------------------------

struct Outcome {
  bool passed = false;
  std::string detail;  // why it failed
};

std::string IssuesText(const Diagnostics& issues) {
  std::string out;
  for (const Diagnostic& d : issues) {
    if (!out.empty()) out += "; ";
    out += d.message;
  }
  return out;
}

Outcome Fail(std::string detail) { return Outcome{false, std::move(detail)}; }

const std::vector<Library>& ConformanceLibraries() {
  // Standard CEL as cel-go's NewEnv has it (cross-type numeric comparisons on) plus the
  // extensions the files exercise and Kubernetes enables.
  static const std::vector<Library> kLibraries = {
      Library::kStandard, Library::kCrossTypeNumeric, Library::kStringsV2,
      Library::kOptionals, Library::kTwoVarComprehensions, Library::kIp,
      Library::kCidr, Library::kFormat};
  return kLibraries;
}

// A type_env function declaration: overloads with ids, parameter and result types.
StatusOr<FunctionDecl> FunctionFromText(const std::string& name, const TextMessage& function) {
  FunctionDecl fn{.name = name, .overloads = {}};
  for (const TextMessage* o : function.Messages("overloads")) {
    OverloadDecl overload{.id = o->Scalar("overload_id"),
                          .member = o->Scalar("is_instance_function") == "true",
                          .args = {},
                          .result = Type::Dyn()};
    for (const TextMessage* p : o->Messages("params")) {
      StatusOr<Type> t = TypeFromText(*p);
      if (!t.ok()) return t.status();
      overload.args.push_back(*t);
    }
    StatusOr<Type> result = ParamType(*o, "result_type");
    if (!result.ok()) return result.status();
    overload.result = *result;
    fn.overloads.push_back(std::move(overload));
  }
  return fn;
}

StatusOr<std::shared_ptr<const Environment>> BuildEnv(const TextMessage& test) {
  EnvironmentBuilder builder;
  for (Library lib : ConformanceLibraries()) builder.AddLibrary(lib);
  if (test.Has("container")) builder.SetContainer(test.Scalar("container"));
  for (const TextMessage* decl : test.Messages("type_env")) {
    if (const TextMessage* function = decl->Message("function")) {
      StatusOr<FunctionDecl> fn = FunctionFromText(decl->Scalar("name"), *function);
      if (!fn.ok()) return fn.status();
      builder.AddFunction(*fn);
      continue;
    }
    const TextMessage* ident = decl->Message("ident");
    if (ident == nullptr) return InvalidArgumentError("type_env entry without ident or function");
    const TextMessage* type = ident->Message("type");
    if (type == nullptr) return InvalidArgumentError("ident without type");
    StatusOr<Type> t = TypeFromText(*type);
    if (!t.ok()) return t.status();
    builder.AddVariable(decl->Scalar("name"), *t);
  }
  return builder.Build();
}

// The expected outcome: a value, an error, or (no matcher) true.
// The message of an eval_error's first error, or "".
std::string ExpectedErrorMessage(const TextMessage& test) {
  const TextMessage* error = test.Message("eval_error");
  const TextMessage* first = error != nullptr ? error->Message("errors") : nullptr;
  return first != nullptr ? std::string(first->Scalar("message")) : std::string();
}

struct Expectation {
  bool error = false;
  std::optional<Value> value;
  const TextMessage* deduced_type = nullptr;
};

StatusOr<Expectation> ExpectationOf(const TextMessage& test) {
  Expectation e;
  if (test.Has("eval_error") || test.Has("any_eval_errors")) {
    e.error = true;
    return e;
  }
  const TextMessage* value = test.Message("value");
  if (const TextMessage* typed = test.Message("typed_result")) {
    value = typed->Message("result");
    e.deduced_type = typed->Message("deduced_type");
  }
  if (test.Has("unknown") || test.Has("any_unknowns")) {
    return InvalidArgumentError("unknown-set results");
  }
  if (value == nullptr) {
    if (e.deduced_type == nullptr) e.value = Value::Bool(true);
    return e;
  }
  StatusOr<Value> v = ValueFromText(*value);
  if (!v.ok()) return v.status();
  e.value = *v;
  return e;
}

// Declared by the environment, yet without a runtime implementation of any arity (a
// wrong arity of an implemented function is a genuine "no such overload").
bool IsUnimplemented(const Environment& env, std::string_view function) {
  if (env.FindFunction(function) == nullptr) return false;
  for (int arity = 0; arity <= 8; ++arity) {
    if (Registry::Default().Find(function, arity) != nullptr) return false;
  }
  return true;
}

Outcome Evaluate(const TextMessage& test, const Ast& ast, const Expectation& want,
                 const Environment& env) {
  RuntimeOptions options;
  options.cost_limit = 0;
  options.container = test.Scalar("container");
  StatusOr<Program> program = Plan(ast, options);
  if (!program.ok()) {
    // cel-go folds constant conversions at plan time; the error still surfaces.
    if (want.error) return Outcome{true, ""};
    return Fail("plan: " + program.status().message());
  }
  std::vector<std::pair<std::string, Value>> bound;
  for (const TextMessage* b : test.Messages("bindings")) {
    const TextMessage* expr_value = b->Message("value");
    const TextMessage* value = expr_value == nullptr ? nullptr : expr_value->Message("value");
    if (value == nullptr) return Fail("binding without a value");
    StatusOr<Value> v = ValueFromText(*value);
    if (!v.ok()) return Fail("binding: " + v.status().message());
    bound.emplace_back(b->Scalar("key"), *v);
  }
  Activation activation;
  for (const auto& [name, value] : bound) activation.Bind(name, value);
  EvalState state;
  Value got = program->Evaluate(activation, state);
  // "no such overload: <name>" for a function the environment declares means it has no
  // runtime implementation; that error must not count as an expected one.
  constexpr std::string_view kUnknown = "no such overload: ";
  if (got.is_error() && got.text().starts_with(kUnknown) &&
      IsUnimplemented(env, got.text().substr(kUnknown.size()))) {
    return Fail("not implemented at run time: " + std::string(got.text()));
  }
  if (want.error) {
    if (got.is_error()) return Outcome{true, ""};
    return Fail("want an error, got " + got.DebugString());
  }
  if (got.is_error()) return Fail("error: " + std::string(got.text()));
  if (!StrictEqual(*want.value, got)) {
    return Fail("want " + want.value->DebugString() + ", got " + got.DebugString());
  }
  return Outcome{true, ""};
}

Outcome RunOne(const TextMessage& test) {
  StatusOr<Expectation> want = ExpectationOf(test);
  if (!want.ok()) return Fail("expectation: " + want.status().message());
  ParserOptions parser_options;
  if (test.Scalar("disable_macros") == "true") {
    parser_options.enable_standard_macros = false;
    parser_options.enable_bindings_macro = false;
    parser_options.enable_optional_macros = false;
    parser_options.enable_two_var_comprehensions = false;
    parser_options.enable_lists_macros = false;
  }
  ParseResult parsed = Parse(test.Scalar("expr"), parser_options);
  if (!parsed.ok()) return Fail("parse: " + IssuesText(parsed.issues));
  StatusOr<std::shared_ptr<const Environment>> env = BuildEnv(test);
  if (!env.ok()) return Fail("environment: " + env.status().message());
  if (test.Scalar("disable_check") != "true") {
    CheckResult checked = Check(*parsed.ast, **env);
    // The checker's fast overload fit against its general path, on every conformance case.
    const CheckResult general =
        Check(*parsed.ast, **env, CheckerOptions{.fit_concrete_overloads = false});
    if (std::string diff = CheckDifference(checked, general, parsed.ast->max_id());
        !diff.empty()) {
      return Fail("fast overload fit differs from the general path: " + diff);
    }
    if (!checked.ok()) {
      // cel-go reports some errors a checker finds as the expected evaluation error (e.g.
      // no matching overload): pass when the checker's message is the expected one.
      const std::string issues = IssuesText(checked.issues);
      const std::string expected = ExpectedErrorMessage(test);
      if (want->error && !expected.empty() && issues.find(expected) != std::string::npos) {
        return Outcome{true, ""};
      }
      return Fail("check: " + issues);
    }
    if (want->deduced_type != nullptr) {
      StatusOr<Type> deduced = TypeFromText(*want->deduced_type);
      if (!deduced.ok()) return Fail("deduced_type: " + deduced.status().message());
      if (!(*deduced == checked.checked.result_type())) {
        return Fail("deduced " + checked.checked.result_type().DebugString() + ", want " +
                    deduced->DebugString());
      }
    }
    if (test.Scalar("check_only") == "true") return Outcome{true, ""};
  }
  if (!want->value.has_value() && !want->error) return Outcome{true, ""};
  return Evaluate(test, *parsed.ast, *want, **env);
}

// ---- per file ----------------------------------------------------------------------

struct Counts {
  int passed = 0, failed = 0, skipped = 0;
};

Counts& Totals() {
  static Counts totals;
  return totals;
}

// Prints the suite-wide line once all files of this run have been counted.
class TotalsPrinter : public testing::Environment {
 public:
  void TearDown() override {
    const Counts& t = Totals();
    if (t.passed + t.failed + t.skipped == 0) return;
    std::cout << "cel-spec: " << t.passed << " passed, " << t.failed << " failed, "
              << t.skipped << " skipped\n";
  }
};
const testing::Environment* const kTotalsPrinter =
    testing::AddGlobalTestEnvironment(new TotalsPrinter);

class ConformanceTest : public testing::TestWithParam<const char*> {};

TEST_P(ConformanceTest, File) {
  const fs::path path = SpecDir() / (std::string(GetParam()) + ".textproto");
  if (!fs::exists(path)) GTEST_SKIP() << "no cel-spec data at " << path;
  StatusOr<TextMessage> file = ParseTextproto(ReadAll(path));
  ASSERT_TRUE(file.ok()) << path << ": " << file.status().message();
  const std::map<std::string, std::string> skips = LoadSkips();
  const bool list_failures = std::getenv("DRAGUARD_CEL_CONFORMANCE_LIST") != nullptr;

  Counts counts;
  std::vector<std::string> now_passing;
  for (const TextMessage* section : file->Messages("section")) {
    for (const TextMessage* test : section->Messages("test")) {
      const std::string id =
          std::string(GetParam()) + "/" + section->Scalar("name") + "/" + test->Scalar("name");
      Outcome outcome = RunOne(*test);
      auto skip = skips.find(id);
      if (skip != skips.end()) {
        EXPECT_FALSE(skip->second.empty()) << id << ": a skip needs a reason";
        ++counts.skipped;
        if (outcome.passed) now_passing.push_back(id);
        continue;
      }
      if (outcome.passed) {
        ++counts.passed;
        continue;
      }
      ++counts.failed;
      if (list_failures) {
        std::cout << "FAIL\t" << id << "\t" << outcome.detail << "\t" << test->Scalar("container")
                  << "\t" << test->Scalar("expr") << "\n";
      }
      ADD_FAILURE() << id << "\n  expr: " << test->Scalar("expr") << "\n  " << outcome.detail;
    }
  }
  for (const std::string& id : now_passing) {
    std::cout << "note: " << id << " is in conformance_skips.txt but passes\n";
  }
  std::cout << "cel-spec " << GetParam() << ": " << counts.passed << " passed, "
            << counts.failed << " failed, " << counts.skipped << " skipped\n";
  Totals().passed += counts.passed;
  Totals().failed += counts.failed;
  Totals().skipped += counts.skipped;
}

INSTANTIATE_TEST_SUITE_P(CelSpec, ConformanceTest, testing::ValuesIn(kFiles),
                         [](const testing::TestParamInfo<const char*>& param_info) {
                           return std::string(param_info.param);
                         });

}  // namespace
}  // namespace draguard::cel::conformance
