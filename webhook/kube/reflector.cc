#include "webhook/kube/reflector.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "policy/common/status_macros.h"

namespace draguard::webhook::kube {
namespace {

// A non-OK status for an HTTP answer that is not 200: Unavailable for 5xx and 429 (retry),
// PermissionDenied for 401/403 (RBAC: the manifests grant list/watch), NotFound for 404.
Status HttpError(const HttpResult& result, const std::string& what) {
  const ApiError error = ParseApiError(result.status, result.body);
  std::string message = what + ": HTTP " + std::to_string(result.status);
  if (!error.reason.empty()) message += " " + error.reason;
  if (!error.message.empty()) message += ": " + error.message;
  if (result.status == 401 || result.status == 403) return PermissionDeniedError(message);
  if (result.status == 404) return NotFoundError(message);
  return UnavailableError(message);
}

bool Contains(const std::vector<std::string>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

std::string EncodeQueryValue(std::string_view value) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : value) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

Backoff::Backoff(std::chrono::milliseconds initial, std::chrono::milliseconds max)
    : initial_(initial), max_(max), random_(std::random_device{}()) {}

std::chrono::milliseconds Backoff::Next() {
  const int shift = std::min(attempt_++, 20);
  const auto full = std::min<std::chrono::milliseconds::rep>(initial_.count() << shift,
                                                             max_.count());
  std::uniform_int_distribution<std::chrono::milliseconds::rep> jitter(full / 2, full);
  return std::chrono::milliseconds(jitter(random_));
}

Reflector::Reflector(WatchedKind kind, ObjectStore& store,
                     std::unique_ptr<ApiConnection> connection, ReflectorOptions options,
                     std::function<void()> on_change)
    : kind_(kind),
      store_(store),
      connection_(std::move(connection)),
      options_(options),
      on_change_(std::move(on_change)),
      backoff_(options.backoff_initial, options.backoff_max) {}

template <class F>
void Reflector::Update(F&& f) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    f(state_);
  }
  if (on_change_) on_change_();
}

void Reflector::Run() {
  while (!Stopping()) {
    Status status = Cycle();
    if (Stopping()) break;
    if (status.ok()) continue;
    Update([&](ReflectorState& s) { s.problem = std::string(KindName(kind_)) + ": " +
                                                status.message(); });
    if (!Sleep(backoff_.Next())) break;
  }
}

void Reflector::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_.store(true);
  }
  wake_.notify_all();
  connection_->Cancel();
}

ReflectorState Reflector::State() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_;
}

bool Reflector::Sleep(std::chrono::milliseconds duration) {
  std::unique_lock<std::mutex> lock(mu_);
  wake_.wait_for(lock, duration, [&] { return stopping_.load(); });
  return !stopping_.load();
}

Status Reflector::Cycle() {
  if (needs_list_) {
    DRAGUARD_RETURN_IF_ERROR(Discover());
    if (!resource_) {
      store_.Replace(kind_, {});
      Update([&](ReflectorState& s) {
        s.synced = true;
        s.served = false;
        s.api_version.clear();
        s.problem.clear();
        s.confirmed_at = std::chrono::system_clock::now();
      });
      Sleep(options_.rediscover_interval);
      return OkStatus();
    }
    DRAGUARD_RETURN_IF_ERROR(List());
    needs_list_ = false;
    backoff_.Reset();
  }
  DRAGUARD_ASSIGN_OR_RETURN(Outcome outcome, Watch());
  if (outcome == Outcome::kRelist) needs_list_ = true;
  return OkStatus();
}

// Picks the most preferred version of the kind that the server lists in discovery.
Status Reflector::Discover() {
  const KindInfo& info = InfoOf(kind_);
  resource_.reset();
  auto use = [&](const std::string& version) {
    resource_ = ResourceKind{kind_, info.group, version, info.resource, info.kind,
                             options_.release};
  };
  if (std::string(info.group).empty()) {
    use(info.versions.front());  // the core group is always served
    return OkStatus();
  }
  const std::string group_path = std::string("/apis/") + info.group;
  DRAGUARD_ASSIGN_OR_RETURN(HttpResult group, connection_->Get(group_path));
  if (group.status == 404) return OkStatus();
  if (group.status != 200) return HttpError(group, "discovery " + group_path);
  DRAGUARD_ASSIGN_OR_RETURN(std::vector<std::string> versions, ParseGroupVersions(group.body));
  for (const char* version : info.versions) {
    if (!Contains(versions, version)) continue;
    const std::string path = group_path + "/" + version;
    DRAGUARD_ASSIGN_OR_RETURN(HttpResult list, connection_->Get(path));
    if (list.status == 404) continue;
    if (list.status != 200) return HttpError(list, "discovery " + path);
    DRAGUARD_ASSIGN_OR_RETURN(std::vector<std::string> names, ParseResourceNames(list.body));
    if (Contains(names, info.resource)) {
      use(version);
      return OkStatus();
    }
  }
  return OkStatus();
}

