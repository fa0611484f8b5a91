#!/usr/bin/env bash
# Allocator at fleet scale (issue 16 item 4): `draguard explain` and `draguard lint
# --inventory` over NODES nodes x (8 GPUs + 2 NICs) (bench/fleet-inventory.sh: 5,000 nodes are
# 50,000 devices) with CLAIMS claims of 10 shapes (bench/fleet-claims.awk). Reports per run the
# CPU time (user + sys), wall time and peak RSS (/usr/bin/time -v), the load average, and the
# phases of --timings (inventory files, inventory build, checks). The two commands alternate,
# ROUNDS times; each run is bounded by TIMEOUT seconds. PIN_UUID=1 makes 1 claim in 100 also
# exclude one GPU by uuid (the allocator's general path: every node searched).
#
#   bench/fleet-scale.sh [DRAGUARD=build/release/cli/draguard] [ROUNDS=3] [NODES=5000] [CLAIMS=1000]
#
# The draguard binary is the gcc Release build:
#   cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
#     -DCMAKE_CXX_COMPILER_LAUNCHER=ccache && ninja -C build/release cli/draguard
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
draguard="${1:-build/release/cli/draguard}"
rounds="${2:-3}"
nodes="${3:-5000}"
claims="${4:-1000}"
timeout_s="${TIMEOUT:-300}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$repo/bench/fleet-inventory.sh" "$work/inventory" "$nodes" 8 2
awk -v out="$work/claims.yaml" -v n="$claims" -v pin_uuid="${PIN_UUID:-0}" -f "$repo/bench/fleet-claims.awk"
echo "inventory: $nodes nodes, $((nodes * 10)) devices, $(du -sh "$work/inventory" | cut -f1)" \
     "of YAML; $claims claims; $(nproc) CPUs"

declare -A cpu rss
run() {  # COMMAND ARGS...
  local label="$1"
  shift
  local load
  load="$(cut -d' ' -f1-3 /proc/loadavg)"
  # Exit status 1 (unsatisfiable claims, findings) is expected.
  timeout "$timeout_s" /usr/bin/time -v -o "$work/time" "$draguard" "$@" --timings \
    >"$work/out" 2>"$work/err" || true
  local user sys wall kb
  user="$(awk -F': ' '/User time/ {print $2}' "$work/time")"
  sys="$(awk -F': ' '/System time/ {print $2}' "$work/time")"
  wall="$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time")"
  kb="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")"
  local secs
  secs="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
  echo "$label: ${secs} s CPU (user $user, sys $sys), wall $wall, $((kb / 1024)) MiB RSS," \
       "load $load"
  # The phases, CPU only: inventory files, the inventory build, the checks.
  grep -E '^timings: (inventory files|settings and inventory|satisfiability)' "$work/err" |
    sed -E 's/^timings: /    /; s/: [0-9.]+ ms wall, /: /'
  cpu["$label"]+="$secs "
  rss["$label"]+="$kb "
}

for ((r = 0; r < rounds; r++)); do
  run explain explain "$work/claims.yaml" --inventory "$work/inventory"
  run lint lint --jobs 1 --output json "$work/claims.yaml" --inventory "$work/inventory"
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for label in explain lint; do
  m="$(echo "${cpu[$label]}" | median)"
  k="$(echo "${rss[$label]}" | median)"
  echo "median $label: $m s CPU, $((k / 1024)) MiB RSS (targets: 2 s, 256 MiB)"
done
