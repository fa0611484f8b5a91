// Go's net/url as Kubernetes' CEL uses it: url.ParseRequestURI's error text (format.uri()
// returns it as the validation message; url() and isURL() use it to accept a URL), and the
// parts of url.Parse that the URL library reads (apiserver/pkg/cel/library/urls.go).
#ifndef DRAGUARD_POLICY_CEL_INTERNAL_GO_URL_H_
#define DRAGUARD_POLICY_CEL_INTERNAL_GO_URL_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace draguard::cel::internal {

// The error Go's url.ParseRequestURI(raw) returns, e.g.
// `parse "foo": invalid URI for request`, or nullopt when Go accepts `raw`. Follows
// net/url's parse(rawURL, viaRequest=true): control bytes, empty input, a scheme starting
// with ':', rootless paths without a scheme, the authority (userinfo, [IPv6], :port,
// %-escapes of the host and zone) and the path's %-escapes.
std::optional<std::string> GoParseRequestUriError(std::string_view raw);

// The parts of url.Parse(raw) for a `raw` that ParseRequestURI accepted.
struct GoUrl {
  std::string scheme;     // lower-cased
  std::string host;       // authority without userinfo: "example.com:80", "[::1]:8080"
  std::string raw_path;   // as written ("" for opaque URLs)
  std::string raw_query;  // after '?', before '#'
};
GoUrl GoParseUrl(std::string_view raw);

// URL.EscapedPath(): `raw_path` when it is a valid escaping, else the path re-escaped.
std::string GoEscapedPath(std::string_view raw_path);
// URL.Hostname() and URL.Port() of a host ("[::1]:80" -> "::1", "80").
std::string GoHostname(std::string_view host);
std::string GoPort(std::string_view host);
// url.ParseQuery(raw_query) as URL.Query() returns it (malformed pairs are dropped), keys
// in order of first appearance.
std::vector<std::pair<std::string, std::vector<std::string>>> GoParseQuery(
    std::string_view raw_query);

}  // namespace draguard::cel::internal

#endif  // DRAGUARD_POLICY_CEL_INTERNAL_GO_URL_H_
