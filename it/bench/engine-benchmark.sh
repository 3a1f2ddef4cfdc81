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
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

args=()
for a in "$@"; do
  bench_option "$a" || args+=("$a")
done
bench_need "install it (it/run-tests.sh installs nginx-light and wrk)" nginx wrk java
bench_maven -pl src,it -am package -DskipTests

exec java -Xmx512m -cp "$bench_classpath" -Dstampede.root="$root" \
  io.stampede.it.bench.EngineBenchmark "${args[@]}"
