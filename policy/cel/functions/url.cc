// Kubernetes URL library (apiserver/pkg/cel/library/urls.go): url() accepts what
// Go's url.ParseRequestURI accepts, then reads the parts url.Parse gives (which, unlike
// ParseRequestURI, separates a #fragment).
#include "policy/cel/functions/registry.h"
#include "policy/cel/internal/go_url.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;

Value ToUrl(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  const std::string_view text = a[0].text();
  if (std::optional<std::string> err = internal::GoParseRequestUriError(text)) {
    return Value::Error("URL parse error during conversion from string: " + *err);
  }
  internal::GoUrl parts = internal::GoParseUrl(text);
  return Value::OfUrl(UrlValue{.text = std::string(text),
                               .scheme = std::move(parts.scheme),
                               .host = std::move(parts.host),
                               .raw_path = std::move(parts.raw_path),
                               .raw_query = std::move(parts.raw_query)});
}

Value IsUrl(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  return Value::Bool(!internal::GoParseRequestUriError(a[0].text()).has_value());
}

template <std::string (*kPart)(const UrlValue&)>
Value Part(Args a, EvalState&) {
  if (a[0].kind() != Kind::kUrl) return NoSuchOverload();
  return Value::String(kPart(a[0].url()));
}

std::string Scheme(const UrlValue& u) { return u.scheme; }
std::string Host(const UrlValue& u) { return u.host; }
std::string Hostname(const UrlValue& u) { return internal::GoHostname(u.host); }
std::string Port(const UrlValue& u) { return internal::GoPort(u.host); }
std::string EscapedPath(const UrlValue& u) { return internal::GoEscapedPath(u.raw_path); }

Value Query(Args a, EvalState&) {
  if (a[0].kind() != Kind::kUrl) return NoSuchOverload();
  auto map = std::make_shared<MapData>();
  for (auto& [key, values] : internal::GoParseQuery(a[0].url().raw_query)) {
    auto list = std::make_shared<ListData>();
    for (std::string& v : values) list->elements.push_back(Value::String(std::move(v)));
    map->entries.emplace_back(Value::String(key), Value::List(std::move(list)));
  }
  return Value::Map(std::move(map));
}

}  // namespace

void RegisterUrlFunctions(Registry& r) {
  r.Add("url", 1, ToUrl);
  r.Add("isURL", 1, IsUrl);
  r.Add("getScheme", 1, Part<Scheme>);
  r.Add("getHost", 1, Part<Host>);
  r.Add("getHostname", 1, Part<Hostname>);
  r.Add("getPort", 1, Part<Port>);
  r.Add("getEscapedPath", 1, Part<EscapedPath>);
  r.Add("getQuery", 1, Query);
}

}  // namespace draguard::cel
