#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0.
#
# Distributed benchmark: N engines on this machine hold keep-alive connections to a throwaway nginx, each engine
# below the per-process file limit: N `stampede server` engines and one controller (`stampede run --remote`), or
# with --shares N independent `stampede run --share I/N` processes started together (no controller) whose results
# folders `stampede merge` joins. Prints the peak of concurrent connections nginx saw, req/s and latency
# percentiles per 30-s window and for the steady state (the windows after the ramp-up; with --shares from the
# merged result), errors, nginx's own warnings and accepted connections, where the CPU went, and marks the run
# INVALID when nginx closed or reused connections (then nginx, not the injector, was the limit). Whether connections
# were reopened is judged from the JTL: each thread's samples with a connect time (Connect > 0) against the K
# connections it holds; more is a reopened connection, fewer in all than planned is a connection never opened.
# nginx's accept counter beyond the plan is printed for information only, not judged: it also counts accepts no
# injector's sample accounts for.
#
#   it/bench/distributed-benchmark.sh [--shares] [--engines N] [--connections-per-engine C]
#                                     [--connections-per-thread K] [--duration S] [--rampup S] [--think-ms MS]
#                                     [--heap SIZE] [--jfr] [--sender stampede|jmeter|jmeter-batch]
#                                     [--start-in S]
#
# The plan runs N x C/K JMeter threads in all, C/K per engine (each engine runs its share of the plan); each thread
# keeps K connections (stampede.connections_per_thread), each paced at one request per think time. --jfr records a
# profile of engine 0's JMeter (work dir/engine-0.jfr). --sender (controller mode only) picks how results travel
# back: stampede (run's default: Stampede's compact sender), jmeter (StrippedAsynch, queue 100,000: JMeter's
# fastest own sender) or jmeter-batch (StrippedBatch, 1,000 samples or 2 s: run's default before the compact
# sender), to compare them in the same setup. With --shares each engine writes its own JTL and no result travels,
# and the shares start their thread groups together (stampede run --start-at), --start-in S seconds after they were
# launched (default 30 + 10 per share: each share's two JVMs take about 10 s of CPU to start): as with the engines of
# the controller mode, every JMeter is up before any ramps up, and the figures (CPU included) count from then.
# Traffic stays on loopback.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

engines=4 per_engine=2000 per_thread=1 duration=60 rampup=20 think_ms=1000 heap=1g jfr=0 sender_kind=stampede
shares=0 sender_given=0 start_in=""
while (($#)); do
  case "$1" in
    --jfr) jfr=1; shift; continue ;;
    --shares) shares=1; shift; continue ;;
    --engines) engines=$2 ;;
    --connections-per-engine) per_engine=$2 ;;
    --connections-per-thread) per_thread=$2 ;;
    --duration) duration=$2 ;;
    --rampup) rampup=$2 ;;
    --think-ms) think_ms=$2 ;;
    --heap) heap=$2 ;;
    --sender) sender_kind=$2; sender_given=1 ;;
    --start-in) start_in=$2 ;;
    -h|--help) bench_usage; exit 0 ;;
    *) echo "distributed-benchmark: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift 2 || { echo "distributed-benchmark: $1 needs a value" >&2; exit 2; }
done
for v in engines per_engine per_thread duration think_ms; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "distributed-benchmark: --${v//_/-} ${!v}: give a whole number of at least 1" >&2; exit 2; }
done
[[ $sender_kind =~ ^(stampede|jmeter|jmeter-batch)$ ]] || { echo "distributed-benchmark: --sender $sender_kind: give stampede, jmeter or jmeter-batch" >&2; exit 2; }
[[ -z $start_in ]] || ((shares)) || { echo "distributed-benchmark: --start-in is for --shares (the controller starts the engines together)" >&2; exit 2; }
[[ -z $start_in || $start_in =~ ^[1-9][0-9]*$ ]] || { echo "distributed-benchmark: --start-in $start_in: give a whole number of seconds" >&2; exit 2; }
((shares && sender_given)) && { echo "distributed-benchmark: --sender is for the controller mode: with --shares no result travels (each share writes its own JTL); leave one of them out" >&2; exit 2; }
[[ $rampup =~ ^[0-9]+$ ]] || { echo "distributed-benchmark: --rampup $rampup: give a whole number of seconds" >&2; exit 2; }
((rampup < duration)) || { echo "distributed-benchmark: --rampup $rampup must be shorter than --duration $duration" >&2; exit 2; }
((per_engine % per_thread == 0)) || { echo "distributed-benchmark: --connections-per-engine $per_engine is not a multiple of --connections-per-thread $per_thread" >&2; exit 2; }
limit=$(ulimit -n)
# An engine also holds ~300 files of its own (jars, logs, RMI sockets).
((per_engine + 500 < limit)) || { echo "distributed-benchmark: --connections-per-engine $per_engine does not fit the per-process file limit $limit (ulimit -n) with 500 to spare: use more engines" >&2; exit 2; }

