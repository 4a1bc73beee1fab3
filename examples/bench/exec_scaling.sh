#!/bin/sh
# exec_scaling.sh — how the full-machine run scales: `dpclsh exec` of the MPI hello
# (examples/apps/bin/hello_mpi.elf), 64 compute nodes per I/O node, at 1,024, 4,096, 16,384
# and 65,536 ranks, as CSV on stdout: wall time, CPU time and peak RSS per size, and the
# cost per rank, so a flat line says the machine scales linearly.
#
#   examples/bench/exec_scaling.sh [RUNS [SIZES...]] > scaling.csv
#
# Each size runs RUNS times (default 3); the row holds the medians. Runs above 8,192
# ranks take /tmp/dpcl-big.lock so only one large simulation uses the machine's memory at
# a time. The environment is emptied (env -i) so every size runs the same instructions.
# exec_scaling.csv next to this script holds a run of it.
set -eu
RUNS=${1:-3}
[ $# -gt 0 ] && shift
SIZES=${*:-1024 4096 16384 65536}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
(cd "$ROOT" && go build -o "$BIN/dpclsh" ./cmd/dpclsh)
ELF="$ROOT/examples/apps/bin/hello_mpi.elf"

# median prints the median of the numbers on stdin.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "ranks,wall_s,user_s,sys_s,cpu_s,peak_rss_mib,rss_bytes_per_rank,cpu_us_per_rank"
for n in $SIZES; do
	lock=""
	[ "$n" -gt 8192 ] && lock="flock /tmp/dpcl-big.lock"
	: >"$BIN/samples"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		( cd "$BIN" && $lock env -i PATH="$PATH" /usr/bin/time -f '%e %U %S %M' -o "$BIN/time" \
			./dpclsh exec --nodes "$n" --per-io 64 "$ELF" >"$BIN/out" 2>"$BIN/err" ) || {
			echo "exec_scaling: $n ranks failed:" >&2
			cat "$BIN/err" >&2
			exit 1
		}
		lines=$(wc -l <"$BIN/out")
		if [ "$lines" -ne "$n" ]; then
			echo "exec_scaling: $n ranks: expected $n lines of output, got $lines" >&2
			exit 1
		fi
		cat "$BIN/time" >>"$BIN/samples"
	done
	wall=$(cut -d' ' -f1 "$BIN/samples" | median)
	usr=$(cut -d' ' -f2 "$BIN/samples" | median)
	sys=$(cut -d' ' -f3 "$BIN/samples" | median)
	rss=$(cut -d' ' -f4 "$BIN/samples" | median)
	awk -v n="$n" -v w="$wall" -v u="$usr" -v s="$sys" -v r="$rss" 'BEGIN {
		printf "%d,%.2f,%.2f,%.2f,%.2f,%.0f,%.0f,%.1f\n", n, w, u, s, u + s, r / 1024, r * 1024 / n, (u + s) * 1e6 / n
	}'
done
