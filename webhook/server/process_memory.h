// ProcessMemory: what the process holds in memory, read at scrape time for /metrics. The
// resident set is what the container's memory limit counts; the C library's heap figures tell
// memory the program holds (in use) from memory it has freed but the allocator still keeps
// (free: fragmentation, or pages not yet returned), which RSS alone cannot.
#ifndef DRAGUARD_WEBHOOK_SERVER_PROCESS_MEMORY_H_
#define DRAGUARD_WEBHOOK_SERVER_PROCESS_MEMORY_H_

#include <cstdint>
#include <optional>

namespace draguard::webhook {

struct ProcessMemory {
  std::optional<uint64_t> resident_bytes;   // VmRSS (Linux)
  std::optional<uint64_t> heap_in_use_bytes;  // allocated and not freed (glibc mallinfo2)
  std::optional<uint64_t> heap_free_bytes;  // freed, kept by the allocator (glibc)
};

// Reads the figures this platform offers; the others stay empty. Takes the allocator's arena
// locks for a walk of its free lists (microseconds to a millisecond): for scrapes, never per
// request.
ProcessMemory ReadProcessMemory();

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_SERVER_PROCESS_MEMORY_H_
