// Test doubles for the inventory side of the webhook: an InventorySource whose snapshot and
// state the test sets, a SelectorEvaluator that reads the literal expressions "true" and
// "false", and helpers that decode YAML into cluster objects.
#ifndef DRAGUARD_TESTS_WEBHOOK_TESTING_FAKE_INVENTORY_H_
#define DRAGUARD_TESTS_WEBHOOK_TESTING_FAKE_INVENTORY_H_

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "policy/allocator/selector.h"
#include "policy/common/source.h"
#include "policy/inventory/cluster_objects.h"
#include "policy/k8s/decode.h"
#include "webhook/inventory_source.h"

namespace draguard::webhook::testing {

class FakeInventorySource : public InventorySource {
 public:
  Status Start() override { return OkStatus(); }
  void Stop() override {}
  std::shared_ptr<const inventory::ClusterObjects> Current() const override {
    std::lock_guard lock(mu_);
    return current_;
  }
  InventorySourceState State() const override {
    std::lock_guard lock(mu_);
    return state_;
  }

  // Publishes `objects` as a fresh, synced snapshot confirmed `age` ago.
  void Publish(inventory::ClusterObjects objects,
               std::chrono::seconds age = std::chrono::seconds(0)) {
    std::lock_guard lock(mu_);
    state_.synced = true;
    state_.objects = CountObjects(objects);
    state_.confirmed_at = std::chrono::system_clock::now() - age;
    objects.source = "test inventory";
    current_ = std::make_shared<const inventory::ClusterObjects>(std::move(objects));
  }

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const inventory::ClusterObjects> current_;
  InventorySourceState state_;
};

// "true" matches every device, "false" none; anything else is a CEL error.
class LiteralSelectorEvaluator : public alloc::SelectorEvaluator {
 public:
  alloc::SelectorResult Evaluate(std::string_view expression, const alloc::DeviceView&) override {
    if (expression == "true") return alloc::SelectorResult::Match();
    if (expression == "false") return alloc::SelectorResult::NoMatch();
    return alloc::SelectorResult::Error("unsupported expression in test: " +
                                        std::string(expression));
  }
};

// The cluster objects among the YAML documents of `yaml`.
inline inventory::ClusterObjects ClusterFromYaml(std::string_view yaml) {
  k8s::DecodeOptions options;
  options.strict = false;
  inventory::ClusterObjects objects;
  inventory::CollectClusterObjects(k8s::Decode(SourceText("inventory.yaml", std::string(yaml)),
                                               options),
                                   objects);
  return objects;
}

// One ResourceSlice on `node` with `devices` devices of driver gpu.example.com, and the
// DeviceClass gpu.example.com that selects every device ("true").
inline std::string GpuInventoryYaml(const std::string& node, int devices) {
  std::string text =
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu.example.com\n"
      "spec:\n  selectors:\n  - cel:\n      expression: \"true\"\n---\n"
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: " + node +
      "\nspec:\n  driver: gpu.example.com\n  nodeName: " + node + "\n  pool:\n    name: " + node +
      "\n    generation: 1\n    resourceSliceCount: 1\n  devices:\n";
  for (int i = 0; i < devices; ++i) text += "  - name: gpu-" + std::to_string(i) + "\n";
  return text;
}

// A fleet as large clusters run it: `nodes` nodes, each with one ResourceSlice of
// `gpus_per_node` GPUs (driver gpu.nvidia.com, with the 11 attributes and the capacity that
// dra-driver-nvidia-gpu publishes for a full GPU: type, uuid, productName, brand,
// architecture, the CUDA compute capability, driver and CUDA driver versions, PCI bus ID,
// PCIe root and NUMA node; 80Gi of memory: as large as real devices, so that memory tests
// weigh what a real inventory weighs) and, when `nics_per_node` > 0, one of NICs (nic.example.com) sharing the GPUs' PCIe roots;
// and a DeviceClass per driver selecting its devices. Decoded slice by slice: one YAML text
// for 10,000 devices would be larger than the decoder's per-file limit.
//
// kDistinctRoots numbers the PCIe roots per node ("pci<node>:<root>"), so that
// no two nodes look alike to the allocator (every node its own node group); kIdenticalMachines
// repeats them from node to node as identical servers do, and as bench/fleet-inventory.sh
// writes them (only the uuids, identifying attributes, tell two nodes' devices apart: one
// node group).
enum class FleetMachines { kDistinctRoots, kIdenticalMachines };

inline inventory::ClusterObjects FleetInventory(
    int nodes, int gpus_per_node, int nics_per_node,
    FleetMachines machines = FleetMachines::kDistinctRoots) {
  k8s::DecodeOptions options;
  options.strict = false;
  inventory::ClusterObjects objects;
  const std::string classes =
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu.nvidia.com\n"
      "spec:\n  selectors:\n  - cel:\n      expression: device.driver == \"gpu.nvidia.com\"\n---\n"
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: nic.example.com\n"
      "spec:\n  selectors:\n  - cel:\n      expression: device.driver == \"nic.example.com\"\n";
  inventory::CollectClusterObjects(k8s::Decode(SourceText("classes", classes), options), objects);
  for (int n = 0; n < nodes; ++n) {
    const std::string node = "gpu-node-" + std::to_string(n);
    std::string text;
    for (const bool gpu : {true, false}) {
      const int devices = gpu ? gpus_per_node : nics_per_node;
      if (devices == 0) continue;
      const std::string driver = gpu ? "gpu.nvidia.com" : "nic.example.com";
      text += "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: " +
              node + "-" + driver + "\nspec:\n  driver: " + driver + "\n  nodeName: " + node +
              "\n  pool:\n    name: " + node +
              "\n    generation: 1\n    resourceSliceCount: 1\n  devices:\n";
      for (int d = 0; d < devices; ++d) {
        const int root_index = gpu ? d / 4 : d;
        std::string root = "pci" + std::to_string(n) + ":" + std::to_string(root_index);
        std::string bus = std::to_string(d) + "7";
        if (machines == FleetMachines::kIdenticalMachines) {  // as bench/fleet-inventory.sh
          char text_buf[16];
          std::snprintf(text_buf, sizeof(text_buf), "pci0000:%02x", (128 * root_index) % 256);
          root = text_buf;
          std::snprintf(text_buf, sizeof(text_buf), "%02x",
                        (128 * (d / 4) + 7 + 8 * (d % 4)) % 256);
          bus = text_buf;
        }
        const std::string id = std::to_string(n) + "-" + std::to_string(d);
        text += gpu ? "  - name: gpu-" + std::to_string(d) +
                          "\n    attributes:\n      type: {string: gpu}\n"
                          "      uuid: {string: GPU-5c1e2d3f-" + id + "}\n"
                          "      productName: {string: NVIDIA A100-SXM4-80GB}\n"
                          "      brand: {string: Nvidia}\n"
                          "      architecture: {string: Ampere}\n"
                          "      cudaComputeCapability: {version: 8.0.0}\n"
                          "      driverVersion: {version: 580.126.20}\n"
                          "      cudaDriverVersion: {version: 13.0.0}\n"
                          "      resource.kubernetes.io/pciBusID: {string: \"0000:" + bus +
                          ":00.0\"}\n"
                          "      resource.kubernetes.io/pcieRoot: {string: \"" + root + "\"}\n"
                          "      resource.kubernetes.io/numaNode: {int: " + std::to_string(d / 4) + "}\n"
                          "    capacity:\n      memory: {value: 80Gi}\n"
                    : "  - name: nic-" + std::to_string(d) +
                          "\n    attributes:\n      interface: {string: eth" + std::to_string(d) +
                          "}\n      resource.kubernetes.io/pcieRoot: {string: \"" + root + "\"}\n";
      }
    }
    inventory::CollectClusterObjects(k8s::Decode(SourceText(node, text), options), objects);
  }
  objects.source = "fleet of " + std::to_string(nodes) + " nodes";
  return objects;
}

}  // namespace draguard::webhook::testing

#endif  // DRAGUARD_TESTS_WEBHOOK_TESTING_FAKE_INVENTORY_H_
