#include "policy/cel/functions/registry.h"

namespace draguard::cel {

void Registry::Add(std::string_view name, int arity, Function fn) {
  auto it = functions_.find(name);
  if (it == functions_.end()) it = functions_.emplace(std::string(name), Overloads{}).first;
  for (auto& [a, f] : it->second) {
    if (a == arity) {
      f = fn;
      return;
    }
  }
  it->second.emplace_back(arity, fn);
}

Function Registry::Find(std::string_view name, int arity) const {
  // Planning asks once per call node: looked up by the name as given (no key is built), then
  // the few arities of the name are compared.
  auto it = functions_.find(name);
  if (it == functions_.end()) return nullptr;
  for (const auto& [a, fn] : it->second) {
    if (a == arity) return fn;
  }
  return nullptr;
}

const Registry& Registry::Default() {
  static const Registry* registry = [] {
    auto* r = new Registry();
    RegisterStandardFunctions(*r);
    RegisterStringFunctions(*r);
    RegisterRegexFunctions(*r);
    RegisterQuantityFunctions(*r);
    RegisterSemverFunctions(*r);
    RegisterOptionalFunctions(*r);
    RegisterListFunctions(*r);  // after strings: shares indexOf/lastIndexOf
    RegisterSetFunctions(*r);
    RegisterNetworkFunctions(*r);
    RegisterUrlFunctions(*r);
    RegisterTimeFunctions(*r);
    RegisterStringFormatFunctions(*r);
    RegisterNamedFormatFunctions(*r);
    return r;
  }();
  return *registry;
}

}  // namespace draguard::cel
