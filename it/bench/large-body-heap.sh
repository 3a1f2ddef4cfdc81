#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Large-body heap benchmark (issue 33, finding 4): --threads users each fetch one --big-mb MB body once, then loop
# on an 18-byte one (100 ms think time), with JMeter's own HTTP Request run by stock JMeter 5.6.3 (HttpClient4)
# and by the Netty engine (`./stampede run --engine stock|stampede`), one after the other. Two built-in targets on
# 127.0.0.1 serve the bodies. Once the JTL shows every user's large body (at most --wait seconds) and --settle
# seconds more passed, the JMeter process's heap after a full GC (jcmd GC.run, then GC.heap_info) is printed for
# each engine, with the live objects after a full GC (jcmd GC.class_histogram's total), and the samples and errors of
# the run. The live objects are what the engine keeps; "heap after GC" also counts the allocation buffers (TLABs)
# the running users take in the second between the GC and the reading, so it moves with the allocation rate. Not part of `mvn verify` (it needs a few GB of heap and
# a few minutes).
#
# usage: it/bench/large-body-heap.sh [--threads N] [--big-mb N] [--heap SIZE] [--engines stock,stampede]
#                                    [--rampup S] [--settle S] [--wait S] [--skip-build]
#   defaults: --threads 200 --big-mb 50 --heap 6g --engines stock,stampede --rampup 20 --settle 10 --wait 240
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
threads=200 big_mb=50 heap=6g engines=stock,stampede rampup=20 settle=10 wait=240 build=true
while (($#)); do
  case "$1" in
    --threads) threads=$2; shift 2 ;;
    --big-mb) big_mb=$2; shift 2 ;;
    --heap) heap=$2; shift 2 ;;
    --engines) engines=$2; shift 2 ;;
    --rampup) rampup=$2; shift 2 ;;
    --settle) settle=$2; shift 2 ;;
    --wait) wait=$2; shift 2 ;;
    --skip-build) build=false; shift ;;
    -h|--help) sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "large-body-heap: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
if ((big_mb < 1 || big_mb > 64)); then
  echo "large-body-heap: --big-mb $big_mb is out of range: use 1 to 64 (the built-in target's largest body)" >&2
  exit 2
fi
command -v jcmd >/dev/null || { echo "large-body-heap: jcmd (a JDK) is missing" >&2; exit 2; }
if $build; then
  echo "large-body-heap: building the CLI and the plugin ..."
  (cd "$root" && mvn -B -q -pl src -am package -DskipTests)
fi

work=$(mktemp -d /tmp/stampede-large-body.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
big_port=$(free_port)
small_port=$(free_port)
# The large body's connection must stay open while the heap is measured: no idle timeout where the option exists.
idle=()
"$root/stampede" target --help | grep -q -- --idle-timeout && idle=(--idle-timeout 0)
"$root/stampede" target --port "$big_port" --body-size $((big_mb * 1024 * 1024)) "${idle[@]}" >"$work/big.log" 2>&1 &
pids+=($!)
"$root/stampede" target --port "$small_port" "${idle[@]}" >"$work/small.log" 2>&1 &
pids+=($!)
for log in big small; do
  for _ in $(seq 1 100); do grep -q serving "$work/$log.log" && break; sleep 0.1; done
  grep -q serving "$work/$log.log" || { cat "$work/$log.log" >&2; exit 1; }
done

duration=$((wait + settle + 30))
printf '%-9s %8s %14s %13s %14s %9s %8s %s\n' engine threads "heap after GC" "live objects" "big fetched" \
  samples errors note
IFS=, read -ra list <<<"$engines"
for engine in "${list[@]}"; do
  out="$work/run-$engine"
  "$root/stampede" run "$root/it/bench/large-body-heap.jmx" --engine "$engine" --heap "$heap" --out "$out" \
    --no-dashboard -J threads="$threads" -J rampup="$rampup" -J duration="$duration" \
    -J big_port="$big_port" -J small_port="$small_port" >"$work/$engine.log" 2>&1 &
  run=$!
  pids+=($run)
  jmeter=
  for _ in $(seq 1 300); do
    jmeter=$(pgrep -f "ApacheJMeter.jar.*large-body-heap.jmx" | head -1 || true)
    [[ -n $jmeter ]] && break
    sleep 0.2
  done
  [[ -n $jmeter ]] || { cat "$work/$engine.log" >&2; exit 1; }
  jtl=
  for _ in $(seq 1 $((wait * 2))); do
    jtl=$(find "$out" -name '*.jtl' 2>/dev/null | head -1)
    if [[ -n $jtl ]] && (($(grep -c ',GET /big,' "$jtl" || true) >= threads)); then break; fi
    kill -0 "$jmeter" 2>/dev/null || break
    sleep 0.5
  done
  sleep "$settle"
  used=gone live=gone note=
  if kill -0 "$jmeter" 2>/dev/null; then
    if jcmd "$jmeter" GC.run >/dev/null 2>&1; then
      used=$(jcmd "$jmeter" GC.heap_info | sed -n 's/.*total [0-9]*K, used \([0-9]*\)K.*/\1/p' | head -1)
      used="$((used / 1024)) MB"
      # The histogram's own full GC counts only what is reachable: the retained set, without allocation in flight.
      live=$(jcmd "$jmeter" GC.class_histogram | awk '$1 == "Total" {print $3}')
      live="$((live / 1024 / 1024)) MB"
    else
      used="no answer" note="jcmd could not attach (JMeter busy in GC?)"
    fi
  else
    note="JMeter ended early: $(grep -m1 -i 'memory' "$work/$engine.log" "$out"/*.out 2>/dev/null || true)"
  fi
  kill -TERM "$run" 2>/dev/null || true # measured: stop the run (its shutdown hook stops JMeter)
  wait "$run" || true
  jtl=$(find "$out" -name '*.jtl' | head -1)
  big=0 samples=0 errors=0
  if [[ -n $jtl ]]; then
    big=$(grep -c ',GET /big,' "$jtl" || true)
    samples=$(($(wc -l <"$jtl") - 1))
    errors=$(awk -F, 'NR > 1 && $8 != "true"' "$jtl" | wc -l)
  fi
  printf '%-9s %8s %14s %13s %14s %9s %8s %s\n' "$engine" "$threads" "$used" "$live" "$big" "$samples" "$errors" \
    "$note"
done
