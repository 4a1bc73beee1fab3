package bgl

import (
	"io"
	"testing"
)

// BenchmarkHelloNodes runs the static glibc hello on a 4,096-node partition (64 per I/O
// node) and reports per-node figures; examples/bench/exec_scale.sh runs the full 65,536.
func BenchmarkHelloNodes(b *testing.B) {
	const nodes = 4096
	for i := 0; i < b.N; i++ {
		res, err := Run(JobConfig{Exe: "testdata/bin/hello.elf", Nodes: nodes, Workdir: b.TempDir(), Stdout: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Instructions)/nodes, "instr/node")
		b.ReportMetric(float64(res.TimeNS)/1e3, "virtual-µs")
	}
}

// BenchmarkLaunch measures loading the image once and creating 4,096 processes.
func BenchmarkLaunch(b *testing.B) {
	for i := 0; i < b.N; i++ {
		j, err := Launch(JobConfig{Exe: "testdata/bin/hello.elf", Nodes: 4096, Workdir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		j.Close()
	}
}
