#!/usr/bin/env bash
# The daemon under node load, this build against a reference build, in alternation on one machine:
#
#   bench/daemon-ab.sh REF [NODES] [SECONDS] [ROUNDS]      e.g. bench/daemon-ab.sh 5480a54 10000 120 2
#
# REF is a commit. It is built once in a worktree (/tmp/grove-ab-REF); this tree must be built
# (mvn -q -B -DskipTests package). Each round runs the reference's scheduler (bin/grove scheduler,
# its own JVM) under its own DaemonLoadDriver, then this build's under its own, each on a fresh data
# directory, and prints per run the heartbeats, the round-trip p50/p99/max, the missed heartbeats
# and the scheduler's CPU (user and system of its process over the run, and over the driver's
# measured window alone, after its warm-up, per heartbeat), then the ratios of the p99s and of the
# CPU. Every change to the daemon's hot path (the heartbeat, the fair-share update,
# the daemon's threads) is checked with it before it lands (bench/RESULTS.md). At the end it prints
# the mean CPU of each group of the scheduler's threads per build (the event loops, the scheduler,
# the journal, the ledger, the JIT compilers, GC), so that a CPU ratio names the threads that moved,
# and the same over the second half of the measured window, when the JIT compilers have done most
# of their work: the steady state's CPU a heartbeat, apart from what warming up costs.
# GROVE_AB_ARGS adds
# options to this build's scheduler only (GROVE_AB_ARGS=--no-accounting bench/daemon-ab.sh HEAD:
# the same build with and without its ledger), GROVE_AB_JAVA_OPTS Java options to this build's only.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
ref="${1:?usage: bench/daemon-ab.sh REF [NODES] [SECONDS] [ROUNDS]}"
nodes="${2:-10000}"
seconds="${3:-120}"
rounds="${4:-2}"
node_port="${GROVE_AB_NODE_PORT:-17078}"
http_port="${GROVE_AB_HTTP_PORT:-18081}"
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

tarball() { ls "$1"/dist/target/grove-*.tar.gz 2>/dev/null | head -1; }

# the worktree is named by the commit, so that a name like HEAD never finds another commit's build
ref="$(git -C "$here" rev-parse --short "$ref^{commit}")"
refdir="/tmp/grove-ab-$ref"
if [ -z "$(tarball "$refdir")" ] || [ ! -f "$refdir/bench/target/benchmarks.jar" ]; then
  echo "building $ref in $refdir"
  rm -rf "$refdir"
  git -C "$here" worktree add -f "$refdir" "$ref" >/dev/null
  (cd "$refdir" && mvn -q -B -ntp -DskipTests package)
fi
[ -n "$(tarball "$here")" ] && [ -f "$here/bench/target/benchmarks.jar" ] || {
  echo "build this tree first: mvn -q -B -DskipTests package" >&2; exit 2; }

pools="$(mktemp -d)/pools.yaml"
java -cp "$here/bench/target/benchmarks.jar" io.grove.bench.DaemonLoadDriver --print-pools > "$pools"

