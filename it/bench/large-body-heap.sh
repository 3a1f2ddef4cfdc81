#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Large-body heap benchmark (issue 33, finding 4): --threads users each fetch one --big-mb MB body once, then loop
# on an 18-byte one (100 ms think time), with JMeter's own HTTP Request run by stock JMeter 5.6.3 (HttpClient4) and
# by the Netty engine (`./stampede run --engine stock|stampede`), one JMeter at a time, the engines alternating for
# --rounds rounds. Two built-in targets on 127.0.0.1 serve the bodies. Once the JTL shows every user's large body (at
# most --wait seconds) and --settle seconds more passed, while the users loop on the small body, each JMeter is
# measured from outside with jcmd:
#   heap after full GC  the heap in use when a full GC (jcmd GC.run) ended, from the GC log that jcmd VM.log turns
#                       on: nothing the users allocate after that GC is in it
#   live objects        the total of jcmd GC.class_histogram, which runs a full GC of its own and counts only what
#                       is reachable: what JMeter and the engine retain
# then the samples of the run and its errors until the measurement (the samples that the stop interrupts after it are
# noted apart). The largest classes of each histogram follow the table. Not part of
# `mvn verify` (it needs a few GB of heap and several minutes).
#
# usage: it/bench/large-body-heap.sh [--threads N] [--big-mb N] [--heap SIZE] [--engines stock,stampede]
#                                    [--rounds N] [--rampup S] [--settle S] [--wait S] [--top N]
#                                    [--ports BIG,SMALL] [--skip-build]
#   defaults: --threads 200 --big-mb 50 --heap 6g --engines stock,stampede --rounds 2 --rampup 100 --settle 10
#             --wait 300 --top 6 --ports: two free ports the kernel picks
#   The ramp-up paces the large downloads (200 users in 100 s: two 50 MB bodies a second). Faster, on a loaded
#   machine, the downloads pile up faster than the target sends them, and any client holds every body in flight.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
threads=200 big_mb=50 heap=6g engines=stock,stampede rounds=2 rampup=100 settle=10 wait=300 top=6 ports=
while (($#)); do
  case "$1" in
    --threads) threads=$2; shift 2 ;;
    --big-mb) big_mb=$2; shift 2 ;;
    --heap) heap=$2; shift 2 ;;
    --engines) engines=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --rampup) rampup=$2; shift 2 ;;
    --settle) settle=$2; shift 2 ;;
    --wait) wait=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --ports) ports=$2; shift 2 ;;
    *) bench_option "$1" || { echo "$bench: unknown option $1 (see --help)" >&2; exit 2; }; shift ;;
  esac
done
if ((big_mb < 1 || big_mb > 64)); then
  echo "$bench: --big-mb $big_mb is out of range: use 1 to 64 (the built-in target's largest body)" >&2
  exit 2
fi
if ((rounds < 1 || rounds > 10)); then
  echo "$bench: --rounds $rounds is out of range: use 1 to 10" >&2
  exit 2
fi
bench_need "install a JDK 17 (jcmd)" jcmd
bench_maven -pl src -am package -DskipTests

