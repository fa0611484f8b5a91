#!/usr/bin/env bash
# Webhook load benchmark in deployment-shaped cases (issue 6 item 10, issue 16 items 1-2): wrk
# against `draguard serve` /validate over TLS keep-alive, alternating in the same run with nginx
# serving draguard's own answer for the case as a fixed string (same certificate, protocols and
# worker count: the ceiling for an HTTPS server on this machine). One wrk Lua script,
# bench/distinct-specs.lua, drives both servers, so the client costs the same for both.
#
#   bench/webhook-load.sh path/to/release/draguard [seconds] [cases]
#
# Cases (default "a b c d e"):
#   a  the same review repeated (bench/webhook-review.json, GPUs and a NIC), no inventory
#   b  every request a spec never seen before (a fresh selector constant), no inventory
#   c  b against 8,000 devices (1,000 nodes x 8 GPUs), a satisfiable claim
#      (bench/webhook-review-gpus.json)
#   d  c with a selector that matches no device (an unsatisfiable claim, explained)
#   e  the GPU review repeated against the 8,000 devices while one file of slices is
#      rewritten every second (the inventory polled every second: a new snapshot each second)
# For each case: maximum requests/s of nginx and draguard alternated WEBHOOK_BENCH_ROUNDS times
# (default 3) and the median of the rounds' ratios; then p50/p99 of both at half of draguard's
# median rate (wrk's delay() paces each connection). At the end draguard's RSS idle and with
# the inventory after load, and in case e its median, 90th percentile and maximum over the
# whole case (sampled every 0.25 s: the rebuilds make it move), with the heap in use at the
# maximum and the heap's own maximum (live objects or pages the allocator keeps?).
# Each run also reports the CPU time per request of the server and of wrk (from /proc, user +
# system) and how often each went to sleep or was preempted per request: the servers' own
# costs, apart from the client's and from the scheduling between them that the ratio also
# contains (docs/benchmarks.md: on shared cores the slower side pays the wake-ups); at half
# rate both servers are paced alike, which makes their CPU a request the like-for-like
# figure. Needs wrk and nginx (scripts/install-deps --bench), openssl, curl, perl. Ports
# 18443-18449.
set -euo pipefail

draguard="${1:?usage: bench/webhook-load.sh path/to/draguard [seconds] [cases]}"
seconds="${2:-10}"
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -ge 2 ]] || { echo "webhook-load: seconds must be a whole number, at least 2" >&2; exit 2; }
cases="${3:-a b c d e}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
threads="${WEBHOOK_BENCH_THREADS:-2}"      # server I/O threads and nginx workers
connections="${WEBHOOK_BENCH_CONNECTIONS:-32}"
# wrk and the servers share two cores, and single runs differ by up to 10% with the
# scheduler's luck: the ratio quoted is the median of the rounds' ratios.
rounds="${WEBHOOK_BENCH_ROUNDS:-3}"
work="$(mktemp -d -t draguard-bench.XXXXXX)"
pids=()

source "$repo/bench/serve-lib.sh"
trap bench_stop_pids EXIT

bench_require webhook-load wrk nginx openssl curl perl

bench_certs
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
# The allocator's heap in use in MiB, from /metrics (draguard_heap_bytes): tells live objects
# from pages the allocator keeps when RSS is high.
heap_mib() {  # PORT
  curl "${curl_args[@]}" "https://127.0.0.1:$1/metrics" 2>/dev/null |
    awk '/^draguard_heap_bytes\{state="in_use"\}/ {printf "%d", $2 / 1048576}'
}
heap_in_use() { echo "heap in use $(heap_mib "$1") MiB"; }  # PORT
# Appends "RSS_KiB HEAP_MiB" every quarter second until killed (HEAP "-" when /metrics did not
# answer): whether a peak of RSS is live objects or pages the allocator keeps.
sample_memory() {  # PID PORT FILE
  local rss heap
  while rss=$(rss_kib "$1") && [[ -n "$rss" ]]; do
    heap=$(heap_mib "$2")
    echo "$rss ${heap:--}" >>"$3"
    sleep 0.25
  done
}

