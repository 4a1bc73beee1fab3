#!/bin/sh
# mips.sh — simulation speed: millions of simulated PowerPC 440 instructions per second on
# recursive fib(32) and a tight arithmetic loop (ppc/testdata/exec), each run translated
# to amd64 code and interpreted (BenchmarkMIPS/<prog>/translated and /interpreted, with
# the share of instructions that ran translated), with qemu-ppc -cpu 440epx timed on the
# same binaries in the same run, and the bytes each additional process of one static
# glibc image costs before it runs.
#
#   examples/bench/mips.sh [COUNT]
#
# Prints the benchmark lines COUNT times (default 5) and the medians. MIPS is per wall
# second, cpuMIPS per CPU second of the running thread (or qemu process): on a busy
# machine compare cpuMIPS. Instruction counts are the interpreter's; qemu runs the same
# instructions.
set -eu
COUNT=${1:-5}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
cd "$ROOT"
go test -run '^$' -bench 'MIPS|QEMU|ProcessBytes' -benchtime 3x -count "$COUNT" ./ppc/ | tee "$OUT"
echo
echo "medians over $COUNT runs:"
awk '
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	for (i = 3; i < NF; i++) if ($(i + 1) ~ /MIPS|B\/proc/) { key = name " " $(i + 1); v[key] = v[key] " " $i }
}
END {
	for (k in v) {
		n = split(substr(v[k], 2), a, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		m = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		printf "  %-32s %12.1f\n", k, m
	}
}' "$OUT" | sort
