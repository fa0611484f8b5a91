#!/usr/bin/env bash
# Webhook soak (issue 17 item 3): `draguard serve` for SECONDS (default 600) at about half its
# maximum rate, every request a spec never seen before (bench/webhook-memory.sh's stream),
# with an inventory of 8,000 devices whose slices are rewritten every few seconds and a
# serving certificate rotated every minute. Passes when no request failed and RSS and open
# file descriptors are flat: the last minute's averages within 5% of the first minute's.
#
#   bench/webhook-soak.sh path/to/release/draguard [seconds=600]
#
# SOAK_SAMPLES=FILE keeps the RSS samples (KiB, one a second).
# SOAK_REWRITE_SECONDS=N rewrites a node file every N seconds (default 3; 0: never, to tell
# what the rebuilds cost from what the request stream does).
#
# Needs wrk, openssl, curl (scripts/install-deps --bench). Port 18448. Loopback only, bounded.
set -euo pipefail

draguard="${1:?usage: bench/webhook-soak.sh path/to/draguard [seconds]}"
seconds="${2:-600}"
# 32 connections: each one's pause is then long beside its answer's time, so the paced rate
# comes close to half the maximum (with 8, the answer time cut it to a third).
connections=32
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d -t draguard-soak.XXXXXX)"
port=18448
serve_pid=""
helpers=()
cleanup() {
  for h in "${helpers[@]}"; do kill "$h" 2>/dev/null || true; done
  [[ -n "$serve_pid" ]] && kill -TERM "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for tool in wrk openssl curl; do
  command -v "$tool" >/dev/null || { echo "webhook-soak: $tool not found" >&2; exit 2; }
done

source "$repo/bench/serve-lib.sh"
bench_certs
"$repo/bench/fleet-inventory.sh" "$work/inventory" 1000 8 0
bench_serve "$draguard" "$port" --inventory "$work/inventory" --inventory-poll-interval 1s

# The stream of never-seen specs (bench/distinct-specs.lua): first at full rate for 10 s to
# find the maximum, then paced at half of it.
export DRAGUARD_REVIEW="$repo/bench/webhook-review.json"
max=$(wrk -t2 -c"$connections" -d10s -s "$repo/bench/distinct-specs.lua" \
  "https://127.0.0.1:$port/validate" | awk '/^Requests\/sec:/ {print int($2)}')
delay=$(( connections * 1000 * 2 / (max > 0 ? max : 1) ))
echo "webhook-soak: maximum $max req/s; pacing each of $connections connections at ${delay} ms"
echo "load before: $(uptime | sed 's/.*load average/load average/')"

# The inventory changes every 3 s (SOAK_REWRITE_SECONDS; 0: never, to tell what the rebuilds
# cost from what the requests do): one node file is rewritten with a new slice generation.
rewrite="${SOAK_REWRITE_SECONDS:-3}"
if (( rewrite > 0 )); then
  ( g=1; while true; do
      sleep "$rewrite"; g=$((g + 1))
      f="$work/inventory/nodes-$(printf %02d $((g % 10))).yaml"
      sed -i "s/generation: [0-9]*/generation: $g/" "$f"
    done ) &
  helpers+=($!)
fi
# The certificate is rotated every minute (same CA: clients keep verifying).
( while true; do
    sleep 60
    "$repo/certs/mint-certs.sh" --out "$work/certs" --san 127.0.0.1 --reuse-ca >/dev/null 2>&1
  done ) &
helpers+=($!)

# A request fails when it takes longer than the manifests' timeoutSeconds (5 s), not wrk's 2 s.
DRAGUARD_DELAY_MS="$delay" wrk -t2 -c"$connections" -d"${seconds}s" --latency --timeout 5s \
  -s "$repo/bench/distinct-specs.lua" \
  "https://127.0.0.1:$port/validate" >"$work/wrk.out" &
wrk_pid=$!
# Sampled every second: RSS swings by tens of MiB as each new snapshot is built beside the
# current one and the old one freed, so a minute's average needs many samples (at one every
# 10 s, the swing alone could move the averages by several percent).
# Once a minute, from one scrape of /metrics: the bounded caches' bytes (RSS rising while
# they fill to their budgets is warm-up, not a leak) and the C library's heap in use and free
# (RSS rising while in_use stays flat is the allocator: fragmentation, per-thread caches).
# Prints "caches_mib in_use_mib free_mib".
minute_metrics() {
  curl "${curl_args[@]}" "https://127.0.0.1:$port/metrics" |
    awk '/^draguard_cache_bytes/ {c += $2}
         $1 == "draguard_heap_bytes{state=\"in_use\"}" {u = $2}
         $1 == "draguard_heap_bytes{state=\"free\"}" {f = $2}
         END {printf "%d %d %d\n", c / 1048576, u / 1048576, f / 1048576}'
}
anon=() file=() rss=() fds=() caches="" inuse="" free=""
while kill -0 "$wrk_pid" 2>/dev/null; do
  sleep 1
  read -r total anonymous file_backed < <(awk '/^VmRSS:/ {t = $2} /^RssAnon:/ {a = $2}
    /^RssFile:/ {f = $2} END {print t, a, f}' "/proc/$serve_pid/status")
  rss+=("$total") anon+=("$anonymous") file+=("$file_backed")
  fds+=("$(ls "/proc/$serve_pid/fd" | wc -l)")
  if (( ${#rss[@]} % 60 == 0 )); then
    read -r c u f < <(minute_metrics)
    caches+=" $c" inuse+=" $u" free+=" $f"
  fi
done
wait "$wrk_pid"
cat "$work/wrk.out"
avg() { local n=0 s=0; for v in "$@"; do s=$((s + v)); n=$((n + 1)); done; echo $((n ? s / n : 0)); }
first_rss=$(avg "${rss[@]:0:60}") last_rss=$(avg "${rss[@]: -60}")
first_fds=$(avg "${fds[@]:0:60}") last_fds=$(avg "${fds[@]: -60}")
min_rss=$(printf '%s\n' "${rss[@]}" | sort -n | head -1)
max_rss=$(printf '%s\n' "${rss[@]}" | sort -n | tail -1)
failed=$(awk '/Non-2xx/ {n += $NF} /Socket errors/ {gsub(",", ""); n += $4 + $6 + $8 + $10} END {print n + 0}' "$work/wrk.out")
reloads=$(curl "${curl_args[@]}" "https://127.0.0.1:$port/metrics" |
  awk '/^draguard_certificate_reloads_total\{result="success"\}/ {print $2}')
echo "load after: $(uptime | sed 's/.*load average/load average/')"
echo "failed requests: $failed; certificate reloads: $reloads"
echo "RSS first/last minute (KiB): $first_rss / $last_rss (min $min_rss, max $max_rss); open fds: $first_fds / $last_fds"
per_minute=""
lowest="" highest=""
for ((i = 0; i < ${#rss[@]}; i += 60)); do
  per_minute+=" $(( $(avg "${rss[@]:i:60}") / 1024 ))"
  lowest+=" $(( $(printf '%s\n' "${rss[@]:i:60}" | sort -n | head -1) / 1024 ))"
  highest+=" $(( $(printf '%s\n' "${rss[@]:i:60}" | sort -n | tail -1) / 1024 ))"
done
echo "RSS per minute (MiB):$per_minute"
# Anonymous memory (the heap, stacks) apart from file pages (the binary's code as it is run).
anon_minutes="" file_minutes=""
for ((i = 0; i < ${#anon[@]}; i += 60)); do
  anon_minutes+=" $(( $(avg "${anon[@]:i:60}") / 1024 ))"
  file_minutes+=" $(( $(avg "${file[@]:i:60}") / 1024 ))"
done
echo "RssAnon per minute (MiB):$anon_minutes; RssFile:$file_minutes"
echo "bounded caches at each minute's end (MiB, /metrics draguard_cache_bytes):$caches"
# RSS alternates between one snapshot's level (lowest) and two snapshots' (highest, while the
# next one is built beside the current one): the average moves with the share of time spent
# building, which grows with the machine's load; the two levels show what the memory does.
echo "heap in use / free at each minute's end (MiB):$inuse /$free"
echo "RSS per minute, lowest (MiB):$lowest; highest:$highest"
[[ -z "${SOAK_SAMPLES:-}" ]] || printf '%s\n' "${rss[@]}" >"$SOAK_SAMPLES"
verdict=pass
[[ "$failed" -eq 0 ]] || verdict=fail
(( last_rss * 100 <= first_rss * 105 )) || verdict=fail
(( last_fds * 100 <= first_fds * 105 + 100 )) || verdict=fail
# Every rotation but the last (which may fall after the end) was picked up.
(( ${reloads:-0} >= seconds / 60 - 1 )) || verdict=fail
echo "soak: $verdict"
[[ "$verdict" == pass ]]
