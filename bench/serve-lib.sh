# Sourced by the webhook benchmarks (bash): minting certificates and starting `draguard serve`
# as the manifests run it. Expects $repo and $work to be set.

# bench_require NAME TOOL...: exits 2 naming the benchmark when a tool is not installed.
bench_require() {
  local name="$1" tool
  shift
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$name: $tool not found" >&2; exit 2; }
  done
}

# bench_stop_pids: the EXIT trap of benchmarks that keep their processes in $pids: TERM to
# each, reaped, then $work removed.
bench_stop_pids() {
  local pid
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}

# bench_malloc_env: allocator settings for experiments, as NAME=VALUE words for env(1) in the
# array malloc_env: SERVE_MALLOC_CONF becomes jemalloc's MALLOC_CONF (over the defaults built
# into the binary, cli/jemalloc_conf.cc). Empty by default: the server runs as deployed.
bench_malloc_env() {
  malloc_env=()
  if [[ -n "${SERVE_MALLOC_CONF:-}" ]]; then malloc_env+=("MALLOC_CONF=$SERVE_MALLOC_CONF"); fi
}

# The review and the spec stream (bench/distinct-specs.lua's DRAGUARD_SPECS) of one of
# bench/webhook-load.sh's cases, a to e.
bench_case_review() {  # CASE
  case "$1" in a | b) echo "$repo/bench/webhook-review.json" ;; *) echo "$repo/bench/webhook-review-gpus.json" ;; esac
}
bench_case_specs() {  # CASE
  case "$1" in a | e) echo repeat ;; d) echo none ;; *) echo fresh ;; esac
}

# REVIEW with its A100 selector given the clause `productName OP "NAME"`, as
# bench/distinct-specs.lua builds the requests of cases b-d (OP != : true for every device,
# == : true for none).
bench_review_with_clause() {  # REVIEW OP NAME
  OP="$2" NAME="$3" perl -pe \
    's/(startsWith\(\\"NVIDIA A100\\"\))/$1 && device.attributes[\\"gpu.nvidia.com\\"].productName $ENV{OP} \\"$ENV{NAME}\\"/' \
    "$1"
}

# bench_certs: a CA and serving pair for 127.0.0.1 in $work/certs; sets curl_args.
bench_certs() {
  "$repo/certs/mint-certs.sh" --out "$work/certs" --san 127.0.0.1 >/dev/null 2>&1
  curl_args=(-sS --max-time 10 --cacert "$work/certs/ca.crt")
}

# bench_serve DRAGUARD PORT [flags...]: starts serve on 127.0.0.1:PORT with $threads (default 2)
# I/O threads and the allocator settings of manifests/deployment.yaml (bench_malloc_env),
# logging to $work/draguard-PORT.log;
# sets serve_pid and waits for /readyz (returns 1, printing the log, when it never comes).
bench_serve() {
  local draguard="$1" port="$2"
  shift 2
  bench_malloc_env
  env "${malloc_env[@]}" "$draguard" serve \
    --listen "127.0.0.1:$port" --threads "${threads:-2}" \
    --tls-cert-file "$work/certs/tls.crt" --tls-private-key-file "$work/certs/tls.key" "$@" \
    >"$work/draguard-$port.log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 1 300); do
    curl "${curl_args[@]}" -fo /dev/null "https://127.0.0.1:$port/readyz" 2>/dev/null && return 0
    sleep 0.1
  done
  cat "$work/draguard-$port.log" >&2
  return 1
}
