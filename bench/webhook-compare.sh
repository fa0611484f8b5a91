#!/usr/bin/env bash
# Two `draguard serve` binaries (a baseline and a candidate: the plain and the profile-guided
# build, or two commits) side by side at full rate on one of bench/webhook-load.sh's cases:
# both servers up, wrk on each in turn for SECONDS, ROUNDS times, so that both see the same
# machine. Prints each pair's requests/s and the ratio candidate / baseline, then the median
# ratio. For a verdict on a change; bench/webhook-load.sh gives the figures against nginx.
#
#   bench/webhook-compare.sh BASELINE CANDIDATE [CASE=b] [ROUNDS=5] [SECONDS=6]
#
# CASE: a (the review repeated), b (fresh specs), c (fresh, 8,000 devices, satisfiable) or
# d (fresh, 8,000 devices, no device matches); bench/distinct-specs.lua builds the requests.
# Needs wrk, curl, openssl; ports 18451-18452.
set -euo pipefail

baseline="${1:?usage: bench/webhook-compare.sh BASELINE CANDIDATE [CASE] [ROUNDS] [SECONDS]}"
candidate="${2:?usage: bench/webhook-compare.sh BASELINE CANDIDATE [CASE] [ROUNDS] [SECONDS]}"
c="${3:-b}"
rounds="${4:-5}"
seconds="${5:-6}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d -t draguard-compare.XXXXXX)"
pids=()
threads=2

source "$repo/bench/serve-lib.sh"
trap bench_stop_pids EXIT
bench_require webhook-compare wrk curl openssl

[[ "$c" == [abcd] ]] || { echo "webhook-compare: CASE must be a, b, c or d, not $c" >&2; exit 2; }
review="$(bench_case_review "$c")" specs="$(bench_case_specs "$c")" extra=()
if [[ "$c" == c || "$c" == d ]]; then
  "$repo/bench/fleet-inventory.sh" "$work/fleet" 1000 8 0
  extra=(--inventory "$work/fleet")
fi

bench_certs
bench_serve "$baseline" 18451 "${extra[@]}"
pids+=("$serve_pid")
bench_serve "$candidate" 18452 "${extra[@]}"
pids+=("$serve_pid")

rate() {  # PORT ROUND: requests/s of one wrk run
  DRAGUARD_REVIEW="$review" DRAGUARD_SPECS="$specs" DRAGUARD_RUN="$$-$1-$2" \
    wrk -t2 -c32 -d"${seconds}s" -s "$repo/bench/distinct-specs.lua" \
    "https://127.0.0.1:$1/validate" | awk '/^Requests\/sec:/ {print $2}'
}

echo "case $c, $rounds rounds of ${seconds}s each, load $(cut -d' ' -f1-3 /proc/loadavg)"
ratios=()
for round in $(seq 1 "$rounds"); do
  base=$(rate 18451 "$round")
  cand=$(rate 18452 "$round")
  ratio=$(awk -v b="$base" -v c="$cand" 'BEGIN { printf "%.3f", (b > 0 ? c / b : 0) }')
  ratios+=("$ratio")
  printf 'round %d: baseline %10s req/s, candidate %10s req/s, ratio %s\n' \
    "$round" "$base" "$cand" "$ratio"
done
printf '%s\n' "${ratios[@]}" | sort -g |
  awk '{ v[NR] = $1 } END { printf "median ratio candidate / baseline: %.3f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
