#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Before/after engine benchmark: runs it/bench/engine-benchmark.sh from two checkouts (each already built with
# `mvn -B -q -pl src,it -am package -DskipTests`), alternating, for a number of rounds, so that both sides see the
# same machine. Wrap it in /work/tools/quiet (or run it on an otherwise idle machine).
#
# usage: it/bench/engine-benchmark-ab.sh BASE_CHECKOUT NEW_CHECKOUT [ROUNDS (2)] [engine-benchmark options...]
#   e.g. it/bench/engine-benchmark-ab.sh /work/wt/base . 2 --duration 35 --warmup 10 --tools raw,raw_multi,http
set -euo pipefail
(($# >= 2)) || { sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
base=$(cd "$1" && pwd); new=$(cd "$2" && pwd); shift 2
rounds=2
if (($#)) && [[ $1 =~ ^[0-9]+$ ]]; then rounds=$1; shift; fi
for side in "$base" "$new"; do
  [[ -x $side/it/bench/engine-benchmark.sh && -d $side/it/target/test-classes ]] || {
    echo "engine-benchmark-ab: $side is not a built Stampede checkout (build it with mvn -pl src,it -am package)" >&2
    exit 2
  }
done
for ((r = 1; r <= rounds; r++)); do
  # Odd rounds run the base first, even rounds the new checkout first.
  order=("$base" "$new"); ((r % 2)) || order=("$new" "$base")
  for side in "${order[@]}"; do
    label=$([[ $side == "$base" ]] && echo base || echo new)
    echo "=== round $r: $label ($side, $(git -C "$side" rev-parse --short HEAD)) $(date +%T)"
    "$side/it/bench/engine-benchmark.sh" --skip-build "$@"
  done
done
