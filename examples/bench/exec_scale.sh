#!/bin/sh
# exec_scale.sh — the full-machine benchmark of the simulated Blue Gene/L: a static glibc
# hello on 65,536 compute nodes, 64 per I/O node (1,024 I/O nodes), as at LLNL.
#
#   examples/bench/exec_scale.sh [NODES [PER_IO [RUNS]]]
#
# Prints, per run, wall time and peak RSS (from /usr/bin/time -v) and dpclsh's own summary
# (instructions per rank, virtual time, private memory per rank, the ranks' environment:
# none), then the medians.
# Run it on an otherwise idle machine: wall time is sensitive to other load; the CPU
# seconds (user+sys) are printed too.
set -eu
NODES=${1:-65536}
PER_IO=${2:-64}
RUNS=${3:-3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
(cd "$ROOT" && go build -o "$BIN/dpclsh" ./cmd/dpclsh)
HELLO="$ROOT/bgl/testdata/bin/hello.elf"
: "${GOMEMLIMIT:=20GiB}"
export GOMEMLIMIT

echo "dpclsh exec --nodes $NODES --per-io $PER_IO hello.elf, $RUNS runs, GOMAXPROCS=${GOMAXPROCS:-$(nproc)}"
i=0
while [ "$i" -lt "$RUNS" ]; do
	i=$((i + 1))
	( cd "$BIN" && env -i PATH="$PATH" GOMEMLIMIT="$GOMEMLIMIT" /usr/bin/time -v ./dpclsh exec --stats \
		--nodes "$NODES" --per-io "$PER_IO" "$HELLO" >"$BIN/out" 2>"$BIN/err" )
	lines=$(wc -l <"$BIN/out")
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$BIN/err")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$BIN/err")
	usr=$(sed -n 's/.*User time (seconds): //p' "$BIN/err")
	sys=$(sed -n 's/.*System time (seconds): //p' "$BIN/err")
	# the summary line, not the line with dpclsh's own wall time (/usr/bin/time's is used)
	summary=$(sed -n '/^dpclsh exec: wall /!s/^dpclsh exec: //p' "$BIN/err")
	secs=$(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
	echo "run $i: wall ${secs}s, cpu ${usr}s user + ${sys}s sys, peak RSS $((rss / 1024)) MiB ($((rss * 1024 / NODES)) bytes per node), $lines lines"
	echo "       $summary"
	echo "$secs $rss" >>"$BIN/samples"
	if [ "$lines" -ne "$NODES" ]; then
		echo "exec_scale: expected $NODES lines of output, got $lines" >&2
		exit 1
	fi
done
m=$(( (RUNS + 1) / 2 ))
wall=$(sort -n "$BIN/samples" | sed -n "${m}p" | cut -d' ' -f1)
rss=$(sort -n -k2 "$BIN/samples" | sed -n "${m}p" | cut -d' ' -f2)
echo "median: wall ${wall}s, peak RSS $((rss / 1024)) MiB ($((rss * 1024 / NODES)) bytes per node)"
