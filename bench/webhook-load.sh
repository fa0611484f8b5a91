#!/usr/bin/env bash
# Webhook load benchmark (issue 6 item 10): wrk against `draguard serve` /validate with a typical
# ResourceClaim review (bench/webhook-review.json, 2.8 KB), TLS keep-alive, and in the same run
# nginx serving draguard's own response to that review over TLS with the same certificate,
# protocols and worker count: the ceiling for an HTTPS server on this machine.
#
#   bench/webhook-load.sh path/to/release/draguard [seconds]
#
# Prints, for nginx and for draguard without and with a 10,000-device inventory: maximum
# requests/s, latency percentiles at that load, and p50/p99 at half of draguard's maximum rate
# (wrk's delay() hook paces each connection), for nginx too at the same pacing; then
# draguard's RSS idle and with the inventory.
# Needs wrk and nginx (scripts/install-deps --bench), openssl, curl. Ports 18443-18446.
set -euo pipefail

draguard="${1:?usage: bench/webhook-load.sh path/to/draguard [seconds]}"
seconds="${2:-10}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
review="$repo/bench/webhook-review.json"
threads="${WEBHOOK_BENCH_THREADS:-2}"      # server I/O threads and nginx workers
connections="${WEBHOOK_BENCH_CONNECTIONS:-32}"
# Maximum-throughput runs of nginx and draguard alternate this many times; the ratio quoted is
# the median of the rounds' ratios (wrk and the servers share two cores, and single runs
# differ by up to 10% with the scheduler's luck).
rounds="${WEBHOOK_BENCH_ROUNDS:-3}"
work="$(mktemp -d -t draguard-bench.XXXXXX)"
pids=()

cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

for tool in wrk nginx openssl curl; do
  command -v "$tool" >/dev/null || { echo "webhook-load: $tool not found" >&2; exit 2; }
done

source "$repo/bench/serve-lib.sh"
bench_certs

# 1000 nodes, each with 8 A100 GPUs and 2 NICs sharing PCIe roots pairwise: 10,000 devices.
"$repo/bench/fleet-inventory.sh" "$work/inventory" 1000 8 2

start_draguard() {  # PORT [extra flags...]: starts draguard serve, waits for /readyz
  local status=0
  bench_serve "$draguard" "$@" || status=$?
  pids+=("$serve_pid")
  draguard_pid=$serve_pid
  return "$status"
}

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

cat >"$work/post.lua" <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$review", "rb")
wrk.body = f:read("*a")
f:close()
EOF
# Paced variant: each connection waits DELAY_MS between requests.
paced_lua() {
  cp "$work/post.lua" "$work/paced.lua"
  printf 'function delay() return %s end\n' "$1" >>"$work/paced.lua"
}

run_wrk() {  # NAME URL SCRIPT [CONNECTIONS]: prints Requests/sec and the latency distribution
  local name="$1" url="$2" script="$3" conns="${4:-$connections}" out
  out="$work/wrk-$(tr -c 'A-Za-z0-9' '_' <<<"$name").txt"
  wrk -t2 -c"$conns" -d"${seconds}s" --latency -s "$script" "$url" >"$out"
  local rps p50 p90 p99
  rps=$(awk '/^Requests\/sec:/ {print $2}' "$out")
  p50=$(awk '$1 == "50%" {print $2}' "$out")
  p90=$(awk '$1 == "90%" {print $2}' "$out")
  p99=$(awk '$1 == "99%" {print $2}' "$out")
  local errors
  errors=$(grep -E 'Non-2xx|Socket errors' "$out" | tr '\n' ' ' || true)
  printf '%-34s %10s req/s   p50 %-9s p90 %-9s p99 %-9s %s\n' "$name" "$rps" "$p50" "$p90" "$p99" "$errors"
  last_rps="$rps"
}

# Sets paced_delay and paced_connections so that wrk sends TARGET requests/s to URL. wrk's
# delay() has whole milliseconds and each connection also waits for its answer, so the rate
# is connections / (delay + latency): a 3-second probe at the default connection count
# measures it, and the connection count is scaled to the target.
calibrate_pacing() {  # URL TARGET
  local url="$1" target="$2" probe
  paced_delay=$(awk -v c="$connections" -v t="$target" 'BEGIN { d = int(c * 1000 / t); print d < 1 ? 1 : d }')
  paced_lua "$paced_delay"
  probe=$(wrk -t2 -c"$connections" -d3s -s "$work/paced.lua" "$url" | awk '/^Requests\/sec:/ {print $2}')
  paced_connections=$(awk -v c="$connections" -v t="$target" -v p="$probe" \
    'BEGIN { n = int(c * t / p + 0.5); print n < 2 ? 2 : n }')
}

echo "machine: $(nproc) cores, $(awk -F: '/model name/ {print $2; exit}' /proc/cpuinfo | sed 's/^ //')"
echo "wrk: 2 threads, $connections connections, ${seconds}s, TLS keep-alive; servers: $threads threads/workers"
echo

# --- draguard without inventory; its response also becomes nginx's fixed answer. ---
start_draguard 18443
idle_rss=$(rss_kib "$draguard_pid")
curl "${curl_args[@]}" -H 'Content-Type: application/json' --data-binary "@$review" \
  https://127.0.0.1:18443/validate >"$work/response.json"