threads=$((per_engine / per_thread))
total=$((engines * per_engine))
# The plan's whole load: both modes divide it into one share per engine (--remote does by default).
plan_threads=$((engines * threads))
# One loopback destination (address, port) offers one source port per connection from ip_local_port_range (~28k),
# and connect() looks for a free one by walking the range: once a destination holds more than about half of it
# (connect prefers every other port), each new connect scans thousands of busy ports in the kernel. A profile of
# the 102,000-connection run with 5 ports (20,400 per destination) showed JMeter threads inside connect() for
# minutes during the ramp-up. So nginx listens on one port per 5,000 connections; thread N of every engine uses
# port base + N % ports, so there are at most as many ports as threads per engine.
ports=$(( (total + 4999) / 5000 ))
((ports <= threads)) || ports=$threads
per_destination=$(( (threads + ports - 1) / ports * per_thread * engines ))
# Each nginx worker also stays below the file limit. With reuseport the kernel spreads new connections evenly over
# the workers (without it one worker can take most of them, reach worker_connections and start closing idle
# keep-alive connections: "worker_connections are not enough, reusing connections"), and twice the workers needed
# keeps every worker at about half its worker_connections.
worker_conns=$((limit - 1000))
workers=$(( (2 * total + worker_conns - 1) / worker_conns ))
((workers >= 2)) || workers=2

work=$(mktemp -d /tmp/stampede-dbench.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do
    pkill -KILL -P "$p" 2>/dev/null || true
    kill -KILL "$p" 2>/dev/null || true
  done
  [[ -n ${nginx_pid:-} ]] && kill -TERM "$nginx_pid" 2>/dev/null || true
  [[ -n ${monitor_pid:-} ]] && kill "$monitor_pid" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

free_port_block() { # $1 ports in a row, none listening
  local n=$1 base
  for _ in $(seq 1 50); do
    base=$((20000 + RANDOM % 10000))
    local busy=0
    for ((p = base; p < base + n + 1 + 2 * engines; p++)); do
      ss -Hltn "sport = :$p" | grep -q . && { busy=1; break; }
    done
    ((busy)) || { echo "$base"; return; }
  done
  echo "distributed-benchmark: no free port block found" >&2; exit 3
}
base=$(free_port_block "$ports")
last=$((base + ports - 1))
status_port=$((last + 1))

# --- nginx --------------------------------------------------------------------------------------------------------
mkdir -p "$work/html" "$work/temp"
printf 'Hello, Stampede!!\n' >"$work/html/test.txt"
{
  [[ $(id -u) -eq 0 ]] && echo "user root;"
  echo "worker_processes $workers;"
  echo "worker_rlimit_nofile $((limit - 100));"
  echo "pid $work/nginx.pid; error_log $work/error.log warn;"
  echo "events { worker_connections $worker_conns; multi_accept on; }"
  echo "http { access_log off; sendfile on; tcp_nodelay on; keepalive_requests 100000000; keepalive_timeout 300s;"
  echo "  client_body_temp_path $work/temp/b; proxy_temp_path $work/temp/p; fastcgi_temp_path $work/temp/f;"
  echo "  uwsgi_temp_path $work/temp/u; scgi_temp_path $work/temp/s; types { text/plain txt; }"
  echo "  server {"
  for ((p = base; p <= last; p++)); do echo "    listen 127.0.0.1:$p reuseport backlog=65535;"; done
  echo "    root $work/html; }"
  echo "  server { listen 127.0.0.1:$status_port; location = /status { stub_status; } }"
  echo "}"
} >"$work/nginx.conf"
# nginx runs in a session of its own, as every JMeter does (stampede run and stampede server start it with setsid):
# with the kernel's autogroup scheduling (sched_autogroup_enabled, on in Debian's kernels) a session is one group
# of CPU time, so nginx would otherwise share one group's time with every other process of this script, the
# shares' own `stampede run` processes included, while each injector's JMeter has a group to itself.
setsid /usr/sbin/nginx -p "$work/" -e "$work/error.log" -c "$work/nginx.conf" -g 'daemon off;' >"$work/nginx.out" 2>&1 &
nginx_pid=$!
sleep 1
[[ -s $work/nginx.pid ]] && nginx_pid=$(cat "$work/nginx.pid")
kill -0 "$nginx_pid" 2>/dev/null || { echo "distributed-benchmark: nginx did not start:"; cat "$work/error.log" "$work/nginx.out"; exit 3; }

# --- engines ------------------------------------------------------------------------------------------------------
"$root/stampede" --version >/dev/null   # builds once, before the engines start in parallel
remote=()
for ((i = 0; i < engines && !shares; i++)); do
  rp=$((status_port + 1 + 2 * i))
  "$root/stampede" server --port "$rp" --rmi-port "$((rp + 1))" --heap "$heap" --log "$work/engine-$i.log" \
    >"$work/engine-$i.out" 2>&1 &
  pids+=($!)
  remote+=("127.0.0.1:$rp")
done
for ((i = 0; i < engines && !shares; i++)); do
  for _ in $(seq 1 240); do
    grep -q "stampede server: ready" "$work/engine-$i.out" && break
    kill -0 "${pids[$i]}" 2>/dev/null || { echo "distributed-benchmark: engine $i died:"; cat "$work/engine-$i.out"; exit 3; }
    sleep 0.5
  done
  grep -q "stampede server: ready" "$work/engine-$i.out" || { echo "distributed-benchmark: engine $i not ready in 120 s"; exit 3; }
done
# The engines' processes (`stampede server`, or each share's `stampede run`), from a file: the monitor below is
# forked before the shares start. Each engine's JMeter is their child (both exec their JVM).
printf '%s\n' "${pids[@]}" >"$work/pids"
engine_pids() { cat "$work/pids"; }
engine_jvms() { for p in $(engine_pids); do pgrep -P "$p" -f ApacheJMeter.jar || true; done; }
# CPU time (clock ticks) a process and its children have used, 0 once it is gone.
ticks() { local t=0 p; for p in "$@"; do
  [[ -r /proc/$p/stat ]] && t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0))); done; echo "$t"; }
