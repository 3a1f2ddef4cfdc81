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
# usage: it/bench/virtual-users-benchmark.sh [options] [--skip-build]   (wrap it in /work/tools/quiet where shared)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
args=()
for a in "$@"; do
  bench_option "$a" || args+=("$a")
done
bench_need "install it (it/run-tests.sh installs nginx-light)" nginx java
bench_maven -pl src,it -am package -DskipTests
# The benchmark picks the Java 21+ with Stampede's own Java finder (src).
exec java -Xmx1g -cp "$bench_classpath" -Dstampede.root="$root" \
  io.stampede.it.users.VirtualUsersBenchmark "${args[@]}"
