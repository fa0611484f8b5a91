#!/usr/bin/env bash
# Inputs at scale (issue 17 item 4): peak RSS and CPU of `draguard lint --jobs 1` over one
# generated multi-document file of SIZE_MB megabytes, read from the file and from stdin. Two
# shapes: "export" (a cluster export or rendered chart: ConfigMaps and Services, one
# ResourceClaimTemplate in 50 documents) and "dra" (every document a ResourceClaimTemplate:
# every object is checked). Inputs this large are read twice (`--read-twice auto`: the
# first pass keeps what the cross-object stages read, the second checks each object as it is
# read again); ONCE=1 also runs `--read-twice never` (one pass, every checked object held) on
# the same file. With BASELINE, an older binary runs alternately on the same file.
# With INVENTORY_NODES=N, a third shape "pods" (groups of four documents: a template, a pod
# naming it and the claim after it, that claim, another template; one template in ten asks
# for 16 GPUs: unsatisfiable) runs with `--inventory` against a fleet of N nodes x (8 GPUs +
# 2 NICs) (bench/fleet-inventory.sh), after a run over one small file with the same inventory
# (what the inventory alone costs). SHAPES (default "export dra", plus "pods" with an
# inventory) picks the shapes.
#
#   bench/lint-stream.sh [DRAGUARD=build/bench/cli/draguard] [SIZE_MB=20] [ROUNDS=1]
#   BASELINE=/path/to/old/draguard bench/lint-stream.sh build/bench/cli/draguard 200
#   ONCE=1 bench/lint-stream.sh build/release/cli/draguard 20
#   ONCE=1 INVENTORY_NODES=5000 SHAPES=pods bench/lint-stream.sh build/release/cli/draguard 20
set -euo pipefail
draguard="${1:-build/bench/cli/draguard}"
size_mb="${2:-20}"
rounds="${3:-1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

generate() {  # FILE SHAPE
  awk -v limit="$((size_mb * 1000 * 1000))" -v shape="$2" 'BEGIN {
    for (i = 0; bytes < limit; i++) {
      if (shape == "pods") {
        g = int(i / 4)
        ns = g % 50
        count = i % 40 == 0 ? 16 : 1 + i % 4
        if (i % 4 == 1) {
          doc = sprintf("---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-%d\n  namespace: team-%d\nspec:\n  resourceClaims:\n  - name: a\n    resourceClaimTemplateName: tmpl-%d\n  - name: b\n    resourceClaimName: claim-%d\n  containers:\n  - name: x\n    image: registry.example.com/x\n    resources:\n      claims:\n      - name: a\n      - name: b\n", i, ns, i - 1, i + 1)
        } else if (i % 4 == 2) {
          doc = sprintf("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: claim-%d\n  namespace: team-%d\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu.nvidia.com\n        count: %d\n        selectors:\n        - cel:\n            expression: device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA A100-SXM4-80GB\"\n", i, ns, count)
        } else {
          doc = sprintf("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: tmpl-%d\n  namespace: team-%d\nspec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n        exactly:\n          deviceClassName: gpu.nvidia.com\n          count: %d\n          selectors:\n          - cel:\n              expression: device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA A100-SXM4-80GB\"\n", i, ns, count)
        }
      } else if (shape == "dra" || i % 50 == 0) {
        doc = sprintf("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: tmpl-%d\n  namespace: team-%d\nspec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n        exactly:\n          deviceClassName: gpu.nvidia.com\n          count: %d\n          selectors:\n          - cel:\n              expression: device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA A100-SXM4-80GB\"\n", i, i % 50, 1 + i % 4)
      } else if (i % 2 == 0) {
        doc = sprintf("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-%d\n  namespace: team-%d\n  labels: {app: web-%d, tier: frontend}\ndata:\n  settings.json: |\n    {\"replicas\": %d, \"image\": \"registry.example.com/web:%d\", \"padding\": \"%0300d\"}\n", i, i % 50, i, i % 7, i, 0)
      } else {
        doc = sprintf("---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc-%d\n  namespace: team-%d\nspec:\n  selector: {app: web-%d}\n  ports:\n  - {name: http, port: 80, targetPort: 8080}\n  - {name: metrics, port: 9090, targetPort: 9090}\n", i, i % 50, i)
      }
      printf "%s", doc
      bytes += length(doc)
      docs++
    }
    printf "%d documents\n", docs > "/dev/stderr"
  }' >"$1"
}

run() {  # LABEL BINARY FILE MODE [LINT FLAGS...]
  local load label="$1" binary="$2" file="$3" mode="$4"
  shift 4
  load="$(cut -d' ' -f1-3 /proc/loadavg)"
  if [[ "$mode" == stdin ]]; then
    /usr/bin/time -o "$work/time" -f '%U %S %M' "$binary" lint --jobs 1 --output json "$@" - \
      <"$file" >"$work/out" 2>"$work/err" || true
  else
    /usr/bin/time -o "$work/time" -f '%U %S %M' "$binary" lint --jobs 1 --output json "$@" \
      "$file" >"$work/out" 2>"$work/err" || true
  fi
  if [[ "$label" == new ]]; then cp "$work/out" "$work/out.new"; fi
  read -r user sys kb < <(tail -1 "$work/time")
  local findings
  findings="$({ grep -o '"code"' "$work/out" || true; } | wc -l)"
  echo "$label $(basename "$file") $mode: $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') s CPU," \
       "$((kb / 1024)) MiB RSS, $findings findings, load $load"
}

shapes="${SHAPES:-export dra${INVENTORY_NODES:+ pods}}"
inventory=()
if [[ -n "${INVENTORY_NODES:-}" ]]; then
  "$(dirname "$0")/fleet-inventory.sh" "$work/inventory" "$INVENTORY_NODES" 8 2
  echo "inventory: $INVENTORY_NODES nodes, $(du -sh "$work/inventory" | cut -f1) of YAML"
  inventory=(--inventory "$work/inventory")
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' >"$work/small.yaml"
  run "inventory-only" "$draguard" "$work/small.yaml" file "${inventory[@]}"
fi

for shape in $shapes; do
  generate "$work/$shape.yaml" "$shape"
  echo "$shape: $(du -h "$work/$shape.yaml" | cut -f1)"
  flags=()
  if [[ "$shape" == pods ]]; then flags=("${inventory[@]}"); fi
  for ((r = 0; r < rounds; r++)); do
    for mode in file stdin; do
      run new "$draguard" "$work/$shape.yaml" "$mode" "${flags[@]}"
      if [[ -n "${ONCE:-}" ]]; then
        run once "$draguard" "$work/$shape.yaml" "$mode" --read-twice never "${flags[@]}"
        if [[ "$shape" == pods ]]; then cmp -s "$work/out" "$work/out.new" || echo "  (reports differ)"; fi
      fi
      if [[ -n "${BASELINE:-}" ]]; then run old "$BASELINE" "$work/$shape.yaml" "$mode" "${flags[@]}"; fi
    done
  done
done
