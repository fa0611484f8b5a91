#include "webhook/kube/kube_inventory_source.h"

#include <algorithm>
#include <utility>

#include "policy/common/thread_priority.h"

namespace draguard::webhook::kube {

KubeInventorySource::KubeInventorySource(ClusterConfig config, KubeInventoryOptions options)
    : config_(std::move(config)),
      options_(std::move(options)),
      token_(std::make_shared<BearerToken>(config_, options_.token_refresh)) {
  // Built here, not in Start(), so that State() never races with the vector being filled.
  for (WatchedKind kind : options_.kinds) {
    reflectors_.push_back(std::make_unique<Reflector>(
        kind, store_, std::make_unique<ApiConnection>(config_, token_, options_.client),
        options_.reflector, [this] { Notify(); }));
  }
}

KubeInventorySource::~KubeInventorySource() { Stop(); }

Status KubeInventorySource::Start() {
  if (config_.host.empty()) return InvalidArgumentError("Kubernetes API: no server host");
  if (options_.kinds.empty()) return InvalidArgumentError("Kubernetes API: no kinds to watch");
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (started_ || stopping_) {
      return FailedPreconditionError("inventory source already started or stopped");
    }
    started_ = true;
  }
  for (auto& reflector : reflectors_) {
    threads_.emplace_back([r = reflector.get()] {
      // Decoding lists and watch events is background work (thread_priority.h).
      SetCurrentThreadNice(kBackgroundNice);
      r->Run();
    });
  }
  threads_.emplace_back([this] {
    SetCurrentThreadNice(kBackgroundNice);
    Publish();
  });
  return OkStatus();
}

void KubeInventorySource::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  changed_.notify_all();
  for (auto& reflector : reflectors_) reflector->Stop();
  for (std::thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

void KubeInventorySource::Notify() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    dirty_ = true;
  }
  changed_.notify_all();
}

bool KubeInventorySource::AllSynced() const {
  return std::all_of(reflectors_.begin(), reflectors_.end(),
                     [](const auto& r) { return r->State().synced; });
}

// Waits for a change, publishes once every kind has synced, then rests publish_interval so
// that a burst of events yields one rebuild.
void KubeInventorySource::Publish() {
  uint64_t published_generation = 0;
  bool published_once = false;
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    changed_.wait(lock, [&] { return stopping_ || dirty_; });
    if (stopping_) break;
    dirty_ = false;
    lock.unlock();
    const uint64_t generation = store_.generation();
    const bool due = AllSynced() && (!published_once || generation != published_generation);
    std::shared_ptr<const inventory::ClusterObjects> snapshot;
    if (due) snapshot = store_.Snapshot("kubernetes API " + config_.origin);
    lock.lock();
    if (!due) continue;
    current_ = std::move(snapshot);
    ++publications_;
    published_generation = generation;
    published_once = true;
    changed_.wait_for(lock, options_.publish_interval, [&] { return stopping_; });
  }
}

std::shared_ptr<const inventory::ClusterObjects> KubeInventorySource::Current() const {
  std::lock_guard<std::mutex> lock(mu_);
  return current_;
}

uint64_t KubeInventorySource::Publications() const {
  std::lock_guard<std::mutex> lock(mu_);
  return publications_;
}

std::vector<ReflectorState> KubeInventorySource::ReflectorStates() const {
  std::vector<ReflectorState> states;
  for (const auto& r : reflectors_) states.push_back(r->State());
  return states;
}

InventorySourceState KubeInventorySource::State() const {
  InventorySourceState state;
  std::shared_ptr<const inventory::ClusterObjects> current = Current();
  state.synced = current != nullptr;
  if (current) state.objects = CountObjects(*current);
  bool first = true;
  for (const ReflectorState& r : ReflectorStates()) {
    if (!r.problem.empty()) state.problem += (state.problem.empty() ? "" : "; ") + r.problem;
    if (first || r.confirmed_at < state.confirmed_at) state.confirmed_at = r.confirmed_at;
    first = false;
  }
  if (!state.synced) state.confirmed_at = {};
  return state;
}

}  // namespace draguard::webhook::kube
