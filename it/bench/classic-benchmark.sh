#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Classic-path benchmark (issue 13): a shipped plan run through `./stampede run` exactly as a user runs it (one
# connection per JMeter thread), against stock JMeter 5.6.3's HTTP Request (HttpClient4, keep-alive, same user on
# each iteration) under the same thread group type with the same thread count, also through `./stampede run`.
# One private nginx (18-byte /test.txt, access log off, sendfile and tcp_nopush on as Debian's nginx.conf and the
# realserver files `stampede cluster render` writes have them: head and body leave in one segment, as from the
# built-in target) on 127.0.0.1 with --workers workers. The two alternate
# (rounds 1, 3, ...: Stampede first; rounds 2, 4, ...: stock first). For each run, over the window from --warmup
# seconds after the first JTL line to 2 s before the run's end: req/s (JTL rows whose timeStamp is in the window),
# the JMeter process's CPU (utime+stime from /proc) per request, p50/p99 of elapsed (ms, JTL), errors, nginx's CPU
# and the machine's other busy CPU. Then the ratios per round, their median and the weakest round.
#
# usage: it/bench/classic-benchmark.sh [--plan stepping|quickstart|standard] [--threads N] [--workers N] [--rounds N]
#            [--duration S] [--warmup S] [--rampup S] [--tools stampede,stock] [--skip-build]
#            [-J name=value ...]  (extra properties for the Stampede runs only)
#            [--profile DIR]      (async-profiler, cpu, during each window: DIR/<run>.collapsed; figures of a
#                                  profiled run are not comparable)
#            [--keep DIR]         (keep each run's results folder under DIR)
#            [--stock-default]    (stock without httpclient.reset_state_on_thread_group_iteration=false: under
#                                  casutg's groups HC4 then opens a new connection for every sample, "same user"
#                                  notwithstanding)
#            [--base DIR]         (before/after: instead of stock, the same Stampede plan run by the built checkout
#                                  DIR, e.g. a `git worktree` of the base commit built with
#                                  `mvn -pl src -am package -DskipTests`; the ratios are then this checkout / DIR)
#   defaults: --plan stepping --threads 200 --workers 1 --rounds 3 --duration 60 --warmup 15 --rampup 2
#   One call of the defaults takes about 7 minutes; run the matrix one plan x one nginx shape per call.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

plan=stepping threads=200 workers=1 rounds=3 duration=60 warmup=15 rampup=2 tools=stampede,stock
profile= keep= base= extra=() stock_props=(-Jhttpclient.reset_state_on_thread_group_iteration=false)
while (($#)); do
  case "$1" in
    --plan) plan=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --rampup) rampup=$2; shift 2 ;;
    --tools) tools=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --stock-default) stock_props=(); shift ;;
    --base) base=$(cd "$2" && pwd) || exit 2; tools=stampede,base; shift 2 ;;
    -J) extra+=("-J$2"); shift 2 ;;
    -J*) extra+=("$1"); shift ;;
    *) bench_option "$1" || { echo "$bench: unknown option '$1' (see --help)" >&2; exit 2; }; shift ;;
  esac
done
case "$plan" in
  stepping) ours="$root/plans/stepping-raw.jmx"; stock="$root/it/bench/stock-stepping-hc4.jmx" ;;
  quickstart) ours="$root/plans/quickstart.jmx"; stock="$root/it/bench/stock-concurrency-hc4.jmx" ;;
  # The same samplers under JMeter's standard Thread Group (what the Stepping group costs), not a shipped plan.
  standard) ours="$root/it/src/test/resources/plans/bench-raw.jmx"; stock="$root/it/src/test/resources/plans/bench-stock-http.jmx" ;;
  *) echo "classic-benchmark: --plan must be stepping, quickstart or standard, not '$plan'" >&2; exit 2 ;;
esac
for n in "$threads" "$workers" "$rounds" "$duration" "$warmup" "$rampup"; do
  [[ $n =~ ^[0-9]+$ && $n -gt 0 ]] || { echo "classic-benchmark: '$n' is not a positive whole number" >&2; exit 2; }
done
((duration - warmup > 5)) || { echo "classic-benchmark: --duration must exceed --warmup by more than 5 s" >&2; exit 2; }
bench_need "install it (apt-get install nginx-light)" nginx java
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
if [[ -n $profile ]]; then
  agent=$(bench_profiler "$profile")
