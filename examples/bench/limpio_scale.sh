#!/bin/sh
# limpio_scale.sh — `dpclsh profile` of a whole machine: hello_mpi (or another program) on
# 65,536 ranks, 64 per I/O node. Counts and times stay in the ranks' memory; at exit every
# rank sends its row and the tree's eqclass filter collapses identical rows, so the table
# is a few lines whatever the size.
#
#   flock /tmp/dpcl-big.lock examples/bench/limpio_scale.sh [NODES [RUNS [PROGRAM.elf [ARGS...]]]]
#
# Prints, per run, wall time, CPU seconds and peak RSS (from /usr/bin/time -v) and the
# number of lines the profile printed, then the medians; the last run's table follows.
# Wall time is sensitive to other load on the machine; CPU seconds less so.
set -eu
NODES=${1:-65536}
RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PROG=${3:-$ROOT/examples/apps/bin/hello_mpi.elf}
shift $(( $# < 3 ? $# : 3 ))
BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
(cd "$ROOT" && go build -o "$BIN/dpclsh" ./cmd/dpclsh)
: "${GOMEMLIMIT:=8GiB}"
export GOMEMLIMIT

echo "dpclsh profile --nodes $NODES $(basename "$PROG") $*, $RUNS runs, GOMAXPROCS=${GOMAXPROCS:-$(nproc)}, GOMEMLIMIT=$GOMEMLIMIT"
i=0
while [ "$i" -lt "$RUNS" ]; do
	i=$((i + 1))
	( cd "$BIN" && env -i PATH="$PATH" GOMEMLIMIT="$GOMEMLIMIT" /usr/bin/time -v ./dpclsh profile \
		--nodes "$NODES" "$PROG" "$@" >"$BIN/out" 2>"$BIN/err" ) || { cat "$BIN/err" >&2; exit 1; }
	lines=$(wc -l <"$BIN/out")
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$BIN/err")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$BIN/err")
	usr=$(sed -n 's/.*User time (seconds): //p' "$BIN/err")
	sys=$(sed -n 's/.*System time (seconds): //p' "$BIN/err")
	secs=$(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
	cpu=$(echo "$usr $sys" | awk '{ print $1 + $2 }')
	echo "run $i: wall ${secs}s, cpu ${cpu}s, peak RSS $((rss / 1024)) MiB, $lines lines printed"
	echo "$secs $rss $cpu" >>"$BIN/samples"
done
m=$(( (RUNS + 1) / 2 ))
wall=$(sort -n "$BIN/samples" | sed -n "${m}p" | cut -d' ' -f1)
rss=$(sort -n -k2 "$BIN/samples" | sed -n "${m}p" | cut -d' ' -f2)
cpu=$(sort -n -k3 "$BIN/samples" | sed -n "${m}p" | cut -d' ' -f3)
echo "median: wall ${wall}s, cpu ${cpu}s, peak RSS $((rss / 1024)) MiB ($((rss * 1024 / NODES)) bytes per rank)"
cat "$BIN/out"
