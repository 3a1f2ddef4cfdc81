#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Stampede against the tools users would pick instead (issue 34), not part of `mvn verify`: every tool, one after the
# other, against one private nginx on 127.0.0.1 (1 worker, the 18-byte /test.txt, access log off; a second log
# format, '$msec $request_time $status $uri $cookie_sid', is on only while a tool runs, read for its measured window).
#   scenario 1, stateless rate: --users (200) users, keep-alive, GET /test.txt, no think time
#   scenario 2, stateful users: POST /login (form; nginx sets the cookie sid and answers next=VALUE), then a loop of
#               GET /step/VALUE with the cookie and the last value, think time 10 s
#   scenario 3, many idle connections: each user its own keep-alive connection, GET /test.txt every 10 s
#   scenario vu (Stampede and Gatling only; it/bench/virtual-users-benchmark.sh --gatling runs it): the plan of the
#               virtual-users benchmark (GET /login with X-User, then /step/VALUE), Stampede on the engine's pool
#
# The tools (--tools names) and every setting each is given, as its own documentation sets it up for throughput
# (docs/peers.md cites which part of which manual):
#   stampede    this checkout: `./stampede run plans/quickstart.jmx -Jthreads=N` (scenario 1; Concurrency Thread
#               Group, keep-alive); it/bench/peers/stampede-stateful.jmx and stampede-idle.jmx (Virtual User Thread
#               Group, think time) with --heap, the newest Java 21+, a connection per user up to 15,000 users and the
#               engine's pool (--pool) above
#   jmeter      stock JMeter 5.6.3, the JVM options of its bin/jmeter (-Xms1g -Xmx1g, G1, MaxGCPauseMillis=100,
#               G1ReservePercent=20; -Xmx from --heap in 2 and 3), non-GUI, CSV results, no listener; HTTP Request with
#               HttpClient4 and keep-alive, same user on each iteration; one thread per user (at most --jmeter-users)
#   gatling     Gatling 3.15.1 through gatling-maven-plugin 4.21.12 (Maven Central), Java DSL (it/bench/peers/gatling),
#               the plugin's JVM options (-Xms/-Xmx from --heap in 2 and 3); HTTP defaults plus disableWarmUp and
#               disableCaching; shareConnections over 15,000 users
#   locust      Locust 2.47.0 (PyPI, in a venv; it/bench/peers/locust): FastHttpUser, --processes -1 (a worker per
#               core), --headless, --csv, --only-summary, --loglevel WARNING; master and workers on a free loopback
#               port; a ramp-up of at most 100 users a second per worker
#   tsung       Tsung 1.7.0 (Debian): one client VM per core (<client cpu="cores">), -n (no web dashboard), Erlang's
#               epmd on a private port, one arrival phase (N / ramp users a second, at most N); every other option at
#               its default, so it writes no line per request and reports the mean, not percentiles
#   tsung-dump  the same Tsung run with dumptraffic="protocol_local": its p50/p99 come from that line per request
#               (nearest rank, as for the JTL), and its CPU figure shows what the record costs
#   wrk         wrk -t<cores> -c<users> --latency (Debian), scenario 1 only, as the ceiling
#
# In each round every tool runs once per scenario; the order rotates every round, so each tool goes first in turn.
# Each run: the tool's start-up, a warm-up (scenario 1) or the ramp-up plus 10 s (2 and 3), then the measured window.
# Per run: req/s counted by nginx (stub_status) in the window, CPU per request of all the tool's processes (utime +
# stime from /proc over the window, divided by nginx's count; also the load processes alone), RSS of the load
# processes at the window's end, heap after a full GC for JVM tools (jcmd), p50/p99 as the tool reports them (its
# whole run) and as nginx's $request_time saw the window, errors (the tool's own count plus answers >= 400 nginx
# logged in the window). Scenarios 2 and 3 also: users held (distinct session cookies nginx saw in the window,
# scenario 2) and memory per user above the tool before its first user. A row counts only with 0 errors. Prints each
# run as it ends, then one table per scenario (the median-CPU round of each tool).
#
# usage: it/bench/peers-benchmark.sh [options] [--skip-build]
#   --scenarios LIST           1, 2, 3 and vu, separated by commas (1,2,3)
#   --tools LIST               stampede,jmeter,gatling,locust,tsung,tsung-dump,wrk (all; wrk runs in scenario 1 only)
#   --rounds N                 rounds (3)
#   --window S                 measured seconds per run (scenario 1: 35, scenarios 2 and 3: 60)
#   --warmup S                 scenario 1's warm-up after the load starts (20)
#   --users A,B,C              users of scenarios 1, 2 (and vu), 3 (200,100000,18000); up to 18,000 every tool
#                              gives each user its own connection; above it Stampede and Gatling share a pool, and
#                              Locust and Tsung (a connection per user) are held at 18,000
#   --jmeter-users N           stock JMeter's cap in scenarios 2 and 3: one OS thread per user (2000)
#   --ramp S                   ramp-up of scenarios 2 and 3 (users / 1000, at least 10)
#   --think-ms MS              think time of scenarios 2 and 3 (10000)
#   --heap SIZE                heap of the JVM tools in scenarios 2, 3 and vu (the 8 GB budget: 6g)
#   --pool N                   Stampede's engine pool where users share connections (over 15,000 users; vu) (2000)
#   --profile DIR              async-profiler (cpu) on the JVM tools during the measured windows: DIR/<run>.collapsed
#   --keep DIR                 keep every run's folder (the tool's own output and logs, nginx's window log) under DIR
#   --skip-build               use the checkout's last build (src/target) instead of building it
#   scenario 1 alone, every tool, 3 rounds: ~40 minutes; all three scenarios at full size: hours.
# Installs on first use (cache: ~/.cache/stampede/peers-benchmark): Locust from PyPI in a venv (/usr/bin/python3 -m
# venv: Debian's python3-venv); Gatling and its Maven plugin from Maven Central. Needs nginx, curl, and for the tools
# chosen: wrk, tsung (Debian; it/run-tests.sh installs them), Java 17 and Maven (the JVM tools), a Java 21+ for
# Stampede's Virtual User Thread Group (scenarios 2, 3).
{
# The whole script is one block, read before it runs, so that editing the file meanwhile cannot change a run.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

scenarios=1,2,3 tools=stampede,jmeter,gatling,locust,tsung,tsung-dump,wrk rounds=3 window= warmup=20 users=200,100000,18000
# nginx's one worker has 19,900 connection slots (the file cap is 20,000), and once fewer than 1/16 of them are free
# it closes idle keep-alive connections to make room (ngx_drain_connections): past about 18,650 open connections,
# clients with think time see theirs closed under them. So at most 18,000 users get a connection of their own.
own_connections_max=18000
jmeter_users=2000 ramp= think_ms=10000 heap=6g pool=2000 profile= keep=
while (($#)); do
  case "$1" in
    --scenarios) scenarios=$2; shift 2 ;;
    --tools) tools=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --window) window=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --users) users=$2; shift 2 ;;
    --jmeter-users) jmeter_users=$2; shift 2 ;;
    --ramp) ramp=$2; shift 2 ;;
    --think-ms) think_ms=$2; shift 2 ;;
    --heap) heap=$2; shift 2 ;;
    --pool) pool=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) bench_option "$1" || { echo "$bench: unknown option '$1' (see --help)" >&2; exit 2; }; shift ;;
  esac
