#!/bin/sh
# shards.sh — the sharded partition at 1, 2 and 4 processes (`mpiexec -n P dpclsh --shards
# exec --stats`, a build with -tags mpi): hello.elf on 65,536 ranks, 64 per I/O node, and
# CoMD on 2,048 ranks (16x16x8 ranks, 52x52x26 unit cells: comd.sh's atoms per rank) for
# one step (-N 1, the fewest that still exchanges atom halos and forces and reduces the
# energies; 16.3 G instructions). CoMD's ten steps at 4,096 ranks are ~160 G
# instructions, and even one step (33 G) is beyond ten minutes a run on two shared cores;
# give 4096 as COMD_RANKS on a bigger box.
# Each process runs under /usr/bin/time -v (its peak RSS, CPU seconds) with
# mpi_collectives.so preloaded (the collectives it called and the host time in them), and
# the table says, per run: wall seconds of the whole mpiexec, CPU seconds of all processes,
# each process's peak RSS, the windows, the bytes exchanged (sent, all processes), the
# seconds each process waited at window ends (--stats), the collectives per process and
# the host seconds in them (the least-waiting process's, the nearest to the exchange's own
# latency). Each run's standard output and the summary line must be those of one process,
# else the script fails.
#
#   examples/bench/shards.sh [PROCS [COMD_RANKS [HELLO_RANKS]]]
#
# (defaults "1 2 4", 2048 and 65536; CoMD at 4096 ranks is 16x16x16, 52 cells a side)
#
# The load average is printed before each run: wall time on a shared machine says little,
# CPU seconds and RSS say what the run cost. shards.txt next to this script holds a run of
# it on this project's 2-core box, shared with other work (load averages 12 to 30); the
# model of bgl/doc.go's shard paragraphs is built from it. The runs take /tmp/dpcl-big.lock, as the
# other full-machine scripts do. CoMD's sources: $DPCL_REALAPPS/CoMD, else
# ../shared/realapps/CoMD beside the checkout (see comd.sh).
set -eu
PROCS=${1:-1 2 4}
COMD=${2:-2048}
HELLO=${3:-65536}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
APPS=${DPCL_REALAPPS:-$ROOT/../shared/realapps}
[ -f "$APPS/CoMD/src-mpi/CoMD.c" ] || { echo "shards.sh: no CoMD at $APPS/CoMD (set DPCL_REALAPPS)" >&2; exit 1; }
case $COMD in
4096) comd_args="-i 16 -j 16 -k 16 -x 52 -y 52 -z 52" ;;
2048) comd_args="-i 16 -j 16 -k 8 -x 52 -y 52 -z 26" ;;
512) comd_args="-i 8 -j 8 -k 8 -x 26 -y 26 -z 26" ;;
64) comd_args="-i 4 -j 4 -k 4 -x 13 -y 13 -z 13" ;;
*) echo "shards.sh: CoMD ranks $COMD not one of 64 512 2048 4096" >&2; exit 2 ;;
esac
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(cd "$ROOT" && go build -tags mpi -o "$WORK/dpclsh" ./cmd/dpclsh)
mpicc -shared -fPIC -O2 -o "$WORK/mpi_collectives.so" "$ROOT/examples/bench/mpi_collectives.c"
cp -r "$APPS/CoMD/src-mpi" "$WORK/src"
cp -r "$APPS/CoMD/pots" "$WORK/pots"
(cd "$WORK/src" && ./generate_info_header CoMD-mpi cc "" "" >/dev/null)
(cd "$WORK" && ./dpclsh cc -std=c99 -DDO_MPI -DDOUBLE -O2 -ffp-contract=off -o comd.elf src/*.c)
cp "$ROOT/bgl/testdata/bin/hello.elf" "$WORK/hello.elf"

# seconds turns /usr/bin/time's h:mm:ss or m:ss into seconds.
seconds() { awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'; }

# run NAME P ARGS... runs dpclsh exec --stats ARGS on P processes in $WORK/NAME.P.*,
# checks its output against the run on the first P, and prints its table row.
run() {
	name=$1 p=$2
	shift 2
	out=$WORK/$name.$p
	echo "load before $name -n $p: $(uptime | sed 's/.*load average/load average/')" >&2
	start=$(date +%s.%N)
	( cd "$WORK" && flock /tmp/dpcl-big.lock mpiexec -n "$p" sh -c \
		'so=$1; shift; exec /usr/bin/time -v -o "$0.time.$PMI_RANK" env LD_PRELOAD="$so" DPCL_COLLECTIVES="$0.coll" "$@"' \
		"$out" "$WORK/mpi_collectives.so" "$WORK/dpclsh" --shards exec --stats "$@" >"$out.stdout" 2>"$out.stderr" ) || {
		echo "shards.sh: $name on $p processes failed:" >&2
		tail -20 "$out.stderr" >&2
		exit 1
	}
	wall=$(echo "$(date +%s.%N) $start" | awk '{ printf "%.1f", $1 - $2 }')
	grep -v -e '^dpclsh exec: wall ' -e '^dpclsh exec: shard ' "$out.stderr" >"$out.summary"
	if [ -z "${first:-}" ]; then
		first=$out
	elif ! cmp -s "$first.stdout" "$out.stdout" || ! cmp -s "$first.summary" "$out.summary"; then
		echo "shards.sh: $name on $p processes printed other bytes than on ${first##*.}:" >&2
		diff "$first.summary" "$out.summary" >&2 || true
		exit 1
	fi
	cpu=0 rss=""
	i=0
	while [ "$i" -lt "$p" ]; do
		t=$out.time.$i
		cpu=$(awk -v c="$cpu" -F': ' '/User time|System time/ { c += $2 } END { printf "%.1f", c }' "$t")
		rss="$rss${rss:+/}$(awk -F': ' '/Maximum resident set size/ { printf "%d", $2 / 1024 }' "$t")"
		i=$((i + 1))
	done
	# the --stats lines: "shard k of P: psets a-b, R ranks, I instructions, W windows,
	# S bytes sent, B received, X s waiting at window ends"
	stats=$(sed -n 's/^dpclsh exec: shard [0-9]* of [0-9]*: //p' "$out.stderr" | awk -F', ' '
		{ split($4, w, " "); split($5, s, " "); split($7, x, " ")
		  windows = w[1]; sent += s[1]; waits = waits (NR > 1 ? "/" : "") sprintf("%.1f", x[1])
		  if (NR == 1 || x[1] < least) { least = x[1]; leastk = NR - 1 } }
		END { printf "%s %d %s %d", windows, sent, waits, leastk }')
	set -- $stats
	windows=$1 sent=$2 waits=$3 least=$4
	# allreduces/alltoalls/alltoallvs (one alltoall and one alltoallv per exchange of
	# records) and the seconds in all of them
	coll=$(awk '{ n[$1] = $2; s += $3 } END { printf "%d/%d/%d %.2f", n["allreduce"] + n["barrier"], n["alltoall"], n["alltoallv"], s }' "$out.coll.$least")
	set -- $coll
	printf '%-6s %2d %8.1f %8.1f %-20s %8d %12d %-28s %-16s %8.2f\n' \
		"$name" "$p" "$wall" "$cpu" "$rss" "$windows" "$sent" "$waits" "$1" "$2"
}

printf '%-6s %2s %8s %8s %-20s %8s %12s %-28s %-16s %8s\n' \
	app P wall_s cpu_s rss_mib_each windows bytes_sent wait_s_each ar/a2a/a2av coll_s
first=""
for p in $PROCS; do
	run hello "$p" --nodes "$HELLO" --per-io 64 hello.elf
done
first=""
for p in $PROCS; do
	# shellcheck disable=SC2086
	run comd "$p" --nodes "$COMD" comd.elf $comd_args -N 1 -n 1
done
