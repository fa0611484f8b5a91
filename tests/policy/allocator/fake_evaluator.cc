#include "tests/policy/allocator/fake_evaluator.h"

#include <cstdlib>
#include <string>

namespace draguard::alloc::testing {
namespace {

bool Consume(std::string_view& s, std::string_view prefix) {
  if (s.substr(0, prefix.size()) != prefix) return false;
  s.remove_prefix(prefix.size());
  return true;
}

std::string_view Until(std::string_view& s, char stop) {
  size_t i = s.find(stop);
  std::string_view out = s.substr(0, i);
  s = i == std::string_view::npos ? std::string_view() : s.substr(i);
  return out;
}

SelectorResult Bool(bool b) { return b ? SelectorResult::Match() : SelectorResult::NoMatch(); }

SelectorResult Attribute(std::string_view e, const DeviceView& device) {
  std::string domain(Until(e, '"'));
  if (!Consume(e, "\"].")) return SelectorResult::Error("unsupported expression");
  std::string name(Until(e, ' '));
  const auto& attrs = device.device->attributes;
  auto it = attrs.find(domain + "/" + name);
  if (it == attrs.end() && domain == device.driver) it = attrs.find(name);
  if (e.empty()) {
    if (it == attrs.end() || !it->second.bool_value) return SelectorResult::Error("no such key: " + name);
    return Bool(*it->second.bool_value);
  }
  if (!Consume(e, " == ")) return SelectorResult::Error("unsupported expression");
  if (it == attrs.end()) return SelectorResult::NoMatch();
  if (Consume(e, "\"")) return Bool(it->second.string_value == std::string(Until(e, '"')));
  return Bool(it->second.int_value == std::strtoll(std::string(e).c_str(), nullptr, 10));
}

}  // namespace

SelectorResult FakeEvaluator::Evaluate(std::string_view expression, const DeviceView& device) {
  ++calls_;
  std::string_view e = expression;
  if (e == "true") return SelectorResult::Match();
  if (e == "false") return SelectorResult::NoMatch();
  if (Consume(e, "device.driver == \"")) return Bool(device.driver == Until(e, '"'));
  if (Consume(e, "device.attributes[\"")) return Attribute(e, device);
  return SelectorResult::Error("unsupported expression: " + std::string(expression));
}

std::optional<std::vector<AttributeName>> FakeEvaluator::AttributesRead(
    std::string_view expression) {
  if (!report_reads_) return std::nullopt;
  std::string_view e = expression;
  if (e == "true" || e == "false" || e == "error") return std::vector<AttributeName>{};
  if (Consume(e, "device.driver == \"")) return std::vector<AttributeName>{};
  if (!Consume(e, "device.attributes[\"")) return std::nullopt;
  std::string domain(Until(e, '"'));
  if (!Consume(e, "\"].")) return std::nullopt;
  return std::vector<AttributeName>{{.domain = domain, .name = std::string(Until(e, ' '))}};
}

}  // namespace draguard::alloc::testing