grep -q '"allowed":true' "$work/response.json" || { echo "unexpected verdict:" >&2; cat "$work/response.json" >&2; exit 1; }

# nginx answers with `return 200 '<response>'`, its cheapest way to send a fixed body (an
# earlier version served a file through `error_page 405 =200`, which costs an internal
# redirect and a file open per request: about 40% fewer requests/s, an unfair ceiling).
# In nginx's single-quoted strings a backslash and a quote must be escaped, and `$` would
# start a variable: a response with one cannot be served this way.
if grep -q '[$]' "$work/response.json"; then
  echo "webhook-load: the response contains a dollar sign" >&2
  exit 1
fi
nginx_body=$(sed -e 's/\\/\\\\/g' -e "s/'/\\\\'/g" "$work/response.json")
cat >"$work/nginx.conf" <<EOF
worker_processes $threads;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx-body;
  keepalive_requests 1000000;
  keepalive_timeout 90s;
  server {
    listen 127.0.0.1:18445 ssl;
    ssl_certificate $work/certs/tls.crt;
    ssl_certificate_key $work/certs/tls.key;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:SSL:1m;
    client_max_body_size 7m;
    location = /validate {
      default_type application/json;
      return 200 '$nginx_body';
    }
  }
}
EOF
# Started as root, nginx's workers run as nobody: the work directory must be searchable.
chmod 755 "$work"
nginx -p "$work" -c "$work/nginx.conf" >"$work/nginx.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do
  curl "${curl_args[@]}" -fo /dev/null -X POST --data-binary "@$review" https://127.0.0.1:18445/validate 2>/dev/null && break
  sleep 0.1
done
cmp -s <(curl "${curl_args[@]}" -X POST --data-binary "@$review" https://127.0.0.1:18445/validate) \
  "$work/response.json" || { echo "nginx does not serve the same response" >&2; exit 1; }

median() { tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
nginx_all="" draguard_all="" ratio_all=""
for round in $(seq 1 "$rounds"); do
  run_wrk "nginx (fixed response), round $round" https://127.0.0.1:18445/validate "$work/post.lua"
  nginx_all+=" $last_rps"
  n="$last_rps"
  run_wrk "draguard /validate, round $round" https://127.0.0.1:18443/validate "$work/post.lua"
  draguard_all+=" $last_rps"
  ratio_all+=" $(awk -v d="$last_rps" -v n="$n" 'BEGIN { printf "%.3f", d / n }')"
done
nginx_rps=$(median <<<"${nginx_all# }")
draguard_rps=$(median <<<"${draguard_all# }")
ratio=$(median <<<"${ratio_all# }")
half=$(awk -v r="$draguard_rps" 'BEGIN { printf "%d", r / 2 }')
calibrate_pacing https://127.0.0.1:18443/validate "$half"
run_wrk "draguard at half rate ($half/s)" https://127.0.0.1:18443/validate "$work/paced.lua" "$paced_connections"
# The same pacing against nginx: what this machine's scheduling alone costs in tail latency
# (wrk shares the two cores with the server).
run_wrk "nginx at the same pacing" https://127.0.0.1:18445/validate "$work/paced.lua" "$paced_connections"
awk -v r="$ratio" -v all="${ratio_all# }" 'BEGIN { printf "draguard / nginx: %.0f%% (median of rounds:", 100 * r;
  n = split(all, v, " "); for (i = 1; i <= n; i++) printf " %.0f%%", 100 * v[i]; print ")" }'
# The same review with the spec memo off: what a spec the webhook has not seen costs (the
# runs above repeat one review, as the claims of one template repeat their spec).
start_draguard 18446 --spec-memo-entries 0
run_wrk "draguard /validate, memo off" https://127.0.0.1:18446/validate "$work/post.lua"
awk -v d="$last_rps" -v n="$nginx_rps" 'BEGIN { printf "memo off / nginx: %.0f%%\n\n", 100 * d / n }'
kill -TERM "$draguard_pid" 2>/dev/null || true

# --- draguard with the 10,000-device inventory: satisfiability on every request. ---
start_draguard 18444 --inventory "$work/inventory"
grep -q '(10000 devices)' "$work/draguard-18444.log" ||
  { echo "the inventory did not load as expected:" >&2; cat "$work/draguard-18444.log" >&2; exit 1; }
inventory_rss=$(rss_kib "$draguard_pid")
run_wrk "draguard /validate + inventory" https://127.0.0.1:18444/validate "$work/post.lua"
inv_rps="$last_rps"
half=$(awk -v r="$inv_rps" 'BEGIN { printf "%d", r / 2 }')
calibrate_pacing https://127.0.0.1:18444/validate "$half"
run_wrk "  at half rate ($half/s)" https://127.0.0.1:18444/validate "$work/paced.lua" "$paced_connections"
loaded_rss=$(rss_kib "$draguard_pid")
echo
echo "RSS idle (no inventory):              $((idle_rss / 1024)) MiB ($idle_rss KiB)"
echo "RSS with 10,000 devices, after load:  $((loaded_rss / 1024)) MiB ($loaded_rss KiB; $((inventory_rss / 1024)) MiB before load)"
