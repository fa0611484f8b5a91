// Selector shapes (issue 16): selectors that tools and templates stamp differ from each other
// only in literals (a model name, a memory size, a driver version). Their parse, type check
// and most checks come out the same but for the literals' values and the nodes' offsets, so
// SelectorCache compiles one of them from scratch and builds the others from it.
//
// The shape of an expression is its token sequence with the values of some literals left
// out: every token's kind, an identifier's text, and the text of a literal the checker or a
// later stage may read for typing. Int, uint, double, string and bytes literals are
// abstracted except where such a value can matter: an index key (`x["domain"]`, `x[?"k"]`,
// also list elements written first after `[`) and anything followed by `:` (map keys, the
// branches of `?:` too, conservatively) stay in the shape. Whitespace and comments are not
// part of it; offsets are remapped token by token.
//
// A shape's template is a compile result with no diagnostic at all. Instantiating it for a
// new text of the same shape copies the tree with the new literals' values (decoded as the
// parser does) and offsets, reuses the types and references (a literal's type depends on
// its token kind only; the parser and the checker read no other literal value), re-runs
// every check that reads a literal's value (the literal validators: matches/find patterns,
// durations, timestamps; the format() validator) and re-estimates the cost. When any of
// them reports anything, a literal does not decode, or the cost exceeds the limit, it gives
// up and the caller compiles from scratch, so a result built here always equals
// CompileSelector's (tests/policy/cel/selector_shape_test.cc compares them).
#ifndef DRAGUARD_POLICY_CEL_SELECTOR_SHAPE_H_
#define DRAGUARD_POLICY_CEL_SELECTOR_SHAPE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "policy/cel/compiler.h"
#include "policy/cel/cost.h"
#include "policy/cel/env.h"
#include "policy/cel/lexer.h"

namespace draguard::cel {

// Whether the value of literal token `i` is left out of the shape. Kept: an index key or a
// list's first element (after `[` or `[?`), and anything followed by `:` (a map key; also a
// `?:` branch). A function of the kinds around `i` only, so that texts of one shape abstract
// the same tokens (the schema memo's shape keys rely on it too: policy/schema/check.cc).
bool IsAbstractedLiteral(const std::vector<Token>& tokens, size_t i);

// Appends the shape of `text` (lexed into `tokens`, without lexer issues) to `key`. Returns
// false when no literal is abstracted: such a shape is its text, which SelectorCache keys
// already.
bool AppendSelectorShape(std::string_view text, const std::vector<Token>& tokens,
                         std::string& key);

// A compile result that can be instantiated for other texts of its shape. Immutable; thread
// safe.
class SelectorShape {
 public:
  // The template made of `result`, the compile of the text `tokens` were lexed from; null when
  // it cannot be one (a diagnostic, no abstracted literal, a node whose offset is not a
  // token's, a literal that is not exactly one constant).
  static std::shared_ptr<const SelectorShape> Make(
      std::shared_ptr<const SelectorCompileResult> result, const std::vector<Token>& tokens);

  // CompileSelector(text, options)'s result, for a `text` of the template's shape (lexed into
  // `tokens`, without issues) under the options the template was compiled with; null when in
  // doubt (see above): the caller compiles from scratch.
  std::unique_ptr<SelectorCompileResult> Instantiate(std::string_view text,
                                                     const std::vector<Token>& tokens,
                                                     const EnvOptions& options) const;

  // The heap this template holds, the shared compile result included.
  size_t ApproximateBytes() const;

 private:
  struct Slot {
    int32_t token = -1;    // the token at the node's (or map entry's) offset; -1: no such id
    int32_t literal = -1;  // a constant's abstracted literal token, or -1 when it is kept
  };
  class Copier;
  // Costs estimated for other literal sizes than the template's: texts of one shape often
  // repeat the sizes (a model name of fixed width, "16Gi" and "32Gi"). Thread safe.
  class CostMemo {
   public:
    static constexpr size_t kEntries = 4;
    bool Find(const std::string& sizes, CostEstimate* cost);
    void Add(std::string sizes, CostEstimate cost);

   private:
    std::mutex mu_;
    std::vector<std::pair<std::string, CostEstimate>> entries_;
    size_t next_ = 0;  // replaced next once full
  };

  std::shared_ptr<const SelectorCompileResult> result_;
  size_t token_count_ = 0;
  std::vector<Slot> slots_;  // by node id
  // Whether the tree has a call the literal validators or the format() validator look at.
  bool validates_literals_ = false;
  bool validates_format_ = false;
  std::string template_sizes_;  // the template's literal sizes (Copier::sizes_)
  std::unique_ptr<CostMemo> costs_ = std::make_unique<CostMemo>();
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_SELECTOR_SHAPE_H_
