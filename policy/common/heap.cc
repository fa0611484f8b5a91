#include "policy/common/heap.h"

#include <cstddef>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

// jemalloc's control interface, weak: null unless the executable links jemalloc. Declared
// here rather than through <jemalloc/jemalloc.h> so that building needs no jemalloc headers.
extern "C" int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp,
                       size_t newlen) __attribute__((weak));

namespace draguard {
namespace {

bool HaveJemalloc() { return mallctl != nullptr; }

std::optional<uint64_t> JemallocStat(const char* name) {
  size_t value = 0;
  size_t length = sizeof value;
  if (mallctl(name, &value, &length, nullptr, 0) != 0) return std::nullopt;
  return value;
}

HeapFigures JemallocFigures() {
  // Statistics are a snapshot taken at the last "epoch" write: advance it first.
  uint64_t epoch = 1;
  size_t length = sizeof epoch;
  if (mallctl("epoch", &epoch, &length, &epoch, length) != 0) return {};
  const std::optional<uint64_t> allocated = JemallocStat("stats.allocated");
  const std::optional<uint64_t> resident = JemallocStat("stats.resident");
  if (!allocated || !resident) return {};
  return {.in_use_bytes = allocated,
          .free_bytes = *resident > *allocated ? *resident - *allocated : 0};
}

}  // namespace

std::string_view HeapAllocatorName() {
  if (HaveJemalloc()) return "jemalloc";
#if defined(__GLIBC__)
  return "glibc";
#else
  return "other";
#endif
}

HeapFigures ReadHeapFigures() {
  if (HaveJemalloc()) return JemallocFigures();
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  const struct mallinfo2 info = mallinfo2();
  // uordblks: bytes allocated in the arenas (blocks in the per-thread caches count as in
  // use); hblkhd: large blocks mmapped one by one (unmapped when freed); fordblks: free
  // bytes the arenas keep, resident or not.
  return {.in_use_bytes = info.uordblks + info.hblkhd, .free_bytes = info.fordblks};
#else
  return {};
#endif
}

void ReleaseFreeHeapPages() {
  if (HaveJemalloc()) {
    // "arena.<MALLCTL_ARENAS_ALL>.purge": every arena's unused dirty pages, now.
    mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
    return;
  }
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace draguard
