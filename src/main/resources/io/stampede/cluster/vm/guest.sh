#!/bin/bash
# The guest's PID 1 for one run of the VM lab (stampede cluster lab --vm) or of validate --vm, in the real Debian
# root on Debian's kernel with IPVS. It reads the run's settings from run.env beside it and reports to the host
# on the serial console in lines that start with "STL ". Nothing here survives the run: the root disk is a qemu
# snapshot and the machine powers off at the end, whatever happens.
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C
RUN=$(dirname "$(realpath "$0")")
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t tmpfs run /run
# devtmpfs has no /dev/fd, which bash's <(...) needs
[[ -e /dev/fd ]] || ln -s /proc/self/fd /dev/fd
mkdir -p /run/netns /run/lock /var/run
echo 1 > /proc/sys/kernel/sysrq
# shellcheck source=/dev/null
. "$RUN/run.env"

exec 9>&1   # the console: reports go there even from functions whose output is captured
say() { echo "STL $*" >&9; }
finish() {
  # subshells inherit this trap; only the guest's first process (this script) ends the run
  (( BASHPID == 1 )) || return 0
  say "END"
  echo o > /proc/sysrq-trigger
  sleep 10
}
trap finish EXIT
# A run that hangs still ends: the host's timeout kills qemu, and this guest gives up on its own first.
( trap - EXIT; sleep "$GUEST_LIMIT"; say "GUEST-TIMEOUT after $GUEST_LIMIT s"; echo o > /proc/sysrq-trigger ) &

ms() { echo $(( $(date +%s%N) / 1000000 )); }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1000 }'; }
# wait_for LIMIT_SECONDS COMMAND...: polls every 0.2 s; true when the command succeeded in time
wait_for() {
  local limit=$1 end
  shift
  end=$(( $(ms) + limit * 1000 ))
  while (( $(ms) < end )); do
    "$@" && return 0
    sleep 0.2
  done
  return 1
}
in_ns() { local ns=$1; shift; ip netns exec "$ns" "$@"; }
# per-host settings from run.env: val ADDR web-1 reads ADDR_web_1
val() { local n="$1_${2//-/_}"; echo "${!n}"; }
rules_of() { grep -v -e '^[[:space:]]*$' -e '^#' "$1" | sort; }   # what the kernel should hold: ipvsadm-restore skips '#' lines
table_of() { in_ns "$1" ipvsadm -S -n | sort; }

ip link set lo up
modprobe -a ip_vs ip_vs_rr ip_vs_wrr ip_vs_wlc ip_vs_lc ip_vs_sh 2>/dev/null
modprobe -a bridge veth nf_tables nft_chain_nat 2>/dev/null
say "BOOT kernel $(uname -r), ipvsadm $(ipvsadm -v 2>&1 | head -1 | awk '{print $2}'), keepalived $(keepalived -v 2>&1 | head -1 | awk '{print $2}'), up $(cut -d' ' -f1 /proc/uptime) s"

# --------------------------------------------------------------------------------------------------------------
# validate --vm: load every ipvsadm.rules file with the real tools, each in an empty namespace
# --------------------------------------------------------------------------------------------------------------
load_check() { # ns file command... : loads the file with the command into an empty table -> "OK|what" or "FAIL|why"
  local ns=$1 file=$2 rc out want got
  shift 2
  in_ns "$ns" ipvsadm -C
  out=$(in_ns "$ns" "$@" < "$file" 2>&1)
  rc=$?
  got=$(table_of "$ns")
  want=$(rules_of "$file")
  if (( rc != 0 )); then
    echo "FAIL|exit $rc: $(echo "$out" | head -3 | tr '\n' ' ')(table left with $(echo "$got" | grep -c .) line(s))"
  elif [[ $got != "$want" ]]; then
    echo "FAIL|exit 0, but the table differs from the file: $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | head -4 | tr '\n' ' ')"
  else
    echo "OK|loaded $(echo "$got" | grep -c '^-A') service(s), $(echo "$got" | grep -c '^-a') realserver(s), table = file"
  fi
}

