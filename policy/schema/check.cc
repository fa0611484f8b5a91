#include "policy/schema/check.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "policy/cel/operators.h"
#include "policy/cel/parser.h"
#include "policy/cel/selector_shape.h"
#include "policy/common/ascii.h"
#include "policy/common/semver.h"
#include "policy/common/strings.h"
#include "policy/common/suggest.h"
#include "policy/schema/expression_facts.h"

namespace draguard::schema {
namespace {

using internal::Access;
using internal::Comparison;
using internal::Facts;

// Unknown domains this close to a known one (edits, ignoring case) are taken for typos.
constexpr size_t kTypoDistance = 2;


std::vector<std::string_view> Names(const std::map<std::string, Entry, std::less<>>& entries) {
  std::vector<std::string_view> out;
  for (const auto& [name, entry] : entries) out.push_back(name);
  return out;
}

// A literal as CEL writes it, and its schema type.
std::optional<ValueType> LiteralType(const cel::Constant& c) {
  if (std::holds_alternative<std::string>(c)) return ValueType::kString;
  if (std::holds_alternative<int64_t>(c) || std::holds_alternative<uint64_t>(c) ||
      std::holds_alternative<double>(c)) {
    return ValueType::kInt;
  }
  if (std::holds_alternative<bool>(c)) return ValueType::kBool;
  return std::nullopt;
}

std::string LiteralText(const cel::Constant& c) {
  if (const auto* s = std::get_if<std::string>(&c)) return *s;
  if (const auto* i = std::get_if<int64_t>(&c)) return std::to_string(*i);
  if (const auto* u = std::get_if<uint64_t>(&c)) return std::to_string(*u);
  if (const auto* d = std::get_if<double>(&c)) {
    std::string t = std::to_string(*d);
    while (t.size() > 1 && t.back() == '0') t.pop_back();
    if (!t.empty() && t.back() == '.') t.pop_back();
    return t;
  }
  if (const auto* b = std::get_if<bool>(&c)) return *b ? "true" : "false";
  return "null";
}

std::string_view OpText(std::string_view op) {
  if (op == cel::op::kEquals) return "==";
  if (op == cel::op::kNotEquals) return "!=";
  if (op == cel::op::kLess) return "<";
  if (op == cel::op::kLessEquals) return "<=";
  if (op == cel::op::kGreater) return ">";
  return ">=";
}

// `a op b` with the access on the left, flipping the operator when it was on the right.
std::string_view LeftOp(const Comparison& cmp) {
  std::string_view op = OpText(cmp.op);
  if (cmp.access_on_left) return op;
  if (op == "<") return ">";
  if (op == ">") return "<";
  if (op == "<=") return ">=";
  if (op == ">=") return "<=";
  return op;
}

bool IsStringMethod(std::string_view m) {
  static constexpr std::string_view kMethods[] = {
      "startsWith", "endsWith", "contains",  "matches", "lowerAscii", "upperAscii",
      "split",      "trim",     "replace",   "indexOf", "lastIndexOf", "substring",
      "charAt",     "format",   "reverse"};
  return std::find(std::begin(kMethods), std::end(kMethods), m) != std::end(kMethods);
}
bool IsOrderingMethod(std::string_view m) {
  return m == "compareTo" || m == "isGreaterThan" || m == "isLessThan";
}

// `x.compareTo(ctor("v")) op 0`, or isGreaterThan/isLessThan where they say it shorter.
std::string OrderedComparison(const std::string& access, std::string_view op,
                              const std::string& ctor_call) {
  if (op == ">") return access + ".isGreaterThan(" + ctor_call + ")";
  if (op == "<") return access + ".isLessThan(" + ctor_call + ")";
  return access + ".compareTo(" + ctor_call + ") " + std::string(op) + " 0";
}

// The facts `f`, written unambiguously after `key` (strings.h's key parts).
void AppendFacts(const Facts& f, std::string& key) {
  key.push_back(f.drivers ? 'd' : '-');
  if (f.drivers) {
    AppendKeyInt(key, static_cast<int64_t>(f.drivers->size()));
    for (const std::string& d : *f.drivers) AppendKeyString(key, d);
  }
  AppendKeyInt(key, static_cast<int64_t>(f.types.size()));
  for (const auto& [domain, types] : f.types) {
    AppendKeyString(key, domain);
    AppendKeyInt(key, static_cast<int64_t>(types.size()));
    for (const std::string& t : types) AppendKeyString(key, t);
  }
  AppendKeyInt(key, static_cast<int64_t>(f.present.size()));
  for (const auto& [domain, name] : f.present) {
    AppendKeyString(key, domain);
    AppendKeyString(key, name);
  }
}

// What the facts hold on the heap (tree nodes and strings), for the memo's byte bound.
size_t ApproximateBytes(const Facts& f) {
  constexpr size_t kNode = 48;  // a tree node's links and the allocator's header
  size_t bytes = 0;
  auto strings = [&](const std::set<std::string>& set) {
    for (const std::string& s : set) bytes += kNode + sizeof(std::string) + HeapBytes(s);
  };
  if (f.drivers) strings(*f.drivers);
  for (const auto& [domain, types] : f.types) {
    bytes += kNode + sizeof(std::string) + sizeof(types) + HeapBytes(domain);
    strings(types);
  }
  for (const auto& [domain, name] : f.present) {
    bytes += kNode + 2 * sizeof(std::string) + HeapBytes(domain) + HeapBytes(name);
  }
  return bytes;
}

}  // namespace

// One selector's findings, their fields empty (the memo serves the same text at any path),
// and the facts that hold when it is true.
struct SelectorMemo::Outcome {
  std::vector<Diagnostic> findings;
  Facts when_true;
  // A shape entry's (keyed by the selector's shape, cel::AppendSelectorShape) only: the text
  // checked and its tokens; the abstracted literals whose values the check read, which another
  // text must spell the same to be answered from here; and each finding's first and last
  // token, by which its value_offset and value_length are re-based to the other text.
  std::string text;
  std::vector<cel::Token> tokens;
  std::vector<int32_t> read_literals;
  std::vector<std::pair<int32_t, int32_t>> spans;
};

SelectorMemo::SelectorMemo(CacheLimits limits) : cache_(limits) {}
SelectorMemo::~SelectorMemo() = default;

CacheStats SelectorMemo::stats() const { return cache_.stats(); }

std::shared_ptr<const SelectorMemo::Outcome> SelectorMemo::Find(const CacheKey& key) {
  return cache_.Find(key);
}

std::shared_ptr<const SelectorMemo::Outcome> SelectorMemo::Insert(
    const CacheKey& key, std::shared_ptr<const Outcome> value, size_t value_bytes) {
  return cache_.Insert(key, std::move(value), value_bytes);
}

namespace {

using Outcome = SelectorMemo::Outcome;

struct Checker {
  const Schema& schema;
  const CheckOptions& options;
  // Where findings go: the object's diagnostics, or one selector's outcome while it is made.
  Diagnostics* out;
  cel::CompiledSelectors* known;  // may be null
  // The unknown domains reported for the selector being checked (views of its accesses'
  // domains): one finding per domain and expression.
  std::vector<std::string_view> reported_domains;
  // MemoKey's bytes and the shape key's, reused from one selector to the next.
  std::string key_buffer;
  std::string shape_key_buffer;
  // While a selector is checked: the offsets of the string literals whose values its check
  // did not read (NoteUnreadLiteral), and whether a finding quotes the whole text. What a
  // shape entry may leave out of its key.
  std::vector<int> unread_literals;
  bool quotes_text = false;
  size_t flags_at = 0;  // where MemoKey wrote its flags byte
  static constexpr char kShapeFlag = 8;  // in that byte: a shape entry's key

