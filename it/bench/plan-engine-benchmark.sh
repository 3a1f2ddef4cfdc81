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
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

build=true
args=()
jvm=()
while (($#)); do
  case "$1" in
    --skip-build) build=false; shift ;;
    --profile)
      agent=$(find "$HOME/.m2/repository/tools/profiler/async-profiler" -name 'async-profiler-*-linux-x64.jar' 2>/dev/null | sort | tail -1)
      [[ -n $agent ]] || { echo "plan-engine-benchmark: --profile needs async-profiler: mvn dependency:get -Dartifact=tools.profiler:async-profiler:4.1:jar:linux-x64" >&2; exit 2; }
      mkdir -p "$2/lib" && (cd "$2/lib" && unzip -o -q "$agent" 'linux-x64/*')
      jvm+=("-Dstampede.bench.profiler=$(cd "$2" && pwd)/lib/linux-x64/libasyncProfiler.so" "-Dstampede.bench.profile=$(cd "$2" && pwd)")
      shift 2 ;;
    -h|--help) sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done

if $build; then
  echo "plan-engine-benchmark: building the plugin, the JMeter home and the benchmark classes ..."
  (cd "$root" && mvn -B -q -pl src,it -am package -DskipTests)
fi

exec java -Xmx512m "${jvm[@]}" -cp "$root/it/target/test-classes" -Dstampede.root="$root" \
  io.stampede.it.bench.PlanEngineBenchmark "${args[@]}"
