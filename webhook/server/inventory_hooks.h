// The server's view of an inventory source: /readyz waits for its first sync, /metrics reports
// its size, age and failing files (draguard_inventory_{synced,objects,age_seconds,
// files_failing,stale_seconds,file_failures_total}).
#ifndef DRAGUARD_WEBHOOK_SERVER_INVENTORY_HOOKS_H_
#define DRAGUARD_WEBHOOK_SERVER_INVENTORY_HOOKS_H_

#include "webhook/inventory_source.h"
#include "webhook/server/server_options.h"

namespace draguard::webhook {

// Sets hooks.ready and hooks.inventory from `source`, which must outlive the server. A ready
// hook already present is kept and must hold too. Null `source`: hooks unchanged.
void AddInventoryHooks(const InventorySource* source, ServerHooks& hooks);

// The gauges for /metrics: age is measured from the source's last confirmation.
InventoryStats StatsOf(const InventorySource& source);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_SERVER_INVENTORY_HOOKS_H_
