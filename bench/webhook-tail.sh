#!/usr/bin/env bash
# Where a webhook-load case's latency tail comes from (issue 16 item 2): two `draguard serve`
# binaries (a baseline and a candidate, or one binary twice) serve the same case side by side
# and wrk drives them at the same fixed pacing, alternated ROUNDS times. For each run it prints
# wrk's p50/p75/p90/p99 next to what the server itself measured for the same requests: the
# count of requests whose check (draguard_admission_request_duration_seconds, from full request
# to response built) took over 1, 2.5 and 5 ms, read from /metrics before and after the run.
# When wrk's p99 is far above the time that 1% of checks take, the tail is time the request
# spent waiting (for an I/O thread busy with another connection, or for a core: other
# processes, the server's background threads), not time spent checking it.
#
#   bench/webhook-tail.sh CASE BASELINE CANDIDATE [rounds [seconds [target req/s]]]
#
# CASE is one of bench/webhook-load.sh's cases (a-e; e rewrites one file of the 8,000 devices
# every second). Without a target, half of the baseline's maximum rate (a 3-second probe at 32
# connections). Each server's log is copied to $WEBHOOK_TAIL_LOGS when set. Needs wrk, curl,
# openssl; ports 18461-18462.
set -euo pipefail

c="${1:?usage: bench/webhook-tail.sh CASE BASELINE CANDIDATE [rounds [seconds [target]]]}"
baseline="${2:?baseline binary}"
candidate="${3:?candidate binary}"
rounds="${4:-3}"
seconds="${5:-10}"
target="${6:-}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d -t draguard-tail.XXXXXX)"
pids=()
source "$repo/bench/serve-lib.sh"
trap bench_stop_pids EXIT
bench_require webhook-tail wrk curl openssl

bench_certs
threads="${WEBHOOK_BENCH_THREADS:-2}"

flags=()
case "$c" in
  a | b) ;;
  c | d | e)
    "$repo/bench/fleet-inventory.sh" "$work/fleet" 1000 8 0 >/dev/null
    flags=(--inventory "$work/fleet")
    [[ "$c" == e ]] && flags+=(--inventory-poll-interval 1s)
    ;;
  *) echo "webhook-tail: unknown case $c" >&2; exit 2 ;;
esac
bench_serve "$baseline" 18461 "${flags[@]}"
pids+=("$serve_pid")
bench_serve "$candidate" 18462 "${flags[@]}"
pids+=("$serve_pid")
if [[ "$c" == e ]]; then
  # Both servers poll the same files: one rewrite a second, as in bench/webhook-load.sh.
  (
    i=1
    while sleep 1; do
      file="$work/fleet/nodes-0$((i % 10)).yaml"
      sed "s/generation: [0-9]*/generation: $((i + 1))/" "$file" >"$work/fleet/.next"
      mv "$work/fleet/.next" "$file"
      i=$((i + 1))
    done
  ) &
  pids+=($!)
fi

run=0
out=""
run_wrk() {  # PORT CONNECTIONS DELAY_MS SECONDS; sets out
  run=$((run + 1))
  out="$work/wrk-$run.txt"
  DRAGUARD_REVIEW="$(bench_case_review "$c")" DRAGUARD_SPECS="$(bench_case_specs "$c")" DRAGUARD_RUN="$$-$run" DRAGUARD_DELAY_MS="$3" \
    wrk -t2 -c"$2" -d"$4s" --latency -s "$repo/bench/distinct-specs.lua" \
    "https://127.0.0.1:$1/validate" >"$out"
}
rps() { awk '/^Requests\/sec:/ {print $2}' "$out"; }
# Checks counted so far on PORT: all, over 1 ms, over 2.5 ms, over 5 ms.
checks() {
  curl "${curl_args[@]}" "https://127.0.0.1:$1/metrics" | awk '
    /^draguard_admission_request_duration_seconds_bucket\{endpoint="validate"/ {
      match($0, /le="[^"]*"/); le = substr($0, RSTART + 4, RLENGTH - 5); n[le] += $2 }
    END { printf "%d %d %d %d", n["+Inf"], n["+Inf"] - n["0.001"], n["+Inf"] - n["0.0025"], n["+Inf"] - n["0.005"] }'
}

if [[ -z "$target" ]]; then
  run_wrk 18461 32 0 3
  target=$(awk -v r="$(rps)" 'BEGIN { printf "%d", r / 2 }')
  echo "baseline maximum (3 s probe): $(rps) req/s; target $target req/s"
fi
# As bench/webhook-load.sh's calibrate_pacing: a delay for 32 connections, then the connection
# count scaled by a probe.
delay=$(awk -v t="$target" 'BEGIN { d = int(32 * 1000 / t); print d < 1 ? 1 : d }')
run_wrk 18461 32 "$delay" 3
connections=$(awk -v t="$target" -v p="$(rps)" 'BEGIN { n = p > 0 ? int(32 * t / p + 0.5) : 32; print n < 2 ? 2 : n }')
echo "case $c: $connections connections, $delay ms between requests, ${seconds}s runs"
for round in $(seq 1 "$rounds"); do
  for side in baseline candidate; do
    port=18461
    [[ "$side" == candidate ]] && port=18462
    load=$(cut -d' ' -f1 /proc/loadavg)
    read -r -a before <<<"$(checks "$port")"
    run_wrk "$port" "$connections" "$delay" "$seconds"
    read -r -a after <<<"$(checks "$port")"
    mapfile -t latency < <(awk '$1 == "50%" || $1 == "75%" || $1 == "90%" || $1 == "99%" {print $2}' "$out")
    printf '%-9s round %d (load %s): %8s req/s  p50 %-8s p75 %-8s p90 %-8s p99 %-8s | checks %d: >1ms %d  >2.5ms %d  >5ms %d\n' \
      "$side" "$round" "$load" "$(rps)" \
      "${latency[0]}" "${latency[1]}" "${latency[2]}" "${latency[3]}" \
      $((after[0] - before[0])) $((after[1] - before[1])) $((after[2] - before[2])) $((after[3] - before[3]))
  done
done
if [[ -n "${WEBHOOK_TAIL_LOGS:-}" ]]; then
  mkdir -p "$WEBHOOK_TAIL_LOGS"
  cp "$work"/draguard-1846[12].log "$WEBHOOK_TAIL_LOGS"/
fi