fi
bench_maven -pl src -am package -DskipTests
if [[ -n $base ]]; then
  [[ -x $base/stampede && -f $base/src/target/stampede.jar ]] || {
    echo "$bench: --base $base is not a built Stampede checkout (build it with mvn -pl src -am package)" >&2
    exit 2
  }
fi

work=$(mktemp -d /tmp/stampede-classic.XXXXXX)
nginx_pid=
cleanup() {
  [[ -n $nginx_pid ]] && kill "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# nginx: one private instance for the whole run.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null \
       || echo $((20000 + RANDOM % 20000)))
mkdir -p "$work/nginx/html" "$work/nginx/temp"
printf 'stampede classic\n\n' > "$work/nginx/html/test.txt"   # 18 bytes
reuse=; ((workers > 1)) && reuse=" reuseport"
cat > "$work/nginx/nginx.conf" <<EOF
$( [[ $(id -u) == 0 ]] && echo "user root;" )
worker_processes $workers;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 16384; }
http {
  access_log off;
  default_type text/plain;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 100000000;
  keepalive_timeout 300s;
  client_body_temp_path $work/nginx/temp/body;
  proxy_temp_path $work/nginx/temp/proxy;
  fastcgi_temp_path $work/nginx/temp/fastcgi;
  uwsgi_temp_path $work/nginx/temp/uwsgi;
  scgi_temp_path $work/nginx/temp/scgi;
  server { listen 127.0.0.1:$port backlog=4096$reuse; root $work/nginx/html; location = /status { stub_status; } }
}
EOF
"$nginx_bin" -c "$work/nginx/nginx.conf" -g 'daemon off;' &
nginx_pid=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/test.txt" >/dev/null 2>&1 && break; sleep 0.1; done
size=$(curl -fs "http://127.0.0.1:$port/test.txt" | wc -c)
echo "nginx on 127.0.0.1:$port ($workers worker(s), /test.txt $size bytes); plan $plan, $threads threads, \
$duration s per run, window from $warmup s to $((duration - 2)) s, $rounds rounds"

ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
nginx_ticks() { local t=0 p; for p in $(pgrep -P "$nginx_pid"); do t=$((t + $(ticks "$p"))); done; echo "$t"; }
# connections nginx accepted so far (stub_status): new connections in a window show keep-alive broken somewhere
accepts() { curl -fs "http://127.0.0.1:$port/status" | awk 'NR == 3 {print $1}'; }
busy_ticks() { awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat; }
now_ms() { date +%s%3N; }
hz=$(getconf CLK_TCK)