nginx_pids() { echo "$nginx_pid"; pgrep -P "$nginx_pid" || true; }
# The controller: `stampede run` (progress, JTL statistics) and its JMeter (RMI, JTL writing). With --shares there
# is none: the shares' own `stampede run` processes (progress, JTL statistics) are counted in its place.
controller_pids() { local c
  if ((shares)); then engine_pids; return; fi
  for c in $(pgrep -f -- "-jar .* run $root/it/bench/distributed-hold.jmx" || true); do
    echo "$c"; pgrep -P "$c" || true; done; }
start_jfr() { # A profile of engine 0 for the whole run: where an engine's CPU goes and how long it stops for GC.
  local j=""
  for _ in $(seq 1 240); do j=$(pgrep -P "${pids[0]}" -f ApacheJMeter.jar | head -1); [[ -n $j ]] && break; sleep 0.5; done
  jcmd "$j" JFR.start name=bench settings=profile dumponexit=true filename="$work/engine-0.jfr" \
    >"$work/jfr.out" 2>&1 || echo "distributed-benchmark: could not start JFR on engine 0 (see $work/jfr.out)"
}
((jfr && !shares)) && start_jfr

# --- monitor: peak established connections on nginx's side, and the engines' open files ----------------------------
# With --shares it starts counting when the shares' thread groups start, as the engines are up before the test.
((shares)) && start_epoch=$(( $(date +%s) + ${start_in:-$((30 + 10 * engines))} ))
(
  if ((shares)); then wait_s=$((start_epoch - $(date +%s))); ((wait_s <= 0)) || sleep "$wait_s"; fi
  peak=0 peak_fds=0 polls=0; declare -A last_ticks first_ticks
  cpu0=$(awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat)
  idle0=$(awk '/^cpu / { print $5 + $6 }' /proc/stat)
  while sleep 2 && [[ ! -e $work/monitor.stop ]]; do
    # Per-process CPU is read while the processes live (the engines exit at the end): keep the last figure of each.
    for j in $(engine_jvms); do t=$(ticks "$j"); ((t > 0)) && last_ticks[e$j]=$t; done
    for j in $(controller_pids); do t=$(ticks "$j"); ((t > 0)) && last_ticks[c$j]=$t; done
    for j in $(nginx_pids); do t=$(ticks "$j"); ((t > 0)) && last_ticks[n$j]=$t; done
    e=0 ng=0 ct=0
    for k in "${!last_ticks[@]}"; do
      [[ -n ${first_ticks[$k]:-} ]] || first_ticks[$k]=${last_ticks[$k]}
      d=$((last_ticks[$k] - first_ticks[$k]))
      case $k in e*) e=$((e + d)) ;; c*) ct=$((ct + d)) ;; *) ng=$((ng + d)) ;; esac
    done
    cpu=$(awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat)
    idle=$(awk '/^cpu / { print $5 + $6 }' /proc/stat)
    echo "$e $ng $((cpu - cpu0)) $((idle - idle0)) $ct" >"$work/cpu"
    # nginx's own count (stub_status "Active connections", less this request): listing 100,000 sockets with ss
    # every 2 s would cost the machine more CPU than the injectors' requests.
    polls=$((polls + 1))
    n=$(curl -s --max-time 2 "http://127.0.0.1:$status_port/status" | awk '/^Active connections/ { print $3 - 1 }' || true)
    n=${n:-0}
    ((n > peak)) && peak=$n
    for j in $(engine_jvms); do
      f=$(ls "/proc/$j/fd" 2>/dev/null | wc -l)
      ((f > peak_fds)) && peak_fds=$f
    done
    echo "$peak $peak_fds $n $polls" >"$work/monitor"
  done
) &
monitor_pid=$!

