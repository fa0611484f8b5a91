#include "bench/manifest_generator.h"

#include <string>

namespace draguard::bench {
namespace {

std::string Header(size_t i, bool is_template) {
  std::string out = "apiVersion: resource.k8s.io/v1\nkind: ";
  out += is_template ? "ResourceClaimTemplate" : "ResourceClaim";
  out += "\nmetadata:\n  name: workload-" + std::to_string(i) + "\n  namespace: team-" +
         std::to_string(i % 17) + "\n  labels:\n    app.kubernetes.io/part-of: bench\n";
  out += is_template ? "spec:\n  spec:\n    devices:\n" : "spec:\n  devices:\n";
  return out;
}

// The body of `devices:`, indented by `pad`, in one of four shapes.
std::string Devices(size_t i, const std::string& pad) {
  switch (i % 4) {
    case 0:  // NVIDIA A100 pair on one PCIe root
      return pad + "requests:\n" + pad + "- name: gpus\n" + pad + "  exactly:\n" + pad +
             "    deviceClassName: gpu.nvidia.com\n" + pad + "    allocationMode: ExactCount\n" +
             pad + "    count: 2\n" + pad + "    selectors:\n" + pad + "    - cel:\n" + pad +
             "        expression: \"device.attributes['gpu.nvidia.com'].productName"
             ".startsWith('NVIDIA A100')\"\n" +
             pad + "constraints:\n" + pad + "- requests: [\"gpus\"]\n" + pad +
             "  matchAttribute: resource.kubernetes.io/pcieRoot\n";
    case 1:  // MIG slice, else a full GPU
      return pad + "requests:\n" + pad + "- name: gpu\n" + pad + "  firstAvailable:\n" + pad +
             "  - name: mig\n" + pad + "    deviceClassName: mig.nvidia.com\n" + pad +
             "    selectors:\n" + pad + "    - cel:\n" + pad +
             "        expression: \"device.attributes['gpu.nvidia.com'].profile == '1g.10gb'\"\n" +
             pad + "  - name: full\n" + pad + "    deviceClassName: gpu.nvidia.com\n";
    case 2:  // AMD MI300X with an opaque driver config
      return pad + "requests:\n" + pad + "- name: gpu\n" + pad + "  exactly:\n" + pad +
             "    deviceClassName: gpu.amd.com\n" + pad + "    selectors:\n" + pad +
             "    - cel:\n" + pad +
             "        expression: \"device.attributes['gpu.amd.com'].productName == "
             "'AMD_Instinct_MI300X_OAM'\"\n" +
             pad + "config:\n" + pad + "- requests: [\"gpu\"]\n" + pad + "  opaque:\n" + pad +
             "    driver: gpu.amd.com\n" + pad + "    parameters:\n" + pad +
             "      apiVersion: gpu.amd.com/v1alpha1\n" + pad + "      kind: GpuConfig\n" + pad +
             "      partitionProfile: spx_nps1\n";
    default:  // GPU + NIC with tolerations
      return pad + "requests:\n" + pad + "- name: gpu\n" + pad + "  exactly:\n" + pad +
             "    deviceClassName: gpu.nvidia.com\n" + pad + "    tolerations:\n" + pad +
             "    - key: example.com/maintenance\n" + pad + "      operator: Exists\n" + pad +
             "      effect: NoSchedule\n" + pad + "- name: nic\n" + pad + "  exactly:\n" + pad +
             "    deviceClassName: dranet.net\n" + pad + "    allocationMode: All\n";
  }
}

}  // namespace

std::vector<SourceText> GenerateManifests(size_t resources, size_t per_file) {
  std::vector<SourceText> files;
  std::string text;
  for (size_t i = 0; i < resources; ++i) {
    bool is_template = i % 2 == 1;
    if (!text.empty()) text += "---\n";
    text += Header(i, is_template) + Devices(i / 2, is_template ? "      " : "    ");
    if ((i + 1) % per_file == 0 || i + 1 == resources) {
      files.emplace_back("bench/" + std::to_string(files.size()) + ".yaml", std::move(text));
      text.clear();
    }
  }
  return files;
}

}  // namespace draguard::bench
