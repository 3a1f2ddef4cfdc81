#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Before/after engine benchmark: runs it/bench/engine-benchmark.sh from two checkouts (each already built with
# `mvn -B -q -pl src,it -am package -DskipTests`), alternating, for a number of rounds, so that both sides see the
# same machine; then prints new/base per round and tool (req/s and CPU per request), the median and the weakest
# round. The same checkout twice is an A/A run (the noise floor). Wrap it in /work/tools/quiet (or an idle machine).
#
# usage: it/bench/engine-benchmark-ab.sh BASE_CHECKOUT NEW_CHECKOUT [ROUNDS (2)] [--new-first] [engine-benchmark options...]
#   e.g. it/bench/engine-benchmark-ab.sh /work/wt/base . 2 --duration 35 --warmup 10 --tools raw,raw_multi,http
#   Odd rounds run the base first, even rounds the new checkout (--new-first: the other way round).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
case "${1:-}" in -h|--help) bench_usage; exit 0 ;; esac
(($# >= 2)) || { bench_usage >&2; exit 2; }
base=$(cd "$1" && pwd); new=$(cd "$2" && pwd); shift 2
rounds=2
if (($#)) && [[ $1 =~ ^[0-9]+$ ]]; then rounds=$1; shift; fi
flip=0
if (($#)) && [[ $1 == --new-first ]]; then flip=1; shift; fi
for side in "$base" "$new"; do
  [[ -x $side/it/bench/engine-benchmark.sh && -d $side/it/target/test-classes ]] || {
    echo "engine-benchmark-ab: $side is not a built Stampede checkout (build it with mvn -pl src,it -am package)" >&2
    exit 2
  }
done
log=$(mktemp /tmp/engine-ab.XXXXXX)
run=$(mktemp /tmp/engine-ab-run.XXXXXX)
trap 'rm -f "$log" "$run"' EXIT
for ((r = 1; r <= rounds; r++)); do
  labels=(base new); sides=("$base" "$new")
  if (((r + flip) % 2 == 0)); then labels=(new base); sides=("$new" "$base"); fi
  for i in 0 1; do
    echo "=== round $r: ${labels[i]} (${sides[i]}, $(git -C "${sides[i]}" rev-parse --short HEAD)) $(date +%T)"
    "${sides[i]}/it/bench/engine-benchmark.sh" --skip-build "$@" | tee "$run"
    awk -v r="$r" -v side="${labels[i]}" '
          /^tool +req\/s/ { table = 1; next }
          table && NF == 0 { table = 0 }
          table && $0 ~ /^(Stampede|JMeter|wrk)/ {
            name = substr($0, 1, 22); sub(/ +$/, "", name)
            split(substr($0, 23), f, " ")
            print r "\t" side "\t" name "\t" f[1] "\t" f[3]
          }' "$run" >> "$log"
  done
done

# new/base per round and tool, then the median and the weakest round (lowest req/s ratio) per tool
echo
echo "new / base per round (req/s ratio, CPU per request ratio); base = $base, new = $new"
awk -F'\t' '
  { key = $1 SUBSEP $3; if ($2 == "base") { b[key] = $4; bc[key] = $5 } else { n[key] = $4; nc[key] = $5 }
    if (!($3 in seen)) { seen[$3] = 1; tools[++nt] = $3 } if ($1 > rounds) rounds = $1 }
  function median(a, k,   i, j, t) {
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  END {
    for (t = 1; t <= nt; t++) {
      name = tools[t]; k = 0; line = ""; weakest = 1e9; wc = 0
      for (r = 1; r <= rounds; r++) {
        key = r SUBSEP name
        if (!(key in b) || !(key in n) || b[key] == 0 || bc[key] == 0) continue
        q = n[key] / b[key]; c = nc[key] / bc[key]
        k++; rq[k] = q; rc[k] = c
        line = line sprintf("  r%d x%.2f/x%.2f", r, q, c)
        if (q < weakest) { weakest = q; wc = c }
      }
      if (k == 0) continue
      printf "%-24s%s\n", name, line
      printf "%-24s  median req/s x%.2f, CPU/request x%.2f; weakest round req/s x%.2f (CPU/request x%.2f)\n", "",
        median(rq, k), median(rc, k), weakest, wc
    }
  }' "$log"
