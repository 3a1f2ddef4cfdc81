#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Scale benchmarks (issue 5), against a private nginx on 127.0.0.1, printing tables (not part of `mvn verify`):
#   idle        one JMeter engine with the HTTP RAW sampler holding 19,000 keep-alive connections on 10 threads,
#               one request per connection every 10 s, then stock JMeter with 2,000 threads (one connection each,
#               same pacing): heap after a full GC and RSS per connection, OS threads, errors.
#               [--connections 19000] [--threads 10] [--stock-threads 2000] [--pacing-ms 10000] [--hold 30]
#   throughput  HTTP RAW with --threads JMeter threads (one per core) keeping connections/threads connections each (the
#               thread's own I/O, then stampede.io_mode=engine), then wrk, repeated in rounds so that each ratio
#               compares neighbours in time on a shared machine; HTTP RAW at one connection per thread first, and
#               with --pipeline a pipelined row next to one more wrk: req/s, CPU per request, ratios to wrk (per
#               round and the median); CSV JTL on.
#               [--duration 60] [--warmup 15] [--connections 200] [--threads CORES] [--rounds 3] [--pipeline DEPTH]
# usage: it/bench/scale-benchmark.sh idle|throughput [options] [--skip-build]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
case "${1:-}" in
  idle) main=io.stampede.it.scale.IdleConnectionsBenchmark ;;
  throughput) main=io.stampede.it.bench.ScaleThroughputBenchmark ;;
  -h|--help) bench_usage; exit 0 ;;
  *) bench_usage >&2; exit 2 ;;
esac
shift
args=()
for a in "$@"; do
  bench_option "$a" || args+=("$a")
done
bench_need "install it (it/run-tests.sh installs nginx-light and wrk)" nginx java
bench_maven -pl src,it -am package -DskipTests
exec java -Xmx512m -cp "$bench_classpath" -Dstampede.root="$root" "$main" "${args[@]}"
