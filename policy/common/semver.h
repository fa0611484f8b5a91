// Semver: semantic versions as Kubernetes' CEL semver library (blang/semver v4) sees them.
//
// Strict parsing follows semver 2.0.0: MAJOR.MINOR.PATCH with no leading zeros,
// optional "-pre.release" identifiers (numeric ones without leading zeros) and
// "+build" identifiers. The normalize variant (Kubernetes' semver(s, true)) first drops
// one leading 'v', pads a missing minor and patch with 0 and strips leading zeros from
// the numeric parts; a short version carrying pre-release or build data is rejected.
// Comparison is semver precedence; build metadata is ignored.
#ifndef DRAGUARD_POLICY_COMMON_SEMVER_H_
#define DRAGUARD_POLICY_COMMON_SEMVER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/status_or.h"

namespace draguard {

class Semver {
 public:
  // One dot-separated pre-release identifier: numeric (compared as a number) or not.
  struct PreRelease {
    std::string text;
    bool numeric = false;
    uint64_t number = 0;
  };

  // Returns INVALID_ARGUMENT with a message naming the problem for anything that is not
  // a version (after normalization when `normalize` is true).
  static StatusOr<Semver> Parse(std::string_view text, bool normalize = false);

  // Semver 2.0.0 precedence: -1, 0 or 1. Build metadata does not take part.
  int Compare(const Semver& other) const;
  friend bool operator==(const Semver& a, const Semver& b) { return a.Compare(b) == 0; }

  uint64_t major() const { return major_; }
  uint64_t minor() const { return minor_; }
  uint64_t patch() const { return patch_; }
  const std::vector<PreRelease>& pre_release() const { return pre_; }
  const std::vector<std::string>& build() const { return build_; }

  // "1.2.3-rc.1+build.5".
  std::string String() const;

 private:
  uint64_t major_ = 0;
  uint64_t minor_ = 0;
  uint64_t patch_ = 0;
  std::vector<PreRelease> pre_;
  std::vector<std::string> build_;
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_SEMVER_H_