  Severity UnknownSeverity() const {
    return options.strict ? Severity::kError : Severity::kWarning;
  }

  // An unknown domain is most often a private driver's, whose schema draguard cannot know:
  // info. A near miss of a known domain (`gpu.nvida.com`) is a typo: warning. Strict: error.
  // Returns the severity and the closest known domain, if any.
  std::pair<Severity, std::optional<std::string>> UnknownDomainFinding(
      std::string_view domain) const {
    Schema::DomainSuggestion close = schema.ClosestDomain(domain);
    if (options.strict) return {Severity::kError, close.name};
    const bool typo = close.name && close.folded_distance <= kTypoDistance;
    return {typo ? Severity::kWarning : Severity::kInfo, close.name};
  }

  Diagnostic& Add(Severity severity, std::string code, const FieldPath& field, int offset,
                  int length, std::string message, std::string suggestion = {}) {
    Diagnostic d;
    d.severity = severity;
    d.code = std::move(code);
    d.field = field.String();
    d.value_offset = offset;
    d.value_length = length;
    d.message = std::move(message);
    d.suggestion = std::move(suggestion);
    return out->Add(std::move(d));
  }

  // --- selectors ---------------------------------------------------------------------------

  // The parsed expression, or null when it does not parse. `tokens`: set to the compile's
  // tokens when it has them (cel::SelectorCompileResult::tokens; owned with the result).
  std::shared_ptr<const cel::Ast> Parse(const std::string& expression,
                                        const std::vector<cel::Token>** tokens) const {
    if (options.compiled != nullptr) {
      std::shared_ptr<const cel::SelectorCompileResult> compiled =
          known != nullptr ? known->Next(expression, options.compiled_env) : nullptr;
      if (compiled == nullptr) compiled = options.compiled->Compile(expression, options.compiled_env);
      if (compiled->ast == nullptr) return nullptr;
      if (!compiled->tokens.empty()) *tokens = &compiled->tokens;
      return {compiled, compiled->ast.get()};  // shares ownership with the cached result
    }
    cel::ParseResult parsed = cel::Parse(expression);
    return std::shared_ptr<const cel::Ast>(std::move(parsed.ast));
  }

  // The memo's key of a selector's outcome: the generation, what else the outcome depends
  // on, then the text.
  // Written into `key_buffer` (its capacity kept from one selector to the next: no
  // allocation per lookup); the view is valid until the next call.
  std::string_view MemoKey(const std::string& expression, const Facts& given, bool reach_known,
                           bool facts_only) {
    std::string& key = key_buffer;
    key.clear();
    key.reserve(sizeof(uint64_t) + 2 + expression.size() + 64);
    AppendKeyInt(key, static_cast<int64_t>(options.memo_generation));
    flags_at = key.size();
    key.push_back(static_cast<char>((reach_known ? 1 : 0) | (options.strict ? 2 : 0) |
                                    (facts_only ? 4 : 0)));
    AppendFacts(given, key);
    key.append(expression);
    return key;
  }

  // The outcome of checking `expression` given `given` (with `facts_only`, its facts alone,
  // for a DeviceClass's selector that is checked elsewhere): from the memo when it holds it,
  // else made and remembered. Null when the expression does not parse (validation reports
  // it). On a memo hit, the compile result validation remembered for the expression is
  // stepped over, so that the next selector's is found in order.
  std::shared_ptr<const Outcome> OutcomeOf(const std::string& expression, const Facts& given,
                                           bool reach_known, bool facts_only) {
    std::string_view key;
    if (options.memo != nullptr) key = MemoKey(expression, given, reach_known, facts_only);
    const CacheKey hashed(key);  // hashed once, for the lookup and the insert after a miss
    if (options.memo != nullptr) {
      if (std::shared_ptr<const Outcome> found = options.memo->Find(hashed)) {
        if (known != nullptr && options.compiled != nullptr) {
          known->Next(expression, options.compiled_env);
        }
        return found;
      }
    }
    const std::vector<cel::Token>* compiled_tokens = nullptr;
    std::shared_ptr<const cel::Ast> ast = Parse(expression, &compiled_tokens);
    if (ast == nullptr) return nullptr;
    // By shape only with the compile's tokens (the webhook's): lexing here again would cost
    // lint, whose selectors rarely differ in unread literals alone, more than it saves.
    std::string& shape_key = shape_key_buffer;
    shape_key.clear();
    if (options.memo != nullptr && compiled_tokens != nullptr &&
        ShapeKey(key, expression, *compiled_tokens, shape_key)) {
      std::shared_ptr<const Outcome> found =
          FromShape(options.memo->Find(CacheKey(shape_key)), expression, *compiled_tokens);
      if (found != nullptr) return found;
    }
    auto made = std::make_shared<Outcome>();
    internal::ExpressionFacts facts = internal::AnalyzeExpression(*ast, schema, given);
    unread_literals.clear();
    quotes_text = false;
    if (!facts_only) {
      Diagnostics found;
      Diagnostics* const object_out = std::exchange(out, &found);
      reported_domains.clear();
      const FieldPath none;  // the outcome's fields stay empty: CheckSelector sets them
      for (const Access& a : facts.accesses) CheckAccess(a, expression, none, reach_known);
      out = object_out;
      made->findings = std::move(found.mutable_items());
    }
    made->when_true = std::move(facts.when_true);
    if (options.memo == nullptr) return made;
    if (!shape_key.empty()) RememberShape(*made, expression, *compiled_tokens, shape_key);
    const size_t bytes =
        sizeof(Outcome) + ApproximateBytes(made->findings) + ApproximateBytes(made->when_true);
    return options.memo->Insert(hashed, std::move(made), bytes);
  }

  // --- the memo by shape -------------------------------------------------------------------
  // A selector stamped from a template (a fresh model name, a client's counter) differs from
  // the ones checked before only in literals the check often never reads: a string compared
  // with a string attribute that has no closed value set is read by nobody. Such texts share
  // one entry keyed by their shape; the literals the check did read stay compared.

  // The shape key of `expression` (lexed into `tokens`): the exact key `exact`, marked, with
  // the shape in place of the text, into `shape_key`; false when no literal is abstracted.
  bool ShapeKey(std::string_view exact, const std::string& expression,
                const std::vector<cel::Token>& tokens, std::string& shape_key) const {
    shape_key.assign(exact.substr(0, exact.size() - expression.size()));
    shape_key[flags_at] = static_cast<char>(shape_key[flags_at] | kShapeFlag);
    if (!cel::AppendSelectorShape(expression, tokens, shape_key)) {
      shape_key.clear();
      return false;
    }
    return true;
  }

