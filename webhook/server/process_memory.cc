#include "webhook/server/process_memory.h"

#include <unistd.h>

#include <cstdio>

#include "policy/common/heap.h"

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
  const HeapFigures heap = ReadHeapFigures();
  return {.resident_bytes = ResidentBytes(),
          .heap_in_use_bytes = heap.in_use_bytes,
          .heap_free_bytes = heap.free_bytes};
}

}  // namespace draguard::webhook
