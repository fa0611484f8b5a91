#include "policy/validate/cel_selectors.h"

#include <utility>

namespace draguard::validate {

cel::EnvOptions CelEnvOptions(const ValidationOptions& options, SelectorKind kind) {
  cel::EnvOptions env;
  env.version = options.version;
  env.mode = kind == SelectorKind::kStoredExpression ? cel::EnvOptions::kStoredExpressions
                                                     : cel::EnvOptions::kNewExpressions;
  env.consumable_capacity_gate = options.Enabled(Gate::kDRAConsumableCapacity);
  env.list_type_attributes_gate = options.Enabled(Gate::kDRAListTypeAttributes);
  return env;
}

SelectorChecker MakeCelSelectorChecker(const ValidationOptions& options,
                                       std::shared_ptr<cel::SelectorCache> cache) {
  const cel::EnvOptions new_env = CelEnvOptions(options, SelectorKind::kNewExpression);
  const cel::EnvOptions stored_env = CelEnvOptions(options, SelectorKind::kStoredExpression);
  return [cache = std::move(cache), new_env, stored_env](
             std::string_view expression, const FieldPath& field, SelectorKind kind,
             Diagnostics& diagnostics, cel::CompiledSelectors* remember) {
    const cel::EnvOptions& env = kind == SelectorKind::kStoredExpression ? stored_env : new_env;
    std::shared_ptr<const cel::SelectorCompileResult> result = cache->Compile(expression, env);
    if (remember != nullptr) remember->Remember(env, result);
    for (const Diagnostic& issue : result->issues) {
      Diagnostic d = issue;
      d.field = field.String();
      if (d.value_offset < 0) d.value_offset = 0;
      diagnostics.Add(std::move(d));
    }
  };
}

}  // namespace draguard::validate