# run_one NAME CHECKOUT PLAN [props...]: one `stampede run` of CHECKOUT; prints one result line and appends it to
# $work/results.
run_one() {
  local name=$1 checkout=$2 planfile=$3; shift 3
  local out="$work/run-$name-$RANDOM"
  "$checkout/stampede" run "$planfile" --host 127.0.0.1 --port "$port" --no-dashboard --out "$out" \
      -Jthreads="$threads" -Jduration="$duration" -Jrampup="$rampup" "$@" > "$work/cli.log" 2>&1 &
  local cli=$! jm= i
  for i in $(seq 600); do
    jm=$(pgrep -P "$cli" -f ApacheJMeter.jar || true)
    [[ -n $jm && -f $out/results.jtl && $(head -c 4096 "$out/results.jtl" | wc -l) -ge 2 ]] && break
    sleep 0.1
  done
  [[ -n $jm ]] || { echo "classic-benchmark: JMeter did not start for $name; see:" >&2; cat "$work/cli.log" >&2; exit 1; }
  local t0; t0=$(awk -F, 'NR == 2 {print $1; exit}' "$out/results.jtl")
  sleep "$warmup"
  local w0 j0 n0 b0 a0; w0=$(now_ms); j0=$(ticks "$jm"); n0=$(nginx_ticks); b0=$(busy_ticks); a0=$(accepts)
  [[ -n $profile ]] && jcmd "$jm" JVMTI.agent_load "$agent" "\"start,event=cpu,interval=1ms\"" >/dev/null
  local left=$((t0 + (duration - 2) * 1000 - $(now_ms)))
  ((left > 0)) && sleep "$((left / 1000)).$(printf '%03d' $((left % 1000)))"
  local w1 j1 n1 b1 a1; w1=$(now_ms); j1=$(ticks "$jm"); n1=$(nginx_ticks); b1=$(busy_ticks); a1=$(accepts)
  [[ -n $profile ]] && jcmd "$jm" JVMTI.agent_load "$agent" "\"stop,file=$profile/$name-$plan-$threads-w$workers.collapsed\"" >/dev/null
  wait "$cli" || { echo "classic-benchmark: stampede run failed for $name:" >&2; tail -20 "$work/cli.log" >&2; exit 1; }
  # JTL: rows whose timeStamp lies in [w0, w1): count, errors, elapsed percentiles (nearest rank).
  awk -F, -v a="$w0" -v b="$w1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      $c["timeStamp"] >= a && $c["timeStamp"] < b { print $c["elapsed"], ($c["success"] == "true" ? 0 : 1) }' \
      "$out/results.jtl" | sort -n -k1,1 > "$work/window"
  local line
  line=$(awk -v ms=$((w1 - w0)) -v jt=$((j1 - j0)) -v nt=$((n1 - n0)) -v bt=$((b1 - b0)) -v hz="$hz" -v name="$name" -v acc=$((a1 - a0 - 1)) '
      { e[NR] = $1; err += $2 }
      END {
        s = ms / 1000; n = NR; if (n == 0) { print name, 0; exit }
        p50 = e[int((n * 50 + 99) / 100)]; p99 = e[int((n * 99 + 99) / 100)]
        cores = jt / hz / s; ng = nt / hz / s; other = bt / hz / s - cores - ng; if (other < 0) other = 0
        printf "%-10s %9.0f %7.2f %9.1f %6d %6d %7d %9d %7.2f %7.2f %8d\n", name, n / s, cores, jt / hz * 1e6 / n, p50, p99, err, n, ng, other, acc
      }' "$work/window")
  echo "$line" | tee -a "$work/results"
  if [[ -n $keep ]]; then mkdir -p "$keep" && mv "$out" "$keep/"; else rm -rf "$out"; fi
}

printf '%-10s %9s %7s %9s %6s %6s %7s %9s %7s %7s %8s %6s\n' run req/s cores 'CPU us/r' p50ms p99ms errors samples nginx other connects
for r in $(seq "$rounds"); do
  other=stock; [[ -n $base ]] && other=base
  order=(stampede "$other"); ((r % 2 == 0)) && order=("$other" stampede)
  for t in "${order[@]}"; do
    [[ ,$tools, == *,$t,* ]] || continue
    case $t in
      stampede) run_one "stampede" "$root" "$ours" "${extra[@]}" ;;
      base) run_one "base" "$base" "${ours/#$root/$base}" "${extra[@]}" ;;
      *) run_one "stock" "$root" "$stock" "${stock_props[@]}" ;;
    esac
  done
done

echo
[[ -n $base ]] && echo "stampede = $root ($(git -C "$root" rev-parse --short HEAD)), base = $base ($(git -C "$base" rev-parse --short HEAD)); ratios stampede / base"
awk '$1 == "stampede"               { s[++a] = $2; sc[a] = $4; s50[a] = $5; s99[a] = $6 }
     $1 == "stock" || $1 == "base" { k[++b] = $2; kc[b] = $4; k50[b] = $5; k99[b] = $6 }
     END {
       n = a < b ? a : b; if (n == 0) exit
       for (i = 1; i <= n; i++) {
         r[i] = s[i] / k[i]; c[i] = sc[i] / kc[i]
         printf "round %d: req/s x%.2f (%.0f / %.0f)  CPU per request x%.2f (%.1f / %.1f us)  p50 %d / %d ms  p99 %d / %d ms\n", \
           i, r[i], s[i], k[i], c[i], sc[i], kc[i], s50[i], k50[i], s99[i], k99[i]
       }
       # median and weakest (lowest req/s ratio, highest CPU ratio)
       for (i = 1; i <= n; i++) { rs[i] = r[i]; cs[i] = c[i] }
       for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) { if (rs[j] < rs[i]) { t = rs[i]; rs[i] = rs[j]; rs[j] = t } if (cs[j] < cs[i]) { t = cs[i]; cs[i] = cs[j]; cs[j] = t } }
       m = int((n + 1) / 2)
       printf "median: req/s x%.2f, CPU per request x%.2f; weakest round: req/s x%.2f, CPU per request x%.2f\n", rs[m], cs[m], rs[1], cs[n]
     }' "$work/results"
