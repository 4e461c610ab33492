#!/usr/bin/env bash
# Prints the test classes that took longest, from the surefire and failsafe reports of every module:
# where CI's minutes go. Usage: .ci/slowest.sh [COUNT] (default 10).
set -uo pipefail
cd "$(dirname "$0")/.."
count="${1:-10}"
for report in */target/surefire-reports/TEST-*.xml */target/failsafe-reports/TEST-*.xml; do
  [ -f "$report" ] || continue
  module="${report%%/*}"
  # the first <testsuite ...> element: its name and time attributes
  head -c 4096 "$report" | tr '\n' ' ' | grep -o '<testsuite [^>]*>' | head -1 \
    | sed -n 's/.*name="\([^"]*\)".*time="\([0-9.,]*\)".*/\2 \1/p; s/.*time="\([0-9.,]*\)".*name="\([^"]*\)".*/\1 \2/p' \
    | head -1 | tr -d ',' | awk -v m="$module" '{printf "%9.1f s  %-17s %s\n", $1, m, $2}'
done | sort -rn | head -n "$count"
