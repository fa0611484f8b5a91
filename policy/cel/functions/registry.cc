#include "policy/cel/functions/registry.h"

namespace draguard::cel {
namespace {

std::string Key(std::string_view name, int arity) {
  return std::string(name) + "/" + std::to_string(arity);
}

}  // namespace

void Registry::Add(std::string_view name, int arity, Function fn) {
  functions_[Key(name, arity)] = fn;
}

Function Registry::Find(std::string_view name, int arity) const {
  // Planning asks once per call node: the key is built in a buffer the thread keeps.
  thread_local std::string key;
  key.assign(name);
  key += '/';
  key += std::to_string(arity);
  auto it = functions_.find(key);
  return it == functions_.end() ? nullptr : it->second;
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