  // The outcome of shape entry `entry` for `text` (of its shape, lexed into `tokens`): its
  // findings re-based to `text` (the entry itself when it has none); null when `text` spells a
  // literal the check read otherwise.
  static std::shared_ptr<const Outcome> FromShape(const std::shared_ptr<const Outcome>& entry,
                                                  std::string_view text,
                                                  const std::vector<cel::Token>& tokens) {
    if (entry == nullptr || entry->tokens.size() != tokens.size()) return nullptr;
    auto spelled = [](std::string_view t, const cel::Token& token) {
      return t.substr(static_cast<size_t>(token.offset), static_cast<size_t>(token.length));
    };
    for (int32_t i : entry->read_literals) {
      const auto at = static_cast<size_t>(i);
      if (spelled(entry->text, entry->tokens[at]) != spelled(text, tokens[at])) return nullptr;
    }
    // Nothing to re-base: the entry answers as it is (no copy of its facts).
    if (entry->findings.empty()) return entry;
    auto out = std::make_shared<Outcome>();
    out->findings = entry->findings;
    for (size_t f = 0; f < out->findings.size(); ++f) {
      const cel::Token& first = tokens[static_cast<size_t>(entry->spans[f].first)];
      const cel::Token& last = tokens[static_cast<size_t>(entry->spans[f].second)];
      out->findings[f].value_offset = first.offset;
      out->findings[f].value_length = last.offset + last.length - first.offset;
    }
    out->when_true = entry->when_true;
    return out;
  }

  // Stores `made`, the outcome of checking `expression` (lexed into `tokens`), under its
  // shape, unless a finding cannot be re-based (it quotes the text, or its range is not
  // whole tokens).
  void RememberShape(const Outcome& made, const std::string& expression,
                     std::vector<cel::Token> tokens, const std::string& shape_key) {
    if (quotes_text) return;
    auto entry = std::make_shared<Outcome>();
    auto token_at = [&](int offset, bool end) -> int32_t {
      for (size_t i = 0; i < tokens.size(); ++i) {
        const int at = end ? tokens[i].offset + tokens[i].length : tokens[i].offset;
        if (at == offset) return static_cast<int32_t>(i);
      }
      return -1;
    };
    for (const Diagnostic& d : made.findings) {
      const int32_t first = token_at(d.value_offset, false);
      const int32_t last = token_at(d.value_offset + d.value_length, true);
      if (first < 0 || last < first) return;
      entry->spans.emplace_back(first, last);
    }
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (!cel::IsAbstractedLiteral(tokens, i)) continue;
      if (std::find(unread_literals.begin(), unread_literals.end(), tokens[i].offset) ==
          unread_literals.end()) {
        entry->read_literals.push_back(static_cast<int32_t>(i));
      }
    }
    entry->findings = made.findings;
    entry->when_true = made.when_true;
    entry->text = expression;
    entry->tokens = std::move(tokens);
    const size_t bytes = sizeof(Outcome) + ApproximateBytes(entry->findings) +
                         ApproximateBytes(entry->when_true) + HeapBytes(entry->text) +
                         entry->tokens.capacity() * sizeof(cel::Token) +
                         entry->read_literals.capacity() * sizeof(int32_t) +
                         entry->spans.capacity() * sizeof(entry->spans[0]);
    options.memo->Insert(CacheKey(shape_key), std::move(entry), bytes);
  }

  // After CheckComparison: notes the literal of `a`'s comparison when no check reads its value:
  // a string compared with a string attribute that has no closed value set (or ordered), which
  // is not its domain's type attribute (whose values the facts hold). Mirrors CheckComparison.
  void NoteUnreadLiteral(const Access& a, const DomainSchema& domain, const Entry& entry) {
    const Comparison& cmp = *a.comparison;
    if (entry.list || cmp.other || entry.type != ValueType::kString) return;
    if (!std::holds_alternative<std::string>(cmp.literal)) return;
    if (a.name == domain.type_attribute) return;
    const std::string_view op = LeftOp(cmp);
    if ((op == "==" || op == "!=") && !entry.closed_values.empty()) return;
    unread_literals.push_back(cmp.literal_offset);
  }

  // Checks one expression; returns the facts that hold when it is true. `field()` gives the
  // path of the expression, built only when there is a finding to place.
  template <class Field>
  Facts CheckSelector(const std::string& expression, const Field& field, const Facts& given,
                      bool reach_known) {
    std::shared_ptr<const Outcome> outcome =
        OutcomeOf(expression, given, reach_known, /*facts_only=*/false);
    if (outcome == nullptr) return given;  // validation reports syntax errors
    if (!outcome->findings.empty()) {
      const std::string path = field().String();
      for (const Diagnostic& finding : outcome->findings) out->Add(finding).field = path;
    }
    return outcome->when_true;
  }

  void CheckAccess(const Access& a, const std::string& expression, const FieldPath& field,
                   bool reach_known) {
    const DomainSchema* domain = schema.FindDomain(a.domain);
    if (domain == nullptr) return UnknownDomain(a, field);
    if (a.name.empty()) return;
    if (!CheckDriverReachable(a, *domain, field)) return;
    const Entry* entry = a.capacity ? domain->FindCapacity(a.name) : domain->FindAttribute(a.name);
    // has(), `in` and .? on a name the schema lacks are safe (a driver may add it later).
    const bool guarded = a.presence_test || a.context->present.count({a.domain, a.name}) > 0;
    if (entry == nullptr) {
      if (!guarded) UnknownName(a, *domain, field);
      return;
    }
    if (entry->removed_in) return Removed(a, *domain, *entry, field);
    if (entry->deprecated) Deprecated(a, *entry, field);
    if (a.comparison) {
      CheckComparison(a, *entry, field);
      NoteUnreadLiteral(a, *domain, *entry);
    }
    if (!a.method.empty()) CheckMethod(a, *entry, field);
    if (!a.presence_test) CheckPublished(a, *domain, *entry, expression, field, reach_known);
  }

  void UnknownDomain(const Access& a, const FieldPath& field) {
    // One finding per domain and expression: every access would repeat it. (Called for the
    // accesses of one expression at a time: CheckSelector clears the list.)
    if (std::find(reported_domains.begin(), reported_domains.end(), a.domain) !=
        reported_domains.end()) {
      return;
    }
    reported_domains.push_back(a.domain);
    const std::string_view map = a.capacity ? "device.capacity" : "device.attributes";
    if (const size_t slash = a.domain.find('/'); slash != std::string::npos) {
      // "dra.net/rdma": a qualified attribute name used as the domain.
      Access fixed = a;
      fixed.domain = a.domain.substr(0, slash);
      fixed.name = a.domain.substr(slash + 1);
      Add(Severity::kError, "schema.domain.qualified-name", field, a.domain_offset,
          a.domain_length,
          std::string(map) + "[" + Quote(a.domain) + "] looks up a domain named " +
              Quote(a.domain) + ", which no driver publishes: the attribute name " +
              Quote(fixed.name) + " belongs after the domain, so every access fails with " +
              "\"no such key\"",
          internal::AccessText(fixed));
      return;
    }
    auto [severity, close] = UnknownDomainFinding(a.domain);
    // Appended in place into one block sized up front: this finding is on every admission
    // request that names a private driver's domain, and each `+` of temporaries, or each
    // growth of the message, would allocate.
    static constexpr std::string_view kHead =
        "no driver in the attribute schema publishes the domain \"";
    static constexpr std::string_view kMiddle =
        "\", so its names are not checked; where no device publishes it, ";
    static constexpr std::string_view kTail =
        "\"] is an empty map and reading a name from it fails at scheduling time";
    static constexpr std::string_view kMeanHead = " (did you mean \"";
    static constexpr std::string_view kMeanTail = "\"?)";
    const std::string_view not_in_schema = NotInSchema();
    std::string message;
    message.reserve(kHead.size() + 2 * a.domain.size() + kMiddle.size() + map.size() + 2 +
                    kTail.size() +
                    (close ? kMeanHead.size() + close->size() + kMeanTail.size() : 0) +
                    (severity == Severity::kInfo ? not_in_schema.size() : 0));
    message.append(kHead).append(a.domain).append(kMiddle).append(map).append("[\"");
    message.append(a.domain).append(kTail);
    if (close) message.append(kMeanHead).append(*close).append(kMeanTail);
    if (severity == Severity::kInfo) message.append(not_in_schema);
    Add(severity, "schema.domain.unknown", field, a.domain_offset, a.domain_length,
        std::move(message), close ? Quote(*close) : std::string());
  }

