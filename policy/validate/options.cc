#include "policy/validate/options.h"

#include <cctype>
#include <string>

#include "policy/common/strings.h"

namespace draguard::validate {
namespace {


}  // namespace

Status ParseNamespaceLabels(std::string_view text, NamespaceLabels& labels) {
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = TrimAsciiSpace(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (item.empty()) continue;
    size_t colon = item.find(':');
    std::string_view ns = TrimAsciiSpace(item.substr(0, colon));
    if (colon == std::string_view::npos || ns.empty()) {
      return InvalidArgumentError("invalid namespace label \"" + std::string(item) +
                                  "\": want NAMESPACE:KEY=VALUE");
    }
    std::map<std::string, std::string>& ns_labels = labels[std::string(ns)];
    std::string_view pair = TrimAsciiSpace(item.substr(colon + 1));
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    std::string_view key = TrimAsciiSpace(pair.substr(0, eq));
    if (eq == std::string_view::npos || key.empty()) {
      return InvalidArgumentError("invalid namespace label \"" + std::string(item) +
                                  "\": want NAMESPACE:KEY=VALUE");
    }
    ns_labels[std::string(key)] = std::string(TrimAsciiSpace(pair.substr(eq + 1)));
  }
  return OkStatus();
}

ValidationOptions ValidationOptions::ForVersion(KubernetesVersion version) {
  ValidationOptions options;
  options.version = version;
  options.gates = FeatureGates(version);
  return options;
}

}  // namespace draguard::validate
