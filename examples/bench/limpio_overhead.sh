#!/bin/sh
# limpio_overhead.sh — what limpio.profile costs: jacobi and cg at 256 ranks, bare and
# profiled, alternating (one `go test -bench` pass over the four cases per run), RUNS runs;
# prints each case's median wall time and its virtual end time (the last rank's exit), and
# the profiled/bare ratios. Virtual time does not depend on the host; wall time does.
#
#   examples/bench/limpio_overhead.sh [RUNS]
set -eu
RUNS=${1:-5}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
cd "$ROOT"
go test -c -o "$OUT.test" ./cmd/dpclsh
trap 'rm -f "$OUT" "$OUT.test"' EXIT
i=0
while [ "$i" -lt "$RUNS" ]; do
	i=$((i + 1))
	(cd cmd/dpclsh && "$OUT.test" -test.run '^$' -test.bench 'BenchmarkLimpioProfile' -test.benchtime 1x) |
		grep '^BenchmarkLimpioProfile/' >>"$OUT"
done
awk '{ name = $1; sub(/-[0-9]+$/, "", name); sub(/^BenchmarkLimpioProfile\//, "", name)
       wall[name] = wall[name] " " $3; virt[name] = $5 }
     END {
       for (n in wall) {
         k = split(substr(wall[n], 2), w, " ")
         for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (w[j] + 0 < w[i] + 0) { t = w[i]; w[i] = w[j]; w[j] = t }
         med[n] = w[int((k + 1) / 2)]
         printf "%-16s median wall %7.3f s of %d runs, virtual end %.0f ns\n", n, med[n] / 1e9, k, virt[n]
       }
       for (n in wall) if (n ~ /profile$/) {
         b = n; sub(/profile$/, "bare", b)
         printf "%-16s overhead: virtual %+.1f%%, wall x%.2f\n", n, 100 * (virt[n] / virt[b] - 1), med[n] / med[b]
       }
     }' "$OUT" | sort
