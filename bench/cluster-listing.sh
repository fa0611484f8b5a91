#!/usr/bin/env bash
# Issue 15 item 5: listing a big cluster through a kubeconfig. Starts bench/fake-apiserver.py
# with NODES nodes and one ResourceSlice of GPUS GPUs per node (5,000 x 8 = 40,000 devices by
# default), one allocated claim per node and PENDING Pending pods, writes a kubeconfig whose
# user is an exec credential plugin (as EKS/GKE/AKS kubeconfigs are), and runs under
# /usr/bin/time -v:
#   1. draguard explain --pending -n nowhere   the listing alone (no pod to explain)
#   2. draguard explain --pending -A           the listing and every Pending pod explained
#   3. draguard capacity pod/pending-0000      the listing and one pod's capacity
# printing wall time and peak RSS of each. Target (docs/benchmarks.md, "Cluster listing"):
# < 5 s and < 300 MiB for the listing.
#
#   bench/cluster-listing.sh [path/to/draguard]   (default: build/release/cli/draguard)
# Environment: NODES (5000), GPUS (8), PENDING (20), PAGE (the server honours any limit).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
draguard="${1:-$root/build/release/cli/draguard}"
nodes="${NODES:-5000}"
gpus="${GPUS:-8}"
pending="${PENDING:-20}"
[[ -x "$draguard" ]] || { echo "cluster-listing: $draguard is not built (make build)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "cluster-listing: needs GNU time (/usr/bin/time)" >&2; exit 2; }

work="$(mktemp -d -t draguard-listing.XXXXXX)"
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

python3 "$root/bench/fake-apiserver.py" --nodes "$nodes" --gpus "$gpus" --pending "$pending" \
  --token bench-token --port-file "$work/port" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 1 600); do [[ -s "$work/port" ]] && break; sleep 0.1; done
[[ -s "$work/port" ]] || { cat "$work/server.log" >&2; exit 1; }
port="$(cat "$work/port")"

cat > "$work/plugin.sh" <<'PLUGIN'
#!/bin/sh
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"bench-token"}}'
PLUGIN
chmod +x "$work/plugin.sh"
cat > "$work/kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
current-context: bench
contexts: [{name: bench, context: {cluster: bench, user: bench, namespace: bench}}]
clusters: [{name: bench, cluster: {server: 'http://127.0.0.1:$port'}}]
users:
- name: bench
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: ./plugin.sh, interactiveMode: Never}
KUBECONFIG

echo "cluster: $nodes nodes x $gpus GPUs = $((nodes * gpus)) devices, $nodes allocated claims, $pending Pending pods; load: $(cut -d' ' -f1-3 /proc/loadavg)"
run() {
  local label="$1"; shift
  local code=0
  /usr/bin/time -v "$draguard" "$@" --kubeconfig "$work/kubeconfig" >"$work/out" 2>"$work/time" || code=$?
  local wall rss user sys
  wall="$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time")"
  rss="$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time")"
  user="$(sed -n 's/.*User time (seconds): //p' "$work/time")"
  sys="$(sed -n 's/.*System time (seconds): //p' "$work/time")"
  printf '%-40s exit %d  wall %s  CPU %ss user + %ss sys  peak RSS %d MiB\n' \
    "$label" "$code" "$wall" "$user" "$sys" "$((rss / 1024))"
  if [[ "$code" -eq 2 ]]; then grep -v '^\s' "$work/time" | head -5 >&2; fi
}
run "explain --pending -n nowhere (listing)" explain --pending -n nowhere
run "explain --pending -A ($pending pods)" explain --pending -A
run "capacity pod/pending-0000" capacity pod/pending-0000
