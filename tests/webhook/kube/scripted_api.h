// Scripted answers for FakeApiServer: discovery documents, then per collection a queue of
// list answers and a queue of watch answers, consumed in order. An exhausted watch queue
// holds the stream open (an idle watch); an exhausted list queue answers 500.
#ifndef DRAGUARD_TESTS_WEBHOOK_KUBE_SCRIPTED_API_H_
#define DRAGUARD_TESTS_WEBHOOK_KUBE_SCRIPTED_API_H_

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "tests/webhook/kube/fake_api_server.h"
#include "tests/webhook/kube/testdata.h"

namespace draguard::webhook::kube::testing {

class ScriptedApi {
 public:
  // Serves the recorded discovery of a cluster with resource.k8s.io v1 and v1beta2.
  ScriptedApi() {
    Static("/apis/resource.k8s.io", Reply::Json(Testdata("apis-resource.k8s.io.json")));
    Static("/apis/resource.k8s.io/v1", Reply::Json(Testdata("apis-resource.k8s.io-v1.json")));
    Static("/apis/resource.k8s.io/v1beta2",
           Reply::Json(Testdata("apis-resource.k8s.io-v1beta2.json")));
  }

  // A fixed answer for an exact path (query ignored).
  void Static(const std::string& path, Reply reply) {
    std::lock_guard<std::mutex> lock(mu_);
    static_[path] = std::move(reply);
  }
  void List(const std::string& path, Reply reply) { Push(path + " list", std::move(reply)); }
  void Watch(const std::string& path, Reply reply) { Push(path + " watch", std::move(reply)); }

  Reply Handle(const std::string& target) {
    const size_t query = target.find('?');
    const std::string path = target.substr(0, query);
    const bool watch = target.find("watch=true", query == std::string::npos ? 0 : query) !=
                       std::string::npos;
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = static_.find(path); it != static_.end()) return it->second;
    std::deque<Reply>& queue = queues_[path + (watch ? " watch" : " list")];
    if (queue.empty()) {
      return watch ? Reply::Stream({}, Reply::End::kHold)
                   : Reply::Json(R"({"kind":"Status","code":500})", 500);
    }
    Reply reply = std::move(queue.front());
    queue.pop_front();
    return reply;
  }

  FakeApiServer::Handler handler() {
    return [this](const std::string& target) { return Handle(target); };
  }

 private:
  void Push(const std::string& key, Reply reply) {
    std::lock_guard<std::mutex> lock(mu_);
    queues_[key].push_back(std::move(reply));
  }

  std::mutex mu_;
  std::map<std::string, Reply> static_;
  std::map<std::string, std::deque<Reply>> queues_;
};

// Polls `done` until it holds or 20 s pass (a generous bound, not a timing assertion).
inline bool Eventually(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return done();
}

}  // namespace draguard::webhook::kube::testing

#endif  // DRAGUARD_TESTS_WEBHOOK_KUBE_SCRIPTED_API_H_
