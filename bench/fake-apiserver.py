#!/usr/bin/env python3
"""A fake Kubernetes API server for bench/cluster-listing.sh: a cluster of N nodes, one
ResourceSlice per node with G GPUs each (as a GPU driver publishes them: attributes,
capacity, pool per node), two DeviceClasses, one allocated ResourceClaim per node (one GPU in
use), and P Pending pods in namespace "bench" whose claims come from a template.

Serves what `draguard explain`/`capacity` read, as kube-apiserver answers it: discovery for
resource.k8s.io, lists paged with limit/continue (the continue token is opaque to clients),
GETs of pods and templates, fieldSelector=status.phase=Pending on pods. HTTP/1.1 keep-alive,
plain HTTP on 127.0.0.1. Every request must carry "Authorization: Bearer <token>" (the
kubeconfig's exec plugin prints it); anything else is a 401. Objects are serialized once at
start, so the server's own cost per page is a join of byte strings.

  bench/fake-apiserver.py --port 0 --nodes 5000 --gpus 8 --pending 20 --token T --port-file F
"""
import argparse
import base64
import json
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GROUP = "resource.k8s.io"


def meta(name, namespace=None, extra=None):
    m = {
        "name": name,
        "uid": "00000000-0000-4000-8000-%012d" % (abs(hash(name)) % 10**12),
        "resourceVersion": "1000",
        "creationTimestamp": "2026-11-20T09:14:03Z",
        "managedFields": [{"manager": "kubelet", "operation": "Update", "apiVersion": "v1",
                           "time": "2026-11-20T09:14:03Z", "fieldsType": "FieldsV1",
                           "fieldsV1": {"f:metadata": {"f:labels": {}}, "f:spec": {}}}],
    }
    if namespace:
        m["namespace"] = namespace
    if extra:
        m.update(extra)
    return m


def node(i):
    name = "node-%05d" % i
    return {
        "metadata": meta(name, extra={"labels": {
            "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
            "kubernetes.io/arch": "amd64", "node.kubernetes.io/instance-type": "p4d.24xlarge",
            "topology.kubernetes.io/region": "us-east-1",
            "topology.kubernetes.io/zone": "us-east-1" + "abc"[i % 3],
            "nvidia.com/gpu.present": "true", "nvidia.com/gpu.product": "A100-SXM4-40GB",
            "pool": "gpu"},
            "annotations": {"node.alpha.kubernetes.io/ttl": "0",
                            "volumes.kubernetes.io/controller-managed-attach-detach": "true"}}),
        "spec": {"podCIDR": "10.%d.%d.0/24" % (i // 256, i % 256),
                 "providerID": "aws:///us-east-1a/i-%017x" % i},
        "status": {
            "capacity": {"cpu": "96", "memory": "1176729208Ki", "pods": "110",
                         "ephemeral-storage": "209702892Ki"},
            "allocatable": {"cpu": "95690m", "memory": "1163139704Ki", "pods": "110"},
            "conditions": [{"type": t, "status": s, "reason": r,
                            "lastHeartbeatTime": "2026-11-27T04:00:00Z",
                            "lastTransitionTime": "2026-11-20T09:14:03Z",
                            "message": "kubelet reports " + t}
                           for t, s, r in [("MemoryPressure", "False", "KubeletHasSufficientMemory"),
                                           ("DiskPressure", "False", "KubeletHasNoDiskPressure"),
                                           ("PIDPressure", "False", "KubeletHasSufficientPID"),
                                           ("Ready", "True", "KubeletReady")]],
            "addresses": [{"type": "InternalIP", "address": "10.0.%d.%d" % (i // 256, i % 256)},
                          {"type": "Hostname", "address": name}],
            "nodeInfo": {"kubeletVersion": "v1.36.0", "containerRuntimeVersion": "containerd://2.1.4",
                         "kernelVersion": "6.8.0-1019-aws", "osImage": "Ubuntu 24.04.1 LTS",
                         "architecture": "amd64", "operatingSystem": "linux"},
            "images": [{"names": ["registry.example.com/ml/image-%d@sha256:%064x" % (k, k)],
                        "sizeBytes": 1000000000 + k} for k in range(8)],
        },
    }


def slice_(i, gpus):
    name = "node-%05d" % i
    devices = []
    for g in range(gpus):
        devices.append({"name": "gpu-%d" % g, "attributes": {
            "architecture": {"string": "Ampere"}, "brand": {"string": "Nvidia"},
            "cudaComputeCapability": {"version": "8.0.0"},
            "cudaDriverVersion": {"version": "12.8.0"},
            "driverVersion": {"version": "580.82.7"}, "index": {"int": g}, "minor": {"int": g},
            "productName": {"string": "NVIDIA A100-SXM4-40GB"}, "type": {"string": "gpu"},
            "pcieBusID": {"string": "0000:%02x:00.0" % (16 + g)},
            "uuid": {"string": "GPU-%08x-%04x" % (i, g)}},
            "capacity": {"memory": {"value": "40Gi"}}})
    return {"metadata": meta(name + "-gpu.nvidia.com-x7k2p", extra={"ownerReferences": [
                {"apiVersion": "v1", "kind": "Node", "name": name,
                 "uid": "5d0e7a3c-%04d-4f3a-8b2e-1c2d3e4f5a6b" % (i % 10000), "controller": True}]}),
            "spec": {"driver": "gpu.nvidia.com", "nodeName": name,
                     "pool": {"name": name, "generation": 1, "resourceSliceCount": 1},
                     "devices": devices}}


def device_class(name, expression):
    return {"metadata": meta(name), "spec": {"selectors": [{"cel": {"expression": expression}}]}}


def claim(i):
    name = "node-%05d" % i
    return {"metadata": meta("worker-%05d-gpu-8x2lq" % i, "bench",
                             {"annotations": {"resource.kubernetes.io/pod-claim-name": "gpu"}}),
            "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
                "deviceClassName": "gpu.nvidia.com", "allocationMode": "ExactCount", "count": 1}}]}},
            "status": {"allocation": {
                "devices": {"results": [{"request": "gpu", "driver": "gpu.nvidia.com",
                                         "pool": name, "device": "gpu-0"}]},
                "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                    {"key": "metadata.name", "operator": "In", "values": [name]}]}]}},
                "reservedFor": [{"resource": "pods", "name": "worker-%05d" % i,
                                 "uid": "aa2b3c4d-5e6f-4a1b-8c2d-%012d" % i}]}}


