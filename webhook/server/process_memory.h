// ProcessMemory: what the process holds in memory, read at scrape time for /metrics. The
// resident set is what the container's memory limit counts; the allocator's heap figures
// (policy/common/heap.h: jemalloc's in the release binary, glibc's elsewhere) tell memory the
// program holds (in use) from memory it has freed but the allocator still keeps (free:
// fragmentation, or pages not yet returned), which RSS alone cannot.
#ifndef DRAGUARD_WEBHOOK_SERVER_PROCESS_MEMORY_H_
#define DRAGUARD_WEBHOOK_SERVER_PROCESS_MEMORY_H_

#include <cstdint>
#include <optional>

namespace draguard::webhook {

struct ProcessMemory {
  std::optional<uint64_t> resident_bytes;   // VmRSS (Linux)
  std::optional<uint64_t> heap_in_use_bytes;  // allocated and not freed
  std::optional<uint64_t> heap_free_bytes;    // freed, kept resident by the allocator
};

// Reads the figures this platform offers; the others stay empty. For scrapes, never per
// request (ReadHeapFigures may walk the allocator's free lists).
ProcessMemory ReadProcessMemory();

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_SERVER_PROCESS_MEMORY_H_