  // Whether some domain of the schema names `driver` among its publishers.
  bool KnowsDriver(std::string_view driver) const {
    return std::any_of(schema.domains().begin(), schema.domains().end(), [&](const auto& d) {
      const std::vector<std::string>& drivers = d.second.drivers;
      return std::find(drivers.begin(), drivers.end(), driver) != drivers.end();
    });
  }

  static std::string_view NotInSchema() {
    return "; if a private driver publishes it, a --schema file describing its attributes "
           "lets them be checked (--strict-schema makes unknown domains errors)";
  }

  // False (and reported) when the facts pin device.driver to drivers that never publish the
  // domain: every device reaching this access would fail with "no such key".
  bool CheckDriverReachable(const Access& a, const DomainSchema& domain, const FieldPath& field) {
    if (!a.context->drivers || domain.drivers.empty() || a.presence_test) return true;
    for (const std::string& driver : *a.context->drivers) {
      if (std::find(domain.drivers.begin(), domain.drivers.end(), driver) !=
          domain.drivers.end()) {
        return true;
      }
      // A driver the schema knows nothing about might publish anything.
      if (!KnowsDriver(driver)) return true;
    }
    if (a.context->drivers->empty()) {
      // The conditions on device.driver (the selector's and its DeviceClass's) admit no driver.
      Add(Severity::kError, "schema.driver.unreachable", field, a.domain_offset, a.domain_length,
          "no device reaches this lookup: the conditions on device.driver (of this selector "
          "and of its DeviceClass) cannot all hold for one driver, so nothing is allocated",
          "compare device.driver with a driver that publishes " + Quote(a.domain) +
              ": device.driver == " + Quote(domain.drivers.front()));
      return false;
    }
    std::string pinned;
    for (const std::string& d : *a.context->drivers) pinned += (pinned.empty() ? "" : ", ") + Quote(d);
    Add(Severity::kError, "schema.driver.unreachable", field, a.domain_offset, a.domain_length,
        "the devices that reach this selector come from driver " +
            pinned + ", which does not publish " +
            Quote(a.domain) + "; the lookup fails on every one of them, so nothing is allocated",
        "select a DeviceClass of driver " + Quote(domain.drivers.front()) +
            " or read the attributes of " + pinned);
    return false;
  }

  void UnknownName(const Access& a, const DomainSchema& domain, const FieldPath& field) {
    const auto& entries = a.capacity ? domain.capacities : domain.attributes;
    std::optional<std::string> close = ClosestMatch(a.name, Names(entries));
    const std::string what = a.capacity ? "capacity" : "attribute";
    std::string message = "the attribute schema has no " + what + " " + Quote(a.name) +
                          " in domain " + Quote(a.domain) +
                          "; on devices without it the lookup fails with \"no such key\"";
    std::string suggestion;
    if (close) {
      message += " (did you mean " + Quote(*close) + "?)";
      Access fixed = a;
      fixed.name = *close;
      suggestion = internal::AccessText(fixed);
    } else if (!a.capacity && domain.FindCapacity(a.name)) {
      message += "; it is a capacity";
      Access fixed = a;
      fixed.capacity = true;
      suggestion = internal::AccessText(fixed);
    } else if (a.capacity && domain.FindAttribute(a.name)) {
      message += "; it is an attribute";
      Access fixed = a;
      fixed.capacity = false;
      suggestion = internal::AccessText(fixed);
    }
    const Severity severity = domain.complete ? UnknownSeverity() : Severity::kWarning;
    Add(severity, a.capacity ? "schema.capacity.unknown" : "schema.attribute.unknown", field,
        a.name_offset, a.name_length, std::move(message), std::move(suggestion));
  }

  void Removed(const Access& a, const DomainSchema& domain, const Entry& entry,
               const FieldPath& field) {
    std::string message = Quote(a.domain + "/" + a.name) + " is no longer published by " +
                          "the driver (removed in " + *entry.removed_in + ")";
    if (!entry.note.empty()) message += ": " + entry.note;
    message += "; selectors reading it fail with \"no such key\" on current devices";
    Add(Severity::kError, "schema.attribute.removed", field, a.name_offset, a.name_length,
        std::move(message), Replacement(a, entry));
    (void)domain;
  }

  void Deprecated(const Access& a, const Entry& entry, const FieldPath& field) {
    std::string message = Quote(a.domain + "/" + a.name) + " is deprecated by the driver";
    if (!entry.note.empty()) message += " (" + entry.note + ")";
    Add(Severity::kWarning, "schema.attribute.deprecated", field, a.name_offset, a.name_length,
        std::move(message), Replacement(a, entry));
  }

  static std::string Replacement(const Access& a, const Entry& entry) {
    if (entry.replaced_by.empty()) return {};
    Access fixed = a;
    if (const size_t slash = entry.replaced_by.find('/'); slash != std::string::npos) {
      fixed.domain = entry.replaced_by.substr(0, slash);
      fixed.name = entry.replaced_by.substr(slash + 1);
    } else {
      fixed.name = entry.replaced_by;
    }
    return internal::AccessText(fixed);
  }