# The steady state starts once the last thread has started (ramp-up) and opened all its connections, which a paced
# thread spreads over one pacing interval.
steady_after=$((rampup + (per_thread > 1 ? think_ms / 1000 : 0)))
if ((shares)); then how="$engines independent shares (stampede run --share I/$engines), merged afterwards"; else
  how="a controller; results sent by the $sender_kind sender"; fi
echo "distributed-benchmark: $engines engines x $per_engine connections ($threads threads x $per_thread) = $total connections; $how"
# One connection per thread: a JMeter timer paces the thread. Several: each connection is paced by the sampler
# (stampede.pacing_ms), since a timer would pace the thread's results, not its connections.
if ((per_thread > 1)); then pace=(-J pacing_ms="$think_ms" -J think_ms=0); else pace=(-J think_ms="$think_ms"); fi
# Results travel from a sender thread of their own on each engine, so that no sampling thread serializes a batch and
# waits for the controller while its connections' responses wait (issue 20). stampede run's default is Stampede's
# compact sender; --sender jmeter asks for JMeter's StrippedAsynch with a queue of 20 s of samples at 5,000/s
# (JMeter's default serialization; its end of test can lose the last samples).
case $sender_kind in
  jmeter) sender=(-J mode=StrippedAsynch -J asynch.batch.queue.size=100000) ;;
  jmeter-batch) sender=(-J mode=StrippedBatch) ;;
  *) sender=() ;;
esac
echo "distributed-benchmark: up to $per_destination connections per destination port (local port range: $(sysctl -n net.ipv4.ip_local_port_range | tr '\t' '-'))"
echo "distributed-benchmark: nginx ($workers workers) on 127.0.0.1:$base..$last; ${duration}s, ramp-up ${rampup}s, think ${think_ms} ms; work dir $work"
plan=(-J ports="$ports" -J threads="$plan_threads" -J duration="$duration" -J rampup="$rampup"
  -J stampede.connections_per_thread="$per_thread" "${pace[@]}")
