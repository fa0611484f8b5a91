#!/usr/bin/env bash
# Instructions per /validate request in the whole server process (issue 6): `draguard serve`
# with one I/O thread under callgrind, wrk sending bench/webhook-review.json over TLS
# keep-alive; the counters are zeroed after a warm-up so that start-up, the schema build and
# the selector cache's first compile drop out. Prints the total per request and the part
# spent in HandleAdmission (decode, checks, response); the rest is TLS, HTTP and the event
# loop. Unlike requests/s, these counts hardly move with the machine's load, so they compare
# builds on a busy machine.
#
#   bench/webhook-instructions.sh path/to/release/draguard [seconds]
#
# Needs valgrind, wrk, openssl and curl. Port 18450. The allocator settings are those of
# manifests/deployment.yaml; WEBHOOK_INSTRUCTIONS_PRELOAD=lib.so runs another allocator.
set -euo pipefail

draguard="${1:?usage: bench/webhook-instructions.sh path/to/draguard [seconds]}"
seconds="${2:-15}"
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
cat >"$work/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$repo/bench/webhook-review.json", "rb")
wrk.body = f:read("*a")
f:close()
LUA

env MALLOC_ARENA_MAX=2 GLIBC_TUNABLES=glibc.malloc.tcache_count=128 \
  ${WEBHOOK_INSTRUCTIONS_PRELOAD:+LD_PRELOAD=$WEBHOOK_INSTRUCTIONS_PRELOAD} \
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
  "$draguard" serve --listen 127.0.0.1:18450 --threads 1 \
  --tls-cert-file "$work/certs/tls.crt" --tls-private-key-file "$work/certs/tls.key" \
  >"$work/serve.log" 2>&1 &
vpid=$!
for _ in $(seq 1 120); do
  curl -sf --cacert "$work/certs/ca.crt" -o /dev/null https://127.0.0.1:18450/readyz && break
  sleep 0.5
done
url=https://127.0.0.1:18450/validate
wrk -t1 -c4 -d8s -s "$work/post.lua" "$url" >/dev/null
callgrind_control -z "$vpid" >/dev/null 2>&1
requests=$(wrk -t1 -c4 -d"${seconds}s" -s "$work/post.lua" "$url" | awk '/requests in/ {print $1}')
kill -TERM "$vpid"
wait "$vpid" 2>/dev/null || true
vpid=""

# The totals of the dump made at exit: everything since the zeroing.
total=$(callgrind_annotate --auto=no "$work/callgrind.out" |
  awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
handler=$(callgrind_annotate --auto=no --inclusive=yes --threshold=100 "$work/callgrind.out" |
  awk '/HandleAdmission\(/ && !found {gsub(",", "", $1); print $1; found = 1}')
echo "requests: $requests"
echo "instructions per request: $((total / requests)) total, $((handler / requests)) in HandleAdmission, $(((total - handler) / requests)) elsewhere (TLS, HTTP, event loop)"
