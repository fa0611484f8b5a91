#include "webhook/server/inventory_hooks.h"

#include <chrono>
#include <utility>

namespace draguard::webhook {

InventoryStats StatsOf(const InventorySource& source) {
  InventorySourceState state = source.State();
  InventoryStats stats{.configured = true,
                       .synced = state.synced,
                       .objects = state.objects,
                       .files_failing = state.failing_files,
                       .file_failures = state.file_failures};
  const auto now = std::chrono::system_clock::now();
  if (state.synced) stats.age_seconds = std::chrono::duration<double>(now - state.confirmed_at).count();
  if (state.failing_files > 0) {
    stats.stale_seconds = std::chrono::duration<double>(now - state.stale_since).count();
  }
  return stats;
}

void AddInventoryHooks(const InventorySource* source, ServerHooks& hooks) {
  if (source == nullptr) return;
  hooks.ready = [source, previous = std::move(hooks.ready)] {
    return source->Synced() && (!previous || previous());
  };
  hooks.inventory = [source] { return StatsOf(*source); };
}

}  // namespace draguard::webhook
