// AllocatedBytes(): the bytes this process holds on the heap right now, for tests that check
// memory estimates (ApproximateBytes) against what is really allocated. Exact under
// AddressSanitizer (its allocator's own count); glibc's mallinfo2 otherwise. Only meaningful
// while no other thread allocates.
#ifndef DRAGUARD_TESTS_POLICY_COMMON_ALLOCATED_BYTES_H_
#define DRAGUARD_TESTS_POLICY_COMMON_ALLOCATED_BYTES_H_

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define DRAGUARD_TESTS_ASAN_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DRAGUARD_TESTS_ASAN_ALLOCATOR 1
#endif
#endif

#if defined(DRAGUARD_TESTS_ASAN_ALLOCATOR)
// Declared by <sanitizer/allocator_interface.h>, which gcc 12 does not ship.
extern "C" size_t __sanitizer_get_current_allocated_bytes();
#else
#include <malloc.h>
#endif

namespace draguard::testing {

inline size_t AllocatedBytes() {
#if defined(DRAGUARD_TESTS_ASAN_ALLOCATOR)
  return __sanitizer_get_current_allocated_bytes();
#else
  return mallinfo2().uordblks;
#endif
}

// The heap that `make()`'s result holds: allocated bytes with the result alive minus before.
template <class Make>
size_t MeasureHeld(Make&& make) {
  const size_t before = AllocatedBytes();
  auto held = make();
  const size_t after = AllocatedBytes();
  return after > before ? after - before : 0;
}

}  // namespace draguard::testing

#endif  // DRAGUARD_TESTS_POLICY_COMMON_ALLOCATED_BYTES_H_
