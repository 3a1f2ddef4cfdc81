#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# HTTP/2 benchmark (issue 15): the Stampede RAW sampler over h2c and h2 (TLS, ALPN) against h2load from Debian's
# nghttp2-client, on one private nginx (1 worker, access log off, 18-byte file), same connections x streams,
# alternating which tool goes first in each round. Prints req/s, CPU per request, errors, the ratio per round and
# the weakest round. Not part of `mvn verify`.
#
# usage: it/bench/h2-benchmark.sh [--duration S (45)] [--warmup S (15)] [--rounds N (2)]
#                                 [--setups h2c-10x20,h2c-1x100,h2-10x20,h2-1x100,h1-10x20] [--skip-build]
#                                 [--ab NAME=VALUE[,NAME=VALUE]]  (a second Stampede row per round with those JMeter
#                                                                  properties; -DNAME=VALUE: a system property;
#                                                                  -X...: a JVM option of JMeter, e.g. -Xmn24m)
#                                 [--profile DIR]  (Stampede's runs only, async-profiler cpu over each measured
#                                                   window: DIR/<setup>-<round>.collapsed; figures not comparable)
#                                 [--profile-event alloc]  (with --profile: allocation samples instead of cpu)
#                                 [--turns SECONDS]  (both tools started and warm, taking turns on nginx in slices of
#                                                     SECONDS, the other one stopped (SIGSTOP), until each has had
#                                                     the measured time; requests counted by nginx's stub_status)
#   h1-10x20: HTTP/1.1 pipelined 20 deep on 10 connections (h2load --h1), the row next to HTTP/2's;
#   h1s-10x20 (not in the default list): the same over TLS.
#   A setup's client threads (both tools) are 2, or 1 for one connection; h2c-10x20@1 sets them (here: 1).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=true
profile_event=cpu
args=()
while (($#)); do
  case "$1" in
    --skip-build) build=false; shift ;;
    --profile)
      agent=$(find "$HOME/.m2/repository/tools/profiler/async-profiler" -name 'async-profiler-*-linux-x64.jar' 2>/dev/null | sort | tail -1)
      [[ -n $agent ]] || { echo "h2-benchmark: --profile needs async-profiler: mvn dependency:get -Dartifact=tools.profiler:async-profiler:4.1:jar:linux-x64" >&2; exit 2; }
      mkdir -p "$2/lib" && (cd "$2/lib" && unzip -o -q "$agent" 'linux-x64/*')
      args+=(--profile "$2"); shift 2 ;;
    --profile-event) profile_event=$2; shift 2 ;;
    -h|--help) sed -n '3,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done
for tool in nginx h2load openssl java; do
  command -v "$tool" >/dev/null || [[ -x /usr/sbin/$tool ]] || {
    echo "h2-benchmark: '$tool' is missing; install it (it/run-tests.sh installs nginx-light and nghttp2-client)" >&2
    exit 2
  }
done
if $build; then
  (cd "$root" && mvn -B -q -pl src,it -am package -DskipTests)
fi
exec java -Xmx512m -Dstampede.bench.profile.event="$profile_event" -cp "$root/it/target/test-classes" -Dstampede.root="$root" \
  io.stampede.it.bench.Http2Benchmark "${args[@]}"
