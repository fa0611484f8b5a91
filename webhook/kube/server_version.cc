// nlohmann-json adapter for /version: every exception is caught in this file.
#include "webhook/kube/server_version.h"

#include <charconv>
#include <exception>
#include <memory>

#include <nlohmann/json.hpp>

#include "policy/common/release.h"
#include "webhook/kube/api_objects.h"

namespace draguard::webhook::kube {
namespace {

// The leading decimal digits of `text` ("36+" -> 36); -1 when there are none or too many.
int LeadingNumber(std::string_view text) {
  int value = -1;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr == text.data() || value < 0 || value > 9999) return -1;
  return value;
}

// "v1.36.2-eks-abc" -> 1 and 36; false when it does not start with vMAJOR.MINOR.
bool ParseGitVersion(std::string_view git, int* major, int* minor) {
  if (git.starts_with('v')) git.remove_prefix(1);
  const size_t dot = git.find('.');
  if (dot == std::string_view::npos) return false;
  *major = LeadingNumber(git.substr(0, dot));
  *minor = LeadingNumber(git.substr(dot + 1));
  return *major >= 0 && *minor >= 0;
}

std::string StringMember(const nlohmann::json& json, const char* key) {
  auto it = json.find(key);
  return it != json.end() && it->is_string() ? it->get<std::string>() : std::string();
}

StatusOr<ServerVersion> ParseServerVersionJson(std::string_view body) {
  const nlohmann::json json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) {
    return InvalidArgumentError("/version: not a JSON object");
  }
  ServerVersion version;
  version.git_version = StringMember(json, "gitVersion");
  const std::string major = StringMember(json, "major");
  const std::string minor = StringMember(json, "minor");
  version.major = LeadingNumber(major);
  version.minor = LeadingNumber(minor);
  if (version.major >= 0 && version.minor >= 0) return version;
  if (ParseGitVersion(version.git_version, &version.major, &version.minor)) return version;
  return InvalidArgumentError("/version: no Kubernetes version in major \"" + major +
                              "\", minor \"" + minor + "\" or gitVersion \"" +
                              version.git_version + "\"");
}

}  // namespace

std::string ServerVersion::Describe() const {
  std::string out = std::to_string(major) + "." + std::to_string(minor);
  const std::string plain = "v" + out;
  if (!git_version.empty() && git_version != plain && git_version != plain + ".0") {
    out += " (" + git_version + ")";
  }
  return out;
}

StatusOr<ServerVersion> ParseServerVersion(std::string_view body) {
  try {
    return ParseServerVersionJson(body);
  } catch (const std::exception& e) {
    return InvalidArgumentError(std::string("/version: unexpected JSON: ") + e.what());
  }
}

ServerRelease ReleaseForServer(const ServerVersion& version) {
  ServerRelease out;
  out.server = version;
  const std::span<const Release> known = KnownReleases();
  for (const Release& release : known) {
    if (version.major == 1 && release.minor == version.minor) {
      out.release = release.version;
      return out;
    }
  }
  const bool newer = version.major > 1 || (version.major == 1 && version.minor > known.back().minor);
  const Release& nearest = newer ? known.back() : known.front();
  out.release = nearest.version;
  out.warning = "the API server is Kubernetes " + version.Describe() + ", which draguard does "
                "not know (it knows " + KnownReleaseList() + "); checking as Kubernetes " +
                std::string(nearest.name) + ", the " + (newer ? "newest" : "oldest") +
                " it knows: pass --kubernetes-version to choose another";
  return out;
}

StatusOr<ServerRelease> DiscoverServerRelease(const ClusterConfig& config,
                                              ApiClientOptions options) {
  options.max_body_bytes = 64 << 10;
  ApiConnection connection(config, std::make_shared<BearerToken>(config), options);
  StatusOr<HttpResult> result = connection.Get("/version");
  if (!result.ok()) return result.status();
  if (result->status != 200) {
    const ApiError error = ParseApiError(result->status, result->body);
    const std::string message =
        "/version: HTTP " + std::to_string(result->status) + " " + error.message;
    if (result->status == 401 || result->status == 403) return PermissionDeniedError(message);
    return UnavailableError(message);
  }
  StatusOr<ServerVersion> version = ParseServerVersion(result->body);
  if (!version.ok()) return version.status();
  return ReleaseForServer(*version);
}

}  // namespace draguard::webhook::kube
