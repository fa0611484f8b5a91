#include "webhook/server/process_memory.h"

#include <unistd.h>

#include <cstdio>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace draguard::webhook {
namespace {

// The second field of /proc/self/statm: resident pages.
std::optional<uint64_t> ResidentBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return std::nullopt;
  unsigned long long size = 0, resident = 0;
  const bool ok = std::fscanf(f, "%llu %llu", &size, &resident) == 2;
  std::fclose(f);
  const long page = sysconf(_SC_PAGESIZE);
  if (!ok || page <= 0) return std::nullopt;
  return resident * static_cast<uint64_t>(page);
}

}  // namespace

ProcessMemory ReadProcessMemory() {
  ProcessMemory m;
  m.resident_bytes = ResidentBytes();
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  const struct mallinfo2 info = mallinfo2();
  // uordblks: bytes allocated in the arenas (blocks in the per-thread caches count as in
  // use); hblkhd: large blocks mmapped one by one (unmapped when freed); fordblks: free
  // bytes the arenas keep, resident or not.
  m.heap_in_use_bytes = info.uordblks + info.hblkhd;
  m.heap_free_bytes = info.fordblks;
#endif
  return m;
}

}  // namespace draguard::webhook
