#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Issue 14's benchmark: plans/recorded-shop.jmx, unchanged, on the Stampede engine vs stock HttpClient4 (switched as
# `stampede run --engine` does), then without its Header and Cookie Managers; one nginx worker on 127.0.0.1 (access
# log off), 200 threads, keep-alive. Prints each row, the table and the stampede/stock ratios per round and the
# weakest round. Rounds alternate which engine runs first. Not part of `mvn verify`.
#
# usage: it/bench/plan-engine-benchmark.sh [--duration S] [--warmup S] [--threads N] [--rounds N]
#                                          [--first stampede|stock] [--engines stampede,stock] [--plans full,bare]
#                                          [--profile DIR] [--skip-build]
#   defaults: --duration 60 --warmup 15 --threads 200 --rounds 1 --first stampede, both engines, both plans
#   --profile DIR: async-profiler (cpu) on each JMeter during its window, DIR/<row>.collapsed (not comparable figures)
#   smoke run: it/bench/plan-engine-benchmark.sh --duration 12 --warmup 4 --threads 20
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

args=()
jvm=()
while (($#)); do
  case "$1" in
    --profile)
      (($# >= 2)) || { echo "$bench: --profile needs a folder" >&2; exit 2; }
      library=$(bench_profiler "$2")
      jvm+=("-Dstampede.bench.profiler=$library" "-Dstampede.bench.profile=$(cd "$2" && pwd)")
      shift 2 ;;
    *) bench_option "$1" || args+=("$1"); shift ;;
  esac
done
bench_need "install it (it/run-tests.sh installs nginx-light)" nginx java
bench_maven -pl src,it -am package -DskipTests

exec java -Xmx512m "${jvm[@]}" -cp "$bench_classpath" -Dstampede.root="$root" \
  io.stampede.it.bench.PlanEngineBenchmark "${args[@]}"
