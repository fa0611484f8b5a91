// Kubernetes library declarations: quantity, semver v1, URL, IP, CIDR and format
// (apiserver pkg/cel/library/{quantity,semverlib,urls,ip,cidr,format}.go). Note the quirks:
// `sign` is global only; Quantity and Semver have no ordering operators.
#include <string>

#include "policy/cel/checker_internal/decl_types.h"
#include "policy/cel/checker_internal/library_decls.h"

namespace draguard::cel::checker_internal {

std::vector<FunctionDecl> QuantityDecls() {
  const Type& q = QuantityType();
  DeclSet d;
  d.Global("quantity", "string_to_quantity", {kString}, q);
  d.Global("isQuantity", "is_quantity_string", {kString}, kBool);
  d.Global("sign", "quantity_sign", {q}, kInt);
  d.Member("isGreaterThan", "quantity_is_greater_than", {q, q}, kBool);
  d.Member("isLessThan", "quantity_is_less_than", {q, q}, kBool);
  d.Member("compareTo", "quantity_compare_to", {q, q}, kInt);
  d.Member("add", "quantity_add", {q, q}, q);
  d.Member("add", "quantity_add_int", {q, kInt}, q);
  d.Member("sub", "quantity_sub", {q, q}, q);
  d.Member("sub", "quantity_sub_int", {q, kInt}, q);
  d.Member("asInteger", "quantity_get_integer", {q}, kInt);
  d.Member("isInteger", "quantity_is_integer", {q}, kBool);
  d.Member("asApproximateFloat", "quantity_get_float", {q}, Type::Double());
  return d.Take();
}

std::vector<FunctionDecl> SemverDecls() {
  const Type& s = SemverType();
  DeclSet d;
  d.Global("semver", "string_to_semver", {kString}, s);
  d.Global("semver", "string_bool_to_semver_normalize", {kString, kBool}, s);
  d.Global("isSemver", "is_semver_string", {kString}, kBool);
  d.Global("isSemver", "is_semver_string_bool_normalize", {kString, kBool}, kBool);
  d.Member("isGreaterThan", "semver_is_greater_than", {s, s}, kBool);
  d.Member("isLessThan", "semver_is_less_than", {s, s}, kBool);
  d.Member("compareTo", "semver_compare_to", {s, s}, kInt);
  d.Member("major", "semver_major", {s}, kInt);
  d.Member("minor", "semver_minor", {s}, kInt);
  d.Member("patch", "semver_patch", {s}, kInt);
  return d.Take();
}

std::vector<FunctionDecl> UrlDecls() {
  const Type& u = UrlType();
  DeclSet d;
  d.Global("url", "string_to_url", {kString}, u);
  d.Global("isURL", "is_url_string", {kString}, kBool);
  d.Member("getScheme", "url_get_scheme", {u}, kString);
  d.Member("getHost", "url_get_host", {u}, kString);
  d.Member("getHostname", "url_get_hostname", {u}, kString);
  d.Member("getPort", "url_get_port", {u}, kString);
  d.Member("getEscapedPath", "url_get_escaped_path", {u}, kString);
  d.Member("getQuery", "url_get_query", {u}, Type::Map(kString, ListOf(kString)));
  return d.Take();
}

std::vector<FunctionDecl> IpDecls() {
  const Type& ip = IpType();
  DeclSet d;
  d.Global("ip", "string_to_ip", {kString}, ip);
  d.Global("isIP", "is_ip", {kString}, kBool);
  d.Global("ip.isCanonical", "ip_is_canonical", {kString}, kBool);
  d.Member("family", "ip_family", {ip}, kInt);
  d.Member("isUnspecified", "ip_is_unspecified", {ip}, kBool);
  d.Member("isLoopback", "ip_is_loopback", {ip}, kBool);
  d.Member("isLinkLocalMulticast", "ip_is_link_local_multicast", {ip}, kBool);
  d.Member("isLinkLocalUnicast", "ip_is_link_local_unicast", {ip}, kBool);
  d.Member("isGlobalUnicast", "ip_is_global_unicast", {ip}, kBool);
  d.Global("string", "ip_to_string", {ip}, kString);
  return d.Take();
}

std::vector<FunctionDecl> CidrDecls() {
  const Type& cidr = CidrType();
  DeclSet d;
  d.Global("cidr", "string_to_cidr", {kString}, cidr);
  d.Global("isCIDR", "is_cidr", {kString}, kBool);
  d.Member("containsIP", "cidr_contains_ip_string", {cidr, kString}, kBool);
  d.Member("containsIP", "cidr_contains_ip_ip", {cidr, IpType()}, kBool);
  d.Member("containsCIDR", "cidr_contains_cidr_string", {cidr, kString}, kBool);
  d.Member("containsCIDR", "cidr_contains_cidr", {cidr, cidr}, kBool);
  d.Member("ip", "cidr_ip", {cidr}, IpType());
  d.Member("masked", "cidr_masked", {cidr}, cidr);
  d.Member("prefixLength", "cidr_prefix_length", {cidr}, kInt);
  d.Global("string", "cidr_to_string", {cidr}, kString);
  return d.Take();
}

std::vector<FunctionDecl> FormatDecls() {
  const Type& f = NamedFormatType();
  DeclSet d;
  d.Global("format.named", "format_named", {kString}, Type::Optional(f));
  const char* const constructors[] = {
      "dns1123Label",       "dns1123Subdomain",       "dns1035Label",
      "qualifiedName",      "dns1123LabelPrefix",     "dns1123SubdomainPrefix",
      "dns1035LabelPrefix", "labelValue",             "uri",
      "uuid",               "byte",                   "date",
      "datetime"};
  for (const char* name : constructors) {
    d.Global(std::string("format.") + name, std::string("format_") + name, {}, f);
  }
  d.Member("validate", "format_validate", {f, kString}, Type::Optional(ListOf(kString)));
  return d.Take();
}

}  // namespace draguard::cel::checker_internal
