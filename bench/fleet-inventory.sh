#!/usr/bin/env bash
# Writes a fleet's inventory for the webhook and allocator benchmarks: NODES nodes, each with
# GPUS A100 GPUs (driver gpu.nvidia.com) and NICS NICs (nic.example.com) sharing PCIe roots
# pairwise, and a DeviceClass per driver; 100 nodes per file (the decoder refuses files over
# 3 MiB, as the API server refuses objects over that).
#
# The GPUs carry what kubernetes-sigs/dra-driver-nvidia-gpu publishes for a full GPU
# (../shared/spec/attribute-catalog.md: deviceinfo.go at 9593204): type, uuid (unique per
# GPU), productName, brand, architecture, cudaComputeCapability, driverVersion,
# cudaDriverVersion and the standard resource.kubernetes.io pciBusID, pcieRoot and numaNode,
# with capacity memory (`index` is not published since September 2025). The nodes are
# identical machines, so PCI addresses repeat from node to node (four GPUs and one NIC per
# root, one root per NUMA node): only the uuids tell two nodes' devices apart.
#
#   bench/fleet-inventory.sh DIR [NODES=1000] [GPUS=8] [NICS=2]
set -euo pipefail
dir="${1:?usage: bench/fleet-inventory.sh DIR [NODES] [GPUS] [NICS]}"
mkdir -p "$dir"
awk -v dir="$dir" -v nodes="${2:-1000}" -v gpus="${3:-8}" -v nics="${4:-2}" 'BEGIN {
  out = dir "/classes.yaml"
  print "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu.nvidia.com\nspec:\n  selectors:\n  - cel:\n      expression: device.driver == \"gpu.nvidia.com\"" > out
  print "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: nic.example.com\nspec:\n  selectors:\n  - cel:\n      expression: device.driver == \"nic.example.com\"" > out
  for (n = 0; n < nodes; n++) {
    out = sprintf("%s/nodes-%02d.yaml", dir, int(n / 100))
    node = sprintf("gpu-node-%04d", n)
    printf "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: %s-gpu\nspec:\n  driver: gpu.nvidia.com\n  nodeName: %s\n  pool:\n    name: %s\n    generation: 1\n    resourceSliceCount: 1\n  devices:\n", node, node, node > out
    for (g = 0; g < gpus; g++) {
      printf "  - name: gpu-%d\n    attributes:\n      type: {string: gpu}\n      uuid: {string: GPU-%08x-4f1e-9c2a-%04d-%012d}\n      productName: {string: NVIDIA A100-SXM4-80GB}\n      brand: {string: Nvidia}\n      architecture: {string: Ampere}\n      cudaComputeCapability: {version: 8.0.0}\n      driverVersion: {version: 580.126.20}\n      cudaDriverVersion: {version: 13.0.0}\n      resource.kubernetes.io/pciBusID: {string: \"0000:%02x:00.0\"}\n      resource.kubernetes.io/pcieRoot: {string: pci0000:%02x}\n      resource.kubernetes.io/numaNode: {int: %d}\n    capacity:\n      memory: {value: 80Gi}\n", g, n * 16 + g, g, n, (128 * int(g / 4) + 7 + 8 * (g % 4)) % 256, (128 * int(g / 4)) % 256, int(g / 4) > out
    }
    if (nics == 0) continue
    printf "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: %s-nic\nspec:\n  driver: nic.example.com\n  nodeName: %s\n  pool:\n    name: %s\n    generation: 1\n    resourceSliceCount: 1\n  devices:\n", node, node, node > out
    for (i = 0; i < nics; i++) {
      printf "  - name: nic-%d\n    attributes:\n      interface: {string: eth%d}\n      resource.kubernetes.io/pcieRoot: {string: pci0000:%02x}\n", i, i + 1, (128 * i) % 256 > out
    }
  }
}'