  void CheckComparison(const Access& a, const Entry& entry, const FieldPath& field) {
    const Comparison& cmp = *a.comparison;
    if (entry.list) return ListComparison(a, entry, field);
    if (cmp.other) return CheckAccessComparison(a, entry, field);
    std::optional<ValueType> literal = LiteralType(cmp.literal);
    if (!literal) return;  // null: heterogeneous equality, reported by nobody
    const std::string_view op = LeftOp(cmp);
    const bool ordering = op != "==" && op != "!=";
    // The common case, a string compared with a string literal, reads the literal in place:
    // the texts below are built only for a finding.
    if (entry.type == ValueType::kString && *literal == ValueType::kString) {
      if (!ordering) CheckClosedSet(a, entry, std::get<std::string>(cmp.literal), field);
      return;
    }
    if (entry.type == *literal && (*literal == ValueType::kInt || *literal == ValueType::kBool)) {
      return;
    }
    const std::string access = internal::AccessText(a);
    const std::string value = LiteralText(cmp.literal);
    std::string suggestion;
    switch (entry.type) {
      case ValueType::kVersion: {
        StatusOr<Semver> v = Semver::Parse(value, /*normalize=*/true);
        const std::string version = v.ok() ? v->String() : value;
        suggestion = OrderedComparison(access, op, "semver(" + Quote(version) + ")");
        return TypeMismatch(a, entry, *literal, field,
                            "a version is compared with semver(...), not with a " +
                                std::string(ValueTypeName(*literal)),
                            suggestion);
      }
      case ValueType::kQuantity:
        suggestion = OrderedComparison(access, op, "quantity(" + Quote(value) + ")");
        return TypeMismatch(a, entry, *literal, field,
                            "a capacity is a quantity, compared with quantity(...) through "
                            "compareTo/isGreaterThan/isLessThan",
                            suggestion);
      case ValueType::kInt:
        if (*literal == ValueType::kInt) return;
        if (*literal == ValueType::kString && IsInteger(value)) {
          suggestion = access + " " + std::string(op) + " " + value;
        }
        return TypeMismatch(a, entry, *literal, field, "", suggestion);
      case ValueType::kBool:
        if (*literal == ValueType::kBool) return;
        if (value == "true" || value == "false") suggestion = access + " " + std::string(op) + " " + value;
        return TypeMismatch(a, entry, *literal, field, "", suggestion);
      case ValueType::kString:
        if (*literal != ValueType::kString) {
          suggestion = access + " " + std::string(op) + " " + Quote(value);
          return TypeMismatch(a, entry, *literal, field, "", suggestion);
        }
        if (!ordering) CheckClosedSet(a, entry, value, field);
        return;
    }
  }

  // `a op b` where both read attributes or capacities. Reported once, from the left operand,
  // when both types are known: different types are never equal (and have no ordering), and
  // versions and quantities are ordered only through compareTo.
  void CheckAccessComparison(const Access& a, const Entry& entry, const FieldPath& field) {
    const Comparison& cmp = *a.comparison;
    if (!cmp.access_on_left) return;
    const internal::OtherAccess& o = *cmp.other;
    const DomainSchema* other_domain = schema.FindDomain(o.domain);
    const Entry* other = other_domain == nullptr ? nullptr
                         : o.capacity            ? other_domain->FindCapacity(o.name)
                                                 : other_domain->FindAttribute(o.name);
    if (other == nullptr || other->removed_in) return;  // reported on that access, if at all
    Access right;
    right.capacity = o.capacity;
    right.domain = o.domain;
    right.name = o.name;
    const std::string left_text = internal::AccessText(a);
    const std::string right_text = internal::AccessText(right);
    const std::string_view op = OpText(cmp.op);
    const bool equality = op == "==" || op == "!=";
    auto typed = [](const Access& x, ValueType t) {
      return Quote(x.domain + "/" + x.name) + " is " + (t == ValueType::kInt ? "an " : "a ") +
             std::string(ValueTypeName(t));
    };
    const bool ordered_only_by_method =
        entry.type == ValueType::kVersion || entry.type == ValueType::kQuantity;
    if (entry.type == other->type) {
      if (equality || !ordered_only_by_method) return;
      Add(Severity::kError, "schema.type.mismatch", field, cmp.literal_offset, cmp.literal_length,
          typed(a, entry.type) + " and so is " + Quote(o.domain + "/" + o.name) + ", but " +
              std::string(ValueTypeName(entry.type)) + "s are ordered with compareTo, not " +
              std::string(op) + ", which fails with \"no such overload\"",
          OrderedComparison(left_text, op, right_text));
      return;
    }
    std::string suggestion;
    // int and bool convert to string losslessly; the other conversions can fail at runtime.
    auto convertible = [](ValueType t) { return t == ValueType::kInt || t == ValueType::kBool; };
    if (equality && entry.type == ValueType::kString && convertible(other->type)) {
      suggestion = left_text + " " + std::string(op) + " string(" + right_text + ")";
    } else if (equality && other->type == ValueType::kString && convertible(entry.type)) {
      suggestion = "string(" + left_text + ") " + std::string(op) + " " + right_text;
    }
    Add(Severity::kError, "schema.type.mismatch", field, cmp.literal_offset, cmp.literal_length,
        typed(a, entry.type) + " but " + typed(right, other->type) +
            (equality ? ": values of different types are never equal, so " + std::string(op) +
                            (op == "==" ? " is never true" : " is always true")
                      : ": " + std::string(op) + " between them fails with \"no such overload\""),
        std::move(suggestion));
  }

  // An attribute published as a list (DRAListTypeAttributes) compared with a scalar: a list
  // never equals a scalar and has no ordering. Membership is includes() (a draguard rule:
  // the API server accepts the expression, it just never matches).
  void ListComparison(const Access& a, const Entry& entry, const FieldPath& field) {
    const Comparison& cmp = *a.comparison;
    std::optional<ValueType> literal = cmp.other ? std::nullopt : LiteralType(cmp.literal);
    if (!cmp.other && !literal) return;
    if (cmp.other && !cmp.access_on_left) return;
    const std::string_view op = LeftOp(cmp);
    const bool equality = op == "==" || op == "!=";
    const std::string operand = cmp.other ? internal::AccessText(OtherAsAccess(*cmp.other))
                                          : (*literal == ValueType::kString
                                                 ? Quote(LiteralText(cmp.literal))
                                                 : LiteralText(cmp.literal));
    std::string message = Quote(a.domain + "/" + a.name) + " is published as a list of " +
                          std::string(ValueTypeName(entry.type)) + "s but is compared with " +
                          (cmp.other ? operand : "the " + std::string(ValueTypeName(*literal)) +
                                                     " " + operand);
    message += equality ? std::string(", which is never equal (a list is not a scalar)")
                        : ", which fails with \"no such overload\"";
    message += "; test membership with includes()";
    std::string suggestion;
    if (equality) {
      suggestion = std::string(op == "!=" ? "!" : "") + internal::AccessText(a) + ".includes(" +
                   operand + ")";
    }
    Add(Severity::kError, "schema.type.mismatch", field, cmp.literal_offset, cmp.literal_length,
        std::move(message), std::move(suggestion));
  }

  static Access OtherAsAccess(const internal::OtherAccess& o) {
    Access right;
    right.capacity = o.capacity;
    right.domain = o.domain;
    right.name = o.name;
    return right;
  }

  static bool IsInteger(std::string_view s) {
    if (!s.empty() && s.front() == '-') s.remove_prefix(1);
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  }

  void TypeMismatch(const Access& a, const Entry& entry, ValueType literal, const FieldPath& field,
                    const std::string& how, std::string suggestion) {
    const Comparison& cmp = *a.comparison;
    std::string message = Quote(a.domain + "/" + a.name) + " is " +
                          std::string(entry.type == ValueType::kInt ? "an " : "a ") +
                          std::string(ValueTypeName(entry.type)) + " but is compared with the " +
                          std::string(ValueTypeName(literal)) + " " +
                          (literal == ValueType::kString ? Quote(LiteralText(cmp.literal))
                                                         : LiteralText(cmp.literal));
    const bool equality = cmp.op == cel::op::kEquals || cmp.op == cel::op::kNotEquals;
    message += equality ? ", which is never equal" : ", which fails with \"no such overload\"";
    if (!how.empty()) message += "; " + how;
    Add(Severity::kError, "schema.type.mismatch", field, cmp.literal_offset, cmp.literal_length,
        std::move(message), std::move(suggestion));
  }

