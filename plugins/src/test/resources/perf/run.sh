#!/bin/bash
# Profiling run (not a test): run.sh PLAN SECONDS [JFR] - starts a throwaway nginx on a free loopback port, runs
# the plan 200 threads non-GUI with a CSV JTL, prints req/s and CPU us/request over the part after the first 15 s.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=${STAMPEDE_ROOT:-$(cd "$HERE/../../../../.." && pwd)}
PLAN=$1; SECS=${2:-40}; JFR=${3:-}
W=$(mktemp -d /tmp/stampede-perf.XXXX)
PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
chmod 755 "$W"; mkdir -p "$W/html" "$W/tmp" "$W/logs"; printf '0123456789abcdefg\n' > "$W/html/x.txt"
sed "s/PORT/$PORT/" "$HERE/nginx.conf" > "$W/nginx.conf"
nginx -p "$W" -c "$W/nginx.conf" -g 'daemon off;' 2>"$W/nginx.err" & NGX=$!
JM=
trap 'kill $NGX $JM 2>/dev/null || true' EXIT
sleep 0.5
EXTRA=(); [ -n "$JFR" ] && EXTRA=(-XX:StartFlightRecording=filename=$JFR,settings=profile)
java "${EXTRA[@]}" -Xms1g -Xmx1g -jar "$ROOT/src/target/jmeter-home/bin/ApacheJMeter.jar" -n -t "$HERE/$PLAN" \
  -Jport=$PORT -Jduration=$SECS -l "$W/out.jtl" -j "$W/jmeter.log" > "$W/stdout" 2>&1 & JM=$!
for _ in $(seq 120); do [ -s "$W/out.jtl" ] && break; sleep 0.5; done
sleep 15
U0=$(awk '{print $14}' /proc/$JM/stat); T0=$(awk '{print $14+$15}' /proc/$JM/stat); L0=$(wc -l < "$W/out.jtl"); S0=$(date +%s.%N)
sleep $((SECS - 20))
U1=$(awk '{print $14}' /proc/$JM/stat); T1=$(awk '{print $14+$15}' /proc/$JM/stat)
CS=$(cat /proc/$JM/task/*/status 2>/dev/null | awk '/ctxt_switches/{s+=$2} END{print s}'); L1=$(wc -l < "$W/out.jtl"); S1=$(date +%s.%N)
wait $JM || true
HZ=$(getconf CLK_TCK)
python3 - "$T0" "$T1" "$L0" "$L1" "$S0" "$S1" "$HZ" "$PLAN" "$U0" "$U1" <<'PY'
import sys
t0,t1,l0,l1,s0,s1,hz=map(float,sys.argv[1:8])
n=l1-l0; dt=s1-s0; cpu=(t1-t0)/hz
u=(float(sys.argv[10])-float(sys.argv[9]))/hz
print(f"{sys.argv[8]}: {n/dt:,.0f} req/s  cpu {cpu/dt:.2f} cores  {cpu/n*1e6:.1f} us/request (user {u/n*1e6:.1f}, sys {(cpu-u)/n*1e6:.1f})  (steady {dt:.0f}s)")
PY
echo "context switches (whole run, all threads): $CS"
echo "errors: $(awk -F, 'NR>1 && $8!="true"' "$W/out.jtl" | wc -l)  samples: $(($(wc -l < "$W/out.jtl")-1))  transport: $(grep -o 'event loops on [a-zA-Z ]*' "$W/jmeter.log" | head -1)  dir: $W"
