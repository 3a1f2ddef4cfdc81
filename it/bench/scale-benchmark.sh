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
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
case "${1:-}" in
  idle) main=io.stampede.it.scale.IdleConnectionsBenchmark ;;
  throughput) main=io.stampede.it.bench.ScaleThroughputBenchmark ;;
  *) sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
shift
build=true
args=()
for a in "$@"; do
  if [[ $a == --skip-build ]]; then build=false; else args+=("$a"); fi
done
if $build; then
  echo "scale-benchmark: building the plugin, the JMeter home and the benchmark classes ..."
  (cd "$root" && mvn -B -q -pl src,it -am package -DskipTests)
fi
exec java -Xmx512m -cp "$root/it/target/test-classes" -Dstampede.root="$root" "$main" "${args[@]}"
