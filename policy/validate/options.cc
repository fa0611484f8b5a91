#include "policy/validate/options.h"

#include <cctype>
#include <string>

namespace draguard::validate {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

Status ParseNamespaceLabels(std::string_view text, NamespaceLabels& labels) {
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = Trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (item.empty()) continue;
    size_t colon = item.find(':');
    std::string_view ns = Trim(item.substr(0, colon));
    if (colon == std::string_view::npos || ns.empty()) {
      return InvalidArgumentError("invalid namespace label \"" + std::string(item) +
                                  "\": want NAMESPACE:KEY=VALUE");
    }
    std::map<std::string, std::string>& ns_labels = labels[std::string(ns)];
    std::string_view pair = Trim(item.substr(colon + 1));
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    std::string_view key = Trim(pair.substr(0, eq));
    if (eq == std::string_view::npos || key.empty()) {
      return InvalidArgumentError("invalid namespace label \"" + std::string(item) +
                                  "\": want NAMESPACE:KEY=VALUE");
    }
    ns_labels[std::string(key)] = std::string(Trim(pair.substr(eq + 1)));
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