# one run: $1 a label, $2 a build's tree, then options for its scheduler; prints "label p50 p99 max missed cpu heartbeats"
run() {
  local label="$1" tree="$2" unpacked data log pid before after ticks
  shift 2
  unpacked="$(mktemp -d)"
  tar -xzf "$(tarball "$tree")" -C "$unpacked"
  data="$(mktemp -d)"
  log="$(mktemp)"
  GROVE_JAVA_OPTS="${GROVE_JAVA_OPTS:-}${run_java_opts:+ $run_java_opts}" \
      "$unpacked"/grove-*/bin/grove scheduler --insecure-local --config "$pools" --data-dir "$data" \
      --http-port "$http_port" --node-port "$node_port" --max-node-connections-per-address 65536 "$@" \
      > "$log.scheduler" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do
    curl -s "http://127.0.0.1:$http_port/healthz" >/dev/null 2>&1 && break
    sleep 0.5
  done
  ticks="$(getconf CLK_TCK)"
  before="$(awk '{print $14 + $15}' "/proc/$pid/stat")"
  threads "$pid" > "$log.threads"
  mkdir -p "$log.at"
  sample "$pid" "$log" "$log.at" > "$log.samples" &
  local sampler=$!
  java -Xmx2g -XX:+UseShenandoahGC -cp "$tree/bench/target/benchmarks.jar" io.grove.bench.DaemonLoadDriver \
      "$nodes" "$seconds" 1000 "$node_port" "$http_port" > "$log" 2>&1 || true
  after="$(awk '{print $14 + $15}' "/proc/$pid/stat")"
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  # the sampler may be stopped before it saw the result: the driver's log was last written then
  grep -q '^printed' "$log.samples" || echo "printed $(date -r "$log" +%s%3N)" >> "$log.samples"
  threads "$pid" | thread_cpu "$label" "$log.threads" - >> "$threads"
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  local line
  line="$(grep -a 'round trip p50' "$log" || echo 'no result')"
  local p50 p99 max missed beats
  p50="$(sed -n 's/.*round trip p50 \([0-9.]*\) ms.*/\1/p' <<<"$line")"
  p99="$(sed -n 's/.*p99 \([0-9.]*\) ms.*/\1/p' <<<"$line")"
  max="$(sed -n 's/.*max \([0-9.]*\) ms.*/\1/p' <<<"$line")"
  missed="$(sed -n 's/.*failed): \([0-9]*\).*/\1/p' <<<"$line")"
  beats="$(sed -n 's/.*measured: \([0-9]*\) heartbeats.*/\1/p' <<<"$line")"
  # the CPU of the measured window alone (the driver's heartbeats after its warm-up): it ends 5 s
  # before the driver prints, and lasts SECONDS less the warm-up; and of its second half, when the
  # JIT compilers have done most of their work (heartbeats taken evenly over the window), with the
  # half's start and end for the thread snapshots nearest them
  local steady half mid_ms end_ms
  read -r steady half mid_ms end_ms <<<"$(awk -v seconds="$seconds" -v ticks="$ticks" -v beats="${beats:-0}" '
      $1 == "printed" { printed = $2; next }
      { t[n] = $1; c[n] = $2; n++ }
      function at(ms,   i) { for (i = 1; i < n; i++) if (t[i] >= ms) return c[i-1] + (c[i] - c[i-1]) * (ms - t[i-1]) / (t[i] - t[i-1]); return -1 }
      END { warm = seconds / 4 < 10 ? seconds / 4 : 10; end = printed - 5000; start = end - (seconds - warm) * 1000
            mid = (start + end) / 2; a = at(start); m = at(mid); b = at(end)
            if (!printed || a < 0 || m < 0 || b < 0 || beats == 0) { print "? ? 0 0"; exit }
            printf "%.1f %.1f %.0f %.0f", (b - a) / ticks * 1e6 / beats, (b - m) / ticks * 1e6 / (beats / 2), mid, end }' \
      "$log.samples")"
  if [ "$mid_ms" != 0 ]; then
    local first last
    first="$(ls "$log.at" | awk -v ms="$mid_ms" '{ d = $1 - ms; d = d < 0 ? -d : d; if (best == "" || d < bd) { best = $1; bd = d } } END { print best }')"
    last="$(ls "$log.at" | awk -v ms="$end_ms" '{ d = $1 - ms; d = d < 0 ? -d : d; if (best == "" || d < bd) { best = $1; bd = d } } END { print best }')"
    if [ -n "$first" ] && [ "$first" != "$last" ]; then
      thread_cpu "$label" "$log.at/$first" "$log.at/$last" >> "$threads_half"
    fi
  fi
  printf '%-10s p50 %6s ms  p99 %7s ms  max %7s ms  missed %4s  heartbeats %9s  scheduler CPU %6.1f s, %s µs a heartbeat measured, %s µs in its second half\n' \
      "$label" "${p50:-?}" "${p99:-?}" "${max:-?}" "${missed:-?}" "${beats:-?}" "$(echo "($after - $before) / $ticks" | bc -l)" "$steady" "$half"
  echo "$label ${p99:-0} $(echo "($after - $before) / $ticks" | bc -l) ${steady/\?/0} ${half/\?/0}" >> "$results"
  rm -rf "$unpacked" "$data" "$log" "$log.scheduler" "$log.threads" "$log.samples" "$log.at"
}

# "ms ticks" of process $1 every 250 ms, and "printed ms" once the driver's log $2 has its result;
# every 2 s its threads' CPU, in directory $3 as a file named by the time in ms
sample() {
  local printed="" tick=0 now
  while kill -0 "$1" 2>/dev/null; do
    now="$(date +%s%3N)"
    echo "$now $(awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0)"
    if [ $((tick++ % 8)) = 0 ] && [ -z "$printed" ]; then
      threads "$1" > "$3/$now"
    fi
    if [ -z "$printed" ] && grep -aq 'round trip p50' "$2" 2>/dev/null; then
      printed="$(date +%s%3N)"
      echo "printed $printed"
    fi
    sleep 0.25
  done
}