def template(name, count):
    return {"apiVersion": GROUP + "/v1", "kind": "ResourceClaimTemplate",
            "metadata": meta(name, "bench"),
            "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
                "deviceClassName": "gpu.nvidia.com", "count": count}}]}}}}


def pod(i, template_name):
    return {"metadata": meta("pending-%04d" % i, "bench"),
            "spec": {"containers": [{"name": "train", "image": "registry.example.com/ml/train:1",
                                     "resources": {"claims": [{"name": "gpu"}]}}],
                     "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": template_name}]},
            "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False",
                       "reason": "Unschedulable",
                       "message": "0/5000 nodes are available: cannot allocate all claims."}]}}


def dumps(obj):
    return json.dumps(obj, separators=(",", ":")).encode()


class Cluster:
    def __init__(self, nodes, gpus, pending):
        print("fake-apiserver: generating %d nodes, %d GPUs each" % (nodes, gpus), file=sys.stderr)
        self.lists = {
            "/api/v1/nodes": ("NodeList", "v1", [dumps(node(i)) for i in range(nodes)]),
            "/apis/%s/v1/resourceslices" % GROUP: ("ResourceSliceList", GROUP + "/v1",
                                                  [dumps(slice_(i, gpus)) for i in range(nodes)]),
            "/apis/%s/v1/deviceclasses" % GROUP: ("DeviceClassList", GROUP + "/v1", [
                dumps(device_class("gpu.nvidia.com", "device.driver == 'gpu.nvidia.com' && "
                                   "device.attributes['gpu.nvidia.com'].type == 'gpu'")),
                dumps(device_class("mig.nvidia.com", "device.driver == 'gpu.nvidia.com' && "
                                   "device.attributes['gpu.nvidia.com'].type == 'mig'"))]),
            "/apis/%s/v1/resourceclaims" % GROUP: ("ResourceClaimList", GROUP + "/v1",
                                                  [dumps(claim(i)) for i in range(nodes)]),
        }
        # Most pending pods fit (one GPU); every tenth asks for more GPUs than a node has.
        pods = [dumps(pod(i, "too-many" if i % 10 == 9 else "one-gpu")) for i in range(pending)]
        self.lists["/api/v1/pods"] = ("PodList", "v1", pods)
        self.lists["/api/v1/namespaces/bench/pods"] = ("PodList", "v1", pods)
        self.objects = {
            "/apis/%s/v1/namespaces/bench/resourceclaimtemplates/one-gpu" % GROUP:
                dumps(template("one-gpu", 1)),
            "/apis/%s/v1/namespaces/bench/resourceclaimtemplates/too-many" % GROUP:
                dumps(template("too-many", gpus + 1)),
        }
        for i in range(pending):
            self.objects["/api/v1/namespaces/bench/pods/pending-%04d" % i] = pods[i]
        resources = [{"name": r, "namespaced": ns, "kind": k, "verbs": ["get", "list", "watch"]}
                     for r, ns, k in [("deviceclasses", False, "DeviceClass"),
                                      ("resourceclaims", True, "ResourceClaim"),
                                      ("resourceclaimtemplates", True, "ResourceClaimTemplate"),
                                      ("resourceslices", False, "ResourceSlice")]]
        self.objects["/apis/" + GROUP] = dumps({
            "kind": "APIGroup", "apiVersion": "v1", "name": GROUP,
            "versions": [{"groupVersion": GROUP + "/v1", "version": "v1"}],
            "preferredVersion": {"groupVersion": GROUP + "/v1", "version": "v1"}})
        self.objects["/apis/%s/v1" % GROUP] = dumps({
            "kind": "APIResourceList", "apiVersion": "v1", "groupVersion": GROUP + "/v1",
            "resources": resources})
        self.objects["/version"] = dumps({"major": "1", "minor": "36", "gitVersion": "v1.36.0"})

    def page(self, path, query):
        kind, api_version, items = self.lists[path]
        if path.endswith("/pods") and query.get("fieldSelector", [""])[0] not in (
                "", "status.phase=Pending"):
            items = []
        limit = int(query.get("limit", ["0"])[0] or 0) or len(items) or 1
        token = query.get("continue", [""])[0]
        start = int(base64.b64decode(token).decode()) if token else 0
        end = min(start + limit, len(items))
        metadata = {"resourceVersion": "1000"}
        if end < len(items):
            metadata["continue"] = base64.b64encode(str(end).encode()).decode()
            metadata["remainingItemCount"] = len(items) - end
        head = b'{"kind":"%s","apiVersion":"%s","metadata":%s,"items":[' % (
            kind.encode(), api_version.encode(), dumps(metadata))
        return head + b",".join(items[start:end]) + b"]}"


