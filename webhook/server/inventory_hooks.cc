#include "webhook/server/inventory_hooks.h"

#include <chrono>
#include <utility>

namespace draguard::webhook {

InventoryStats StatsOf(const InventorySource& source) {
  InventorySourceState state = source.State();
  InventoryStats stats{.configured = true, .synced = state.synced, .objects = state.objects};
  if (state.synced) {
    std::chrono::duration<double> age = std::chrono::system_clock::now() - state.confirmed_at;
    stats.age_seconds = age.count();
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