work=$(mktemp -d /tmp/stampede-large-body.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
if [[ -n $ports ]]; then
  IFS=, read -r big_port small_port <<<"$ports"
else
  big_port=$(free_port)
  small_port=$(free_port)
fi
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

# The heap in use when the last full GC in the log ended: "Pause Full (Diagnostic Command) 812M->61M(6144M) 96ms".
after_full_gc() {
  { grep -F "Pause Full (" "$1" 2>/dev/null || true; } | tail -1 | sed -n 's/.*[0-9]M->\([0-9]*\)M(.*/\1 MB/p'
}

duration=$((rampup + wait + settle + 60))
format='%-5s %-9s %8s %18s %13s %12s %9s %7s %s\n'
printf "$format" round engine threads "heap after full GC" "live objects" "big fetched" samples errors note
IFS=, read -ra list <<<"$engines"
for round in $(seq 1 "$rounds"); do
  for engine in "${list[@]}"; do
    name="$engine-$round"
    out="$work/run-$name"
    "$root/stampede" run "$root/it/bench/large-body-heap.jmx" --engine "$engine" --heap "$heap" --out "$out" \
      --no-dashboard -J threads="$threads" -J rampup="$rampup" -J duration="$duration" \
      -J big_port="$big_port" -J small_port="$small_port" >"$work/$name.log" 2>&1 &
    run=$!
    pids+=($run)
    jmeter=
    for _ in $(seq 1 300); do
      jmeter=$(pgrep -f "ApacheJMeter.jar.*large-body-heap.jmx" | head -1 || true)
      [[ -n $jmeter ]] && break
      sleep 0.2
    done
    [[ -n $jmeter ]] || { cat "$work/$name.log" >&2; exit 1; }
    jtl=
    for _ in $(seq 1 $(((rampup + wait) * 2))); do
      jtl=$(find "$out" -name '*.jtl' 2>/dev/null | head -1)
      if [[ -n $jtl ]] && (($(grep -c ',GET /big,' "$jtl" || true) >= threads)); then break; fi
      kill -0 "$jmeter" 2>/dev/null || break
      sleep 0.5
    done
    sleep "$settle"
    used=gone live=gone note=
    gclog="$work/gc-$name.log"
    measured=$(date +%s%3N)
    if kill -0 "$jmeter" 2>/dev/null; then
      if jcmd "$jmeter" VM.log output="$gclog" what=gc=info >/dev/null 2>&1 && jcmd "$jmeter" GC.run >/dev/null 2>&1
      then
        used=$(after_full_gc "$gclog")
        jcmd "$jmeter" GC.class_histogram >"$work/histogram-$name.txt" 2>&1 || true
        live=$(awk '$1 == "Total" {printf "%d MB", $3 / 1048576}' "$work/histogram-$name.txt")
        [[ -n $used ]] || used="no GC line"
        [[ -n $live ]] || live="no answer"
      else
        used="no answer" note="jcmd could not attach (JMeter busy in GC?)"
      fi
    else
      note="JMeter ended early: $(grep -m1 -i 'memory' "$work/$name.log" "$out"/*.out 2>/dev/null || true)"
    fi
    kill -TERM "$run" 2>/dev/null || true # measured: stop the run (its shutdown hook stops JMeter)
    wait "$run" || true
    jtl=$(find "$out" -name '*.jtl' | head -1)
    big=0 samples=0 errors=0
    if [[ -n $jtl ]]; then
      big=$(grep -c ',GET /big,' "$jtl" || true)
      samples=$(($(wc -l <"$jtl") - 1))
      # Errors until the measurement; the samples the stop interrupts afterwards are noted apart.
      errors=$(awk -F, -v m="$measured" 'NR > 1 && $8 != "true" && $1 + $2 <= m' "$jtl" | wc -l)
      stopped=$(awk -F, -v m="$measured" 'NR > 1 && $8 != "true" && $1 + $2 > m' "$jtl" | wc -l)
      if ((errors > 0)); then
        note="$note errors: $(awk -F, -v m="$measured" 'NR > 1 && $8 != "true" && $1 + $2 <= m {print $3 " " $4}' \
          "$jtl" | sort | uniq -c | sort -rn | head -3 | awk '{$1 = $1 "x"; print}' | paste -sd ';' -)"
      fi
      ((stopped == 0)) || note="$note ($stopped more failed as the run was stopped after the measurement)"
    fi
    printf "$format" "$round" "$engine" "$threads" "$used" "$live" "$big" "$samples" "$errors" "$note"
  done
done
echo
echo "Largest classes after a full GC (jcmd GC.class_histogram: instances, bytes, class), last round:"
for engine in "${list[@]}"; do
  h="$work/histogram-$engine-$rounds.txt"
  [[ -f $h ]] || continue
  echo "  $engine:"
  awk -v top="$top" 'NF >= 4 && $1 ~ /^[0-9]+:$/ && n < top {printf "    %10d %12d  %s\n", $2, $3, $4; n++}' "$h"
done