  void CheckClosedSet(const Access& a, const Entry& entry, const std::string& value,
                      const FieldPath& field) {
    if (entry.closed_values.empty()) return;
    if (std::find(entry.closed_values.begin(), entry.closed_values.end(), value) !=
        entry.closed_values.end()) {
      return;
    }
    std::vector<std::string_view> candidates(entry.closed_values.begin(), entry.closed_values.end());
    std::optional<std::string> close = ClosestMatch(value, candidates);
    std::string all;
    for (const std::string& v : entry.closed_values) all += (all.empty() ? "" : ", ") + Quote(v);
    const Comparison& cmp = *a.comparison;
    Add(cmp.op == cel::op::kEquals ? Severity::kError : Severity::kWarning,
        "schema.value.never-matches", field, cmp.literal_offset, cmp.literal_length,
        Quote(a.domain + "/" + a.name) + " is always one of " + all + ", never " + Quote(value) +
            (cmp.op == cel::op::kEquals ? ", so this comparison never matches"
                                        : ", so this comparison is always true"),
        close ? internal::AccessText(a) + " " + std::string(LeftOp(cmp)) + " " + Quote(*close)
              : std::string());
  }

  void CheckMethod(const Access& a, const Entry& entry, const FieldPath& field) {
    if (a.method == "includes") return CheckIncludes(a, entry, field);
    if (entry.list) {
      Add(Severity::kError, "schema.type.mismatch", field, a.method_offset,
          static_cast<int>(a.method.size()),
          Quote(a.domain + "/" + a.name) + " is published as a list of " +
              std::string(ValueTypeName(entry.type)) + "s, which has no " + a.method +
              "(); the call fails with \"no such overload\"",
          internal::AccessText(a) + ".exists(v, v." + a.method + "(...))");
      return;
    }
    const bool string_method = IsStringMethod(a.method);
    const bool ordering = IsOrderingMethod(a.method);
    if (string_method && entry.type != ValueType::kString) {
      Add(Severity::kError, "schema.type.mismatch", field, a.method_offset,
          static_cast<int>(a.method.size()),
          Quote(a.domain + "/" + a.name) + " is a " + std::string(ValueTypeName(entry.type)) +
              ", which has no " + a.method + "(); the call fails with \"no such overload\"",
          entry.type == ValueType::kVersion || entry.type == ValueType::kQuantity
              ? internal::AccessText(a) + ".compareTo(" +
                    (entry.type == ValueType::kVersion ? "semver(\"1.0.0\")" : "quantity(\"1\")") +
                    ") >= 0"
              : std::string());
    } else if (ordering && entry.type != ValueType::kVersion && entry.type != ValueType::kQuantity) {
      Add(Severity::kError, "schema.type.mismatch", field, a.method_offset,
          static_cast<int>(a.method.size()),
          Quote(a.domain + "/" + a.name) + " is a " + std::string(ValueTypeName(entry.type)) +
              "; " + a.method + "() exists only on versions and quantities",
          entry.type == ValueType::kInt || entry.type == ValueType::kString
              ? internal::AccessText(a) + " >= " +
                    (entry.type == ValueType::kInt ? "0" : "\"value\"")
              : std::string());
    }
  }

  // includes() on an attribute published as a scalar string is equality, not a substring
  // test (dynamic-resource-allocation v0.36.0 includesFunc): "H100".includes("H1") is false.
  void CheckIncludes(const Access& a, const Entry& entry, const FieldPath& field) {
    if (entry.list || entry.type != ValueType::kString) return;
    Add(Severity::kWarning, "schema.includes.scalar", field, a.method_offset,
        static_cast<int>(a.method.size()),
        Quote(a.domain + "/" + a.name) + " is published as a single string: includes() on it "
            "is equality (true only for the whole value), not a substring test",
        internal::AccessText(a) + ".contains(...)");
  }

  // Device types of `domain` that may reach the access: pinned ones, else all.
  // The device types whose devices can reach the selector: those the context pins, else all
  // of the domain's. Views into `a` or `domain`, which outlive the result.
  static std::vector<std::string_view> ReachableTypes(const Access& a,
                                                      const DomainSchema& domain) {
    if (auto it = a.context->types.find(a.domain); it != a.context->types.end()) {
      return {it->second.begin(), it->second.end()};
    }
    return {domain.device_types.begin(), domain.device_types.end()};
  }

  // `types` quoted and separated by ", ", appended to `out`.
  template <class Types>
  static void AppendQuotedList(const Types& types, std::string& out) {
    bool first = true;
    for (const auto& t : types) {
      if (!first) out += ", ";
      first = false;
      AppendQuoted(t, out);
    }
  }

  // The messages are appended in place: on a fleet with several device types this finding is
  // on every admission request whose selector reads a type-specific attribute, and each `+`
  // of temporaries allocated (~11,000 instructions a request in Quote and concatenation).
  void CheckPublished(const Access& a, const DomainSchema& domain, const Entry& entry,
                      const std::string& expression, const FieldPath& field, bool reach_known) {
    if (a.context->present.count({a.domain, a.name}) > 0) return;
    if (entry.device_types.empty() || domain.device_types.empty()) return;
    const bool pinned = a.context->types.count(a.domain) > 0;
    if (!pinned && !reach_known) return;  // unknown class: the schema cannot say
    const std::vector<std::string_view> reachable = ReachableTypes(a, domain);
    std::vector<std::string_view> without;
    for (std::string_view t : reachable) {
      if (std::find(entry.device_types.begin(), entry.device_types.end(), t) ==
          entry.device_types.end()) {
        without.push_back(t);
      }
    }
    if (without.empty()) return;
    std::string qualified;
    qualified.reserve(a.domain.size() + 1 + a.name.size());
    qualified.append(a.domain).append("/").append(a.name);
    std::string message;
    AppendQuoted(qualified, message);
    if (without.size() == reachable.size()) {
      message.append(" is published only on ").append(domain.type_attribute).append(" ");
      AppendQuotedList(entry.device_types, message);
      message += ", but only ";
      AppendQuotedList(without, message);
      message += " devices can reach this selector; the lookup fails on every one of them";
      Add(Severity::kError, "schema.attribute.not-published", field, a.name_offset,
          a.name_length, std::move(message));
      return;
    }
    message.append(" is not published on ").append(domain.type_attribute).append(" ");
    AppendQuotedList(without, message);
    message +=
        " devices, which can reach this selector; on them the lookup fails with "
        "\"no such key\" and the pod's scheduling attempt is aborted";
    std::string suggestion;
    suggestion.reserve(a.name.size() + a.domain.size() + expression.size() + 40);
    AppendQuoted(a.name, suggestion);
    suggestion.append(a.capacity ? " in device.capacity[" : " in device.attributes[");
    AppendQuoted(a.domain, suggestion);
    suggestion.append("] && (").append(expression).append(")");
    quotes_text = true;  // no shape entry: the suggestion spells every literal and space
    Add(Severity::kWarning, "schema.attribute.unguarded", field, a.name_offset, a.name_length,
        std::move(message), std::move(suggestion));
  }

  // --- requests and classes ------------------------------------------------------------------

