#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# WebSocket scale benchmark: --sessions sessions in one JMeter (one engine), spread over --threads JMeter threads
# (websocket.sessions_per_thread), each session sending one message every --pacing-ms and awaiting its echo from
# it/bench/websocket-echo-server.py (python3-websockets, --peer-processes processes on one SO_REUSEPORT port) on
# 127.0.0.1. Prints: sessions established (the handshakes' 101s), errors by kind, the JMeter process's heap after a
# full GC before the first session and with them all open (jcmd GC.run + GC.heap_info), the same by class histogram
# (jcmd GC.class_histogram, with the classes that grew most per session), the p50 / p99 / max echo latency, the RSS
# and the CPU time per message over the steady window (from --warmup s after the last handshake to the run's end).
#
# With --doornbosch THREADS, a second JMeter runs at the same time against the same server with the same shape on
# Peter Doornbosch's WebSocket Samplers (net.luminis.jmeter:jmeter-websocket-samplers from Maven Central, added
# with `stampede plugins add websocket-samplers`): THREADS threads, its one WebSocket per thread, one message every
# --pacing-ms (it/bench/websocket-bench-doornbosch.jmx). Both JVMs get the same flags; the script prints both
# processes' sessions per GB of RSS and CPU per message, and the ratios.
#
# The threads start over --rampup s and each opens its sessions over one pacing interval, so the server sees the
# handshakes at a rate it takes on a small box. Not part of `mvn verify`: it holds ~19,000 sockets on each side for a
# few minutes. Latency and CPU figures on a shared machine are noisy; the heap figures are not.
#
# usage: it/bench/websocket-benchmark.sh [--sessions N] [--threads N] [--pacing-ms MS] [--rampup S]
#                                        [--duration S] [--warmup S] [--heap SIZE] [--peer-processes N]
#                                        [--doornbosch THREADS] [--jmeter-home DIR] [--skip-build]
#   defaults: --sessions 19000 --threads 19 --pacing-ms 10000 --rampup 120 --duration 300 --warmup 20 --heap 1g
#             --peer-processes 4 --doornbosch 0 (off) --jmeter-home src/target/jmeter-home
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
sessions=19000 threads=19 pacing=10000 rampup=120 duration=300 warmup=20 heap=1g home= peers=4 doornbosch=0
while (($#)); do
  case "$1" in
    --sessions) sessions=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --pacing-ms) pacing=$2; shift 2 ;;
    --rampup) rampup=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --heap) heap=$2; shift 2 ;;
    --peer-processes) peers=$2; shift 2 ;;
    --doornbosch) doornbosch=$2; shift 2 ;;
    --jmeter-home) home=$2; shift 2 ;;
    *) bench_option "$1" || { echo "$bench: unknown option $1 (see --help)" >&2; exit 2; }; shift ;;
  esac
done
if ((sessions < threads || sessions % threads != 0)); then
  echo "$bench: --sessions $sessions must be a multiple of --threads $threads (sessions per thread)" >&2
  exit 2
fi
if ((duration < rampup + warmup + 40)); then
  echo "$bench: --duration $duration leaves no steady window after --rampup $rampup and --warmup $warmup;" \
    "give at least $((rampup + warmup + 40))" >&2
  exit 2
fi
bench_need "install a JDK (jcmd)" jcmd
bench_need "apt-get install iproute2" ss
/usr/bin/python3 -c 'import websockets' 2>/dev/null || {
  echo "$bench: python3-websockets is missing; apt-get install python3-websockets" >&2
  exit 2
}
# Each side holds one socket per session: every process needs that many descriptors (the box caps at 20,000); the
# server's processes share the sessions.
ulimit -n "$(ulimit -Hn)"
if (($(ulimit -n) < sessions + 500)); then
  echo "$bench: ulimit -n is $(ulimit -n); $sessions sessions need $((sessions + 500)) descriptors per process" >&2
  exit 2
fi
if (((sessions + doornbosch) / peers + 500 > $(ulimit -n))); then
  echo "$bench: --peer-processes $peers: each would hold $(((sessions + doornbosch) / peers)) sessions; give more" >&2
  exit 2
fi
bench_maven -pl src -am package -DskipTests
home=${home:-$root/src/target/jmeter-home}
[[ -f $home/bin/ApacheJMeter.jar ]] || {
  echo "$bench: $home/bin/ApacheJMeter.jar is missing: build without --skip-build" >&2
  exit 2
}
search_paths=
if ((doornbosch > 0)); then
  # The project's way to add a catalogue plugin: fetched from Maven Central into the home's plugin cache.
  "$root/stampede" plugins add websocket-samplers --jmeter-home "$home" >&2
  search_paths=$(find "$home-plugins" -name '*.jar' | sort | paste -sd ';')
  [[ $search_paths == *jmeter-websocket-samplers* ]] || {
    echo "$bench: the plugin cache $home-plugins has no jmeter-websocket-samplers jar" >&2
    exit 1
  }
