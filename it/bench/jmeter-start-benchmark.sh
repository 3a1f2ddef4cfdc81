#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0.
#
# What JMeter's start costs in one `stampede run`: runs plans/quickstart.jmx against the built-in target for a short
# duration, ROUNDS times with each checkout given, in turn (so that a shared machine's load falls on each alike), and
# prints per run the JMeter JVM's CPU seconds (utime + stime from /proc, read until it exits) and how long after
# JMeter's "Running the test!" the injector monitor started (both lines from the run's jmeter.log), then the median
# of each checkout.
#
#   it/bench/jmeter-start-benchmark.sh [--rounds N] [--duration S] [--threads T] [CHECKOUT...]
#
# --threads sets the plan's users (default: the plan's 100); with 1 the CPU is mostly JMeter's start. Without
# CHECKOUT, this checkout. Each checkout's ./stampede builds it first when its sources changed.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

rounds=3 duration=10 threads=100 checkouts=()
while (($#)); do
  case "$1" in
    --rounds) rounds=${2:-} ;;
    --duration) duration=${2:-} ;;
    --threads) threads=${2:-} ;;
    -h|--help) bench_usage; exit 0 ;;
    -*) echo "$bench: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) [[ -x $1/stampede ]] || { echo "$bench: $1 is not a checkout (no executable $1/stampede)" >&2; exit 2; }
       checkouts+=("$(cd "$1" && pwd)"); shift; continue ;;
  esac
  shift 2 || { echo "$bench: $1 needs a value" >&2; exit 2; }
done
for v in rounds duration threads; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "$bench: --$v ${!v}: give a whole number of at least 1" >&2; exit 2; }
done
((${#checkouts[@]})) || checkouts=("$root")
work=$(mktemp -d /tmp/jmeter-start-XXXXXX)
trap 'rm -rf "$work"' EXIT
hz=$(getconf CLK_TCK)

# The JMeter JVM under a CLI: the descendant whose command line runs ApacheJMeter.jar.
jmeter_of() {
  local p kids
  for p in $(pgrep -P "$1" || true); do
    if tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q ApacheJMeter.jar; then echo "$p"; return; fi
    kids=$(jmeter_of "$p")
    [[ -z $kids ]] || { echo "$kids"; return; }
  done
}

# Seconds of the day of a jmeter.log line ("2026-11-28 14:40:01,123 INFO ...").
log_seconds() {
  grep -m1 -F "$2" "$1" | awk '{ split($2, t, /[:,]/); printf "%.3f", t[1] * 3600 + t[2] * 60 + t[3] + t[4] / 1000 }'
}

for c in "${checkouts[@]}"; do
  echo "$bench: building $c if needed..."
  "$c/stampede" --version >/dev/null
done
declare -A cpus delays
for ((r = 1; r <= rounds; r++)); do
  for i in "${!checkouts[@]}"; do
    c=${checkouts[$i]} out="$work/run-$r-$i"
    "$c/stampede" run "$c/plans/quickstart.jmx" --out "$out" --no-dashboard -J duration="$duration" -J rampup=1 \
      -J threads="$threads" \
      >"$out.console" 2>&1 &
    cli=$! jm="" ticks=0
    while kill -0 "$cli" 2>/dev/null; do
      [[ -n $jm ]] || jm=$(jmeter_of "$cli")
      if [[ -n $jm && -r /proc/$jm/stat ]]; then
        t=$(sed 's/.*) //' "/proc/$jm/stat" 2>/dev/null | awk '{ print $12 + $13 }' || true)
        ((${t:-0} > ticks)) && ticks=$t
      fi
      sleep 0.2
    done
    wait "$cli" || { echo "$bench: the run with $c failed; its console:" >&2; cat "$out.console" >&2; exit 1; }
    start=$(log_seconds "$out/jmeter.log" "Running the test!")
    monitor=$(log_seconds "$out/jmeter.log" "Stampede injector monitor: writing")
    cpu=$(awk -v t="$ticks" -v hz="$hz" 'BEGIN { printf "%.2f", t / hz }')
    delay=$(awk -v a="$start" -v b="$monitor" 'BEGIN { if (a == "" || b == "") print "none"; else printf "%.3f", b - a }')
    echo "round $r  $c  JMeter CPU ${cpu} s  monitor started ${delay} s after \"Running the test!\""
    cpus[$i]+="$cpu " delays[$i]+="$delay "
  done
done
echo
echo "=== median of $rounds round(s), quickstart.jmx, $threads users for ${duration} s on the built-in target (machine: $(nproc) cores) ==="
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
for i in "${!checkouts[@]}"; do
  echo "${checkouts[$i]}  JMeter CPU $(median <<<"${cpus[$i]}") s  monitor started $(median <<<"${delays[$i]}") s after \"Running the test!\""
done
