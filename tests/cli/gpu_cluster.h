// The small cluster the CLI tests of explain and capacity run against: a DeviceClass `gpu`
// selecting driver gpu.example.com, node-1 with two GPUs and node-2 with four.
#ifndef DRAGUARD_TESTS_CLI_GPU_CLUSTER_H_
#define DRAGUARD_TESTS_CLI_GPU_CLUSTER_H_

namespace draguard::cli::testing {

inline constexpr char kTwoNodeGpuCluster[] = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}, {name: gpu-1}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-2}
spec:
  driver: gpu.example.com
  nodeName: node-2
  pool: {name: node-2, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}, {name: gpu-1}, {name: gpu-2}, {name: gpu-3}]
)";

}  // namespace draguard::cli::testing

#endif  // DRAGUARD_TESTS_CLI_GPU_CLUSTER_H_
