#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# XMPP online users (issue 37), the field report's shape in one JMeter engine against one ejabberd node of its own
# (Debian's package, started from a temporary folder: own config, SQLite users provisioned in bulk, own node name,
# cookie and ports). 19,000 users fit one node and one engine under the 20,000-file cap (one socket each, plus about
# 200 files of their own). Users log in at --login-rate per second (over STARTTLS, or over wss with --transport
# websocket), fetch a roster of --roster contacts of which --online-contacts are users of the test (a fifth online,
# as in the report), send their initial presence, then, each from its login on, for --turns turns send a message
# every 400/--factor s to another online user and change presence every 2,800/--factor s (at the 7th turn, the
# login's counted), taking the messages they received; each user's last turn waits for the messages sent to it that
# have not arrived and logs out. A JMeter thread runs up to --concurrent-logins of its users' logins at once, each
# started at its turn. Prints logins and the login rate reached (and the most logins in flight at once), errors by
# label and kind, messages sent and received, delivery latency (whole run, and of the messages sent in the steady
# window with every user online), JMeter's heap after a full GC per online user and the classes that grew, CPU per
# message of JMeter and of ejabberd, and the resident memory per online user of both, projected to 100,000 users.
# With --tools stampede,tsung the same shape runs again with Tsung 1.7's jabber plugin against the same node (one
# round after the other; its users wait at a global barrier after their turns, so that all are held online at once,
# as the plan's are), and a table sets both side by side: users held, CPU per message, resident memory per user.
#
# More users than one process holds: --nodes N starts N INDEPENDENT ejabberd nodes, not a cluster (each from its own
# folder: node name, cookie, ports, SQLite users user1..userK, Mnesia spool) and N JMeter engines (--engines, when
# given, must equal --nodes); engine i runs plans/xmpp-online-users.jmx with node i's users at its part of the login
# rate. The rate is divided in whole logins per second (100/s over 6: 17, 17, 17, 17, 16, 16) and the users in
# proportion, in whole threads, so every engine ramps over the same time and together they log in at the rate asked.
# No stanza crosses nodes: {peer} is a session of the same JMeter thread and the rosters' users of the test are the
# next users on the same node, so each node carries the field report's shape. Every figure covers all engines and
# nodes (the JTLs merged). A split that puts more than the file limit less 1,000 users on a node is refused.
#
# The issue's 100,000 users, on an idle machine (the coordinator's run; try a small one first):
#   it/bench/xmpp-benchmark.sh --users 100000 --nodes 6 --sessions-per-thread 250 --login-rate 100 --factor 4 \
#       --turns 16 --heap 1g
# 6 nodes and 6 engines of 17,000 (x4) and 16,000 (x2) users. The logins at 100/s take 1,000 s (16.7 min); each user
# then sends a message every 100 s (1,000/s in all) for 16 turns, so the first users still talk through the window
# after the ramp. The whole run takes about 50 minutes: the nodes' start with provisioning, about 1,000-1,100 s of
# logins, 1,600 s of turns after the last login, the drain and logouts. --heap 1g per engine is ample (about 7 KB of
# live heap per user: 120 MB for 17,000). Memory: the nodes run with ERL_FULLSWEEP_AFTER=0 (without it each session's
# process keeps the ~400 KB heap its login grew); measured at 3,000 users, ejabberd then takes 150-210 KB resident
# per online user and JMeter 45-65 KB, which the benchmark projects to 20.7-27.9 GB for 100,000 users of this
# machine's 23.5 GB (52 GB without the setting); less the per-node roster cache (79 MB, capped, counted per user at
# that scale) and with JMeter's 21-34 KB per user at 19,000, about 17-18 GB: nothing else may run beside it.
# Small proof on a shared machine (about 3 minutes of load, under one core):
#   it/bench/xmpp-benchmark.sh --users 3000 --nodes 3 --sessions-per-thread 100 --login-rate 100 --factor 20 --turns 5
#
# usage: it/bench/xmpp-benchmark.sh [--users N] [--sessions-per-thread N] [--login-rate N] [--factor N] [--turns N]
#                                   [--concurrent-logins N] [--roster N] [--online-contacts N] [--heap SIZE]
#                                   [--sasl plain|scram_sha_1] [--transport tcp|websocket] [--tools stampede[,tsung]]
#                                   [--nodes N] [--engines N] [--out DIR] [--skip-build]
#   defaults: --users 19000 --sessions-per-thread 250 --login-rate 100 --concurrent-logins 16 --factor 10 --turns 7
#             --roster 150 --online-contacts 30 --heap 1g (per engine) --sasl plain --transport tcp --tools stampede
#             --nodes 1 (--tools tsung needs 1)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
args=()
tools=stampede
while (($#)); do
  if bench_option "$1"; then shift; continue; fi
  case "$1" in
    --users|--sessions-per-thread|--login-rate|--concurrent-logins|--factor|--turns|--roster|--online-contacts|--heap|--sasl|--transport|--out|--nodes|--engines|--tools)
      (($# >= 2)) || { echo "$bench: $1 needs a value (see --help)" >&2; exit 2; }
      [[ $1 != --tools ]] || tools=$2
      args+=("$1" "$2"); shift 2 ;;
    *) echo "$bench: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
bench_need "install a JDK 17 or newer" java jcmd
bench_need "apt-get install ejabberd erlang-p1-sqlite3 sqlite3" erl sqlite3
[[ $tools != *tsung* ]] || bench_need "apt-get install tsung" tsung
bench_maven -pl src,it -am package -DskipTests
exec java -Xmx1g -cp "$bench_classpath" -Dstampede.root="$root" io.stampede.it.bench.XmppBenchmark "${args[@]}"