Status Reflector::List() {
  const std::string path = resource_->CollectionPath();
  std::vector<StoredObject> objects;
  std::string continue_token, resource_version;
  size_t undecodable = 0;
  do {
    std::string target = path + "?limit=" + std::to_string(options_.page_size);
    if (!continue_token.empty()) target += "&continue=" + EncodeQueryValue(continue_token);
    DRAGUARD_ASSIGN_OR_RETURN(HttpResult result, connection_->Get(target));
    // 410 on a later page: the continue token expired; the next cycle lists from scratch.
    if (result.status != 200) return HttpError(result, "list " + path);
    DRAGUARD_ASSIGN_OR_RETURN(ListPage page, ParseListPage(result.body, *resource_));
    for (StoredObject& object : page.items) objects.push_back(std::move(object));
    undecodable += page.undecodable;
    resource_version = std::move(page.resource_version);
    continue_token = std::move(page.continue_token);
  } while (!continue_token.empty() && !Stopping());
  if (Stopping()) return CancelledError("stopped while listing");
  if (resource_version.empty()) return UnavailableError("list " + path + ": no resourceVersion");
  store_.Replace(kind_, std::move(objects));
  resource_version_ = std::move(resource_version);
  Update([&](ReflectorState& s) {
    s.synced = true;
    s.served = true;
    s.api_version = resource_->ApiVersion();
    s.problem.clear();
    s.confirmed_at = std::chrono::system_clock::now();
    ++s.lists;
    s.undecodable += undecodable;
  });
  return OkStatus();
}

Status Reflector::HandleLine(std::string_view line, bool& gone) {
  DRAGUARD_ASSIGN_OR_RETURN(WatchEvent event, ParseWatchEvent(line, *resource_));
  if (event.type == EventType::kError) {
    if (event.error_code == 410) {
      gone = true;
      return CancelledError("resourceVersion expired");  // stops the stream; relist
    }
    return UnavailableError("watch ERROR event " + std::to_string(event.error_code) + ": " +
                            event.error_message);
  }
  if (event.type != EventType::kBookmark) store_.Apply(kind_, event);
  if (!event.resource_version.empty()) resource_version_ = event.resource_version;
  backoff_.Reset();
  Update([&](ReflectorState& s) {
    s.confirmed_at = std::chrono::system_clock::now();
    s.problem.clear();
    if (event.type != EventType::kBookmark) ++s.events;
    if (event.undecodable) ++s.undecodable;
  });
  return OkStatus();
}

StatusOr<Reflector::Outcome> Reflector::Watch() {
  const std::string target = resource_->CollectionPath() +
                             "?watch=true&allowWatchBookmarks=true&resourceVersion=" +
                             EncodeQueryValue(resource_version_) +
                             "&timeoutSeconds=" + std::to_string(options_.watch_timeout_seconds);
  Update([](ReflectorState& s) { ++s.watches; });
  bool gone = false;
  const auto idle = std::chrono::seconds(options_.watch_timeout_seconds) + options_.watch_idle_slack;
  StatusOr<HttpResult> result = connection_->Stream(
      target, std::chrono::duration_cast<std::chrono::milliseconds>(idle),
      [&](std::string_view line) { return HandleLine(line, gone); });
  if (gone) return Outcome::kRelist;
  if (!result.ok()) return result.status();
  if (result->status == 410) return Outcome::kRelist;
  if (result->status != 200) return HttpError(*result, "watch " + resource_->CollectionPath());
  Update([](ReflectorState& s) { s.confirmed_at = std::chrono::system_clock::now(); });
  return Outcome::kContinue;
}

}  // namespace draguard::webhook::kube