def handler_for(cluster, token):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, code, body):
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if self.headers.get("Authorization") != "Bearer " + token:
                return self.reply(401, b'{"kind":"Status","apiVersion":"v1","status":"Failure",'
                                       b'"reason":"Unauthorized","code":401}')
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            if url.path in cluster.lists:
                return self.reply(200, cluster.page(url.path, query))
            if url.path.startswith("/api/v1/namespaces/") and url.path.endswith("/pods"):
                return self.reply(200, b'{"kind":"PodList","apiVersion":"v1","metadata":'
                                       b'{"resourceVersion":"1000"},"items":[]}')
            if url.path in cluster.objects:
                return self.reply(200, cluster.objects[url.path])
            return self.reply(404, b'{"kind":"Status","apiVersion":"v1","status":"Failure",'
                                   b'"reason":"NotFound","code":404}')
    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", default="")
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--gpus", type=int, default=8)
    parser.add_argument("--pending", type=int, default=20)
    parser.add_argument("--token", default="bench-token")
    args = parser.parse_args()
    cluster = Cluster(args.nodes, args.gpus, args.pending)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler_for(cluster, args.token))
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(str(server.server_address[1]))
        import os
        os.rename(args.port_file + ".tmp", args.port_file)
    print("fake-apiserver: listening on 127.0.0.1:%d" % server.server_address[1], file=sys.stderr)
    server.serve_forever()


if __name__ == "__main__":
    main()
