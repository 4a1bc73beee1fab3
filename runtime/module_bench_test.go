package runtime

import "testing"

// BenchmarkLoadModule4096 loads the counters module into 4,096 stopped ranks (64 per I/O
// node): link once, one write command to 64 daemons. It reports the bytes of module image
// written per rank.
func BenchmarkLoadModule4096(b *testing.B) {
	benchLoadModule(b, 4096)
}

// BenchmarkLoadModule1024 is the same on 1,024 ranks.
func BenchmarkLoadModule1024(b *testing.B) {
	benchLoadModule(b, 1024)
}

func benchLoadModule(b *testing.B, nodes int) {
	var size uint32
	for range b.N {
		b.StopTimer()
		a, err := Launch(Options{Exe: loopELF, Args: []string{"1"}, Nodes: nodes, PerIO: 64})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		m, err := a.LoadModule(moduleDir + "counters-O2.o")
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		size = m.Size
		a.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(size), "bytes/rank")
}
