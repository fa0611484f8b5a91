// Fuzz target `allocator`: bytes choose a small random inventory and claims (the generator of
// the differential test); the real allocator must agree with the brute-force reference.
// Inputs over 256 bytes are skipped: the generator never reads more.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <vector>

#include "policy/allocator/allocator.h"
#include "tests/policy/allocator/fake_evaluator.h"
#include "tests/policy/allocator/random_inventory.h"
#include "tests/policy/allocator/reference_allocator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace draguard::alloc;
  if (size > 256) return 0;
  size_t pos = 0;
  auto next = [&](uint32_t n) -> uint32_t { return pos < size ? data[pos++] % n : 0; };
  testing::RandomCase rc = testing::MakeRandomCase(next);
  testing::FakeEvaluator ref_eval, real_eval;
  // Cases the reference would need more than a million assignments for are skipped.
  testing::ReferenceResult want =
      testing::ReferenceCheck(rc.input, rc.claims, ref_eval, rc.options, 1'000'000);
  if (want.verdict == testing::ReferenceVerdict::kTooLarge) return 0;
  Inventory inv = Inventory::Build(rc.input);
  std::vector<const draguard::k8s::ResourceClaimSpec*> claims;
  for (const auto& c : rc.claims) claims.push_back(&c);
  AllocationVerdict got = CheckPod(inv, claims, real_eval, rc.options);
  bool agree = (want.verdict == testing::ReferenceVerdict::kSatisfiable) ==
                   (got.kind == VerdictKind::kSatisfiable) &&
               (want.verdict == testing::ReferenceVerdict::kError) ==
                   (got.kind == VerdictKind::kError);
  if (!inv.node_names().empty()) agree = agree && got.feasible_nodes == want.feasible_nodes;
  if (got.kind == VerdictKind::kUndecided || !agree) {
    std::fprintf(stderr, "allocator disagrees with the reference:\n%s", RenderVerdict(got).c_str());
    std::abort();
  }
  RenderVerdict(got);
  return 0;
}