# each thread's CPU between two of those listings ($2, $3), by group (digits dropped from names:
# "C2 CompilerThre", "GC Thread#3"): "label group seconds" lines, and one "label (runs) 1"
thread_cpu() {
  awk -v label="$1" -v ticks="$(getconf CLK_TCK)" 'NR == FNR { was[$1] = $2; next }
      { name = substr($0, index($0, $3)); gsub(/[0-9]+/, "#", name); cpu[name] += ($2 - was[$1]) / ticks }
      END { printf "%s\t(runs)\t1\n", label; for (n in cpu) if (cpu[n] >= 0.05) printf "%s\t%s\t%.2f\n", label, n, cpu[n] }' "$2" "$3"
}

# "tid ticks name" of each thread of process $1 (user and system ticks)
threads() {
  local task
  for task in /proc/"$1"/task/*; do
    # the fields after the name, which may hold spaces ("C2 CompilerThre"): utime and stime are the 12th and 13th
    awk -v tid="${task##*/}" -v name="$(cat "$task/comm" 2>/dev/null)" '{ sub(/.*\) /, ""); print tid, $12 + $13, name }' \
        "$task/stat" 2>/dev/null || true
  done
}

results="$(mktemp)"
threads="$(mktemp)"
threads_half="$(mktemp)"
echo "$nodes nodes, $seconds s a run, $rounds rounds; reference $ref against this build ($(git -C "$here" rev-parse --short HEAD))${GROVE_AB_ARGS:+ with $GROVE_AB_ARGS}${GROVE_AB_JAVA_OPTS:+ and Java options $GROVE_AB_JAVA_OPTS}"
for round in $(seq 1 "$rounds"); do
  run "$ref" "$refdir"
  # shellcheck disable=SC2086
  run_java_opts="${GROVE_AB_JAVA_OPTS:-}" run "this" "$here" ${GROVE_AB_ARGS:-}
done
awk '{ n[$1]++; p99[$1] += $2; cpu[$1] += $3; if ($4 > 0) { nb[$1]++; beat[$1] += $4 } if ($5 > 0) { nh[$1]++; half[$1] += $5 } }
     END { r = ""; for (k in n) if (k != "this") r = k;
           printf "mean p99: %s %.2f ms, this %.2f ms: ratio %.2f\n", r, p99[r] / n[r], p99["this"] / n["this"],
               (p99["this"] / n["this"]) / (p99[r] / n[r]);
           printf "mean scheduler CPU: %s %.1f s, this %.1f s: ratio %.2f\n", r, cpu[r] / n[r], cpu["this"] / n["this"],
               (cpu["this"] / n["this"]) / (cpu[r] / n[r]);
           if (beat[r] > 0 && beat["this"] > 0)
             printf "mean scheduler CPU a heartbeat, measured window: %s %.1f µs, this %.1f µs: ratio %.2f\n", r,
                 beat[r] / nb[r], beat["this"] / nb["this"], (beat["this"] / nb["this"]) / (beat[r] / nb[r]);
           if (half[r] > 0 && half["this"] > 0)
             printf "mean scheduler CPU a heartbeat, second half of the window: %s %.1f µs, this %.1f µs: ratio %.2f\n", r,
                 half[r] / nh[r], half["this"] / nh["this"], (half["this"] / nh["this"]) / (half[r] / nh[r]) }' "$results"
# the mean of each thread group's CPU per build, over the runs that measured it
by_group() {
  awk -F '\t' '{ k = ($1 == "this") ? "this" : "ref"; cpu[$2, k] += $3; if ($2 != "(runs)") names[$2] = 1 }
       END { for (name in names) printf "  %7.1f %7.1f  %s\n", cpu[name, "ref"] / cpu["(runs)", "ref"],
                 cpu[name, "this"] / cpu["(runs)", "this"], name }' "$1" | sort -k2 -n -r
}
echo "mean CPU by thread group, s a run: $ref, this"
by_group "$threads"
echo "mean CPU by thread group over the second half of the window, s: $ref, this"
by_group "$threads_half"
rm -f "$results" "$threads" "$threads_half"
