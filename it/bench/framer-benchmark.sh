#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Framer benchmark (issue 11): the ResponseFramer of this tree against an older one from git history, in one JVM,
# on the recorded nginx responses in it/bench/framer/responses (each fed in one read, then head and body apart),
# alternating old/new every round after warm-up; prints ns per response per round, medians, median and weakest
# new/old ratio. Needs the git history (not a shallow clone), Java 17+, Maven. Not part of `mvn verify`.
#
# usage: it/bench/framer-benchmark.sh [--old REV] [--skip-build] [--rounds N] [--warmup N] [--millis N]
#   defaults: --old 4f4a2be (the framer before the RFC 9112 rewrite) --rounds 15 --warmup 5 --millis 200
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
framer=plugins/src/main/java/io/stampede/engine/http1/ResponseFramer.java

old=4f4a2be
args=()
while (($#)); do
  case "$1" in
    --old) (($# >= 2)) || { echo "framer-benchmark: --old needs a git revision" >&2; exit 2; }; old=$2; shift 2 ;;
    *) bench_option "$1" || args+=("$1"); shift ;;
  esac
done

work=$root/it/target/framer-bench
rm -rf "$work"
mkdir -p "$work/old-src" "$work/old" "$work/loop" "$work/old-loop"
# Before the engine was laid out by protocol the framer was io.stampede.engine.ResponseFramer.
old_framer=$framer old_package=io.stampede.engine.http1
if ! git -C "$root" cat-file -e "$old:$framer" 2>/dev/null; then
  old_framer=plugins/src/main/java/io/stampede/engine/ResponseFramer.java old_package=io.stampede.engine
fi
# The engine sources at that revision; javac compiles the framer and only what it uses (TokenList, Ascii ...).
git -C "$root" archive "$old" plugins/src/main/java/io/stampede/engine 2>/dev/null | tar -x -C "$work/old-src" || {
  echo "framer-benchmark: cannot read $framer at '$old' (a shallow clone? fetch the history: git fetch --unshallow)" >&2
  exit 2
}

bench_need "install a JDK 17 or newer" javac java git
bench_maven -pl plugins compile
[[ -d $root/plugins/target/classes/io/stampede/engine ]] || {
  echo "framer-benchmark: plugins/target/classes is missing; run without --skip-build" >&2
  exit 2
}
(cd "$root" && mvn -B -q -pl plugins dependency:build-classpath -DincludeGroupIds=io.netty \
  -Dmdep.outputFile="$work/netty.classpath" >/dev/null)
netty=$(cat "$work/netty.classpath")

javac --release 17 -nowarn -implicit:class -cp "$netty" -sourcepath "$work/old-src/plugins/src/main/java" \
  -d "$work/old" "$work/old-src/$old_framer"
javac --release 17 -cp "$netty:$root/plugins/target/classes" -d "$work/loop" "$root"/it/bench/framer/*.java
# The same loop linked to the old framer's package, for the old side's class loader.
mkdir -p "$work/old-loop-src"
sed "s/^import io\.stampede\.engine\.http1\.ResponseFramer;/import $old_package.ResponseFramer;/" \
  "$root/it/bench/framer/FramerLoop.java" > "$work/old-loop-src/FramerLoop.java"
javac --release 17 -nowarn -cp "$netty:$work/old" -d "$work/old-loop" "$work/old-loop-src/FramerLoop.java"

exec java -Xms256m -Xmx256m -cp "$work/loop:$netty" io.stampede.bench.framer.FramerBenchmark \
  --old-name "at $old ($(git -C "$root" log -1 --format='%h %cs' "$old"))" \
  --old-classes "$work/old" --new-classes "$root/plugins/target/classes" --loop-classes "$work/loop" \
  --old-loop-classes "$work/old-loop" \
  --responses "$root/it/bench/framer/responses" "${args[@]}"