# --- The cases: review, spec stream, server port, nginx port. ---
case_port() { case "$1" in a | b) echo 18443 ;; c | d) echo 18444 ;; e) echo 18446 ;; esac; }
nginx_port() { case "$1" in a) echo 18445 ;; b) echo 18447 ;; c) echo 18448 ;; d) echo 18449 ;; e) echo 18442 ;; esac; }

# One request of the case's stream, as distinct-specs.lua builds it (for nginx's fixed answer).
sample_body() {  # CASE
  local review op
  review="$(bench_case_review "$1")"
  case "$(bench_case_specs "$1")" in
    repeat) cat "$review"; return ;;
    none) op='==' ;;
    *) op='!=' ;;
  esac
  bench_review_with_clause "$review" "$op" x0-0
}

# --- Inventories: 1,000 nodes x 8 GPUs, 100 nodes per file; a second copy for case e. ---
"$repo/bench/fleet-inventory.sh" "$work/fleet" 1000 8 0
cp -r "$work/fleet" "$work/live"
# Rewrites one of live's ten node files every second (its pools' generation bumped; written
# aside and renamed, as a ConfigMap update swaps files).
rewrite_loop() {
  local i=1
  while sleep 1; do
    local file
    file="$work/live/nodes-0$((i % 10)).yaml"
    sed "s/generation: [0-9]*/generation: $((i + 1))/" "$file" >"$work/live/.next"
    mv "$work/live/.next" "$file"
    i=$((i + 1))
  done
}

echo "machine: $(nproc) cores, $(awk -F: '/model name/ {print $2; exit}' /proc/cpuinfo | sed 's/^ //')"
echo "wrk: 2 threads, $connections connections, ${seconds}s, TLS keep-alive; servers: $threads threads/workers"
echo "load before: $(uptime | sed 's/.*load average/load average/')"
echo

declare -A server_pid
needs() { [[ " $cases " == *" $1 "* ]]; }
start_draguard() {  # PORT [extra flags...]
  bench_serve "$draguard" "$@"
  pids+=("$serve_pid")
  server_pid[$1]=$serve_pid
}
if needs a || needs b; then start_draguard 18443; idle_rss=$(rss_kib "${server_pid[18443]}"); fi
if needs c || needs d; then
  start_draguard 18444 --inventory "$work/fleet"
  grep -q '(8000 devices)' "$work/draguard-18444.log" ||
    { echo "the inventory did not load as expected:" >&2; cat "$work/draguard-18444.log" >&2; exit 1; }
  inventory_rss=$(rss_kib "${server_pid[18444]}")
fi
if needs e; then
  start_draguard 18446 --inventory "$work/live" --inventory-poll-interval 1s
fi

# --- nginx: one server per case, answering with draguard's answer to the case's request. ---
# `return 200 '<response>'` is nginx's cheapest way to send a fixed body. In its single-quoted
# strings a backslash and a quote must be escaped, and `$` would start a variable.
{
  echo "worker_processes $threads; daemon off; pid $work/nginx.pid; error_log $work/nginx-error.log warn;"
  echo "events { worker_connections 1024; }"
  echo "http { access_log off; client_body_temp_path $work/nginx-body; keepalive_requests 1000000;"
  echo "  keepalive_timeout 90s; ssl_session_cache shared:SSL:1m; client_max_body_size 7m;"
  echo "  ssl_certificate $work/certs/tls.crt; ssl_certificate_key $work/certs/tls.key;"
  echo "  ssl_protocols TLSv1.2 TLSv1.3;"
} >"$work/nginx.conf"
for c in $cases; do
  sample_body "$c" >"$work/request-$c.json"
  curl "${curl_args[@]}" -H 'Content-Type: application/json' --data-binary "@$work/request-$c.json" \
    "https://127.0.0.1:$(case_port "$c")/validate" >"$work/response-$c.json"
  grep -q '"allowed":true' "$work/response-$c.json" ||
    { echo "case $c: unexpected verdict:" >&2; cat "$work/response-$c.json" >&2; exit 1; }
  if [[ "$c" == c || "$c" == e ]] && grep -q "no node can allocate" "$work/response-$c.json"; then
    echo "case $c: the claim should be satisfiable:" >&2; cat "$work/response-$c.json" >&2; exit 1
  fi
  if [[ "$c" == d ]] && ! grep -q 'no node can allocate' "$work/response-$c.json"; then
    echo "case d: the claim should be unsatisfiable:" >&2; cat "$work/response-$c.json" >&2; exit 1
  fi
  if grep -q '[$]' "$work/response-$c.json"; then
    echo "webhook-load: case $c's response contains a dollar sign" >&2; exit 1
  fi
  body=$(sed -e 's/\\/\\\\/g' -e "s/'/\\\\'/g" "$work/response-$c.json")
  printf "  server { listen 127.0.0.1:%s ssl; location = /validate { default_type application/json; return 200 '%s'; } }\n" \
    "$(nginx_port "$c")" "$body" >>"$work/nginx.conf"
