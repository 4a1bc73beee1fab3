package bgl

import (
	"io"
	"testing"
)

// BenchmarkMPIJacobi runs jacobi (halo exchange plus two Allreduces per sweep) on 1,024
// ranks and reports simulated instructions per wall second. The full-machine figure comes
// from `/usr/bin/time -v dpclsh exec --stats --nodes 65536 examples/apps/bin/hello_mpi.elf`.
func BenchmarkMPIJacobi(b *testing.B) {
	const nodes = 1024
	for i := 0; i < b.N; i++ {
		res, err := Run(JobConfig{Exe: "../examples/apps/bin/jacobi.elf", Args: []string{"512", "40"},
			Nodes: nodes, Stdout: io.Discard})
		if err != nil || res.ExitStatus() != 0 {
			b.Fatalf("jacobi: %v (status %d)", err, res.ExitStatus())
		}
		b.ReportMetric(float64(res.Instructions)/res.Wall.Seconds(), "instr/s")
		b.ReportMetric(float64(res.TimeNS)/1e3, "virtual-µs")
		b.ReportMetric(float64(res.PrivateBytes)/nodes, "bytes/node")
	}
}
