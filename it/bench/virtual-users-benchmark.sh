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
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=true
args=()
for a in "$@"; do
  if [[ $a == --skip-build ]]; then build=false; else args+=("$a"); fi
done
if $build; then
  echo "virtual-users-benchmark: building the plugin, the JMeter home and the benchmark classes ..."
  (cd "$root" && mvn -B -q -pl src,it -am package -DskipTests)
fi
# The benchmark's classes need the JDK only, plus Stampede's Java finder (src) to pick the Java 21+.
exec java -Xmx1g -cp "$root/it/target/test-classes:$root/src/target/classes" -Dstampede.root="$root" \
  io.stampede.it.users.VirtualUsersBenchmark "${args[@]}"
