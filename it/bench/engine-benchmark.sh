#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Engine benchmark (issue 2): requests/s and load-generator CPU per request for stock JMeter (HttpClient4), the
# Stampede HTTP RAW and HTTP samplers and wrk, 200 connections each, against one private nginx on 127.0.0.1
# (1 worker, 18-byte file, access log off). Prints a table and the ratios. Not part of `mvn verify`.
#
# usage: it/bench/engine-benchmark.sh [--duration SECONDS] [--warmup SECONDS] [--connections N]
#                                     [--tools stock,raw,raw_multi,http,wrk] [--skip-build]
#   defaults: --duration 60 --warmup 15 --connections 200 (figures over the 45 s after the warm-up)
#   smoke run: it/bench/engine-benchmark.sh --duration 12 --warmup 4
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

build=true
args=()
while (($#)); do
  case "$1" in
    --skip-build) build=false; shift ;;
    -h|--help) sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done

for tool in nginx wrk java; do
  command -v "$tool" >/dev/null || [[ -x /usr/sbin/$tool ]] || {
    echo "engine-benchmark: '$tool' is missing; install it (it/run-tests.sh installs nginx-light and wrk)" >&2
    exit 2
  }
done

if $build; then
  echo "engine-benchmark: building the plugin, the JMeter home and the benchmark classes ..."
  (cd "$root" && mvn -B -q -pl src,it -am package -DskipTests)
fi

exec java -Xmx512m -cp "$root/it/target/test-classes" -Dstampede.root="$root" \
  io.stampede.it.bench.EngineBenchmark "${args[@]}"
