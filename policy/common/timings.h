// Phase timings for `--timings` (lint, explain): the wall and CPU time of named phases, in
// the order they ran, printed to stderr after the command's output. CPU time is the
// process's (every thread), so a phase that runs threads reports their sum.
//
// Thread-compatible: phases are recorded from the thread that runs the command.
#ifndef DRAGUARD_POLICY_COMMON_TIMINGS_H_
#define DRAGUARD_POLICY_COMMON_TIMINGS_H_

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace draguard {

class Timings {
 public:
  struct Phase {
    std::string name;
    double wall_ms = 0;
    double cpu_ms = 0;
  };

  // Records the time from construction to destruction as phase `name` of `timings` (may be
  // null: then it records nothing).
  class Scope {
   public:
    Scope(Timings* timings, std::string name)
        : timings_(timings), name_(std::move(name)), wall_(WallMs()), cpu_(CpuMs()) {}
    ~Scope() {
      if (timings_ != nullptr) timings_->Add(std::move(name_), WallMs() - wall_, CpuMs() - cpu_);
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    Timings* timings_;
    std::string name_;
    double wall_, cpu_;
  };

  void Add(std::string name, double wall_ms, double cpu_ms) {
    phases_.push_back(Phase{std::move(name), wall_ms, cpu_ms});
  }
  const std::vector<Phase>& phases() const { return phases_; }

  // One line per phase: "timings: <name>: <wall> ms wall, <cpu> ms CPU".
  std::string Render() const {
    std::string out;
    char line[256];
    for (const Phase& p : phases_) {
      std::snprintf(line, sizeof line, "timings: %s: %.1f ms wall, %.1f ms CPU\n", p.name.c_str(),
                    p.wall_ms, p.cpu_ms);
      out += line;
    }
    return out;
  }

  static double WallMs() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  static double CpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
  }

 private:
  std::vector<Phase> phases_;
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_TIMINGS_H_
