#!/usr/bin/env bash
# Webhook memory under a hostile stream (issue 17 item 0): `draguard serve` with an inventory
# of 8,000 devices (1,000 nodes × 8 GPUs), fed by wrk over TLS with AdmissionReviews whose
# selector differs from every earlier one (each request compiles, plans, type-checks and
# evaluates a new expression, and brings a new spec to the memo). Samples the server's RSS
# every few seconds and prints the first and last samples after warm-up, the maximum, and
# the caches' entries and bytes from /metrics at the end.
#
#   bench/webhook-memory.sh path/to/release/draguard [seconds=60] [connections=8]
#
# Needs wrk, openssl, curl (scripts/install-deps --bench). Port 18447. Before the caches were
# bounded this stream grew the server from 61 MB to 1.43 GB in 60 s.
set -euo pipefail

draguard="${1:?usage: bench/webhook-memory.sh path/to/draguard [seconds] [connections]}"
seconds="${2:-60}"
connections="${3:-8}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d -t draguard-memory.XXXXXX)"
port=18447
serve_pid=""
cleanup() {
  [[ -n "$serve_pid" ]] && kill -TERM "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for tool in wrk openssl curl; do
  command -v "$tool" >/dev/null || { echo "webhook-memory: $tool not found" >&2; exit 2; }
done

source "$repo/bench/serve-lib.sh"
bench_certs
"$repo/bench/fleet-inventory.sh" "$work/inventory" 1000 8 0
bench_serve "$draguard" "$port" --inventory "$work/inventory"
curl "${curl_args[@]}" -f "https://127.0.0.1:$port/metrics" | grep -q '^draguard_inventory_objects [1-9]' ||
  { echo "the inventory did not load:" >&2; cat "$work/draguard-$port.log" >&2; exit 1; }

rss_mib() { awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$serve_pid/status"; }
echo "webhook-memory: $seconds s, $connections connections, 8,000 devices; RSS idle $(rss_mib) MiB"
DRAGUARD_REVIEW="$repo/bench/webhook-review.json" \
  wrk -t2 -c"$connections" -d"${seconds}s" -s "$repo/bench/distinct-specs.lua" \
  "https://127.0.0.1:$port/validate" >"$work/wrk.out" &
wrk_pid=$!
samples=()
while kill -0 "$wrk_pid" 2>/dev/null; do
  sleep 5
  samples+=("$(rss_mib)")
done
wait "$wrk_pid"
grep -E '^Requests/sec|requests in|Non-2xx|Socket errors' "$work/wrk.out" || true
echo "RSS samples every 5 s (MiB): ${samples[*]}"
printf '%s\n' "${samples[@]}" | sort -n | tail -1 | sed 's/^/RSS max (MiB): /'
echo "RSS first after warm-up, last (MiB): ${samples[1]:-?} ${samples[-1]:-?}"
curl "${curl_args[@]}" -f "https://127.0.0.1:$port/metrics" |
  grep -E '^draguard_cache_(entries|bytes|evictions_total)|^draguard_admission_requests_total'