done
fail() { echo "$bench: $*" >&2; exit 2; }
whole() { [[ $2 =~ ^[0-9]+$ && $2 -gt 0 ]] || fail "$1 must be a positive whole number, not '$2'"; }
whole --rounds "$rounds"; whole --warmup "$warmup"; whole --pool "$pool"; whole --jmeter-users "$jmeter_users"; whole --think-ms "$think_ms"
[[ -z $window ]] || whole --window "$window"
[[ -z $ramp ]] || whole --ramp "$ramp"
[[ $scenarios =~ ^(1|2|3|vu)(,(1|2|3|vu))*$ ]] || fail "--scenarios takes 1, 2, 3 and vu separated by commas, not '$scenarios'"
IFS=, read -r -a tool_list <<< "$tools"
for t in "${tool_list[@]}"; do
  [[ $t =~ ^(stampede|jmeter|gatling|locust|tsung|tsung-dump|wrk)$ ]] ||
    fail "--tools: '$t' is not one of stampede, jmeter, gatling, locust, tsung, tsung-dump, wrk"
done
IFS=, read -r -a user_counts <<< "$users"
((${#user_counts[@]} == 3)) || fail "--users takes three counts (scenarios 1, 2, 3), e.g. 200,100000,18000"
for u in "${user_counts[@]}"; do whole --users "$u"; done
((user_counts[2] <= 19500)) || fail "--users: scenario 3 holds a connection per user; 19,500 at most (the file cap)"
[[ $heap =~ ^[0-9]+[mg]$ ]] || fail "--heap takes a size such as 6g or 512m, not '$heap'"
has() { [[ ,$tools, == *,$1,* ]]; }
bench_need "install it (it/run-tests.sh installs nginx-light and curl)" nginx curl
has wrk && bench_need "install it (it/run-tests.sh installs wrk)" wrk
{ has tsung || has tsung-dump; } && bench_need "install it (it/run-tests.sh installs tsung)" tsung
# Only the JVM tools need Java, Maven and the build (Stampede's launcher and the JMeter home it assembles).
jvm_tools=false
{ has stampede || has jmeter || has gatling; } && jvm_tools=true
$jvm_tools && bench_need "install Java 17 and Maven" java mvn
[[ -z $profile ]] || agent=$(bench_profiler "$profile")

peers="$root/it/bench/peers"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/stampede/peers-benchmark"
locust_version=2.47.0
if has locust && ! "$cache/locust-venv/bin/locust" --version 2>/dev/null | grep -q "locust $locust_version"; then
  echo "$bench: installing Locust $locust_version from PyPI into $cache/locust-venv ..." >&2
  mkdir -p "$cache"
  rm -rf "$cache/locust-venv"
  /usr/bin/python3 -m venv "$cache/locust-venv" || fail "python3 -m venv failed: apt-get install python3-venv"
  "$cache/locust-venv/bin/pip" install -q "locust==$locust_version" || fail "pip could not install locust"
fi
if has stampede || has jmeter; then
  bench_maven -pl src -am package -DskipTests
  jmeter_home="$root/src/target/jmeter-home"
  [[ -f $jmeter_home/bin/ApacheJMeter.jar ]] || fail "no JMeter home in $jmeter_home: run without --skip-build"
fi
if has gatling; then
  echo "$bench: compiling the Gatling simulations ..." >&2
  mvn -B -q -f "$peers/gatling/pom.xml" test-compile || fail "the Gatling project did not compile"
fi

work=$(mktemp -d /tmp/stampede-peers.XXXXXX)
nginx_pid= tool_pid=
stop_tool() {
  # The tool runs in a session of its own (setsid): its process group is its PID.
  if [[ -n $tool_pid ]] && kill -0 "$tool_pid" 2>/dev/null; then
    kill -TERM -- "-$tool_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$tool_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$tool_pid" 2>/dev/null || true
  fi
  local p
  for p in $(marked); do kill -KILL "$p" 2>/dev/null || true; done
  tool_pid=
}
# Every tool runs with this variable in its environment, so the processes it starts outside its own tree (Tsung's
# client VMs and Erlang's epmd, which detach) are found, counted and stopped, and no one else's are.
marker="STAMPEDE_PEERS_RUN=$$-$RANDOM"
marked() { grep -lsF "$marker" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 || true; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cleanup() {
  stop_tool
  if [[ -n $nginx_pid ]]; then
    kill "$nginx_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$nginx_pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- nginx: one private instance for the whole benchmark ----------------------------------------------------------
port=$(free_port)
ngx="$work/nginx"
mkdir -p "$ngx/html" "$ngx/temp"
printf 'stampede classic\n\n' > "$ngx/html/test.txt"   # 18 bytes
echo 'map $msec $in_window { default 0; }' > "$ngx/window.conf"
# The stateful locations are those of the virtual-users benchmark (it/.../users/StatefulSite.java): /login sets the
# session cookie (nginx's request id) and both answer next=c<connection>r<request on it>.
next='set $next "c${connection}r${connection_requests}";'
logged='access_log '"$ngx"'/window.log timing buffer=256k flush=1s if=$in_window;'
cat > "$ngx/nginx.conf" <<EOF
$( [[ $(id -u) == 0 ]] && echo "user root;" )
worker_processes 1;
worker_rlimit_nofile 20000;
pid $ngx/nginx.pid;
error_log $ngx/error.log warn;
events { worker_connections 19900; }
http {
  access_log off;
  default_type text/plain;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 100000000;
  keepalive_timeout 300s;
  client_body_temp_path $ngx/temp/body;
  proxy_temp_path $ngx/temp/proxy;
  fastcgi_temp_path $ngx/temp/fastcgi;
  uwsgi_temp_path $ngx/temp/uwsgi;
  scgi_temp_path $ngx/temp/scgi;
  log_format timing '\$msec \$request_time \$status \$uri \$cookie_sid';
  include $ngx/window.conf;
  server {
    listen 127.0.0.1:$port backlog=4096;
    root $ngx/html;
    location = /status { stub_status; }
    location = /test.txt { $logged }
    location = /login { $next add_header Set-Cookie "sid=\$request_id; Path=/" always; $logged return 200 "next=\$next\n"; }
    location /step/ { $next $logged return 200 "next=\$next\n"; }
  }
}
EOF
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
"$nginx_bin" -c "$ngx/nginx.conf" -g 'daemon off;' &
nginx_pid=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/test.txt" >/dev/null 2>&1 && break; sleep 0.1; done
size=$(curl -fs "http://127.0.0.1:$port/test.txt" | wc -c)
[[ $size == 18 ]] || fail "nginx did not serve the 18-byte /test.txt (see $ngx/error.log)"
base_url="http://127.0.0.1:$port"

# The timing log is on while a tool runs (its lines are cut to the window afterwards) and off between runs; nginx
# reloads the switch while no tool is connected. The reload is done when the old worker has exited too: until then
# it still accepts connections, and closes each after its first answer (wrk counted those as read errors).
set_logging() {
  echo "map \$msec \$in_window { default $1; }" > "$ngx/window.conf"
  [[ $1 == 0 ]] || : > "$ngx/window.log"
  local before p now old
  before=$(pgrep -P "$nginx_pid" | tr '\n' ' ' || true)
  kill -HUP "$nginx_pid"
  for _ in $(seq 100); do
    now=" $(pgrep -P "$nginx_pid" | tr '\n' ' ' || true) " old=
    for p in $before; do [[ $now == *" $p "* ]] && old=yes; done
    [[ -z $old && $now =~ [0-9] ]] && break
    sleep 0.1
  done
}
requests() { curl -fs "$base_url/status" | awk 'NR == 3 {print $3}'; }
ticks() { local v; v=$(awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || true); echo "${v:-0}"; }
nginx_ticks() { local t=0 p; for p in $(pgrep -P "$nginx_pid"); do t=$((t + $(ticks "$p"))); done; echo "$t"; }
busy_ticks() { awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat; }
hz=$(getconf CLK_TCK)
tree() {
  local p=$1 c
  echo "$p"
  for c in $(pgrep -P "$p"); do tree "$c"; done
}
# Every process of the tool: below its PID (the launcher, Maven, the forked JVM, Locust's master and workers,
# Tsung's controller VM) and those it detached (Tsung's client VMs, epmd).
tool_procs() { { [[ -z $tool_pid ]] || tree "$tool_pid"; marked; } | sort -un; }
# "ALL LOAD": the CPU ticks of all the tool's processes and of its load processes, read once per process so that
# the load processes' share is never above the whole.
tool_ticks() {
  local all=0 load=0 p t loads
  loads=" $(load_pids | tr '\n' ' ') "
  for p in $(tool_procs); do
    t=$(ticks "$p"); all=$((all + t))
    [[ $loads == *" $p "* ]] && load=$((load + t))
  done
  echo "$all $load"
}
# The processes that carry the load (their RSS is the tool's memory): the JMeter/Gatling JVM, not its launcher.
load_pids() {
  local p cmd
  for p in $(tool_procs); do
    cmd=$(tr '\0' ' ' 2>/dev/null < "/proc/$p/cmdline") || continue
    case "$current" in
      stampede|jmeter) [[ $cmd == *ApacheJMeter.jar* ]] && echo "$p" ;;
      gatling) [[ $cmd == *java* && $cmd == *io.gatling.app* ]] && echo "$p" ;;
      locust) [[ $cmd == *locust* && $cmd != *timeout* ]] && echo "$p" ;;
      tsung|tsung-dump) [[ $cmd == *beam* ]] && echo "$p" ;;
      wrk) [[ $cmd == wrk* ]] && echo "$p" ;;
    esac
  done
}
# A process that just ended (a zombie has no VmRSS line) counts 0.
rss_kb() {
  local t=0 p v
  for p in $(load_pids); do v=$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || true); t=$((t + ${v:-0})); done
  echo "$t"
}
jvm_pid() { [[ $current =~ ^(stampede|jmeter|gatling)$ ]] && load_pids | head -1; }
# Heap used after a full GC (KB) of a JVM, with the jcmd of the JVM's own Java; 0 when jcmd cannot attach (a JVM
# that is ending, or an attach that times out on a loaded machine): the row then shows no heap.
heap_kb() {
  local pid=$1 jcmd used= attempt
  jcmd="$(dirname "$(readlink -f "/proc/$pid/exe" 2>/dev/null || echo /usr/bin/java)")/jcmd"
  for attempt in 1 2; do
    if timeout 120 "$jcmd" "$pid" GC.run >> "$work/jcmd.log" 2>&1; then
      used=$(timeout 60 "$jcmd" "$pid" GC.heap_info 2>> "$work/jcmd.log" |
        awk '/used/ { for (i = 1; i < NF; i++) if ($i == "used") { v = $(i + 1); sub(/K.*/, "", v); print v; exit } }' || true)
      [[ -n $used ]] && break
    fi
  done
  echo "${used:-0}"
}
sleep_until() { local left=$(($1 * 1000 - $(date +%s%3N))); ((left <= 0)) || sleep "$((left / 1000)).$(printf '%03d' $((left % 1000)))"; }
newest_java() {
  local j
  for j in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -V -r); do
    "$j/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])' && { echo "${j%/}"; return; }
  done
}
java21=$(newest_java)

