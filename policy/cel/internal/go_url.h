// Go's url.ParseRequestURI, for its error text only: Kubernetes' format.uri() returns that
// text as the validation message (apiserver/pkg/cel/library/format.go).
#ifndef DRAGUARD_POLICY_CEL_INTERNAL_GO_URL_H_
#define DRAGUARD_POLICY_CEL_INTERNAL_GO_URL_H_

#include <optional>
#include <string>
#include <string_view>

namespace draguard::cel::internal {

// The error Go's url.ParseRequestURI(raw) returns, e.g.
// `parse "foo": invalid URI for request`, or nullopt when Go accepts `raw`. Follows
// net/url's parse(rawURL, viaRequest=true): control bytes, empty input, a scheme starting
// with ':', rootless paths without a scheme, the authority (userinfo, [IPv6], :port,
// %-escapes of the host and zone) and the path's %-escapes.
std::optional<std::string> GoParseRequestUriError(std::string_view raw);

}  // namespace draguard::cel::internal

#endif  // DRAGUARD_POLICY_CEL_INTERNAL_GO_URL_H_
