#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Issue 14's benchmark: plans/recorded-shop.jmx, unchanged, on the Stampede engine vs stock HttpClient4 (switched as
# `stampede run --engine` does), then without its Header and Cookie Managers; one nginx worker on 127.0.0.1 (access
# log off), 200 threads, keep-alive. Prints each row, the table and the stampede/stock ratios per round and the
# weakest round. Rounds alternate which engine runs first. Not part of `mvn verify`.
#
# usage: it/bench/plan-engine-benchmark.sh [--duration S] [--warmup S] [--threads N] [--rounds N]
#                                          [--first stampede|stock] [--skip-build]
#   defaults: --duration 60 --warmup 15 --threads 200 --rounds 1 --first stampede
#   smoke run: it/bench/plan-engine-benchmark.sh --duration 12 --warmup 4 --threads 20
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

build=true
args=()
while (($#)); do
  case "$1" in
    --skip-build) build=false; shift ;;
    -h|--help) sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done

if $build; then
  echo "plan-engine-benchmark: building the plugin, the JMeter home and the benchmark classes ..."
  (cd "$root" && mvn -B -q -pl src,it -am package -DskipTests)
fi

exec java -Xmx512m -cp "$root/it/target/test-classes" -Dstampede.root="$root" \
  io.stampede.it.bench.PlanEngineBenchmark "${args[@]}"