  const k8s::DeviceClass* FindClass(const std::string& name) const {
    for (const k8s::DeviceClass* c : options.classes) {
      if (c != nullptr && c->metadata.name == name) return c;
    }
    return nullptr;
  }

  // What holds for devices that pass a class's selectors (checked elsewhere).
  Facts ClassFacts(const k8s::DeviceClass& c) {
    Facts facts;
    for (const k8s::DeviceSelector& s : c.spec.selectors) {
      if (!s.cel) continue;
      std::shared_ptr<const Outcome> outcome =
          OutcomeOf(s.cel->expression, facts, /*reach_known=*/true, /*facts_only=*/true);
      if (outcome == nullptr) continue;
      facts = outcome->when_true;
    }
    return facts;
  }

  // Checks the selectors of a request or subrequest; returns the facts of its devices.
  // `at()` is the request's path (built only for a finding).
  template <class At>
  Facts CheckRequest(const k8s::DeviceRequestCommon& request, const At& at) {
    const k8s::DeviceClass* klass = FindClass(request.device_class_name);
    Facts facts = klass ? ClassFacts(*klass) : Facts{};
    for (size_t i = 0; i < request.selectors.size(); ++i) {
      if (!request.selectors[i].cel) continue;
      facts = CheckSelector(
          request.selectors[i].cel->expression,
          [&] { return at().Child("selectors").Index(i).Child("cel").Child("expression"); },
          facts, klass != nullptr);
    }
    return facts;
  }

  // The devices one request name ("req", and "req/sub" for a subrequest) can select: one
  // Facts per alternative.
  struct Reach {
    std::string request;
    std::vector<Facts> alternatives;
  };

  // The entry of `request` in `reach`, added when missing. A claim has a few requests: a
  // linear search over a vector, with no tree node or key string per lookup.
  static std::vector<Facts>& ReachOf(std::vector<Reach>& reach, std::string_view request) {
    for (Reach& r : reach) {
      if (r.request == request) return r.alternatives;
    }
    return reach.emplace_back(Reach{std::string(request), {}}).alternatives;
  }

  // `devices()` is the path of the spec's devices (built only for a finding).
  template <class Devices>
  void CheckClaim(const k8s::ResourceClaimSpec& spec, const Devices& devices) {
    std::vector<Reach> reach;
    reach.reserve(spec.devices.requests.size());
    for (size_t i = 0; i < spec.devices.requests.size(); ++i) {
      const k8s::DeviceRequest& r = spec.devices.requests[i];
      if (r.exactly) {
        ReachOf(reach, r.name).push_back(CheckRequest(
            *r.exactly, [&] { return devices().Child("requests").Index(i).Child("exactly"); }));
      }
      for (size_t k = 0; k < r.first_available.size(); ++k) {
        Facts f = CheckRequest(r.first_available[k], [&] {
          return devices().Child("requests").Index(i).Child("firstAvailable").Index(k);
        });
        ReachOf(reach, r.name + "/" + r.first_available[k].name).push_back(f);
        ReachOf(reach, r.name).push_back(std::move(f));
      }
    }
    if (spec.devices.constraints.empty()) return;
    // The constraints see the requests in name order (their findings name pairs of them).
    std::sort(reach.begin(), reach.end(),
              [](const Reach& a, const Reach& b) { return a.request < b.request; });
    for (size_t i = 0; i < spec.devices.constraints.size(); ++i) {
      const k8s::DeviceConstraint& c = spec.devices.constraints[i];
      if (c.match_attribute) {
        CheckConstraint(*c.match_attribute, /*match=*/true, c.requests, reach, [&] {
          return devices().Child("constraints").Index(i).Child("matchAttribute");
        });
      }
      if (c.distinct_attribute) {
        CheckConstraint(*c.distinct_attribute, /*match=*/false, c.requests, reach, [&] {
          return devices().Child("constraints").Index(i).Child("distinctAttribute");
        });
      }
    }
  }

  // `field()` is the constraint's path (built only for a finding).
  template <class Field>
  void CheckConstraint(const std::string& qualified, bool match,
                       const std::vector<std::string>& names, const std::vector<Reach>& reach,
                       const Field& field) {
    const size_t slash = qualified.find('/');
    if (slash == std::string::npos) return;  // validation: must be fully qualified
    // Views: the strings are built only for a finding's message.
    const std::string_view domain_name = std::string_view(qualified).substr(0, slash);
    const std::string_view name = std::string_view(qualified).substr(slash + 1);
    const int length = static_cast<int>(qualified.size());
    const DomainSchema* domain = schema.FindDomain(domain_name);
    if (domain == nullptr) {
      auto [severity, close] = UnknownDomainFinding(domain_name);
      Add(severity, "schema.domain.unknown", field(), 0, length,
          "no driver in the attribute schema publishes the domain " + Quote(domain_name) +
              "; devices without the attribute never satisfy the constraint" +
              (close ? " (did you mean " + Quote(*close) + "?)" : std::string()) +
              (severity == Severity::kInfo ? std::string(NotInSchema()) : std::string()),
          close ? *close + "/" + std::string(name) : std::string());
      return;
    }
    const Entry* entry = domain->FindAttribute(name);
    if (entry == nullptr) {
      std::optional<std::string> close = ClosestMatch(name, Names(domain->attributes));
      Add(domain->complete ? UnknownSeverity() : Severity::kWarning,
          "schema.constraint.attribute.unknown", field(), 0, length,
          "the attribute schema has no attribute " + Quote(name) + " in domain " +
              Quote(domain_name) + "; devices without it never satisfy the constraint" +
              (close ? " (did you mean " + Quote(*close) + "?)" : std::string()),
          close ? std::string(domain_name) + "/" + *close : std::string());
      return;
    }
    if (entry->removed_in) {
      Add(Severity::kError, "schema.attribute.removed", field(), 0, length,
          Quote(qualified) + " is no longer published by the driver (removed in " +
              *entry->removed_in + ")" + (entry->note.empty() ? "" : ": " + entry->note),
          entry->replaced_by.empty()
              ? std::string()
              : (entry->replaced_by.find('/') == std::string::npos
                     ? std::string(domain_name) + "/" + entry->replaced_by
                     : entry->replaced_by));
      return;
    }
    if (entry->deprecated) {
      Add(Severity::kWarning, "schema.attribute.deprecated", field(), 0, length,
          Quote(qualified) + " is deprecated by the driver" +
              (entry->note.empty() ? "" : " (" + entry->note + ")"),
          entry->replaced_by);
    }
    // The constrained requests (all of them when the list is empty).
    std::vector<std::pair<std::string_view, const std::vector<Facts>*>> requests;
    for (const auto& [request, facts] : reach) {
      const bool listed =
          names.empty() ? request.find('/') == std::string::npos
                        : std::find(names.begin(), names.end(), request) != names.end();
      if (listed) requests.emplace_back(request, &facts);
    }
    if (!CheckConstraintTypes(qualified, match, requests, *domain, *entry, field)) return;
    if (entry->device_types.empty()) return;
    std::vector<const Facts*> constrained;
    for (const auto& [request, facts] : requests) {
      for (const Facts& f : *facts) constrained.push_back(&f);
    }
    for (const Facts* f : constrained) {
      auto pinned = f->types.find(std::string(domain_name));
      if (pinned == f->types.end() || pinned->second.empty()) continue;
      const bool any = std::any_of(pinned->second.begin(), pinned->second.end(),
                                   [&](const std::string& t) {
                                     return std::find(entry->device_types.begin(),
                                                      entry->device_types.end(),
                                                      t) != entry->device_types.end();
                                   });
      if (any) continue;
      std::string types;
      for (const std::string& t : pinned->second) types += (types.empty() ? "" : ", ") + Quote(t);
      const std::string alternative =
          PublishedAlternative(*domain, std::string(name), pinned->second);
      Add(Severity::kError, "schema.constraint.attribute.not-published", field(), 0, length,
          Quote(qualified) + " is not published on " + domain->type_attribute + " " + types +
              " devices, which are the only ones a constrained request can select; the " +
              "constraint can never be satisfied" +
              (alternative.empty() ? std::string()
                                   : " (those devices publish " + Quote(alternative) + ")"),
          alternative.empty() ? std::string() : std::string(domain_name) + "/" + alternative);
      return;
    }
  }