set +e
if ((shares)); then
  # Launched together, as the injectors of docs/injectors.md, with their thread groups started at one moment.
  start_at=$(date -u -d "@$start_epoch" +%Y-%m-%dT%H:%M:%SZ)
  echo "distributed-benchmark: the shares' thread groups start at $start_at"
  for ((i = 1; i <= engines; i++)); do
    "$root/stampede" run "$root/it/bench/distributed-hold.jmx" --share "$i/$engines" --start-at "$start_at" \
      --host 127.0.0.1 --port "$base" \
      "${plan[@]}" --server-log "$work/error.log" --steady-after "$steady_after" --no-dashboard --heap "$heap" \
      --out "$work/share-$i" >"$work/share-$i.out" 2>&1 &
    pids+=($!)
  done
  printf '%s\n' "${pids[@]}" >"$work/pids"
  ((jfr)) && start_jfr
  echo "distributed-benchmark: shares running; share 1's console follows, every share's is in $work/share-I.out"
  tail -n +1 -f --pid="${pids[0]}" "$work/share-1.out" &
  tail_pid=$!
  exits=()
  for p in "${pids[@]}"; do wait "$p"; exits+=($?); done
  wait "$tail_pid" 2>/dev/null
  status=0
  for e in "${exits[@]}"; do ((e == 0)) || { status=$e; break; }; done
  share_folders=()
  for ((i = 1; i <= engines; i++)); do share_folders+=("$work/share-$i"); done
  "$root/stampede" merge "${share_folders[@]}" -o "$work/results" --steady-after "$steady_after" --no-dashboard \
    | tee "$work/run.out"
  merge_status=${PIPESTATUS[0]}
  ((status != 0)) || status=$merge_status
else
  "$root/stampede" run "$root/it/bench/distributed-hold.jmx" --remote "$(IFS=,; echo "${remote[*]}")" --remote-exit \
    --host 127.0.0.1 --port "$base" "${plan[@]}" \
    --server-log "$work/error.log" --steady-after "$steady_after" "${sender[@]}" \
    --no-dashboard --heap 2g --out "$work/results" | tee "$work/run.out"
  status=${PIPESTATUS[0]}
fi
set -e
# The monitor ends its loop before its figures are read: a status request made after the read would count as a
# reopened connection.
touch "$work/monitor.stop"; wait "$monitor_pid" 2>/dev/null || true; monitor_pid=
read -r peak peak_fds _ polls <"$work/monitor" || { peak=0; peak_fds=0; polls=0; }
# nginx's own count of connections it accepted: more than planned means connections were closed and reopened.
accepted=$(curl -s --max-time 5 "http://127.0.0.1:$status_port/status" | awk 'f && !n { n = $1 } /accepts/ { f = 1 } END { print n + 0 }' || true)
accepted=${accepted:-0}
# ...less the reachability probe of each stampede run (the controller, or every share), the monitor's status requests
# and this one. Informational only: twice it counted 1 accept beyond the plan while the JTL had exactly one connect
# per connection, so the verdict is the JTL's.
probes=$(( (shares ? engines : 1) + 1 + ${polls:-0}))
nginx_extra=$((accepted - probes > total ? accepted - probes - total : 0))

jtl="$work/results/results.jtl"
# The verdict on reopened connections: every sample that opened its connection has a connect time (Stampede's
# samplers record at least 1 ms for one), so a thread holding K connections has exactly K; a thread with more reopened
# one. Read as CSV (a failure message may hold a quoted comma).
read -r jtl_connects jtl_threads reopened <<<"$(/usr/bin/python3 - "$jtl" "$per_thread" <<'PY' 2>/dev/null || echo "0 0 0"
import collections, csv, sys
per_thread = int(sys.argv[2])
connects = collections.Counter()
with open(sys.argv[1], newline="") as f:
    rows = csv.reader(f)
    header = next(rows)
    thread, connect = header.index("threadName"), header.index("Connect")
    for row in rows:
        if len(row) > connect and row[connect].isdigit() and int(row[connect]) > 0:
            connects[row[thread]] += 1
print(sum(connects.values()), len(connects), sum(max(0, n - per_thread) for n in connects.values()))
PY
)"
# Connections the server closed under a request (our samplers' PrematureCloseException, or a reset).
# (from the summary's errors by kind)
server_closed=$( (grep -E "^    (connection closed before the response was complete|connection reset) " "$work/run.out" || true) \
  | awk '{ gsub(",", "", $NF); n += $NF } END { print n + 0 }')
reusing=$(grep -c "reusing connections" "$work/error.log" || true)
not_enough=$( (grep "worker_connections are not enough" "$work/error.log" || true) | grep -vc "reusing connections" || true)
engine_names=$(awk -F, 'NR > 1 { split($6, a, "-"); seen[a[1]] = 1 } END { for (k in seen) n++; print n + 0 }' "$jtl" 2>/dev/null || echo 0)

echo
echo "=== distributed benchmark ==="
if ((shares)); then
  echo "engines                 $engines independent shares, merged (samples from $engine_names of them), $threads threads x $per_thread connection(s) each"
else
  echo "engines                 $engines (samples from $engine_names of them), $threads threads x $per_thread connection(s) each"
