#!/bin/sh
# comd.sh — an unmodified proxy app on the simulated machine: CoMD (Lennard-Jones) built
# with `dpclsh cc` and run with `dpclsh exec --stats` on 64 and 512 ranks at the same
# atoms per rank (13 and 26 unit cells per side, 4x4x4 and 8x8x8 ranks, 10 steps), as CSV
# on stdout: wall time, CPU time (user+sys), peak RSS (/usr/bin/time -v), simulated
# instructions, and millions of simulated instructions per wall second and per CPU second
# (the figure to trust on a shared box), medians of RUNS runs (default 3).
#
#   examples/bench/comd.sh [RUNS [SIZES...]] > comd.csv      (SIZES among 1 8 64 512 4096)
#
# CoMD's sources stay outside the repository: $DPCL_REALAPPS/CoMD, else
# ../shared/realapps/CoMD beside the checkout. They are copied to a temporary directory,
# where CoMD_info.h is generated as CoMD's Makefile does. comd.csv next to this script holds
# `comd.sh 3 64` and `comd.sh 1 512` on the 2-core box with nothing else running (load 1.6-1.9).
set -eu
RUNS=${1:-3}
[ $# -gt 0 ] && shift
SIZES=${*:-64 512}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
APPS=${DPCL_REALAPPS:-$ROOT/../shared/realapps}
[ -f "$APPS/CoMD/src-mpi/CoMD.c" ] || { echo "comd.sh: no CoMD at $APPS/CoMD (set DPCL_REALAPPS)" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(cd "$ROOT" && go build -o "$WORK/dpclsh" ./cmd/dpclsh)
cp -r "$APPS/CoMD/src-mpi" "$WORK/src"
cp -r "$APPS/CoMD/pots" "$WORK/pots"
(cd "$WORK/src" && ./generate_info_header CoMD-mpi cc "" "" >/dev/null)
(cd "$WORK" && ./dpclsh cc -std=c99 -DDO_MPI -DDOUBLE -O2 -ffp-contract=off -o comd.elf src/*.c)

# median prints the median of the numbers on stdin.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "ranks,cells,steps,instructions,wall_s,cpu_s,peak_rss_mib,sim_mips,sim_mips_per_cpu_s"
for n in $SIZES; do
	case $n in
	1) d=1 cells=4 ;;
	8) d=2 cells=7 ;;
	64) d=4 cells=13 ;;
	512) d=8 cells=26 ;;
	4096) d=16 cells=52 ;;
	*) echo "comd.sh: size $n not one of 1 8 64 512 4096" >&2; exit 2 ;;
	esac
	lock=""
	[ "$n" -gt 512 ] && lock="flock /tmp/dpcl-big.lock"
	: >"$WORK/samples"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		( cd "$WORK" && $lock /usr/bin/time -v -o "$WORK/time" ./dpclsh exec --stats --nodes "$n" comd.elf \
			-i $d -j $d -k $d -x $cells -y $cells -z $cells -N 10 -n 5 >"$WORK/out" 2>"$WORK/err" ) || {
			echo "comd.sh: $n ranks failed:" >&2
			cat "$WORK/err" >&2
			exit 1
		}
		ins=$(sed -n 's/.*status 0, \([0-9]*\) instructions.*/\1/p' "$WORK/err")
		wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + p[k]; print s }' "$WORK/time")
		rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$WORK/time")
		cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$WORK/time")
		echo "$ins $wall $rss $cpu" >>"$WORK/samples"
	done
	ins=$(awk '{ print $1 }' "$WORK/samples" | median)
	wall=$(awk '{ print $2 }' "$WORK/samples" | median)
	rss=$(awk '{ print $3 }' "$WORK/samples" | median)
	cpu=$(awk '{ print $4 }' "$WORK/samples" | median)
	awk -v n="$n" -v c="$cells" -v ins="$ins" -v w="$wall" -v r="$rss" -v cpu="$cpu" \
		'BEGIN { printf "%d,%d,10,%.0f,%.2f,%.2f,%.1f,%.1f,%.1f\n", n, c, ins, w, cpu, r / 1024, ins / w / 1e6, ins / cpu / 1e6 }'
done
