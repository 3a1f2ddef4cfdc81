#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# XMPP online users (issue 37), the field report's shape in one JMeter engine against one ejabberd node of its own
# (Debian's package, started from a temporary folder: own config, SQLite users provisioned in bulk, own node name,
# cookie and ports). 19,000 users fit one node and one engine under the 20,000-file cap (one socket each, plus about
# 200 files of their own). Users log in over STARTTLS at --login-rate per second, fetch a roster of --roster contacts
# of which --online-contacts are users of the test (a fifth online, as in the report), send their initial presence,
# then for --turns turns send a message every 400/--factor s to another online user and change presence every
# 2,800/--factor s, taking the messages they received; a last turn takes the rest and logs out. Prints logins, errors,
# messages sent and received, delivery latency, and JMeter's heap after a full GC per online user.
#
# usage: it/bench/xmpp-benchmark.sh [--users N] [--sessions-per-thread N] [--login-rate N] [--factor N] [--turns N]
#                                   [--roster N] [--online-contacts N] [--heap SIZE] [--sasl plain|scram_sha_1]
#                                   [--skip-build]
#   defaults: --users 19000 --sessions-per-thread 1000 --login-rate 100 --factor 10 --turns 3 --roster 150
#             --online-contacts 30 --heap 4g --sasl plain
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
args=()
while (($#)); do
  if bench_option "$1"; then shift; continue; fi
  case "$1" in
    --users|--sessions-per-thread|--login-rate|--factor|--turns|--roster|--online-contacts|--heap|--sasl)
      args+=("$1" "$2"); shift 2 ;;
    *) echo "$bench: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
bench_need "install a JDK 17 or newer" java jcmd
bench_need "apt-get install ejabberd erlang-p1-sqlite3 sqlite3" erl sqlite3
bench_maven -pl src,it -am package -DskipTests
exec java -Xmx1g -cp "$bench_classpath" -Dstampede.root="$root" io.stampede.it.bench.XmppBenchmark "${args[@]}"