# --- the tools ----------------------------------------------------------------------------------------------------
# launch TOOL SCENARIO DIR LENGTH USERS DELAY RAMP: starts the tool in its own session, in the background, with
# load for LENGTH seconds from its first user; users start DELAY seconds after the tool is up (scenarios 2, 3).
launch() {
  local tool=$1 sc=$2 dir=$3 len=$4 n=$5 delay=$6 rmp=$7
  local cmd=()
  case "$tool/$sc" in
    wrk/1) cmd=(wrk -t"$(nproc)" -c"$n" -d"${len}s" --latency "$base_url/test.txt") ;;
    stampede/1) cmd=("$root/stampede" run "$root/plans/quickstart.jmx" --host 127.0.0.1 --port "$port" --no-dashboard
                     --out "$dir/out" -Jthreads="$n" -Jduration="$len" -Jrampup=1) ;;
    stampede/2|stampede/3|stampede/vu)
      local plan="$peers/stampede-stateful.jmx" sharing=thread
      [[ $sc == 3 ]] && plan="$peers/stampede-idle.jmx"
      # The virtual-users benchmark's own plan and pool, as VirtualUsersBenchmark runs it.
      [[ $sc == vu ]] && plan="$root/it/bench/virtual-users-bench.jmx" sharing=engine
      # Beyond what one socket per user allows, users share the engine's pool, as docs/virtual-users.md
      # recommends for 100,000 users.
      ((n > own_connections_max)) && sharing=engine
      cmd=("$root/stampede" run "$plan" --host 127.0.0.1 --port "$port" --no-dashboard --out "$dir/out"
           --heap "$heap" --java "$java21" -Jusers="$n" -Jrampup="$rmp" -Jdelay="$delay" -Jhold="$((len - rmp))"
           -Jloops=-1 -Jthink_ms="$think_ms" -Jstampede.connection_sharing="$sharing" -Jstampede.pool_size="$pool"
           -L jmeter.threads=WARN) ;;
    jmeter/*)
      local plan="$root/it/src/test/resources/plans/bench-stock-http.jmx" extra=()
      [[ $sc == 2 ]] && plan="$peers/stock-stateful.jmx"
      [[ $sc == 3 ]] && plan="$peers/stock-idle.jmx"
      [[ $sc != 1 ]] && extra=(-Jusers="$n" -Jrampup="$rmp" -Jdelay="$delay" -Jthink_ms="$think_ms"
                               -Ljmeter.threads=WARN)
      # The JVM options of JMeter 5.6.3's bin/jmeter script (HEAP, GC_ALGO, DUMP, SYSTEM_PROPS); the heap is the
      # benchmark's budget in scenarios 2 and 3.
      local jheap="-Xms1g -Xmx1g"
      [[ $sc != 1 ]] && jheap="-Xms1g -Xmx$heap"
      cmd=(java $jheap -XX:MaxMetaspaceSize=256m -XX:+UseG1GC -XX:MaxGCPauseMillis=100 -XX:G1ReservePercent=20
           -XX:+HeapDumpOnOutOfMemoryError -Djava.security.egd=file:/dev/urandom -jar "$jmeter_home/bin/ApacheJMeter.jar"
           -n -t "$plan" -l "$dir/results.jtl" -j "$dir/jmeter.log" -Jhost=127.0.0.1
           -Jport="$port" -Jthreads="$n" -Jduration="$((len + delay))" "${extra[@]}") ;;
    gatling/*)
      local sim=StatelessRate props=()
      [[ $sc == 2 ]] && sim=StatefulUsers
      [[ $sc == 3 ]] && sim=IdleConnections
      [[ $sc == vu ]] && sim=VirtualUsers
      [[ $sc != 1 ]] && props=(-Ddelay="$delay" -Dramp="$rmp" -DthinkMs="$think_ms"
                               "-Dgatling.jvmArgs=-Xms$heap,-Xmx$heap" -DshareConnections=$( ((n > own_connections_max)) && echo true || echo false))
      cmd=(mvn -B -f "$peers/gatling/pom.xml" gatling:test -Dgatling.simulationClass="io.stampede.peers.$sim"
           -Dgatling.resultsFolder="$dir/gatling" -DbaseUrl="$base_url" -Dusers="$n" -Dduration="$len"
           "${props[@]}") ;;
    locust/*)
      local class=StatelessUser files="$peers/locust/users.py" shape=()
      [[ $sc == 2 ]] && class=StatefulUser
      [[ $sc == 3 ]] && class=IdleUser
      # The master and its workers talk over loopback on a free port (the default, 5557 on every interface, may be
      # taken on a shared machine).
      local lport; lport=$(free_port)
      if [[ $sc == 1 ]]; then shape=(-u "$n" -r "$n" -t "${len}s"); else files+=",$peers/locust/delayed_shape.py"; fi
      cmd=(env USERS="$n" DELAY="$delay" RAMP="$rmp" DURATION="$len" THINK_MS="$think_ms"
           "$cache/locust-venv/bin/locust" -f "$files" --headless --processes -1 -H "$base_url" --csv "$dir/locust"
           --master-bind-host 127.0.0.1 --master-bind-port "$lport" --master-port "$lport"
           --only-summary --loglevel WARNING "${shape[@]}" "$class") ;;
    tsung/*|tsung-dump/*)
      # tsung-dump: the same run with the line per request Tsung writes where its manual advises for heavy loads
      # (dumptraffic="protocol_local", a file per client VM), for its percentiles; plain tsung writes none.
      local dump=false
      [[ $tool == tsung-dump ]] && dump=protocol_local
      tsung_config "$sc" "$dir" "$len" "$n" "$rmp" "$dump"
      # Erlang's name server on a port of its own, so this Tsung's node names meet no other Tsung's on the
      # machine; -n: no web dashboard (it listens on the fixed port 8091).
      cmd=(env ERL_EPMD_PORT="$(free_port)" tsung -n -f "$dir/tsung.xml" -l "$dir/log" start) ;;
    *) return 1 ;;
  esac
  (cd "$dir" && exec setsid env "$marker" "${cmd[@]}" > "$dir/out.log" 2>&1 < /dev/null) &
  tool_pid=$!
}

tsung_config() {
  local sc=$1 dir=$2 len=$3 n=$4 rmp=$5 dump=$6 body
  case "$sc" in
    1) body='<for from="1" to="2000000000" var="i"><request><http url="/test.txt" method="GET" version="1.1"/></request></for>' ;;
    2) body='<request><dyn_variable name="next" re="next=([^\n]+)"/><http url="/login" method="POST" version="1.1"
            contents="user=%%_tsung_userid%%&amp;password=secret" content_type="application/x-www-form-urlencoded"/></request>
          <for from="1" to="2000000000" var="i"><request subst="true"><dyn_variable name="next" re="next=([^\n]+)"/>
            <http url="/step/%%_next%%" method="GET" version="1.1"/></request><thinktime value="'$((think_ms / 1000))'" random="false"/></for>' ;;
    3) body='<for from="1" to="2000000000" var="i"><request><http url="/test.txt" method="GET" version="1.1"/></request>
            <thinktime value="'$((think_ms / 1000))'" random="false"/></for>' ;;
  esac
  # Users arrive at N / RAMP a second, at most N of them. The phase lasts 10 s longer than the ramp-up: Tsung stops
  # starting users when a phase ends, and its launcher falls behind the arrival rate on a busy machine.
  local rate=$(( (n + rmp - 1) / rmp ))
  cat > "$dir/tsung.xml" <<EOF
<?xml version="1.0"?>
<!DOCTYPE tsung SYSTEM "/usr/share/tsung/tsung-1.0.dtd">
<tsung loglevel="warning" dumptraffic="$dump" version="1.0">
  <clients><client host="$(hostname -s)" cpu="$(nproc)" maxusers="$((n + 10))"/></clients>
  <servers><server host="127.0.0.1" port="$port" type="tcp"/></servers>
  <load duration="$len" unit="second">
    <arrivalphase phase="1" duration="$((rmp + 10))" unit="second"><users maxnumber="$n" arrivalrate="$rate" unit="second"/></arrivalphase>
  </load>
  <sessions><session name="s$sc" probability="100" type="ts_http">$body</session></sessions>
</tsung>
EOF
}

# What the tool itself reported over its run: "p50 p99 errors" (ms; '-' where it reports none).
tool_report() {
  local tool=$1 dir=$2 w0=$3 w1=$4
  case "$tool" in
    wrk) awk '/^ +50%/ {p50 = $2} /^ +99%/ {p99 = $2} /Non-2xx/ {e += $NF} /Socket errors/ { gsub(/,/, ""); e += $4 + $6 + $8 + $10 }
              function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
              END { printf "%.1f %.1f %d\n", ms(p50), ms(p99), e }' "$dir/out.log" ;;
    stampede|jmeter)
      local jtl; jtl=$(ls "$dir"/out/*.jtl "$dir"/results.jtl 2>/dev/null | head -1)
      [[ -n $jtl ]] || { echo "- - ?"; return; }
      awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
               { print $c["elapsed"], ($c["success"] == "true" ? 0 : 1) }' "$jtl" | percentiles ;;
    gatling)
      # Gatling's console summary ("Global Information") of its whole run: columns Total | OK | KO.
      awk -F'|' 'function num(v) { gsub(/[ ,]/, "", v); return v == "-" ? 0 : v }
           /response time 50th percentile/ { p50 = num($2) } /response time 99th percentile/ { p99 = num($2) }
           /> request count/ { ko = num($4) }
           END { printf "%s %s %s\n", (p50 == "" ? "-" : p50), (p99 == "" ? "-" : p99), (ko == "" ? "?" : ko) }' "$dir/out.log" ;;
    locust)
      awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["Name"] == "Aggregated" {
                 print $c["50%"], $c["99%"], $c["Failure Count"] }' "$dir/locust_stats.csv" 2>/dev/null || echo "- - ?" ;;
    tsung|tsung-dump)
      # Errors: Tsung's error counters in its 10-s dumps of the window (the sessions its load duration cuts at the
      # end are not in the window). Percentiles (tsung-dump): from the line per request of dumptraffic
      # (date;pid;id;method;host;url;status;size;duration ms;...; tsung.dump, or tsung-N.dump per client VM), over
      # the whole run as for the other tools. Plain tsung reports none: the mean of the window's dumps stands in
      # both columns.
      local log dump counted
      log=$(find "$dir/log" -name tsung.log 2>/dev/null | head -1)
      dump=$(find "$dir/log" -name 'tsung*.dump' -size +0 2>/dev/null)
      [[ -n $log ]] || { echo "- - ?"; return; }
      counted=$(awk -v a="$3" -v b="$4" '/^# stats: dump at/ { t = $5; inw = t > a && t <= b + 10 }
           inw && /^stats: request / { n += $3; sum += $3 * $4 }
           inw && /^stats: error/ { e += $3 } inw && /^stats: [0-9][0-9][0-9] / && $2 !~ /^2/ { e += $3 }
           END { m = n > 0 ? sum / n : 0; printf "mean%.1f mean%.1f %d\n", m, m, e }' "$log")
      if [[ -n $dump ]]; then
        local p; p=$(awk -F';' '!/^#/ && NF >= 9 { print $9, 0 }' $dump | percentiles)
        echo "${p% *} ${counted##* }"
      else
        echo "$counted"
      fi ;;
  esac
}

# "p50 p99 errors" of lines "milliseconds failed(0|1)": nearest rank on the sorted times, as every tool's record
# that has one time per request is read (a JTL, Tsung's dump).
percentiles() {
  sort -g -k1,1 | awk '{ e[NR] = $1; err += $2 } END { if (NR == 0) { print "- - ?"; exit }
    print e[int((NR * 50 + 99) / 100)], e[int((NR * 99 + 99) / 100)], err }'
}

# nginx's view of the window [FROM, TO): "requests p50 p99 non2xx sessions" ($request_time in ms).
nginx_view() {
  awk -v a="$1" -v b="$2" '$1 >= a && $1 < b' "$ngx/window.log" | sort -n -k2,2 |
    awk '{ t[NR] = $2 * 1000; if ($3 >= 400) bad++; if ($4 ~ /^\/step\//) s[$5] = 1 }
      END { n = NR; if (n == 0) { print 0, "-", "-", 0, 0; exit }
            for (k in s) users++
            printf "%d %.0f %.0f %d %d\n", n, t[int((n * 50 + 99) / 100)], t[int((n * 99 + 99) / 100)], bad, users }'
}

# run_one TOOL SCENARIO ROUND: one run, one result line into $work/results.
run_one() {
  local tool=$1 sc=$2 round=$3
  current=$tool
  local n=${user_counts[1]}
  [[ $sc == vu ]] || n=${user_counts[$((sc - 1))]}
  [[ $tool == jmeter && $sc != 1 ]] && ((n > jmeter_users)) && n=$jmeter_users
  # Locust's and Tsung's users each keep a connection of their own (neither documents a way to share one): beyond
  # what nginx's one worker keeps open, their extra users could only fail.
  [[ $tool =~ ^(locust|tsung|tsung-dump)$ && $sc != 1 ]] && ((n > own_connections_max)) && n=$own_connections_max
  local dir="$work/s$sc-r$round-$tool"
  mkdir -p "$dir"
  # The tool's load lasts LEN seconds from its first request; its window is placed from that first request on, so
  # a slow start (Maven, a loaded machine) shifts the window instead of eating into it.
  local delay=0 rmp=1 lead win len
  if [[ $sc == 1 ]]; then
    win=${window:-35}; lead=$warmup; len=$((lead + win + 15))
  else
    win=${window:-60}; rmp=${ramp:-$((n / 1000 > 10 ? n / 1000 : 10))}
    # Locust spawns at most 100 users a second per worker, as its warning asks (faster, workers miss heartbeats).
    if [[ $tool == locust ]]; then
      local slowest=$(( (n + 100 * $(nproc) - 1) / (100 * $(nproc)) ))
      ((rmp >= slowest)) || rmp=$slowest
    fi
    lead=$((rmp + 10)); len=$((lead + win + 20))
    # Users start DELAY seconds after the tool is up, so its footprint without users can be read first (Tsung has
    # no such start: its footprint is read as its first requests arrive).
    delay=30
    [[ $tool == tsung* ]] && delay=0
  fi
  set_logging 1
  launch "$tool" "$sc" "$dir" "$len" "$n" "$delay" "$rmp"
  # Until the first request: the footprint before any user (RSS each second, heap after a full GC every 5 s).
  local base_rss=0 base_heap=0 jp t0= r_prev r_now i
  r_prev=$(requests)
  for ((i = 0; i < 600; i++)); do
    kill -0 "$tool_pid" 2>/dev/null || break
    r_now=$(requests)
    ((r_now > r_prev + 1)) && { t0=$(date +%s); break; }
    r_prev=$r_now
    if [[ $sc != 1 && -n $(load_pids) ]]; then
      base_rss=$(rss_kb)
      jp=$(jvm_pid || true)
      [[ -n $jp && $((i % 5)) == 4 ]] && base_heap=$(heap_kb "$jp")
    fi
    sleep 1
  done
  local note=ok
  if [[ -z $t0 ]]; then
    note=no-load; t0=$(date +%s)
  fi
  local ws=$((t0 + lead)) we=$((t0 + lead + win))
  sleep_until "$ws"
  local r0 c0 l0 n0 b0 r1 c1 l1 n1 b1 rss=0 heap=0 rss_run=0
  r0=$(requests); read -r c0 l0 <<< "$(tool_ticks)"; n0=$(nginx_ticks); b0=$(busy_ticks)
  jp=$(jvm_pid || true)
  if [[ -n $profile && -n $jp ]]; then
    jcmd "$jp" JVMTI.agent_load "$agent" "\"start,event=cpu,interval=1ms\"" >/dev/null 2>&1 || true
  fi
  sleep_until "$we"
  r1=$(requests); read -r c1 l1 <<< "$(tool_ticks)"; n1=$(nginx_ticks); b1=$(busy_ticks)
  rss_run=$(rss_kb)
  if [[ -n $profile && -n $jp ]]; then
    jcmd "$jp" JVMTI.agent_load "$agent" "\"stop,file=$profile/s$sc-r$round-$tool.collapsed\"" >/dev/null 2>&1 || true
  fi
  kill -0 "$tool_pid" 2>/dev/null || note=ended-before-window-end
  if [[ -n $jp ]] && kill -0 "$jp" 2>/dev/null; then heap=$(heap_kb "$jp"); fi
  # The run ends by itself; a tool that overruns its load by two minutes is stopped.
  local deadline=$(($(date +%s) + len + 120))
  while kill -0 "$tool_pid" 2>/dev/null && (($(date +%s) < deadline)); do sleep 1; done
  kill -0 "$tool_pid" 2>/dev/null && note=overran
  stop_tool
  set_logging 0
  local view rep
  view=$(nginx_view "$ws" "$we"); rep=$(tool_report "$tool" "$dir" "$ws" "$we")
  cp "$ngx/window.log" "$dir/" 2>/dev/null || true
  # Gatling writes its report into the project's target/gatling whatever the results folder given.
  if [[ $tool == gatling ]]; then mv "$peers/gatling/target/gatling" "$dir/report" 2>/dev/null || true; fi
  local line
  line=$(awk -v tool="$tool" -v sc="$sc" -v round="$round" -v n="$n" -v ms="$(( (we - ws) * 1000 ))" \
      -v req=$((r1 - r0 - 1)) -v ct=$((c1 - c0)) -v lt=$((l1 - l0)) -v nt=$((n1 - n0)) -v bt=$((b1 - b0)) -v hz="$hz" \
      -v rssrun="${rss_run:-0}" -v heap="${heap:-0}" -v brss="${base_rss:-0}" -v bheap="${base_heap:-0}" \
      -v view="$view" -v rep="$rep" -v note="$note" 'BEGIN {
        split(view, v, " "); split(rep, r, " "); s = ms / 1000
        rate = req / s; cpu = req > 0 ? ct / hz * 1e6 / req : 0
        err = (r[3] == "?" ? 0 : r[3]) + v[4]
        held = sc == 2 || sc == "vu" ? v[5] : n
        # Memory per user: above the footprint before the first user (scenarios 2, 3).
        rpu = held > 0 && sc != 1 && brss > 0 ? (rssrun - brss) / held : 0
        hpu = held > 0 && sc != 1 && heap > 0 && bheap > 0 ? (heap - bheap) / held : 0
        lcpu = req > 0 ? lt / hz * 1e6 / req : 0
        printf "%s %s %s %d %.0f %.1f %.2f %.0f %.0f %.1f %.1f %s %s %s %s %d %s %.2f %.2f %s %.1f\n", sc, round, tool, n, rate,
          cpu, ct / hz / s, rssrun / 1024, heap / 1024, rpu, hpu, r[1], r[2], v[2], v[3], err, held, nt / hz / s,
          (bt - ct - nt) / hz / s, note, lcpu }')
  echo "$line" >> "$work/results"
  print_line $line
  if [[ -n $keep ]]; then mkdir -p "$keep" && cp -r "$dir" "$keep/" && cp "$work/jcmd.log" "$keep/" 2>/dev/null || true; fi
  rm -rf "$dir"
  sleep 3
}

header() {
  printf '%-2s %-2s %-10s %7s %8s %8s %6s %8s %8s %8s %8s %8s %8s %6s %6s %6s %7s %6s %6s %-8s %s\n' sc rd tool users req/s \
    'CPU_us/r' cores 'RSS_MB' 'heap_MB' 'RSS_KB/u' 'heap_KB/u' 'p50' 'p99' 'ngx50' 'ngx99' errors held nginx other note 'load_us/r' 
}
print_line() {
  printf '%-2s %-2s %-10s %7s %8s %8s %6s %8s %8s %8s %8s %8s %8s %6s %6s %6s %7s %6s %6s %-8s %s\n' "$@"
}

echo "nginx on $base_url (1 worker, /test.txt $size bytes); scenarios $scenarios, tools $tools, $rounds rounds," \
  "users $users (stock JMeter at most $jmeter_users in 2 and 3), think $think_ms ms; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(p50/p99: ms as the tool reports them over its run; ngx50/ngx99: nginx's \$request_time in the window, ms;" \
  "RSS and heap per user: above the tool before its first user; heap after a full GC)"
header
IFS=, read -r -a scenario_list <<< "$scenarios"
for sc in "${scenario_list[@]}"; do
  order=()
  for t in "${tool_list[@]}"; do
    [[ $t == wrk && $sc != 1 ]] && continue
    [[ $sc == vu && $t != stampede && $t != gatling ]] && continue
    order+=("$t")
  done
  ((${#order[@]})) || continue
  for ((r = 1; r <= rounds; r++)); do
    # Rotate the order so that each tool goes first in turn.
    k=$(( (r - 1) % ${#order[@]} ))
    for ((i = 0; i < ${#order[@]}; i++)); do
      run_one "${order[$(( (i + k) % ${#order[@]} ))]}" "$sc" "$r"
    done
  done
done

echo
echo "Medians over the rounds (rows with errors or a run that did not cover its window are left out of the median):"
for sc in "${scenario_list[@]}"; do
  echo
  echo "scenario $sc"
  echo "| tool | users | req/s | CPU µs/request (all its processes; the load process alone) | RSS MB | heap MB (after full GC) | RSS KB/user | heap KB/user | p50 / p99 ms (tool) | p50 / p99 ms (nginx) | errors | rounds counted |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  for t in "${tool_list[@]}"; do
    awk -v sc="$sc" -v t="$t" '$1 == sc && $3 == t' "$work/results" | sort -n -k6,6 | awk '
      { all++; errs += $16; if ($16 == 0 && $20 == "ok") { n++; rate[n] = $5; cpu[n] = $6 "; " $21; rss[n] = $8; heap[n] = $9; ru[n] = $10; hu[n] = $11; p[n] = $12 " / " $13; q[n] = $14 " / " $15; users = $17 } }
      function med(a) { return a[int((n + 1) / 2)] }
      END {
        if (all == 0) exit
        if (n == 0) { printf "| %s | | | | | | | | | | %d | 0 of %d |\n", t, errs, all; exit }
        # CPU sorted ascending (the input order); the other columns are those of the median-CPU run.
        m = int((n + 1) / 2)
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | 0 | %d of %d |\n", t, users, rate[m], cpu[m], rss[m], (heap[m] > 0 ? heap[m] : "-"), (ru[m] > 0 ? ru[m] : "-"), (hu[m] > 0 ? hu[m] : "-"), p[m], q[m], n, all
        split(cpu[m], c, ";")
        printf "%s %s %s %s %s\n", sc, t, hu[m], ru[m], c[1] >> medians
      }' t="$t" sc="$sc" medians="$work/medians"
  done
  # The gap to each other JVM tool, quoted whatever it is: Stampede's median row over the other's.
  awk -v sc="$sc" '$1 == sc { h[$2] = $3; r[$2] = $4; c[$2] = $5 }
    function ratio(a, b) { return a > 0 && b > 0 ? sprintf("%.2fx", a / b) : "-" }
    END { if (!("stampede" in h)) exit
          for (t in h) if (t != "stampede" && (t == "gatling" || t == "jmeter"))
            printf "Stampede / %s: heap per user %s, RSS per user %s, CPU per request %s\n", t, ratio(h["stampede"], h[t]),
              ratio(r["stampede"], r[t]), ratio(c["stampede"], c[t]) }' "$work/medians" 2>/dev/null || true
done
echo
echo "every run: $work/results (removed at exit; copy it with --keep DIR)"
[[ -z $keep ]] || cp "$work/results" "$keep/results.txt"
exit
}
