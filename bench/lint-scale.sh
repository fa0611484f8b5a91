#!/usr/bin/env bash
# Lint at scale, end to end through the CLI (issue 16 item 3): CPU time and peak RSS of
# `draguard lint --jobs 1` over 10,000 generated ResourceClaimTemplates with CEL selectors,
# laid out one per file and 1,000 per file. With BASELINE, a second binary (an older build)
# runs alternately with DRAGUARD on the same files, so that both see the same machine load.
#
#   bench/lint-scale.sh [DRAGUARD=build/bench/cli/draguard] [ROUNDS=3]
#   BASELINE=/path/to/old/draguard bench/lint-scale.sh build/bench/cli/draguard 5
#   LINT_FLAGS="--read-twice always" bench/lint-scale.sh ...   (flags for DRAGUARD's runs only)
#
# Prints one line per run and, per binary and layout, the median CPU seconds (user + sys),
# objects per CPU-second and the largest RSS.
set -euo pipefail
draguard="${1:-build/bench/cli/draguard}"
rounds="${2:-3}"
objects=10000
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Three shapes the NVIDIA and AMD drivers document: a GPU by model and memory, a MIG
# partition with firstAvailable, a GPU and a NIC on one PCIe root.
generate() {  # DIR PER_FILE
  mkdir -p "$1"
  awk -v dir="$1" -v n="$objects" -v per="$2" 'BEGIN {
    for (i = 0; i < n; i++) {
      out = sprintf("%s/templates-%05d.yaml", dir, int(i / per))
      printf "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: tmpl-%d\n  namespace: team-%d\nspec:\n  spec:\n    devices:\n      requests:\n", i, i % 50 > out
      if (i % 3 == 0) {
        printf "      - name: gpu\n        exactly:\n          deviceClassName: gpu.nvidia.com\n          count: %d\n          selectors:\n          - cel:\n              expression: device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA A100-SXM4-80GB\" && device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"%dGi\")) >= 0\n", 1 + i % 4, 16 + i % 64 > out
      } else if (i % 3 == 1) {
        printf "      - name: mig\n        firstAvailable:\n        - name: small\n          deviceClassName: mig.nvidia.com\n          selectors:\n          - cel:\n              expression: device.attributes[\"gpu.nvidia.com\"].profile == \"1g.10gb\"\n        - name: large\n          deviceClassName: mig.nvidia.com\n          selectors:\n          - cel:\n              expression: device.attributes[\"gpu.nvidia.com\"].profile == \"%dg.%dgb\"\n", 2 + i % 2, 20 + 20 * (i % 2) > out
      } else {
        printf "      - name: gpu\n        exactly:\n          deviceClassName: gpu.nvidia.com\n      - name: nic\n        exactly:\n          deviceClassName: nic.example.com\n          selectors:\n          - cel:\n              expression: device.attributes[\"nic.example.com\"].interface.startsWith(\"eth\")\n      constraints:\n      - requests: [gpu, nic]\n        matchAttribute: resource.kubernetes.io/pcieRoot\n" > out
      }
    }
  }'
}

generate "$work/one-per-file" 1
generate "$work/1000-per-file" 1000

declare -A cpu rss
run() {  # LABEL BINARY LAYOUT [LINT FLAGS...]
  local label="$1" binary="$2" layout="$3"
  shift 3
  # Exit status 1 (findings) is expected: the classes are not among the inputs.
  /usr/bin/time -o "$work/time" -f '%U %S %M' "$binary" lint --jobs 1 --output json "$@" \
    "$work/$layout" >/dev/null 2>&1 || true
  read -r user sys kb < <(tail -1 "$work/time")
  local secs
  secs="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')"
  echo "$label $layout: ${secs} s CPU, $((kb / 1024)) MiB RSS"
  cpu["$label $layout"]+="$secs "
  rss["$label $layout"]+="$kb "
}

for ((r = 0; r < rounds; r++)); do
  for layout in one-per-file 1000-per-file; do
    # shellcheck disable=SC2086  # LINT_FLAGS is a list of flags
    run draguard "$draguard" "$layout" ${LINT_FLAGS:-}
    if [[ -n "${BASELINE:-}" ]]; then run baseline "$BASELINE" "$layout"; fi
  done
done

echo "--- medians over $rounds rounds, $objects objects, load $(cut -d' ' -f1-3 /proc/loadavg)"
for key in "${!cpu[@]}"; do
  median="$(tr ' ' '\n' <<<"${cpu[$key]}" | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
  max_kb="$(tr ' ' '\n' <<<"${rss[$key]}" | grep . | sort -n | tail -1)"
  awk -v k="$key" -v m="$median" -v n="$objects" -v kb="$max_kb" \
    'BEGIN { printf "%-28s %6.3f s CPU  %6.0f objects/s  %4d MiB RSS\n", k, m, n / m, kb / 1024 }'
done | sort
