// The CEL side of selector validation: a SelectorChecker (options.h) that compiles each
// selector expression as the API server does for the validated Kubernetes version and gates
// (policy/cel/compiler.h), and reports compile errors, non-bool results and excessive cost at
// the expression's field path, positioned inside the expression.
#ifndef DRAGUARD_POLICY_VALIDATE_CEL_SELECTORS_H_
#define DRAGUARD_POLICY_VALIDATE_CEL_SELECTORS_H_

#include <memory>

#include "policy/cel/compiler.h"
#include "policy/cel/env.h"
#include "policy/validate/options.h"

namespace draguard::validate {

// The CEL environment options that the API server uses for `kind` under `options`.
cel::EnvOptions CelEnvOptions(const ValidationOptions& options, SelectorKind kind);

// Returns a checker compiling through `cache` (shared, thread safe; may be reused across
// objects, files and requests). The checker captures the version and gates of `options` as
// they are now. Every diagnostic it adds carries `field` and the byte range inside the
// expression. When called with a `remember` (ValidationOptions::remembered_selectors), each
// result is also kept there for the later stages that check the same object (the webhook's
// schema check), which then do not look it up again.
SelectorChecker MakeCelSelectorChecker(const ValidationOptions& options,
                                       std::shared_ptr<cel::SelectorCache> cache);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_CEL_SELECTORS_H_
