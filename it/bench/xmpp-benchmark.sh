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
# started at its turn. Prints logins and the login rate reached (and the most logins in flight at once), errors,
# messages sent and received, delivery latency, JMeter's heap after a full GC per online user and the classes that
# grew.
# With --tools stampede,tsung the same shape runs again with Tsung 1.7's jabber plugin against the same node (one
# round after the other; its users wait at a global barrier after their turns, so that all are held online at once,
# as the plan's are), and a table sets both side by side: users held, CPU per message, resident memory per user.
#
# usage: it/bench/xmpp-benchmark.sh [--users N] [--sessions-per-thread N] [--login-rate N] [--factor N] [--turns N]
#                                   [--concurrent-logins N] [--roster N] [--online-contacts N] [--heap SIZE]
#                                   [--sasl plain|scram_sha_1] [--transport tcp|websocket] [--tools stampede[,tsung]]
#                                   [--out DIR] [--skip-build]
#   defaults: --users 19000 --sessions-per-thread 250 --login-rate 100 --concurrent-logins 16 --factor 10 --turns 7
#             --roster 150 --online-contacts 30 --heap 1g --sasl plain --transport tcp --tools stampede
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
args=()
tools=stampede
while (($#)); do
  if bench_option "$1"; then shift; continue; fi
  case "$1" in
    --users|--sessions-per-thread|--login-rate|--concurrent-logins|--factor|--turns|--roster|--online-contacts|--heap|--sasl|--transport|--out)
      args+=("$1" "$2"); shift 2 ;;
    --tools) tools=$2; args+=("$1" "$2"); shift 2 ;;
    *) echo "$bench: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
bench_need "install a JDK 17 or newer" java jcmd
bench_need "apt-get install ejabberd erlang-p1-sqlite3 sqlite3" erl sqlite3
[[ $tools != *tsung* ]] || bench_need "apt-get install tsung" tsung
bench_maven -pl src,it -am package -DskipTests
exec java -Xmx1g -cp "$bench_classpath" -Dstampede.root="$root" io.stampede.it.bench.XmppBenchmark "${args[@]}"