fi

work=$(mktemp -d /tmp/stampede-ws-bench.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  # The server closes thousands of sessions on SIGTERM; it gets 10 s.
  for _ in $(seq 1 100); do
    alive=false
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=true; done
    $alive || break
    sleep 0.1
  done
  for p in "${pids[@]}"; do pkill -9 -P "$p" 2>/dev/null || true; kill -9 "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
/usr/bin/python3 "$root/it/bench/websocket-echo-server.py" --port "$port" --processes "$peers" >"$work/peer.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do grep -q listening "$work/peer.log" && break; sleep 0.1; done
grep -q listening "$work/peer.log" || { cat "$work/peer.log" >&2; exit 1; }

delay=15
# Both JVMs start small and grow their heap as G1 needs, so that RSS shows what each holds, not a heap committed up
# front and touched by allocation alone.
jvm=(java -Xms64m -Xmx"$heap" -XX:+UseG1GC -jar "$home/bin/ApacheJMeter.jar" -n -Jjmeter.save.saveservice.autoflush=true
  -Jpacing_ms="$pacing" -Jrampup="$rampup" -Jduration="$duration" -Jdelay="$delay" -Jws_port="$port")
start_ms=$(date +%s%3N)
"${jvm[@]}" -t "$root/it/bench/websocket-bench.jmx" -l "$work/stampede.jtl" -j "$work/stampede.log" \
  -Jthreads="$threads" -Jsessions=$((sessions / threads)) >"$work/stampede.out" 2>&1 &
run=$!
pids+=($run)
if ((doornbosch > 0)); then
  "${jvm[@]}" -t "$root/it/bench/websocket-bench-doornbosch.jmx" -l "$work/doornbosch.jtl" -j "$work/doornbosch.log" \
    -Jsearch_paths="$search_paths" -Jthreads="$doornbosch" -Jper_minute="$(awk -v p="$pacing" 'BEGIN{print 60000/p}')" \
    >"$work/doornbosch.out" 2>&1 &
  pids+=($!)
fi
# The JVMs (java is exec'ed by nothing here, so $! is the JVM itself).
jmeter=$run
dpid=${pids[2]:-}
heap_after_gc() {
  jcmd "$1" GC.run >/dev/null && jcmd "$1" GC.heap_info | sed -n 's/.*total [0-9]*K, used \([0-9]*\)K.*/\1/p' | head -1
}
# A JVM that ended early reads as 0 (its figures then say so) instead of ending the script.
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
held() { ss -tnp state established "( dport = :$port )" | grep -c "pid=$1," || true; }
sleep $((delay - 5))
base_kb=$(heap_after_gc "$jmeter")
jcmd "$jmeter" GC.class_histogram >"$work/histo-before.txt"
base_rss=$(rss_kb "$jmeter")
[[ -n $dpid ]] && dbase_rss=$(rss_kb "$dpid")
# All sessions are open once the JTL holds every handshake (the group's sub-results "open-N", 101; Doornbosch's
# "open" samples), or when the steady window would be too short to wait longer.
end_ms=$((start_ms + (delay + duration - 5) * 1000))
opened=0 dopened=0
while (($(date +%s%3N) < end_ms - (warmup + 30) * 1000)); do
  opened=$(grep -c ',open-[0-9]*,101,Switching Protocols,' "$work/stampede.jtl" 2>/dev/null || true)
  [[ -n $dpid ]] && dopened=$(grep -c ',open,[0-9]*,Switching Protocols,' "$work/doornbosch.jtl" 2>/dev/null || true)
  ((opened >= sessions && dopened >= doornbosch)) && break
  sleep 1
done
sleep "$warmup"
full_kb=$(heap_after_gc "$jmeter")
jcmd "$jmeter" GC.class_histogram >"$work/histo-open.txt"
held_s=$(held "$jmeter")
[[ -n $dpid ]] && held_d=$(held "$dpid")
# The steady window: from here (the GCs above done) to the run's last seconds.
window_from=$(date +%s%3N)
cpu_s0=$(cpu_ticks "$jmeter")
[[ -n $dpid ]] && cpu_d0=$(cpu_ticks "$dpid")
sleep $((end_ms > window_from + 1000 ? (end_ms - window_from) / 1000 : 1))
window_to=$(date +%s%3N)
cpu_s1=$(cpu_ticks "$jmeter") rss_s=$(rss_kb "$jmeter")
[[ -n $dpid ]] && { cpu_d1=$(cpu_ticks "$dpid"); rss_d=$(rss_kb "$dpid"); }
for p in "${pids[@]:1}"; do wait "$p" || true; done
/usr/bin/python3 - "$work" "$sessions" "$base_kb" "$full_kb" "$held_s" "$window_from" "$window_to" \
  "$((cpu_s1 - cpu_s0))" "$base_rss" "$rss_s" "$(getconf CLK_TCK)" "$doornbosch" "${held_d:-0}" \
  "$((${cpu_d1:-0} - ${cpu_d0:-0}))" "${dbase_rss:-0}" "${rss_d:-0}" <<'PY'
import csv, re, sys
(work, sessions, base_kb, full_kb, held, w0, w1, cpu, base_rss, rss, hz, dthreads, dheld, dcpu, dbase_rss,
 drss) = sys.argv[1], *map(int, sys.argv[2:])


def jtl(path, opened):
    handshakes = errors = echoes = 0
    steady, kinds, in_window = [], {}, 0
    for row in csv.DictReader(open(path)):
        ok = row["success"] == "true"
        if not ok:
            errors += 1
            kinds[row["responseCode"]] = kinds.get(row["responseCode"], 0) + 1
            in_window += w0 <= int(row["timeStamp"]) <= w1
        if opened(row["label"]) and row["responseMessage"] == "Switching Protocols":
            handshakes += 1
        if row["label"] == "echo":
            echoes += 1
            if ok and w0 <= int(row["timeStamp"]) <= w1:
                steady.append(int(row["elapsed"]))
    steady.sort()
    return handshakes, errors, in_window, kinds, echoes, steady


def pct(s, p):
    return s[min(len(s) - 1, int(p * len(s)))] if s else -1


def histogram(path):
    classes = {}
    for line in open(path):
        m = re.match(r"\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)", line)
        if m:
            classes[m.group(3)] = (int(m.group(1)), int(m.group(2)))
    return classes


def report(name, handshakes, of, errors, in_window, kinds, echoes, steady, held, cpu_ticks, base_rss, rss):
    seconds = (w1 - w0) / 1000
    per_msg = cpu_ticks / hz * 1e6 / max(1, len(steady))
    print(f"{name}")
    print(f"  sessions established   {handshakes:,} of {of:,} (held at the measurement: {held:,})")
    print(f"  errors                 {errors:,} ({in_window:,} in the steady window) {kinds if kinds else ''}")
    print(f"  echoes                 {echoes:,} ({len(steady):,} in the steady window of {seconds:.0f} s)")
    print(f"  echo latency (steady)  p50 {pct(steady, .5)} ms  p99 {pct(steady, .99)} ms  max {steady[-1] if steady else -1} ms")
    print(f"  RSS                    {base_rss // 1024} MB before the sessions, {rss // 1024} MB at the end of the window"
          f" ({(rss - base_rss) / max(1, held):.1f} KB per session above the baseline)")
    print(f"  sessions per GB of RSS {held / (rss / 1048576):,.0f}")
    print(f"  CPU                    {cpu_ticks / hz:.1f} s in the window, {per_msg:.0f} µs per message")
    return held / (rss / 1048576), per_msg


s = jtl(f"{work}/stampede.jtl", lambda l: re.fullmatch(r"open-\d+", l) is not None)
per_gb, per_msg = report("Stampede", s[0], sessions, *s[1:], held, cpu, base_rss, rss)
print(f"  heap after full GC     {base_kb // 1024} MB before the sessions, {full_kb // 1024} MB with them:"
      f" {(full_kb - base_kb) / max(1, held):.2f} KB per held session (the engine's shared state included)")
before, after = histogram(f"{work}/histo-before.txt"), histogram(f"{work}/histo-open.txt")
grown = {c: (after[c][0] - before.get(c, (0, 0))[0], after[c][1] - before.get(c, (0, 0))[1]) for c in after}
total = sum(b for _, b in grown.values())
print(f"  live objects (histogram) {total / 1024 / max(1, held):.2f} KB per held session; the classes that grew most,"
      f" bytes per session:")
for c, (n, b) in sorted(grown.items(), key=lambda kv: -kv[1][1])[:14]:
    print(f"    {b / max(1, held):8.1f} B  {n / max(1, held):6.2f} objects  {c}")
if dthreads:
    d = jtl(f"{work}/doornbosch.jtl", lambda l: l == "open")
    dper_gb, dper_msg = report("Doornbosch WebSocket Samplers", d[0], dthreads, *d[1:], dheld, dcpu, dbase_rss, drss)
    print(f"Stampede / Doornbosch    {per_gb / max(1e-9, dper_gb):.1f}x the sessions per GB of RSS,"
          f" {per_msg / max(1e-9, dper_msg):.2f}x the CPU per message")
PY