done
echo "}" >>"$work/nginx.conf"
# Started as root, nginx's workers run as nobody: the work directory must be searchable.
chmod 755 "$work"
nginx -p "$work" -c "$work/nginx.conf" >"$work/nginx.log" 2>&1 &
nginx_master=$!
pids+=("$nginx_master")
for c in $cases; do
  url="https://127.0.0.1:$(nginx_port "$c")/validate"
  for _ in $(seq 1 50); do
    curl "${curl_args[@]}" -fo /dev/null -X POST --data-binary "@$work/request-$c.json" "$url" 2>/dev/null && break
    sleep 0.1
  done
  cmp -s <(curl "${curl_args[@]}" -X POST --data-binary "@$work/request-$c.json" "$url") \
    "$work/response-$c.json" || { echo "nginx does not serve case $c's response" >&2; exit 1; }
done

# CPU and scheduling of processes, summed over their threads: "TICKS VOLUNTARY INVOLUNTARY"
# (user + system clock ticks; context switches when a thread slept, when it was preempted).
# A thread that is gone is not counted: samples are taken while the run is in full swing.
proc_usage() {  # PID...
  cat /proc/"$1"/stat >/dev/null 2>&1 || { echo "0 0 0"; return; }
  local pid
  for pid in "$@"; do
    awk '{ sub(/^.*\) /, ""); print "t", $12 + $13 }' "/proc/$pid/stat" 2>/dev/null
    cat /proc/"$pid"/task/*/status 2>/dev/null
  done | awk '$1 == "t" { t += $2 } /^voluntary_ctxt/ { v += $2 } /^nonvoluntary_ctxt/ { n += $2 }
    END { print t + 0, v + 0, n + 0 }'
}
clock_ticks=$(getconf CLK_TCK)
server_pids_of() {  # URL: the processes serving it
  local port="${1#https://127.0.0.1:}"
  port="${port%%/*}"
  if [[ -n "${server_pid[$port]:-}" ]]; then echo "${server_pid[$port]}"; else echo "$nginx_master $(pgrep -P "$nginx_master" | tr '\n' ' ')"; fi
}
# "SERVER_US WRK_US SERVER_SLEEPS SERVER_PREEMPTED WRK_SLEEPS WRK_PREEMPTED" per request over
# a window of the run: two proc_usage samples of the server and of wrk, the window's length
# in seconds and the run's rate.
per_request() {  # SERVER_BEFORE SERVER_AFTER WRK_BEFORE WRK_AFTER SECONDS RATE
  awk -v sb="$1" -v sa="$2" -v wb="$3" -v wa="$4" -v s="$5" -v r="$6" -v hz="$clock_ticks" 'BEGIN {
    split(sb, b); split(sa, a); split(wb, x); split(wa, y)
    n = s * r
    if (n <= 0) { print "- - - - - -"; exit }
    printf "%.1f %.1f %.2f %.2f %.2f %.2f\n", (a[1] - b[1]) * 1e6 / hz / n, (y[1] - x[1]) * 1e6 / hz / n,
      (a[2] - b[2]) / n, (a[3] - b[3]) / n, (y[2] - x[2]) / n, (y[3] - x[3]) / n }'
}

run_seq=0
run_wrk() {  # NAME URL CASE [CONNECTIONS [DELAY_MS]]: prints Requests/sec and latencies
  local name="$1" url="$2" c="$3" conns="${4:-$connections}" delay="${5:-0}" out
  run_seq=$((run_seq + 1))
  out="$work/wrk-$run_seq.txt"
  local servers wrk_pid t0 t1 s0 s1 w0 w1
  read -r -a servers <<<"$(server_pids_of "$url")"
  DRAGUARD_REVIEW="$(bench_case_review "$c")" DRAGUARD_SPECS="$(bench_case_specs "$c")" \
    DRAGUARD_RUN="$$-$run_seq" DRAGUARD_DELAY_MS="$delay" \
    wrk -t2 -c"$conns" -d"${seconds}s" --latency -s "$repo/bench/distinct-specs.lua" "$url" >"$out" &
  wrk_pid=$!
  # The usage window: from half a second in (connected, warm) to 0.3 s before the end.
  sleep 0.5
  t0=$(date +%s.%N) s0=$(proc_usage "${servers[@]}") w0=$(proc_usage "$wrk_pid")
  sleep "$(awk -v s="$seconds" 'BEGIN { print s - 0.8 }')"
  t1=$(date +%s.%N) s1=$(proc_usage "${servers[@]}") w1=$(proc_usage "$wrk_pid")
  wait "$wrk_pid"
  local rps p50 p99 errors
  rps=$(awk '/^Requests\/sec:/ {print $2}' "$out")
  p50=$(awk '$1 == "50%" {print $2}' "$out")
  p99=$(awk '$1 == "99%" {print $2}' "$out")
  errors=$(grep -E 'Non-2xx|Socket errors' "$out" | tr '\n' ' ' || true)
  last_usage=$(per_request "$s0" "$s1" "$w0" "$w1" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "${rps:-0}")
  printf '%-40s %10s req/s   p50 %-9s p99 %-9s %s\n' "$name" "$rps" "$p50" "$p99" "$errors"
  read -r s_us w_us s_sleep s_pre w_sleep w_pre <<<"$last_usage"
  printf '%-40s CPU a request: server %s us, wrk %s us; a request: server slept %s, preempted %s; wrk slept %s, preempted %s\n' \
    "" "$s_us" "$w_us" "$s_sleep" "$s_pre" "$w_sleep" "$w_pre"
  last_rps="$rps"
}

# wrk's delay() has whole milliseconds and each connection also waits for its answer, so the
# rate is connections / (delay + latency): a 3-second probe at the default connection count
# measures it, and the connection count is scaled to the target. Sets paced_delay and
# paced_connections.
calibrate_pacing() {  # URL CASE TARGET
  local url="$1" c="$2" target="$3" probe
  paced_delay=$(awk -v c="$connections" -v t="$target" 'BEGIN { d = int(c * 1000 / t); print d < 1 ? 1 : d }')
  probe=$(DRAGUARD_REVIEW="$(bench_case_review "$c")" DRAGUARD_SPECS="$(bench_case_specs "$c")" \
    DRAGUARD_RUN="$$-probe-$c" DRAGUARD_DELAY_MS="$paced_delay" \
    wrk -t2 -c"$connections" -d3s -s "$repo/bench/distinct-specs.lua" "$url" | awk '/^Requests\/sec:/ {print $2}')
  paced_connections=$(awk -v c="$connections" -v t="$target" -v p="$probe" \
    'BEGIN { n = p > 0 ? int(c * t / p + 0.5) : c; print n < 2 ? 2 : n }')
}

median() { tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
summary=()
for c in $cases; do
  echo "--- case $c (load: $(cut -d' ' -f1-3 /proc/loadavg)) ---"
  # The rewrites run during case e only (nginx's runs too), not to slow the other cases.
  if [[ "$c" == e ]]; then
    snapshots_before=$(grep -c 'inventory loaded' "$work/draguard-18446.log" || true)
    rewrite_loop &
    rewriter=$!
    pids+=("$rewriter")
    # RSS every quarter second for the whole case: a single sample at the end lands in or
    # between rebuilds by chance (61-75 MiB in one, 50-53 between them).
    sample_memory "${server_pid[18446]}" 18446 "$work/rss-e.txt" &
    sampler=$!
    pids+=("$sampler")
  fi
  d_url="https://127.0.0.1:$(case_port "$c")/validate"
  n_url="https://127.0.0.1:$(nginx_port "$c")/validate"
  draguard_all="" ratio_all="" d_cpu_all="" n_cpu_all="" d_wrk_all="" n_wrk_all=""
  for round in $(seq 1 "$rounds"); do
    run_wrk "nginx ($c), round $round" "$n_url" "$c"
    n="$last_rps"
    read -r s_us w_us _ <<<"$last_usage"
    n_cpu_all+=" $s_us" n_wrk_all+=" $w_us"
    run_wrk "draguard ($c), round $round" "$d_url" "$c"
    draguard_all+=" $last_rps"
    ratio_all+=" $(awk -v d="$last_rps" -v n="$n" 'BEGIN { printf "%.3f", d / n }')"
    read -r s_us w_us _ <<<"$last_usage"
    d_cpu_all+=" $s_us" d_wrk_all+=" $w_us"
  done
  draguard_rps=$(median <<<"${draguard_all# }")
  ratio=$(median <<<"${ratio_all# }")
  cpu="$(median <<<"${d_cpu_all# }") / $(median <<<"${n_cpu_all# }") us (wrk $(median <<<"${d_wrk_all# }") / $(median <<<"${n_wrk_all# }"))"
  half=$(awk -v r="$draguard_rps" 'BEGIN { printf "%d", r / 2 }')
  calibrate_pacing "$d_url" "$c" "$half"
  run_wrk "draguard ($c) at half rate ($half/s)" "$d_url" "$c" "$paced_connections" "$paced_delay"
  d_half="$(awk '$1 == "50%" {print $2}' "$work/wrk-$run_seq.txt") / $(awk '$1 == "99%" {print $2}' "$work/wrk-$run_seq.txt")"
  read -r d_half_cpu _ <<<"$last_usage"
  # The same pacing against nginx: what this machine's scheduling alone costs in tail latency.
  run_wrk "nginx ($c) at the same pacing" "$n_url" "$c" "$paced_connections" "$paced_delay"
  n_half="$(awk '$1 == "50%" {print $2}' "$work/wrk-$run_seq.txt") / $(awk '$1 == "99%" {print $2}' "$work/wrk-$run_seq.txt")"
  read -r n_half_cpu _ <<<"$last_usage"
  summary+=("$(printf '%s  ratio %.2f (rounds:%s)  draguard %s req/s  half-rate p50/p99 draguard %s, nginx %s  CPU a request draguard / nginx: full rate %s, half rate %s / %s us' \
    "$c" "$ratio" "$ratio_all" "$draguard_rps" "$d_half" "$n_half" "$cpu" "$d_half_cpu" "$n_half_cpu")")
  if [[ "$c" == e ]]; then
    kill -TERM "$rewriter" "$sampler"
    wait "$rewriter" "$sampler" 2>/dev/null || true
    snapshots=$(($(grep -c 'inventory loaded' "$work/draguard-18446.log") - snapshots_before))
  fi
done

echo
echo "=== summary (load after: $(cut -d' ' -f1-3 /proc/loadavg)) ==="
printf '%s\n' "${summary[@]}"
[[ -n "${idle_rss:-}" ]] && echo "RSS idle, no inventory: $((idle_rss / 1024)) MiB"
if [[ -n "${server_pid[18444]:-}" ]]; then
  echo "RSS with 8,000 devices: $((inventory_rss / 1024)) MiB before load, $(($(rss_kib "${server_pid[18444]}") / 1024)) MiB after cases c-d"
fi
if [[ -n "${server_pid[18446]:-}" ]]; then
  echo "RSS with 8,000 devices rewritten every second: $(($(rss_kib "${server_pid[18446]}") / 1024)) MiB after case e ($(heap_in_use 18446))"
  echo "RSS during case e, sampled every 0.25 s: $(sort -n "$work/rss-e.txt" | awk '{ v[NR] = $1; h[NR] = $2; if ($2 != "-" && $2 + 0 > hmax) hmax = $2 + 0 }
    END { printf "median %d MiB, 90th percentile %d MiB, max %d MiB (heap in use then %s MiB; its max over the case %d MiB) (%d samples)", v[int((NR + 1) / 2)] / 1024, v[int(NR * 0.9 + 0.5)] / 1024, v[NR] / 1024, h[NR], hmax, NR }')"
  echo "snapshots loaded during case e: $snapshots"
fi
