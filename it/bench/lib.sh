# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# The preamble the benchmarks in it/bench share. A benchmark sources it first:
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# and then has:
#   root, bench          the checkout's root folder and the script's name (for messages)
#   bench_classpath      the benchmark classes (it's test classes) and the command line's classes they use (src)
#   bench_build          true until --skip-build is given
#   bench_option ARG     handles --skip-build and -h/--help; returns 1 for any other argument
#   bench_usage          prints the script's usage block: its comment lines from line 3 to the first line of code
#   bench_need HINT TOOL...   exits 2 naming a missing tool, with HINT (how to install it)
#   bench_maven ARGS...  runs `mvn -B -q ARGS` in the checkout unless --skip-build was given
#   bench_profiler DIR   unpacks async-profiler's native library under DIR/lib and prints its path
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bench=$(basename "$0" .sh)
bench_build=true
bench_classpath="$root/it/target/test-classes:$root/src/target/classes"

bench_usage() {
  awk 'NR >= 3 { if ($0 !~ /^#/) exit; sub(/^# ?/, ""); if (started || $0 != "") { started = 1; print } }' "$0"
}

bench_option() {
  case "$1" in
    --skip-build) bench_build=false ;;
    -h|--help) bench_usage; exit 0 ;;
    *) return 1 ;;
  esac
}

bench_need() {
  local hint=$1 tool
  shift
  for tool in "$@"; do
    command -v "$tool" >/dev/null || [[ -x /usr/sbin/$tool ]] || {
      echo "$bench: '$tool' is missing; $hint" >&2
      exit 2
    }
  done
}

bench_maven() {
  if $bench_build; then
    echo "$bench: building (mvn $*) ..." >&2
    (cd "$root" && mvn -B -q "$@")
  fi
}

bench_profiler() {
  local dir=$1 agent
  agent=$(find "$HOME/.m2/repository/tools/profiler/async-profiler" -name 'async-profiler-*-linux-x64.jar' 2>/dev/null \
    | sort | tail -1)
  [[ -n $agent ]] || {
    echo "$bench: --profile needs async-profiler:" \
      "mvn dependency:get -Dartifact=tools.profiler:async-profiler:4.1:jar:linux-x64" >&2
    exit 2
  }
  mkdir -p "$dir/lib" && (cd "$dir/lib" && unzip -o -q "$agent" 'linux-x64/*')
  echo "$(cd "$dir" && pwd)/lib/linux-x64/libasyncProfiler.so"
}
