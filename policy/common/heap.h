// Heap: what the process's memory allocator reports, and the one request it takes (give free
// pages back), whichever allocator the executable links. The release `draguard` links jemalloc
// (cli/CMakeLists.txt, docs/dependencies.md); tests, sanitizer and fuzz builds use the C
// library's (glibc) or the sanitizer's. The choice is made at link time, not by a macro: this
// code asks for jemalloc's control interface (`mallctl`) as a weak symbol and uses it when the
// executable has it, so the same library serves both.
#ifndef DRAGUARD_POLICY_COMMON_HEAP_H_
#define DRAGUARD_POLICY_COMMON_HEAP_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace draguard {

struct HeapFigures {
  std::optional<uint64_t> in_use_bytes;  // allocated and not yet freed
  // Freed but still resident in the allocator's pages (fragmentation, pages not yet
  // returned); with jemalloc, also its own metadata.
  std::optional<uint64_t> free_bytes;
};

// "jemalloc" or "glibc" (or "other": a sanitizer's allocator shows as glibc's symbols but
// reports nothing useful; callers only print this).
std::string_view HeapAllocatorName();

// The allocator's figures where it reports them. With glibc this walks the arenas' free
// lists under their locks (microseconds to a millisecond): for scrapes, never per request.
HeapFigures ReadHeapFigures();

// Returns the heap's free pages to the system now (jemalloc: purges every arena; glibc:
// malloc_trim). For after a large free, e.g. an inventory view replaced; not per request.
void ReleaseFreeHeapPages();

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_HEAP_H_
