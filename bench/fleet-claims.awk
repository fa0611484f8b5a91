# 1,000 ResourceClaims (or N: -v n=...) of the shapes users write against a GPU fleet
# (bench/fleet-scale.sh), cycling through 10 shapes with varying constants, so that most
# specs and selector texts are distinct:
#   0 one GPU                          5 firstAvailable: 8 H100 (none) else 4 A100
#   1 eight GPUs                       6 unsatisfiable: 16 GPUs on one node
#   2 a GPU and a NIC on one PCIe root 7 unsatisfiable: no GPU has that much memory
#   3 GPUs by productName              8 unsatisfiable: 5 GPUs and a NIC on one root
#   4 GPUs by memory and architecture  9 GPUs by CUDA compute capability (semver)
# With -v pin_uuid=1, one claim in 100 (shape 3) also excludes one GPU by uuid, an attribute
# that tells every device apart: the allocator cannot group nodes for it and searches each
# (docs/allocator.md, "Shape classes").
function request(name, class, count, sel) {
  printf "    - name: %s\n      exactly:\n        deviceClassName: %s\n        count: %d\n", name, class, count > out
  if (sel != "") printf "        selectors:\n        - cel:\n            expression: '%s'\n", sel > out
}
BEGIN {
  if (n == "") n = 1000
  for (i = 0; i < n; i++) {
    shape = i % 10
    printf "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: claim-%04d\n  namespace: team-%d\nspec:\n  devices:\n    requests:\n", i, i % 20 > out
    if (shape == 0) {
      request("gpu", "gpu.nvidia.com", 1, "")
    } else if (shape == 1) {
      request("gpus", "gpu.nvidia.com", 8, "")
    } else if (shape == 2) {
      request("gpu", "gpu.nvidia.com", 1 + i % 4, "")
      request("nic", "nic.example.com", 1, "device.attributes[\"nic.example.com\"].interface.startsWith(\"eth\")")
      printf "    constraints:\n    - requests: [gpu, nic]\n      matchAttribute: resource.kubernetes.io/pcieRoot\n" > out
    } else if (shape == 3) {
      sel = "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA A100-SXM4-80GB\""
      if (pin_uuid && i % 100 == 3) sel = sel sprintf(" && device.attributes[\"gpu.nvidia.com\"].uuid != \"GPU-%08x-4f1e-9c2a-0000-000000000000\"", i)
      request("gpu", "gpu.nvidia.com", 1 + i % 8, sel)
    } else if (shape == 4) {
      request("gpu", "gpu.nvidia.com", 1 + i % 4, sprintf("device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"%dGi\")) >= 0 && device.attributes[\"gpu.nvidia.com\"].architecture == \"Ampere\"", 16 + i % 64))
    } else if (shape == 5) {
      printf "    - name: gpu\n      firstAvailable:\n      - name: h100\n        deviceClassName: gpu.nvidia.com\n        count: 8\n        selectors:\n        - cel:\n            expression: \047device.attributes[\"gpu.nvidia.com\"].productName.startsWith(\"NVIDIA H100\")\047\n      - name: a100\n        deviceClassName: gpu.nvidia.com\n        count: %d\n        selectors:\n        - cel:\n            expression: \047device.attributes[\"gpu.nvidia.com\"].productName.startsWith(\"NVIDIA A100\")\047\n", 1 + i % 4 > out
    } else if (shape == 6) {
      request("gpus", "gpu.nvidia.com", 16, "")
    } else if (shape == 7) {
      request("gpu", "gpu.nvidia.com", 1 + i % 2, sprintf("device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"%dGi\")) >= 0", 96 + i % 64))
    } else if (shape == 8) {
      request("gpu", "gpu.nvidia.com", 5, "")
      request("nic", "nic.example.com", 1, "")
      printf "    constraints:\n    - requests: [gpu, nic]\n      matchAttribute: resource.kubernetes.io/pcieRoot\n" > out
    } else {
      request("gpu", "gpu.nvidia.com", 1 + i % 2, sprintf("device.attributes[\"gpu.nvidia.com\"].cudaComputeCapability.isGreaterThan(semver(\"%d.0.0\"))", 5 + i % 3))
    }
  }
}
