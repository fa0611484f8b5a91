#include "policy/cel/compiler.h"

#include <algorithm>
#include <array>
#include <utility>

#include "policy/cel/checker.h"
#include "policy/cel/lexer.h"
#include "policy/cel/parser.h"
#include "policy/cel/parser_options.h"
#include "policy/cel/selector_shape.h"
#include "policy/common/release.h"

namespace draguard::cel {
namespace {

// Prefixes every error with the API server's "compilation failed: " detail. The API server
// joins all issues into one cel-go block with caret lines; draguard keeps one diagnostic per
// issue, each positioned inside the expression, so the caret is drawn in the user's file
// instead (FormatCelIssues renders the cel-go block where that exact text is wanted).
void AdoptCompileErrors(const Diagnostics& found, Diagnostics& out) {
  for (const Diagnostic& d : found) {
    Diagnostic copy = d;
    // A program-instantiation failure is not a compile error in the API server's words.
    if (copy.is_error() && copy.code != "cel.program-instantiation") {
      copy.message = "compilation failed: " + copy.message;
    }
    out.Add(std::move(copy));
  }
}

// bool or the unknown type; with DRAListTypeAttributes also dyn (an attribute's type then).
bool AcceptedResultType(const Type& t, const EnvOptions& options) {
  if (t.kind() == TypeKind::kDyn) {
    return ReleaseFor(options.version).cel.list_type_attributes &&
           options.list_type_attributes_gate;
  }
  return t.kind() == TypeKind::kBool || t.kind() == TypeKind::kAny;
}

}  // namespace

SelectorCompileResult CompileSelector(std::string_view expression, const EnvOptions& options) {
  SelectorCompileResult result;
  if (expression.size() > kMaxSelectorExpressionBytes) {
    result.issues.Error("cel.expression-too-long", FieldPath(),
                        "may not be more than " + std::to_string(kMaxSelectorExpressionBytes) +
                            " bytes",
                        "split the condition over several selectors; all must match");
    return result;
  }
  ParseResult parsed = Parse(expression);
  if (!parsed.ok()) {
    AdoptCompileErrors(parsed.issues, result.issues);
    return result;
  }
  std::shared_ptr<const Environment> env = Environment::ForDraSelector(options);
  CheckResult checked = Check(*parsed.ast, *env);
  result.ast = std::move(parsed.ast);
  result.checked = std::move(checked.checked);
  if (!checked.ok()) {
    AdoptCompileErrors(checked.issues, result.issues);
    return result;
  }
  const Type& type = result.checked.result_type();
  if (!AcceptedResultType(type, options)) {
    Diagnostic& d = result.issues.Error(
        "cel.result-type", FieldPath(),
        "must evaluate to bool or the unknown type, not " + type.DebugString(),
        "compare the value, e.g. `... == \"value\"`, so the selector yields a bool");
    d.value_offset = 0;
    return result;
  }
  CostOptions cost_options;
  cost_options.sizes = &DraSizeEstimator();
  result.cost = EstimateCost(*result.ast, result.checked, cost_options);
  if (result.cost.max > kMaxSelectorCost) {
    Diagnostic& d = result.issues.Error(
        "cel.cost-exceeded", FieldPath(), "too complex, exceeds cost limit",
        "avoid nested comprehensions over large lists and unbounded string operations");
    d.value_offset = 0;
  }
  return result;
}

// Per node of the tree besides its slot in the Ast's arena (counted exactly): a call's
// argument vector, the name or field strings beyond the small-string buffer; and the
// checker's type slot and reference (overload ids). Calibrated against measured allocations
// by memory_estimate_test, which fails if either drifts below what is really held.
constexpr size_t kAstBytesPerNode = 144;
constexpr size_t kCheckedBytesPerNode = 192;

size_t SelectorCompileResult::ApproximateBytes() const {
  size_t bytes = sizeof(*this) + draguard::ApproximateBytes(issues.items()) +
                 tokens.capacity() * sizeof(Token);
  if (ast != nullptr) {
    const size_t nodes = static_cast<size_t>(std::max<int64_t>(ast->max_id(), 0)) + 1;
    // The source is held once by the Ast; constants' and names' texts add up to it again.
    bytes += ast->arena_bytes() + nodes * (kAstBytesPerNode + kCheckedBytesPerNode) +
             2 * ast->source().text().size();
  }
  return bytes;
}

void SelectorCacheKey(std::string_view expression, const EnvOptions& options, std::string& key) {
  key.clear();
  key.reserve(expression.size() + 6);
  AppendSelectorOptionsKey(options, key);
  key.append(expression);
}

void AppendSelectorOptionsKey(const EnvOptions& options, std::string& key) {
  // Keyed by the CEL dialect, not the release: releases with equal dialects share entries.
  const CelDialect& cel = ReleaseFor(options.version).cel;
  key.push_back(cel.lists_v3_in_new_expressions ? 'L' : 'l');
  key.push_back(cel.list_type_attributes ? 'T' : 't');
  key.push_back(options.list_type_attributes_gate ? 'A' : 'a');
  key.push_back(options.mode == EnvOptions::kStoredExpressions ? 'S' : 'N');
  key.push_back(options.consumable_capacity_gate ? 'G' : 'g');
  key.push_back(':');
}

SelectorCache::SelectorCache(CacheLimits limits, CacheLimits shape_limits, size_t sightings)
    : cache_(limits),
      shapes_(std::make_unique<ConcurrentCache<SelectorShape>>(shape_limits)),
      seen_(sightings > 0 ? std::make_unique<SightingFilter>(sightings) : nullptr) {}

namespace {

// A thread's last compile results that a SelectorCache with sightings did not keep, with
// their keys. A key names the compile's text and options whole, so a result serves any cache
// that finds it by its key (even one made after the cache that made it was gone).
struct ThreadRecent {
  struct Item {
    std::string key;
    std::shared_ptr<const SelectorCompileResult> result;
  };
  std::array<Item, SelectorCache::kThreadRecent> items;
  size_t next = 0;  // replaced next
};

ThreadRecent& ThisThreadRecent() {
  thread_local ThreadRecent recent;
  return recent;
}

}  // namespace

std::shared_ptr<const SelectorCompileResult> SelectorCache::FindThreadRecent(
    std::string_view key) const {
  if (seen_ == nullptr) return nullptr;
  for (const ThreadRecent::Item& item : ThisThreadRecent().items) {
    if (item.result != nullptr && item.key == key) return item.result;
  }
  return nullptr;
}

void SelectorCache::AddThreadRecent(
    std::string_view key, const std::shared_ptr<const SelectorCompileResult>& result) const {
  if (result->ApproximateBytes() > kThreadRecentMaxBytes) return;
  ThreadRecent& recent = ThisThreadRecent();
  ThreadRecent::Item& item = recent.items[recent.next];
  recent.next = (recent.next + 1) % recent.items.size();
  item.key.assign(key);
  item.result = result;
}

SelectorCache::~SelectorCache() = default;

CacheStats SelectorCache::shape_stats() const { return shapes_->stats(); }

std::shared_ptr<const SelectorCompileResult> SelectorCache::CompileMiss(
    std::string_view expression, const EnvOptions& options) {
  if (expression.size() > kMaxSelectorExpressionBytes) {
    return std::make_shared<const SelectorCompileResult>(CompileSelector(expression, options));
  }
  // Lexing costs a tenth of a compile; a text the lexer complains about compiles from scratch.
  Diagnostics lex_issues;
  std::vector<Token> tokens = Lex(expression, lex_issues, 1);
  thread_local std::string shape_key;
  shape_key.clear();
  AppendSelectorOptionsKey(options, shape_key);
  const bool shareable = lex_issues.empty() && AppendSelectorShape(expression, tokens, shape_key);
  bool had_shape = false;
  if (shareable) {
    if (std::shared_ptr<const SelectorShape> shape = shapes_->Find(shape_key)) {
      if (std::unique_ptr<SelectorCompileResult> built =
              shape->Instantiate(expression, tokens, options)) {
        built->tokens = std::move(tokens);
        return built;
      }
      had_shape = true;  // a literal's check reported something; the template stays
    }
  }
  auto compiled = std::make_shared<SelectorCompileResult>(CompileSelector(expression, options));
  if (lex_issues.empty()) compiled->tokens = std::move(tokens);
  std::shared_ptr<const SelectorCompileResult> result = std::move(compiled);
  if (shareable && !had_shape) {
    if (std::shared_ptr<const SelectorShape> shape = SelectorShape::Make(result, result->tokens)) {
      const size_t bytes = shape->ApproximateBytes();
      shapes_->Insert(shape_key, std::move(shape), bytes);
    }
  }
  return result;
}

std::shared_ptr<const SelectorCompileResult> SelectorCache::Compile(std::string_view expression,
                                                                    const EnvOptions& options) {
  // The lookup key is built in a per-thread buffer: the webhook looks up every selector of
  // every request (twice: validation and the schema check), and a fresh string is a malloc.
  thread_local std::string key;
  SelectorCacheKey(expression, options, key);
  const CacheKey hashed(key);
  if (std::shared_ptr<const SelectorCompileResult> found = cache_.Find(hashed)) return found;
  // A miss compiles outside the lock (a concurrent duplicate compile is harmless), unless
  // this thread made the result lately; it is kept when the key missed before.
  std::shared_ptr<const SelectorCompileResult> made = FindThreadRecent(key);
  const bool recent = made != nullptr;
  if (!recent) made = CompileMiss(expression, options);
  if (seen_ != nullptr && !seen_->Saw(hashed.hash())) {
    if (!recent) AddThreadRecent(key, made);
    return made;
  }
  return cache_.Insert(hashed, made, made->ApproximateBytes());
}

std::shared_ptr<const SelectorCompileResult> SelectorCache::Find(std::string_view expression,
                                                                 const EnvOptions& options) {
  thread_local std::string key;
  SelectorCacheKey(expression, options, key);
  if (std::shared_ptr<const SelectorCompileResult> found = cache_.Peek(key)) return found;
  return FindThreadRecent(key);
}

void CompiledSelectors::Remember(const EnvOptions& options,
                                 std::shared_ptr<const SelectorCompileResult> result) {
  if (result == nullptr || result->ast == nullptr) return;
  items_.push_back({options, std::move(result)});
}

std::shared_ptr<const SelectorCompileResult> CompiledSelectors::Next(std::string_view expression,
                                                                     const EnvOptions& options) {
  if (next_ >= items_.size()) return nullptr;
  const Item& item = items_[next_];
  if (item.result->ast->source().text() != expression || !(item.options == options)) {
    return nullptr;
  }
  ++next_;
  return item.result;
}

}  // namespace draguard::cel