if [[ $MODE == validate ]]; then
  ip netns add _v
  ip -n _v link set lo up
  while IFS= read -r -d '' f; do
    rel=${f#"$RUN/tree/"}
    say "VERDICT $rel|real ipvsadm-restore in the VM (Debian: ipvsadm -C, then ipvsadm -R)|$(load_check _v "$f" ipvsadm-restore)"
    say "VERDICT $rel|real ipvsadm -R in the VM|$(load_check _v "$f" ipvsadm -R)"
  done < <(find "$RUN/tree" -name '*.rules' -type f -print0 | sort -z)
  exit 0
fi

# --------------------------------------------------------------------------------------------------------------
# lab: the cluster's namespaces on one bridge, run from the generated files
# --------------------------------------------------------------------------------------------------------------
ip link add br0 type bridge
ip link set br0 up
n=0
declare -A BRPORT   # host -> its port on the bridge (check 7 delays one)
add_host() { # name address
  n=$((n + 1))
  BRPORT[$1]=v$n
  ip netns add "$1"
  ip link add "v$n" type veth peer name "$IFACE" netns "$1"
  ip link set "v$n" master br0 up
  ip -n "$1" link set lo up
  ip -n "$1" addr add "$2/$PREFIX" dev "$IFACE"
  ip -n "$1" link set "$IFACE" up
}
h() { echo "$RUN/h/$1"; }
file_of() { find "$(h "$1")" -name "$2" -type f | head -1; }
net_sysctl() { # ns file: the per-namespace net.* lines only, as the host lab does
  grep -E '^-?net\.' "$2" | sed 's/^-//' > "$RUN/sysctl-$1.conf"
  in_ns "$1" sysctl -e -q -p "$RUN/sysctl-$1.conf" > /dev/null 2>&1
}
nginx_start() { in_ns "$1" nginx -c "$(file_of "$1" nginx.conf)" 2>> "$RUN/$1-nginx.err"; }
nginx_pid() { cat "$(h "$1")/run/nginx.pid" 2>/dev/null; }
nginx_stop() { local p; p=$(nginx_pid "$1"); [[ -n $p ]] && kill -QUIT "$p"; wait_for 5 bash -c "! kill -0 $p 2>/dev/null"; }
answers() { [[ $(in_ns _client curl -s -m 2 "http://$1:${3:-$PORT}/") == "$2" ]]; }   # address name [port]

add_host _client "$CLIENT"
for rs in $REALSERVERS; do
  add_host "$rs" "$(val ADDR "$rs")"
  net_sysctl "$rs" "$(file_of "$rs" 90-stampede-realserver.conf)"
  unit=$(file_of "$rs" stampede-lvs-dr.service)   # LVS-DR only: the VIP on lo, ARP kept quiet
  [[ -n $unit ]] && grep '^ExecStart=' "$unit" | sed 's/^ExecStart=-\?//' | while read -r -a cmd; do
    in_ns "$rs" "${cmd[@]}" || say "WARN $rs: ${cmd[*]} failed"
  done
  nginx_start "$rs"
  wait_for 10 answers "$(val ADDR "$rs")" "$rs" "$(val PORT "$rs")" || say "WARN $rs: nginx does not answer: $(tail -2 "$RUN/$rs-nginx.err" 2>/dev/null)"
done
if [[ -n $SORRY ]]; then
  # set up like a realserver (VIP on lo, ARP kept quiet), answering with a page that says sorry
  add_host _sorry "$SORRY"
  in_ns _sorry sysctl -q -w net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2
  in_ns _sorry ip addr add "$VIP/32" dev lo
  mkdir -p "$RUN/sorry-www" && echo -n sorry > "$RUN/sorry-www/index.html"
  in_ns _sorry busybox httpd -p "$PORT" -h "$RUN/sorry-www"
fi

declare -A KPID
starts=0
keepalived_start() { # director conf; fresh pid files each time, as a stopped instance's children may linger
  starts=$((starts + 1))
  # exec: $! is keepalived itself, so that TERM reaches it (and it withdraws its VIP and services)
  (exec ip netns exec "$1" keepalived -n -l -D -f "$2" -p "/run/k$starts-$1.pid" -r "/run/k$starts-$1-vrrp.pid" \
    -c "/run/k$starts-$1-check.pid" >> "$RUN/$1-keepalived.log" 2>&1) &
  KPID[$1]=$!
}
keepalived_stop() { # TERM: keepalived withdraws its VIP and its IPVS services on the way out
  local p=${KPID[$1]:-} guard
  [[ -z $p ]] && return 0
  kill -TERM "$p" 2>/dev/null
  ( trap - EXIT; sleep 10; kill -KILL "$p" 2>/dev/null ) &   # a subshell would run the EXIT trap too
  guard=$!
  wait "$p" 2>/dev/null
  kill "$guard" 2>/dev/null
  KPID[$1]=
}
holds_vip() { ip -n "$1" -4 addr show dev "$IFACE" | grep -q " $VIP/32 "; }
# keepalived_start_pair CONF LIMIT: CONF is a path with {} for the node's name. With nopreempt the first node to
# become MASTER keeps the VIP; started together under TCG the preferred one lost that race when its first
# track-script fork came late (CI stop 29). So it starts alone, as an operator brings a pair up, and the others
# join once it holds the VIP (false if it does not within LIMIT s).
keepalived_start_pair() {
  local d
  keepalived_start "$MASTER" "${1//\{\}/$MASTER}"
  wait_for "$2" holds_vip "$MASTER" || return 1
  for d in $DIRECTORS; do [[ $d == "$MASTER" ]] || keepalived_start "$d" "${1//\{\}/$d}"; done
}
in_table() { in_ns "$1" ipvsadm -L -n | grep -q -- "-> $2:$PORT "; }
rule_count() { in_ns "$1" ipvsadm -L -n | grep -c -- "-> .*:$PORT "; }

# --------------------------------------------------------------------------------------------------------------
# haproxy: HAProxy nodes in front (keepalived VRRP only), then lab check 7: the blocking time on every realserver,
# without and with `tc qdisc ... netem delay 5ms` on the bridge port towards one. The host does the arithmetic:
# this side reports each realserver's new blocking-time log lines ("BLOG PHASE HOST LINE").
# --------------------------------------------------------------------------------------------------------------
blog_lines() { local f; f=$(h "$1")$BLOG; [[ -f $f ]] && wc -l < "$f" || echo 0; }
every_realserver_answers() { # through the VIP, each weighted realserver at least once in 2 x their number
  local rs urls=() i
  for ((i = 0; i < 2 * $(echo $WEIGHTED | wc -w); i++)); do urls+=("http://$VIP:$PORT/"); done
  in_ns _client curl -s -m 3 -w '\n' "${urls[@]}" > "$RUN/7-ready.out" 2>&1
  for rs in $WEIGHTED; do grep -qx "$rs" "$RUN/7-ready.out" || return 1; done
}
batch_7() { # phase: REQUESTS requests through the VIP on one keep-alive connection, then every new log line
  local phase=$1 rs i urls=() counts="" grew
  declare -A from
  for rs in $WEIGHTED; do from[$rs]=$(blog_lines "$rs"); done
  for ((i = 0; i < REQUESTS; i++)); do urls+=("http://$VIP:$PORT/"); done
  in_ns _client curl -s -m 10 -w '\n' "${urls[@]}" > "$RUN/7-$phase.out" 2>&1
  for rs in $WEIGHTED; do counts+="$rs $(grep -cx "$rs" "$RUN/7-$phase.out"), "; done
  # nginx writes its log buffer at most 1 s later (flush=1s): wait for every log to grow, then one more flush
  grew() { local r; for r in $WEIGHTED; do (( $(blog_lines "$r") > ${from[$r]} )) || return 1; done; }
  wait_for 5 grew
  sleep 1.5
  say "TRAFFIC $phase $REQUESTS requests through $VIP:$PORT, $(grep -c . "$RUN/7-$phase.out") answered (${counts%, })"
  for rs in $WEIGHTED; do
    tail -n +$((from[$rs] + 1)) "$(h "$rs")$BLOG" | while IFS= read -r line; do say "BLOG $phase $rs $line"; done
  done
}
if [[ $MODE == haproxy ]]; then
  for d in $DIRECTORS; do
    add_host "$d" "$(val ADDR "$d")"
    net_sysctl "$d" "$(file_of "$d" 90-stampede-haproxy.conf)"   # ip_nonlocal_bind: bind the VIP before holding it
    limit=$(grep -m1 '^LimitNOFILE=' "$(file_of "$d" stampede-limits.conf)" | cut -d= -f2)
    (exec ip netns exec "$d" prlimit --nofile="$limit:$limit" haproxy -db -f "$(file_of "$d" haproxy.cfg)" \
      >> "$RUN/$d-haproxy.log" 2>&1) &
    # Under TCG one fork+exec of curl can take seconds on a loaded host: both nodes' chk_haproxy then time out
    # and drop the VIP mid-check (seen in CI). Only the track script's timeout is widened; the rest is as rendered.
    sed -E '/^vrrp_script /,/^}/ s/^([[:space:]]*timeout)[[:space:]]+[0-9]+$/\1 10/' "$(file_of "$d" keepalived.conf)" \
      > "$RUN/$d-keepalived.conf"
    say "ADAPT $d: keepalived.conf as rendered but vrrp_script timeout 10 (software emulation forks slowly)"
  done
  t0=$(ms)
  if ! keepalived_start_pair "$RUN/{}-keepalived.conf" 30; then
    say "FATAL keepalived did not put the VIP on $MASTER within 30 s: $(tail -5 "$RUN/$MASTER-keepalived.log" | tr '\n' '|') haproxy: $(tail -3 "$RUN/$MASTER-haproxy.log" | tr '\n' '|')"
    exit 1
  fi
  t_vip=$(ms)
  if ! wait_for 30 every_realserver_answers; then
    say "FATAL HAProxy on $MASTER does not reach every realserver through $VIP:$PORT: $(tr '\n' ' ' < "$RUN/7-ready.out" | cut -c1-200) haproxy: $(tail -3 "$RUN/$MASTER-haproxy.log" | tr '\n' '|')"
    exit 1
  fi
  say "UP VRRP MASTER $MASTER holds $VIP after $(secs "$t0" "$t_vip") s; HAProxy answers from $WEIGHTED"
  sleep 1.5   # the readiness requests' log lines are flushed before the first batch counts its own
  batch_7 before
  modprobe sch_netem 2>/dev/null
  port=${BRPORT[$SLOW]}
  if out=$(tc qdisc add dev "$port" root netem delay 5ms 2>&1); then
    say "NETEM $SLOW ok: tc qdisc add dev $port root netem delay 5ms (kernel $(uname -r)): $(tc qdisc show dev "$port" | head -1)"
    batch_7 after
    tc qdisc del dev "$port" root
  else
    say "NETEM $SLOW FAIL: tc qdisc add dev $port root netem delay 5ms: $out"
  fi
  exit 0   # powering off ends every daemon
fi

for d in $DIRECTORS; do
  add_host "$d" "$(val ADDR "$d")"
  net_sysctl "$d" "$(file_of "$d" 90-stampede-director.conf)"
  unit=$(file_of "$d" stampede-lvs-director.service)
  if [[ -n $unit ]]; then   # the director unit: notrack table for VIP traffic, ipvsadm --set timeouts
    # its nft file sits under the host's folder here, not in /etc/stampede
    grep '^ExecStart=' "$unit" | sed -e 's/^ExecStart=-\?//' -e "s#/etc/stampede/#$(h "$d")/etc/stampede/#g" |
      while read -r -a cmd; do
        out=$(in_ns "$d" "${cmd[@]}" 2>&1) || say "WARN $d: ${cmd[*]} failed: $(echo "$out" | head -2 | tr '\n' ' ')"
      done
  fi
done
t0=$(ms)
if ! keepalived_start_pair "$(h "{}")/etc/keepalived/keepalived.conf" 20; then
  say "FATAL keepalived did not put the VIP on $MASTER within 20 s: $(tail -5 "$RUN/$MASTER-keepalived.log" | tr '\n' '|')"
  exit 1
fi
t_vip=$(ms)
RULES=$RUN/rendered/director/$MASTER/ipvsadm.rules
expect_table() { [[ $(table_of "$1") == "$(rules_of "$RULES")" ]]; }
wait_for 20 expect_table "$MASTER"
t_table=$(ms)
for d in $DIRECTORS; do [[ $d == "$MASTER" ]] || wait_for 20 expect_table "$d"; done   # they joined later
say "UP VRRP MASTER $MASTER holds $VIP after $(secs "$t0" "$t_vip") s; realservers: $(for rs in $REALSERVERS; do answers "$(val ADDR "$rs")" "$rs" && echo -n "$rs "; done)"

# ---- a: the real table keepalived programmed equals the rendered ipvsadm.rules ---------------------------------
check_a() {
  local d got want verdict=PASS detail=""
  want=$(rules_of "$RULES")
  for d in $DIRECTORS; do
    got=$(table_of "$d")
    if [[ $got == "$want" ]]; then
      detail+="$d identical ($(echo "$got" | grep -c '^-A') service, $(echo "$got" | grep -c '^-a') realservers); "
    else
      verdict=FAIL
      detail+="$d differs: $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | head -6 | tr '\n' ' '); "
    fi
  done
  say "CHECK a $verdict ipvsadm -S -n after keepalived start vs ipvsadm.rules: ${detail}table complete $(secs "$t0" "$t_table") s after start; $(echo "$want" | grep '^-A' | head -1 | cut -d' ' -f3-); weights $(echo "$want" | grep '^-a' | awk '{print $NF}' | paste -sd: -)"
}
run_check() { [[ " ${CHECKS:-a b c d e f} " == *" $1 "* ]] && "check_$1"; }
run_check a

# ---- c: the measured share follows the weights ------------------------------------------------------------------
check_c() {
  if [[ $PERSISTENCE != 0 ]]; then
    say "CHECK c SKIP persistence $PERSISTENCE s sends one client to one realserver; shares need persistence 0"
    return
  fi
  local urls=() i rs w sum=0 verdict=PASS detail="" total
  for ((i = 0; i < REQUESTS; i++)); do urls+=("http://$VIP:$PORT/"); done
  in_ns _client curl -s -m 5 -H 'Connection: close' -w '\n' "${urls[@]}" > "$RUN/c.out" 2>&1
  total=$(grep -c . "$RUN/c.out")
  for rs in $REALSERVERS; do sum=$((sum + $(val WEIGHT "$rs"))); done
  for rs in $REALSERVERS; do
    w=$(val WEIGHT "$rs")
    local got want
    got=$(grep -cx "$rs" "$RUN/c.out")
    if [[ $SCHED =~ ^(wrr|wlc|lc|sed|nq)$ ]]; then want=$(awk -v w="$w" -v s="$sum" 'BEGIN { printf "%.1f", 100 * w / s }')
    else want=$(awk -v n="$(echo $REALSERVERS | wc -w)" 'BEGIN { printf "%.1f", 100 / n }'); fi
    local share
    share=$(awk -v g="$got" -v t="$REQUESTS" 'BEGIN { printf "%.1f", 100 * g / t }')
    awk -v a="$share" -v b="$want" 'BEGIN { exit !(a - b <= 10 && b - a <= 10) }' || verdict=FAIL
    detail+="$rs weight $w: $got = $share % (expected $want %); "
  done
  (( total == REQUESTS )) || verdict=FAIL
  say "CHECK c $verdict $SCHED, $total of $REQUESTS requests answered: ${detail}tolerance ±10 points"
}
run_check c

# ---- d: a realserver whose nginx stops leaves the table in the promised time, and comes back --------------------
check_d() {
  local rs victim addr t_stop t_gone t_start t_back syns verdict=PASS
  for rs in $REALSERVERS; do victim=$rs; done
  addr=$(val ADDR "$victim")
  # count the health checks reaching the victim from the MASTER director: each failed check is one refused SYN
  local master_addr
  master_addr=$(val ADDR "$MASTER")
  in_ns "$victim" nft -f - <<NFT
table inet stl_count {
  chain input {
    type filter hook input priority -300; policy accept;
    ip saddr $master_addr tcp dport $PORT tcp flags & (syn | ack) == syn counter
  }
}
NFT
  nginx_stop "$victim"
  t_stop=$(ms)
  in_ns "$victim" nft reset counters table inet stl_count > /dev/null
  if wait_for $((PROMISE_DOWN + 10)) bash -c "! ip netns exec $MASTER ipvsadm -L -n | grep -q -- '-> $addr:$PORT '"; then
    t_gone=$(ms)
    syns=$(in_ns "$victim" nft list table inet stl_count | grep -o 'packets [0-9]*' | awk '{print $2}')
  else
    t_gone=
  fi
  local down retries
  # keepalived's own account: "HTTP_CHECK on service ... failed after N retries" = N+1 failed checks
  retries=$(grep -F "[$addr]:tcp:$PORT failed after" "$RUN/$MASTER-keepalived.log" | tail -1 | grep -o 'after [0-9]*' | awk '{print $2}')
  if [[ -z $t_gone ]]; then
    verdict=FAIL; down="still in the table $((PROMISE_DOWN + 10)) s after nginx stopped"
  else
    down="removed from $MASTER's table $(secs "$t_stop" "$t_gone") s after nginx stopped; keepalived: failed after ${retries:-?} retries = $(( ${retries:-0} + 1 )) failed checks (fall $FALL); $syns SYNs from $MASTER refused by then"
    awk -v t="$(secs "$t_stop" "$t_gone")" -v p="$PROMISE_DOWN" 'BEGIN { exit !(t <= p) }' || verdict=FAIL
    [[ -n $retries ]] && (( retries + 1 == FALL )) || verdict=FAIL
  fi
  nginx_start "$victim"
  t_start=$(ms)
  if wait_for $((PROMISE_UP + 10)) in_table "$MASTER" "$addr"; then
    t_back=$(ms)
    awk -v t="$(secs "$t_start" "$t_back")" -v p="$PROMISE_UP" 'BEGIN { exit !(t <= p) }' || verdict=FAIL
    down+="; back $(secs "$t_start" "$t_back") s after nginx started"
  else
    verdict=FAIL; down+="; not back $((PROMISE_UP + 10)) s after nginx started"
  fi
  in_ns "$victim" nft delete table inet stl_count
  [[ -n ${STL_DEBUG:-} ]] && say "DEBUG $MASTER log: $(grep -F "$addr" "$RUN/$MASTER-keepalived.log" | tail -8 | tr '\n' '|')"
  say "CHECK d $verdict $victim: $down; promised: out within $PROMISE_DOWN s (delay_loop $INTERVAL + (fall-1) x delay_before_retry $INTERVAL + 1 s), back within $PROMISE_UP s (2 x delay_loop + 1 s; keepalived has no rise setting)"
}
run_check d

# ---- f: the sorry server answers when every realserver is down -------------------------------------------------
check_f() {
  if [[ -z $SORRY ]]; then
    say "CHECK f SKIP the description has no directors.sorry_server"
    return
  fi
  local rs t_stop t_sorry body verdict=PASS detail
  for rs in $REALSERVERS; do nginx_stop "$rs"; done
  t_stop=$(ms)
  if wait_for $((PROMISE_DOWN + 10)) in_table "$MASTER" "$SORRY"; then
    t_sorry=$(ms)
    body=$(in_ns _client curl -s -m 3 "http://$VIP:$PORT/")
    detail="sorry server $SORRY in $MASTER's table $(secs "$t_stop" "$t_sorry") s after every nginx stopped ($(rule_count "$MASTER") entry); VIP answers '$body'"
    [[ $body == sorry ]] || verdict=FAIL
  else
    verdict=FAIL; detail="sorry server not in the table $((PROMISE_DOWN + 10)) s after every nginx stopped: $(in_ns "$MASTER" ipvsadm -L -n | tail -n +4 | tr '\n' ' ')"
  fi
  for rs in $REALSERVERS; do nginx_start "$rs"; done
  local all_back=1
  for rs in $REALSERVERS; do wait_for $((PROMISE_UP + 10)) in_table "$MASTER" "$(val ADDR "$rs")" || all_back=0; done
  if (( all_back )) && ! in_table "$MASTER" "$SORRY"; then
    detail+="; realservers back, sorry server withdrawn"
  else
    verdict=FAIL; detail+="; after restart: $(in_ns "$MASTER" ipvsadm -L -n | tail -n +4 | tr '\n' ' ')"
  fi
  say "CHECK f $verdict $detail"
}
run_check f

# ---- b: ipvsadm -R and ipvsadm-restore both load the rules, and loading twice gives the same table --------------
check_b() {
  local r1 r2 r3 r4 verdict=PASS second
  ip netns add _rules
  ip -n _rules link set lo up
  r1=$(load_check _rules "$RULES" ipvsadm -R)
  r2=$(load_check _rules "$RULES" ipvsadm -R)
  in_ns _rules ipvsadm -C
  r3=$(in_ns _rules ipvsadm-restore < "$RULES" 2>&1; echo "exit $?")
  local t3 t4
  t3=$(table_of _rules)
  r4=$(in_ns _rules ipvsadm-restore < "$RULES" 2>&1; echo "exit $?")
  t4=$(table_of _rules)
  second=$(in_ns _rules ipvsadm -R < "$RULES" 2>&1; echo "exit $?")
  [[ $r1 == OK* && $r2 == OK* && $r3 == "exit 0" && $r4 == "exit 0" && $t3 == "$(rules_of "$RULES")" && $t4 == "$t3" ]] || verdict=FAIL
  say "CHECK b $verdict ipvsadm -C; ipvsadm -R: ${r1#*|}; the same again: ${r2#*|}; ipvsadm-restore twice: $r3, $r4, both tables equal to the file: $([[ $t3 == "$(rules_of "$RULES")" && $t4 == "$t3" ]] && echo yes || echo no) ($(echo "$t4" | wc -l) lines); for the record, ipvsadm -R over a loaded table without -C: $(echo "$second" | tr '\n' ' ')"
  ip netns del _rules
}
run_check b

# ---- e: a keep-alive connection across a director failover, with and without the sync daemon -------------------
# One long-lived connection: request 1, then (after the failover) request 2 on the same socket.
keepalive_client() { # out-file go-file
  in_ns _client bash -c '
    trap "" PIPE
    exec 3<>"/dev/tcp/$0/$1" || { echo "connect failed"; exit 1; }
    ask() {
      printf "GET / HTTP/1.1\r\nHost: vip\r\n\r\n" >&3 2>/dev/null || { echo "write failed: broken pipe (the connection was reset)"; return 1; }
      local line len=0 body
      IFS= read -r -t 5 line <&3 || { echo "no answer (${line:-connection reset or closed})"; return 1; }
      local status=${line#* }; status=${status%% *}
      while IFS= read -r -t 5 line <&3; do
        line=${line%$'"'"'\r'"'"'}
        [[ -z $line ]] && break
        [[ ${line,,} == content-length:* ]] && len=${line#*: }
      done
      read -r -t 5 -N "$len" body <&3
      echo "$status $body"
    }
    echo "first $(ask 2>&1)"
    for ((i = 0; i < 600; i++)); do [[ -e $2 ]] && break; sleep 0.1; done
    echo "second $(ask 2>&1)"
  ' "$VIP" "$PORT" "$2" > "$1" 2>&1 &
}
failover_once() { # variant -> prints "survived|reset: details"
  local variant=$1 out=$RUN/e-$1.out go=$RUN/e-$1.go d t_kill t_vip conns
  for d in $DIRECTORS; do keepalived_stop "$d"; done
  # a fresh start for each variant: no sync daemon or connection entry left from the one before
  for d in $DIRECTORS; do
    in_ns "$d" ipvsadm --stop-daemon master 2>/dev/null
    in_ns "$d" ipvsadm --stop-daemon backup 2>/dev/null
    in_ns "$d" ipvsadm -C
  done
  keepalived_start_pair "$RUN/variants/$variant/{}/keepalived.conf" 20 && wait_for 20 expect_table "$MASTER" &&
    wait_for 20 expect_table "$BACKUP"
  keepalive_client "$out" "$go"
  wait_for 10 grep -q '^first' "$out"
  local port
  port=$(in_ns _client ss -H -t -n state established dst "$VIP" | awk '{print $3}' | sed 's/.*://' | head -1)
  # what the BACKUP knows about that very connection before the failover (the sync daemon sends it within ~1 s)
  wait_for 3 bash -c "ip netns exec $BACKUP ipvsadm -L -n -c | grep -q ' $CLIENT:$port '"
  conns=$(in_ns "$BACKUP" ipvsadm -L -n -c | grep -c " $CLIENT:$port ")
  keepalived_stop "$MASTER"
  t_kill=$(ms)
  wait_for 20 holds_vip "$BACKUP"
  t_vip=$(ms)
  if [[ -n ${STL_DEBUG:-} ]]; then
    say "DEBUG $variant daemons $MASTER: $(in_ns "$MASTER" ipvsadm -L --daemon | tr '\n' ' ') $BACKUP: $(in_ns "$BACKUP" ipvsadm -L --daemon | tr '\n' ' ')"
    say "DEBUG $BACKUP log: $(tail -8 "$RUN/$BACKUP-keepalived.log" | tr '\n' '|')"
    say "DEBUG $MASTER log: $(tail -5 "$RUN/$MASTER-keepalived.log" | tr '\n' '|')"
  fi
  touch "$go"
  wait_for 15 grep -q '^second' "$out"
  local second
  second=$(grep '^second' "$out" | cut -c8-)
  echo "first request $(grep '^first' "$out" | cut -c7-); $BACKUP $( ((conns > 0)) && echo knew || echo "did not know") the connection (client port $port) before the failover; VIP on $BACKUP $(secs "$t_kill" "$t_vip") s after $MASTER's keepalived stopped; second request on the same connection: ${second:-$(tail -1 "$out")}"
}
check_e() {
  if [[ -z $BACKUP ]]; then
    say "CHECK e SKIP only one director is described"
    return
  fi
  local with without verdict=PASS
  failover_once sync > "$RUN/e-sync.res"
  failover_once nosync > "$RUN/e-nosync.res"
  with=$(cat "$RUN/e-sync.res")
  without=$(cat "$RUN/e-nosync.res")
  [[ ${with##*connection: } == 200* && ${without##*connection: } != 200* ]] || verdict=FAIL
  say "CHECK e $verdict with lvs_sync_daemon: $with; WITHOUT: $without"
}
run_check e

for d in $DIRECTORS; do keepalived_stop "$d"; done
exit 0
