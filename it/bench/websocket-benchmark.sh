#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# WebSocket scale benchmark: --sessions sessions in one JMeter (one engine), spread over --threads JMeter threads
# (websocket.sessions_per_thread), each session sending one message every --pacing-ms and awaiting its echo from
# it/websocket/peer.py (python3-websockets) on 127.0.0.1. Prints: sessions established (the handshakes' 101s),
# errors, the JMeter process's heap after a full GC (jcmd GC.run, then GC.heap_info) before the sessions and with
# them all open, the difference per session held then (the engine's shared state included, so an upper bound), the p50 /
# p99 / max echo latency in the steady window (from --warmup s after the last handshake to the end). Not part of
# `mvn verify`: it holds ~19,000 sockets on each side for a few minutes.
#
# The threads start over --rampup s and each opens its sessions over one pacing interval, so the peer (one Python
# process) sees the handshakes at a rate it can take on a small box.
#
# usage: it/bench/websocket-benchmark.sh [--sessions N] [--threads N] [--pacing-ms MS] [--rampup S]
#                                        [--duration S] [--warmup S] [--heap SIZE] [--jmeter-home DIR]
#                                        [--skip-build]
#   defaults: --sessions 19000 --threads 19 --pacing-ms 10000 --rampup 120 --duration 240 --warmup 20 --heap 2g
#             --jmeter-home src/target/jmeter-home (a copy lets a build run meanwhile)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
sessions=19000 threads=19 pacing=10000 rampup=120 duration=240 warmup=20 heap=2g home=
while (($#)); do
  case "$1" in
    --sessions) sessions=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --pacing-ms) pacing=$2; shift 2 ;;
    --rampup) rampup=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --heap) heap=$2; shift 2 ;;
    --jmeter-home) home=$2; shift 2 ;;
    *) bench_option "$1" || { echo "$bench: unknown option $1 (see --help)" >&2; exit 2; }; shift ;;
  esac
done
if ((sessions < threads || sessions % threads != 0)); then
  echo "$bench: --sessions $sessions must be a multiple of --threads $threads (sessions per thread)" >&2
  exit 2
fi
bench_need "install a JDK (jcmd)" jcmd
/usr/bin/python3 -c 'import websockets' 2>/dev/null || {
  echo "$bench: python3-websockets is missing; apt-get install python3-websockets" >&2
  exit 2
}
# Each side holds one socket per session: both processes need that many descriptors (the box caps at 20,000).
ulimit -n "$(ulimit -Hn)"
if (($(ulimit -n) < sessions + 500)); then
  echo "$bench: ulimit -n is $(ulimit -n); $sessions sessions need $((sessions + 500)) descriptors per process" >&2
  exit 2
fi
bench_maven -pl src -am package -DskipTests
home=${home:-$root/src/target/jmeter-home}
[[ -f $home/bin/ApacheJMeter.jar ]] || {
  echo "$bench: $home/bin/ApacheJMeter.jar is missing: build without --skip-build" >&2
  exit 2
}

work=$(mktemp -d /tmp/stampede-ws-bench.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  # The peer closes thousands of sessions on SIGTERM; it gets 10 s.
  for _ in $(seq 1 100); do
    alive=false
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=true; done
    $alive || break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
/usr/bin/python3 "$root/it/websocket/peer.py" --port "$port" >"$work/peer.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do grep -q listening "$work/peer.log" && break; sleep 0.1; done
grep -q listening "$work/peer.log" || { cat "$work/peer.log" >&2; exit 1; }

delay=15
java -Xms"$heap" -Xmx"$heap" -XX:+UseG1GC -jar "$home/bin/ApacheJMeter.jar" -n -t "$root/it/bench/websocket-bench.jmx" \
  -l "$work/results.jtl" -j "$work/jmeter.log" -Jjmeter.save.saveservice.autoflush=true -Jthreads="$threads" -Jsessions=$((sessions / threads)) \
  -Jpacing_ms="$pacing" -Jrampup="$rampup" -Jduration="$duration" -Jdelay="$delay" -Jport="$port" >"$work/jmeter.out" 2>&1 &
run=$!
pids+=($run)
jmeter=
for _ in $(seq 1 300); do
  jmeter=$(pgrep -f "ApacheJMeter.jar.*websocket-bench.jmx" | head -1 || true)
  [[ -n $jmeter ]] && break
  sleep 0.2
done
[[ -n $jmeter ]] || { cat "$work/jmeter.out" >&2; exit 1; }
heap_after_gc() {
  jcmd "$jmeter" GC.run >/dev/null && jcmd "$jmeter" GC.heap_info | sed -n 's/.*total [0-9]*K, used \([0-9]*\)K.*/\1/p' | head -1
}
sleep $((delay - 5))
base_kb=$(heap_after_gc)
# All sessions are open once the JTL holds every handshake (the group's sub-results "open-N", 101).
opened=0
for _ in $(seq 1 $((duration - warmup))); do
  opened=$(grep -c ',open-[0-9]*,101,Switching Protocols,' "$work/results.jtl" 2>/dev/null || true)
  ((opened >= sessions)) && break
  sleep 1
done
open_at=$(date +%s%3N)
sleep "$warmup"
full_kb=$(heap_after_gc)
# The sessions the heap figure covers: the JMeter process's established connections to the peer at that moment.
held=$(ss -tnp state established "( dport = :$port )" | grep -c "pid=$jmeter," || true)
wait "$run" || true
/usr/bin/python3 - "$work/results.jtl" "$sessions" "$base_kb" "$full_kb" "$open_at" "$warmup" "$held" <<'PY'
import csv, sys
jtl, sessions, base_kb, full_kb, open_at, warmup, held = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
handshakes = errors = echoes = 0
steady = []
kinds = {}
for row in csv.DictReader(open(jtl)):
    ok = row["success"] == "true"
    if not ok:
        errors += 1
        kinds[row["responseCode"]] = kinds.get(row["responseCode"], 0) + 1
    if row["label"].startswith("open-") and row["responseMessage"] == "Switching Protocols":
        handshakes += 1
    if row["label"] == "echo":
        echoes += 1
        if ok and int(row["timeStamp"]) >= open_at + warmup * 1000:
            steady.append(int(row["elapsed"]))
steady.sort()
pct = lambda p: steady[min(len(steady) - 1, int(p * len(steady)))] if steady else -1
print(f"sessions established   {handshakes:,} of {sessions:,}")
print(f"errors                 {errors:,} {kinds if kinds else ''}")
print(f"echoes                 {echoes:,} ({len(steady):,} in the steady window)")
print(f"heap after full GC     {base_kb // 1024} MB before the sessions, {full_kb // 1024} MB with them")
print(f"sessions held at the heap measurement  {held:,}")
print(f"heap per held session  {(full_kb - base_kb) / max(1, held):.2f} KB (the engine's shared state included)")
print(f"echo latency (steady)  p50 {pct(0.50)} ms  p99 {pct(0.99)} ms  max {steady[-1] if steady else -1} ms")
PY