fi
echo "connections (target)    $total"
echo "connections (peak seen) $peak open in nginx (stub_status, sampled every 2 s)"
echo "engine open files, max  $peak_fds (limit $limit)"
# (with --shares: the merged summary, which has the same lines)
grep -E "^  (samples|latency|errors) " "$work/run.out" | sed 's/^  /whole run               /' || true
echo "per 30-s window (the steady state counts, the whole run does not):"
sed -n '/^  per 30-s window/,/^  [a-z]/p' "$work/run.out" | grep -E "^    " || true
grep -E "^  steady " "$work/run.out" | sed 's/^  steady     /steady state            /' || echo "steady state            none"
echo "nginx                   $workers workers x $worker_conns worker_connections, reuseport on $ports port(s); accepted $accepted connections (planned $total + $probes probes)"
echo "nginx warnings          $reusing \"reusing connections\", $not_enough other \"worker_connections are not enough\""
echo "server-side closes      $server_closed samples closed early or reset"
echo "connects (JTL, verdict) $jtl_connects samples opened a connection, in $jtl_threads of $plan_threads threads ($per_thread each expected, $total in all); $reopened connections reopened"
echo "nginx accepts (info)    $nginx_extra beyond the plan and the probes (not judged: the JTL's connects above are)"
if read -r cpu_e cpu_n cpu_all cpu_idle cpu_c <"$work/cpu" 2>/dev/null && ((cpu_all > 0)); then
  cores=$(nproc)
  awk -v e="$cpu_e" -v n="$cpu_n" -v a="$cpu_all" -v i="$cpu_idle" -v c="$cores" -v k="${cpu_c:-0}" \
    -v label="$( ((shares)) && echo "shares' stampede run" || echo controller)" 'BEGIN {
    printf "cpu (cores of %d, run)  engines %.2f, %s %.2f, nginx %.2f, rest (softirq, monitor, others) %.2f, idle %.2f\n",
      c, e / a * c, label, k / a * c, n / a * c, (a - i - e - n - k) / a * c, i / a * c }'
  # Cores depend on what else the machine ran; the engines' own CPU time per sample much less so, which makes it the
  # figure to compare rounds of a shared machine by.
  samples=$(grep -m1 -E "^  samples " "$work/run.out" | awk '{ gsub(",", "", $2); print $2 + 0 }')
  ((${samples:-0} > 0)) && awk -v e="$cpu_e" -v hz="$(getconf CLK_TCK)" -v s="$samples" 'BEGIN {
    printf "engine cpu per sample   %.0f us (the engines'"'"' CPU time over the run, connects included, / %d samples)\n",
      e / hz * 1e6 / s, s }'
fi
((jfr)) && echo "profile of engine 0     $work/engine-0.jfr (jfr print --events jdk.GarbageCollection / jdk.ExecutionSample)"
invalid=()
((reusing == 0)) || invalid+=("nginx reused (closed) connections $reusing times")
((not_enough == 0)) || invalid+=("nginx ran out of worker_connections $not_enough times")
((server_closed == 0)) || invalid+=("$server_closed samples failed on connections the server closed")
((reopened == 0)) || invalid+=("$reopened connections were reopened (JTL: threads with more connects than their $per_thread)")
((jtl_connects >= total)) || invalid+=("the JTL shows $jtl_connects of the $total connections opened")
((status == 0)) || invalid+=("a stampede run or the merge exited $status (see its console in $work)")
((peak >= total)) || invalid+=("nginx saw at most $peak of the $total connections open")
((engine_names >= engines)) || invalid+=("samples came from $engine_names of the $engines engines")
if ((${#invalid[@]})); then
  echo "run                     INVALID: $(IFS=';'; echo "${invalid[*]}" | sed 's/;/; /g') (these figures do not show what the injectors can hold: a limit of nginx, or connections nginx closed while an injector stalled; see the windows)"
else
  echo "run                     valid: every engine ran and held its connections; no connection reused, closed or reopened by nginx"
fi
if ((shares)); then
  echo "shares' exits, merge    ${exits[*]}, merge $merge_status; merged results in $work/results, each share's in $work/share-I"
  late=$( (grep -l "JMeter was ready" "$work"/share-*/jmeter.log 2>/dev/null || true) | wc -l)
  echo "shares' start           all at $start_at; $late share(s) late (JMeter up after it: give a longer --start-in)"
else
  echo "stampede run exit       $status; results in $work"
fi
exit "$status"
