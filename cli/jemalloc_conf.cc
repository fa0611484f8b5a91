// jemalloc's defaults for draguard, linked only when the executable links jemalloc
// (cli/CMakeLists.txt). jemalloc reads this string at its first allocation; the MALLOC_CONF
// environment variable, read after it, overrides any of these settings.
//
// narenas:2 — jemalloc's default is four arenas per CPU, and a thread keeps to its arena: the
// server's few threads (I/O, inventory poller, snapshot builder) would each hold their own
// partly used pages. Two arenas held the soak's RSS 4 MiB lower than the default, as flat.
// dirty_decay_ms:0, muzzy_decay_ms:0 — pages a free leaves unused go back to the system at
// once instead of over the next 10 s; a replaced inventory view frees megabytes at a time.
// Measured in docs/dependencies.md ("jemalloc").
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
const char* malloc_conf = "narenas:2,dirty_decay_ms:0,muzzy_decay_ms:0";
}
