#!/usr/bin/env bash
# Instructions per /validate request in the whole server process (issue 6): `draguard serve`
# with one I/O thread under callgrind, wrk sending bench/webhook-review.json over TLS
# keep-alive; the counters are zeroed after a warm-up so that start-up, the schema build and
# the selector cache's first compile drop out, and dumped before the server exits. Prints the
# total per request and the part spent in HandleAdmission (decode, checks, response); the rest is TLS, HTTP and the event
# loop. Unlike requests/s, these counts hardly move with the machine's load, so they compare
# builds on a busy machine.
#
#   bench/webhook-instructions.sh path/to/release/draguard [seconds] [case]
#
# The case is one of bench/webhook-load.sh's (default a): a, the same review repeated; b, a
# spec never seen before on every request; c and d, b against 8,000 devices with a satisfiable
# claim and with a selector no device matches; e, the GPU review repeated against the 8,000
# devices (without the rewrites of the load benchmark: their rebuilds are measured by
# webhook_bench). The request stream is bench/distinct-specs.lua's.
#
# WEBHOOK_INSTRUCTIONS_READY_WAIT is how many half-seconds to wait for the server to come up
# (default 240; an 8,000-device inventory under callgrind on a loaded machine needs more).
# WEBHOOK_INSTRUCTIONS_WARMUP sets the warm-up in seconds (default 8; cases c and d need ~30 under
# callgrind, where the first requests prepare the devices for CEL).
# Needs valgrind, wrk, openssl and curl. Port 18450, or WEBHOOK_INSTRUCTIONS_PORT (runs side by
# side, e.g. two worktrees, need one each). The allocator is the binary's own (jemalloc
# in a release build, with SERVE_MALLOC_CONF passed as MALLOC_CONF);
# WEBHOOK_INSTRUCTIONS_PRELOAD=lib.so runs another allocator.
set -euo pipefail
port="${WEBHOOK_INSTRUCTIONS_PORT:-18450}"

draguard="${1:?usage: bench/webhook-instructions.sh path/to/draguard [seconds]}"
seconds="${2:-15}"
case="${3:-a}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d -t draguard-instr.XXXXXX)"
vpid=""
cleanup() {
  [[ -n "$vpid" ]] && kill -TERM "$vpid" 2>/dev/null || true
  [[ -n "${KEEP_CALLGRIND:-}" ]] && cp "$work/callgrind.out" "$KEEP_CALLGRIND"
  rm -rf "$work"
}
trap cleanup EXIT

for tool in valgrind callgrind_control callgrind_annotate wrk openssl curl; do
  command -v "$tool" >/dev/null || { echo "webhook-instructions: $tool not found" >&2; exit 2; }
done
"$repo/certs/mint-certs.sh" --out "$work/certs" --san 127.0.0.1 >/dev/null 2>&1
review="$repo/bench/webhook-review.json"
specs=fresh
inventory=()
case "$case" in
  a) specs=repeat ;;
  b) ;;
  c | d | e)
    review="$repo/bench/webhook-review-gpus.json"
    "$repo/bench/fleet-inventory.sh" "$work/fleet" 1000 8 0
    inventory=(--inventory "$work/fleet")
    [[ "$case" == d ]] && specs=none
    [[ "$case" == e ]] && specs=repeat ;;
  *) echo "webhook-instructions: unknown case $case" >&2; exit 2 ;;
esac
export DRAGUARD_REVIEW="$review" DRAGUARD_SPECS="$specs"

source "$repo/bench/serve-lib.sh"
bench_malloc_env
env "${malloc_env[@]}" \
  ${WEBHOOK_INSTRUCTIONS_PRELOAD:+LD_PRELOAD=$WEBHOOK_INSTRUCTIONS_PRELOAD} \
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
  "$draguard" serve --listen 127.0.0.1:$port --threads 1 \
  --tls-cert-file "$work/certs/tls.crt" --tls-private-key-file "$work/certs/tls.key" \
  "${inventory[@]}" >"$work/serve.log" 2>&1 &
vpid=$!
for _ in $(seq 1 "${WEBHOOK_INSTRUCTIONS_READY_WAIT:-240}"); do
  curl -sf --cacert "$work/certs/ca.crt" -o /dev/null https://127.0.0.1:$port/readyz && break
  sleep 0.5
done
url=https://127.0.0.1:$port/validate
DRAGUARD_RUN=warm wrk -t1 -c4 --timeout 60s -d"${WEBHOOK_INSTRUCTIONS_WARMUP:-8}s" -s "$repo/bench/distinct-specs.lua" "$url" >/dev/null
# The window counted: from 3 s into the measuring run (its TLS handshakes done) to its end,
# dumped before the server exits (its teardown, large with an inventory, stays out); the
# requests are the server's own count of admission requests over the window.
admissions() {
  curl -sf --cacert "$work/certs/ca.crt" https://127.0.0.1:$port/metrics |
    awk '/^draguard_admission_requests_total/ {n += $NF} END {printf "%d", n}'
}
DRAGUARD_RUN=measure wrk -t1 -c4 --timeout 60s -d"${seconds}s" -s "$repo/bench/distinct-specs.lua" \
  "$url" >"$work/wrk.txt" &
wrk_pid=$!
sleep 3
before=$(admissions)
callgrind_control -z "$vpid" >/dev/null 2>&1
wait "$wrk_pid"
callgrind_control -d "$vpid" >/dev/null 2>&1
requests=$(($(admissions) - before))
kill -TERM "$vpid"
wait "$vpid" 2>/dev/null || true
vpid=""

# The dump made at the end of the window: everything since the zeroing.
dump=$(ls "$work"/callgrind.out.* | head -1)
mv "$dump" "$work/callgrind.out"
total=$(callgrind_annotate --auto=no "$work/callgrind.out" |
  awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
handler=$(callgrind_annotate --auto=no --inclusive=yes --threshold=100 "$work/callgrind.out" |
  awk '/HandleAdmission\(/ && !found {gsub(",", "", $1); print $1; found = 1}')
echo "case $case, requests: $requests"
echo "instructions per request: $((total / requests)) total, $((handler / requests)) in HandleAdmission, $(((total - handler) / requests)) elsewhere (TLS, HTTP, event loop)"
