#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Stateful virtual users (issue 16), against a private nginx on 127.0.0.1, not part of `mvn verify`:
# it/bench/virtual-users-bench.jmx (login once, then a step carrying the session cookie and the extracted value,
# think time) on the Stampede Virtual User Thread Group with the engine-wide pool, then the same plan on JMeter's
# standard Thread Group (OS threads), both on the newest Java 21+ installed. Prints a Markdown table; figures go
# into it/bench/VIRTUAL-USERS-RESULTS.md by hand with the command line used.
#   [--users 100000] [--rampup 100] [--hold 120] [--think-ms 10000] [--pool 2000] [--heap 6g]
#   [--stock-users N (0: no stock row)] [--only vu|stock|both] [--jvm "more JVM options"]
#   [--classic SECONDS [--rounds 2]]: instead, 200 users with one keep-alive connection each, no think time
#   (plans/stepping-raw.jmx's load): HTTP RAW on virtual threads vs on OS threads vs stock HTTP Request
#   [--gatling [--rounds 3]]: instead, the same plan against Gatling (the newest open-source release, Java DSL,
#   it/bench/peers/gatling's VirtualUsers simulation, its Maven plugin's JVM options) on the same nginx, alternating
#   with Stampede (this plan, engine pool of --pool connections) round by round: heap (after a full GC) and RSS per
#   user and CPU per request of both, and Stampede's over Gatling's, from it/bench/peers-benchmark.sh --scenarios vu
#   (--users, --rampup, --think-ms, --heap and --pool carry over; the measured window is 60 s); a round runs both tools
#   one after the other, each for about its ramp-up plus 3 minutes
# usage: it/bench/virtual-users-benchmark.sh [options] [--skip-build]   (wrap it in /work/tools/quiet where shared)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
args=()
for a in "$@"; do
  bench_option "$a" || args+=("$a")
done
if [[ " ${args[*]-} " == *" --gatling "* ]]; then
  # The Gatling row: both tools through the peers benchmark's harness (same nginx locations, same measurements).
  users=100000 rampup=100 think=10000 heap=6g rounds=3 pool=2000
  set -- "${args[@]}"
  while (($#)); do
    case "$1" in
      --users) users=$2; shift 2 ;; --rampup) rampup=$2; shift 2 ;; --think-ms) think=$2; shift 2 ;;
      --heap) heap=$2; shift 2 ;; --rounds) rounds=$2; shift 2 ;; --pool) pool=$2; shift 2 ;;
      --gatling) shift ;;
      *) echo "$bench: '$1' does not apply with --gatling (see --help)" >&2; exit 2 ;;
    esac
  done
  build=(); $bench_build || build=(--skip-build)
  exec "$root/it/bench/peers-benchmark.sh" "${build[@]}" --scenarios vu --tools stampede,gatling --rounds "$rounds" \
    --users "200,$users,19000" --ramp "$rampup" --think-ms "$think" --heap "$heap" --window 60 --pool "$pool"
fi
bench_need "install it (it/run-tests.sh installs nginx-light)" nginx java
bench_maven -pl src,it -am package -DskipTests
# The benchmark picks the Java 21+ with Stampede's own Java finder (src).
exec java -Xmx1g -cp "$bench_classpath" -Dstampede.root="$root" \
  io.stampede.it.users.VirtualUsersBenchmark "${args[@]}"
