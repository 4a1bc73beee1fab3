#!/bin/sh
# full_machine.sh — the 65,536-rank tool flow (runtime's BenchmarkFullMachine): launch
# loop.elf on 65,536 ranks, 64 per I/O node, install and activate a counting probe on
# every rank, run until the one sum-reduced value is back. Prints the benchmark's own line
# (seconds per step, peak RSS), then CPU seconds and peak RSS from /usr/bin/time and the
# load average before and after: on a shared machine wall time says little, CPU seconds
# and RSS say what the run cost.
#
#   examples/bench/full_machine.sh [BENCH]     (BENCH: FullMachine, default, Flow4096,
#                                               or FlowScale/ranks=4096 or =16384: the
#                                               full machine's flow on fewer ranks)
#
# The full machine takes /tmp/dpcl-big.lock, as exec_scaling.sh does above 8,192 ranks.
set -eu
BENCH=${1:-FullMachine}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
(cd "$ROOT" && go test -c -o "$BIN/runtime.test" ./runtime)
lock=""
[ "$BENCH" = FullMachine ] && lock="flock /tmp/dpcl-big.lock"
echo "load before: $(uptime)"
( cd "$ROOT/runtime" && $lock /usr/bin/time -f '%e %U %S %M' -o "$BIN/time" \
	"$BIN/runtime.test" -test.run '^$' -test.bench "Benchmark$BENCH\$" -test.benchtime 1x ) | grep "^Benchmark"
read -r wall usr sys rss <"$BIN/time"
echo "cpu ${usr}s user + ${sys}s sys, peak RSS $((rss / 1024)) MiB, wall ${wall}s"
echo "load after: $(uptime)"
