#!/usr/bin/env bash
# Instructions one inventory change costs `draguard serve` (issue 16 case e, issue 17 item 3),
# per thread: the file source rereading the changed file, the schema check's and the
# satisfiability check's background builds, and the I/O thread answering one review on the
# new snapshot. The server runs under callgrind with 8,000 devices (1,000 nodes x 8 GPUs, in
# ten files); the counters are zeroed once it is ready and has answered a review, then one
# file of 800 devices is rewritten with a new slice generation (as bench/webhook-soak.sh does)
# and the counters are dumped REBUILD_WAIT seconds later. Every thread should be named below:
# a role missing means its build had not finished (raise REBUILD_WAIT). Like bench/webhook-instructions.sh, the counts
# hardly move with the machine's load, so they compare builds on a busy machine.
#
#   bench/webhook-rebuild-instructions.sh path/to/release/draguard
#
# REBUILD_WAIT: seconds allowed for the builds under callgrind (default 40), before and after.
# Needs valgrind, callgrind_control, callgrind_annotate, openssl and curl. Port 18451.
set -euo pipefail

draguard="${1:?usage: bench/webhook-rebuild-instructions.sh path/to/draguard}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d -t draguard-rebuild.XXXXXX)"
port=18451
pids=()
source "$repo/bench/serve-lib.sh"
trap bench_stop_pids EXIT
bench_require webhook-rebuild-instructions valgrind callgrind_control callgrind_annotate openssl curl

bench_certs
curl_args+=(-f --max-time 60)  # under callgrind
"$repo/bench/fleet-inventory.sh" "$work/fleet" 1000 8 0
bench_malloc_env
env "${malloc_env[@]}" \
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/cg.out" \
  "$draguard" serve --listen "127.0.0.1:$port" --threads 1 \
  --tls-cert-file "$work/certs/tls.crt" --tls-private-key-file "$work/certs/tls.key" \
  --inventory "$work/fleet" --inventory-poll-interval 1s >"$work/serve.log" 2>&1 &
vpid=$!
pids=("$vpid")
for _ in $(seq 1 600); do
  curl "${curl_args[@]}" -o /dev/null "https://127.0.0.1:$port/readyz" 2>/dev/null && break
  sleep 0.5
done
review() {
  curl "${curl_args[@]}" -o /dev/null -H 'Content-Type: application/json' \
    --data @"$repo/bench/webhook-review-gpus.json" "https://127.0.0.1:$port/validate"
}
# The checks build from the snapshot of the first review, in the background.
review
sleep "${REBUILD_WAIT:-40}"
callgrind_control -z "$vpid" >/dev/null 2>&1
sed -i "s/generation: [0-9]*/generation: 2/" "$work/fleet/nodes-03.yaml"
# The source polls every second; a review on the new snapshot hands it to the builder.
sleep 5
review
sleep "${REBUILD_WAIT:-40}"
callgrind_control -d "$vpid" >/dev/null 2>&1
kill -TERM "$vpid"
wait "$vpid" 2>/dev/null || true

# One dump per thread (cg.out.1-NN): named by what the thread runs. The builder thread runs
# both checks' builds (webhook/admission/snapshot_builder.h): each is shown with its inclusive
# count, the thread's total (with the trim) on its own line.
inclusive() {  # inclusive instructions of the function named $2 in the annotation $1
  awk -v f="$2" 'index($0, f) && $1 ~ /^[0-9,]+$/ {gsub(",", "", $1); print $1; exit}' <<<"$1"
}
total=0
for dump in "$work"/cg.out.1-*; do
  ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$dump")
  (( ir > 0 )) || continue
  top=$(callgrind_annotate --inclusive=yes "$dump" 2>/dev/null)
  role=other
  grep -q 'FileInventorySource::PollLoop' <<<"$top" && role="file source (reread)"
  if grep -q 'SnapshotBuilder::Loop' <<<"$top"; then
    role="builder thread"
    printf '  %-22s %12s instructions\n' "schema build" \
      "$(inclusive "$top" 'SchemaCheck::BuildLocked')"
    printf '  %-22s %12s instructions\n' "satisfiability build" \
      "$(inclusive "$top" 'SatisfiabilityCheck::BuildLocked')"
  fi
  grep -q 'HandleAdmission' <<<"$top" && role="I/O (one review)"
  printf '%-24s %12s instructions\n' "$role" "$ir"
  total=$((total + ir))
done
printf '%-24s %12s instructions\n' "total" "$total"
