#!/usr/bin/env bash
# How long a short grove command takes, wall time, as a user at a shell sees it:
#
#   bench/cli-startup.sh [RUNS]          (default 20; build first: mvn -q -B -DskipTests package)
#
# For each command, the median and the slowest of RUNS runs, three ways:
#   plain  - java with the options the launcher gave every command before (no archive, C2, G1);
#   short  - ./grove's options for a short command (C1 only, serial GC, no perf data), no archive;
#   cds    - ./grove as users run it: the same, from the class-data archive its first run made.
# The commands: grove --version, grove config validate config/pools.yaml, and grove ops list
# against a grove local started here (idle; on ports 18480/18487). Run it on an idle machine.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-20}"
jar="$here/cli/target/grove.jar"
[ -f "$jar" ] || { echo "build first: mvn -q -B -DskipTests package" >&2; exit 2; }
cache="$(mktemp -d)"
data="$(mktemp -d)"
export XDG_CACHE_HOME="$cache"
unset GROVE_JAVA_OPTS GROVE_NO_CDS

"$here/grove" local --http-port 18480 --node-port 18487 --data-dir "$data" > "$data/local.log" 2>&1 &
local_pid=$!
trap 'kill $local_pid 2>/dev/null || true; wait $local_pid 2>/dev/null || true; rm -rf "$cache" "$data"' EXIT
for _ in $(seq 1 120); do
  curl -s http://127.0.0.1:18480/healthz >/dev/null 2>&1 && break
  sleep 0.5
done
export GROVE_SCHEDULER=http://127.0.0.1:18480

# prints the median and the slowest wall time of $runs runs of the command, in ms
measure() {
  local times=() start
  for _ in $(seq 1 "$runs"); do
    start=$(date +%s%N)
    "$@" > /dev/null 2>&1 || true
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "median %4d ms  slowest %4d ms", a[int((NR + 1) / 2)], a[NR] }'
}

for command in "--version" "config validate $here/config/pools.yaml" "ops list"; do
  # shellcheck disable=SC2086
  {
    printf '%-40s plain  %s\n' "grove $command" "$(measure java -XX:+ExitOnOutOfMemoryError -XX:MaxDirectMemorySize=512m -jar "$jar" $command)"
    printf '%-40s short  %s\n' "grove $command" "$(GROVE_NO_CDS=1 measure "$here/grove" $command)"
    "$here/grove" $command > /dev/null 2>&1 || true   # makes the archive, once
    printf '%-40s cds    %s\n' "grove $command" "$(measure "$here/grove" $command)"
  }
done