  // The types an attribute takes on the devices one request can select, each with a driver
  // publishing it that way. `certain` when every type is what the schema says the driver
  // publishes (observed in its slices, or declared for a driver of the domain) rather than
  // assumed for a driver the schema knows nothing about.
  struct RequestTypes {
    std::map<ValueType, std::string> types;
    bool certain = true;
  };

  // nullopt when an alternative of the request does not pin device.driver: then any driver,
  // and so any type, may reach it.
  std::optional<RequestTypes> TypesOnRequest(const std::vector<Facts>& alternatives,
                                             const DomainSchema& domain,
                                             const Entry& entry) const {
    RequestTypes out;
    for (const Facts& f : alternatives) {
      if (!f.drivers) return std::nullopt;
      for (const std::string& driver : *f.drivers) {
        if (auto it = entry.published_types.find(driver); it != entry.published_types.end()) {
          out.types.emplace(it->second, driver);
          continue;
        }
        const bool publishes =
            domain.drivers.empty() ||
            std::find(domain.drivers.begin(), domain.drivers.end(), driver) != domain.drivers.end();
        // A known driver that does not publish the domain lacks the attribute altogether:
        // not a question of types.
        if (!publishes && KnowsDriver(driver)) continue;
        out.types.emplace(entry.declared_type.value_or(entry.type), driver);
        out.certain = out.certain && publishes && entry.declared_type.has_value();
      }
    }
    if (out.types.empty()) return std::nullopt;
    return out;
  }

  // Whether `sub` names a subrequest of `request` ("req/sub" of "req").
  static bool IsSubrequestOf(std::string_view sub, std::string_view request) {
    return sub.size() > request.size() && sub[request.size()] == '/' &&
           sub.starts_with(request);
  }

  static std::string TypesText(const RequestTypes& t) {
    std::string out;
    for (const auto& [type, driver] : t.types) {
      out += (out.empty() ? "" : " or ") + std::string(type == ValueType::kInt ? "an " : "a ") +
             std::string(ValueTypeName(type)) + " (driver " + Quote(driver) + ")";
    }
    return out;
  }

  // matchAttribute over requests whose devices publish the attribute with different types can
  // never be satisfied: values of different types are never equal. distinctAttribute over them
  // never rejects anything. Returns false when it reported.
  template <class Field>
  bool CheckConstraintTypes(
      const std::string& qualified, bool match,
      const std::vector<std::pair<std::string_view, const std::vector<Facts>*>>& requests,
      const DomainSchema& domain, const Entry& entry, const Field& field) {
    std::vector<std::pair<std::string_view, RequestTypes>> typed;
    for (const auto& [request, facts] : requests) {
      if (std::optional<RequestTypes> t = TypesOnRequest(*facts, domain, entry)) {
        typed.emplace_back(request, std::move(*t));
      }
    }
    for (size_t i = 0; i < typed.size(); ++i) {
      for (size_t j = i + 1; j < typed.size(); ++j) {
        const auto& [a, ta] = typed[i];
        const auto& [b, tb] = typed[j];
        // "req" and "req/sub" are the same request.
        if (IsSubrequestOf(b, a) || IsSubrequestOf(a, b)) continue;
        const auto& b_types = tb.types;  // clang 14 cannot capture structured bindings
        const bool shared = std::any_of(ta.types.begin(), ta.types.end(), [&](const auto& t) {
          return b_types.count(t.first) > 0;
        });
        if (shared) continue;
        const bool certain = ta.certain && tb.certain;
        Add(match && certain ? Severity::kError : Severity::kWarning,
            "schema.constraint.attribute.type-mismatch", field(), 0,
            static_cast<int>(qualified.size()),
            Quote(qualified) + " is " + TypesText(ta) + " on the devices request " + Quote(a) +
                " can select, but " + TypesText(tb) + " on those of request " + Quote(b) +
                (match ? ": values of different types are never equal, so the constraint can "
                         "never be satisfied"
                       : ": values of different types always differ, so the constraint never "
                         "rejects a device of one of them for a device of the other") +
                (certain ? "" : " (assuming the drivers the schema does not describe publish "
                                "the declared type)"));
        return false;
      }
    }
    return true;
  }

  // An attribute of `domain` published on all of `types` whose name contains `name`
  // (case-insensitively), e.g. parentDeviceID for deviceID.
  static std::string PublishedAlternative(const DomainSchema& domain, const std::string& name,
                                          const std::set<std::string>& types) {
    const std::string wanted = AsciiLower(name);
    for (const auto& [candidate, entry] : domain.attributes) {
      if (candidate == name || entry.removed_in) continue;
      if (AsciiLower(candidate).find(wanted) == std::string::npos) continue;
      const auto& published_on = entry.device_types;  // clang 14: no structured-binding capture
      const bool covers = published_on.empty() ||
                          std::all_of(types.begin(), types.end(), [&](const std::string& t) {
                            return std::find(published_on.begin(), published_on.end(), t) !=
                                   published_on.end();
                          });
      if (covers) return candidate;
    }
    return {};
  }

  void CheckClass(const k8s::DeviceClass& c) {
    Facts facts;
    const FieldPath selectors = FieldPath("spec").Child("selectors");
    for (size_t i = 0; i < c.spec.selectors.size(); ++i) {
      if (!c.spec.selectors[i].cel) continue;
      facts = CheckSelector(
          c.spec.selectors[i].cel->expression,
          [&] { return selectors.Index(i).Child("cel").Child("expression"); }, facts,
          /*reach_known=*/true);
    }
  }
};

}  // namespace

void CheckObject(const k8s::ObjectVariant& object, const Schema& schema,
                 const CheckOptions& options, Diagnostics& out,
                 cel::CompiledSelectors* known) {
  Checker checker{schema, options, &out, known, {}, {}};
  if (const auto* claim = std::get_if<k8s::ResourceClaim>(&object)) {
    checker.CheckClaim(claim->spec, [] { return FieldPath("spec").Child("devices"); });
  } else if (const auto* tmpl = std::get_if<k8s::ResourceClaimTemplate>(&object)) {
    checker.CheckClaim(tmpl->spec,
                       [] { return FieldPath("spec").Child("spec").Child("devices"); });
  } else if (const auto* klass = std::get_if<k8s::DeviceClass>(&object)) {
    checker.CheckClass(*klass);
  }
}

}  // namespace draguard::schema
