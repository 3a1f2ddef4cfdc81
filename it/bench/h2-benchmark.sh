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
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
profile_event=cpu
args=()
while (($#)); do
  case "$1" in
    --profile)
      (($# >= 2)) || { echo "$bench: --profile needs a folder" >&2; exit 2; }
      bench_profiler "$2" >/dev/null
      args+=(--profile "$2"); shift 2 ;;
    --profile-event) profile_event=$2; shift 2 ;;
    *) bench_option "$1" || args+=("$1"); shift ;;
  esac
done
bench_need "install it (it/run-tests.sh installs nginx-light and nghttp2-client)" nginx h2load openssl java
bench_maven -pl src,it -am package -DskipTests
exec java -Xmx512m -Dstampede.bench.profile.event="$profile_event" -cp "$bench_classpath" -Dstampede.root="$root" \
  io.stampede.it.bench.Http2Benchmark "${args[@]}"
