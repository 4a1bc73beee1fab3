package netreduce

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// The micro-benchmarks of the MRNet paper (seed 004, section 4.1 and Figure 5):
// instantiation, round trip (one broadcast followed by one sum reduction) and pipelined
// reduction throughput. Run, e.g.:
//
//	go test -run ^$ -bench 'Micro' -benchtime 2000x ./netreduce/
//	go test -run ^$ -bench 'Figure5' -benchtime 3x ./netreduce/

// burstHandler answers a request {n} with n packets {1}: MRNet's benchmark back-ends
// send a stream of values after one request from the front-end.
var burstHandler = BackendBehaviours["burst"]

func benchNet(b *testing.B, spec string, tr Transport) (*Network, *Stream) {
	b.Helper()
	topo, err := LoadTopology(spec)
	if err != nil {
		b.Fatal(err)
	}
	n, err := New(topo, Options{Transport: tr, Backend: burstHandler})
	if err != nil {
		b.Fatal(err)
	}
	s, err := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}})
	if err != nil {
		b.Fatal(err)
	}
	return n, s
}

func recvB(b *testing.B, s *Stream, want int64) {
	p, err := s.Recv(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	if p.Values[0] != want {
		b.Fatalf("sum %v, want %d", p.Values[0], want)
	}
}

// benchRoundTrip times broadcast + sum reduction round trips.
func benchRoundTrip(b *testing.B, spec string, tr Transport) {
	n, s := benchNet(b, spec, tr)
	defer n.Close()
	nb := int64(n.Backends())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Send(FirstAppTag, "%ld", int64(1))
		recvB(b, s, nb)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/roundtrip")
}

// benchReduce times pipelined reductions: b.N waves of one packet per back-end each.
func benchReduce(b *testing.B, spec string, tr Transport) {
	n, s := benchNet(b, spec, tr)
	defer n.Close()
	nb := int64(n.Backends())
	const burst = 256
	b.ResetTimer()
	for done := 0; done < b.N; {
		k := min(burst, b.N-done)
		s.Send(FirstAppTag, "%ld", int64(k))
		for j := 0; j < k; j++ {
			recvB(b, s, nb)
		}
		done += k
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/secs, "reductions/s")
	b.ReportMetric(float64(b.N)*float64(nb)/secs, "be-packets/s")
}

func benchInstantiate(b *testing.B, spec string, tr Transport) {
	topo, err := LoadTopology(spec)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n, err := New(topo, Options{Transport: tr, Backend: burstHandler})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		n.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/instantiation")
}

var microTopologies = []string{"b:4^2", "b:8^2", "b:4^3"}

func BenchmarkMicro(b *testing.B) {
	transports := []struct {
		name string
		tr   func() Transport
	}{
		{"inproc", func() Transport { return InProcess{} }},
		{"tcp", func() Transport { return tcpForTest(nil) }},
	}
	for _, t := range transports {
		for _, spec := range microTopologies {
			b.Run(fmt.Sprintf("%s/%s/instantiate", t.name, spec), func(b *testing.B) { benchInstantiate(b, spec, t.tr()) })
			b.Run(fmt.Sprintf("%s/%s/roundtrip", t.name, spec), func(b *testing.B) { benchRoundTrip(b, spec, t.tr()) })
			b.Run(fmt.Sprintf("%s/%s/reduce", t.name, spec), func(b *testing.B) { benchReduce(b, spec, t.tr()) })
		}
	}
}

// figure5 are the shapes of seed 004 Figure 5: flat, 4-ary and 8-ary trees with the same
// number of back-ends (where 8-ary cannot reach the count exactly the root fan-out differs).
var figure5 = []struct {
	backends          int
	flat, four, eight string
}{
	{16, "flat:16", "b:4^2", "b:2x8"},
	{64, "flat:64", "b:4^3", "b:8^2"},
	{512, "flat:512", "b:2x4x4x4x4", "b:8^3"},
	{4096, "flat:4096", "b:4^6", "b:8^4"},
	{65536, "flat:65536", "b:4^8", "b:2x8x8x8x8x8"},
}

func BenchmarkFigure5(b *testing.B) {
	for _, row := range figure5 {
		for _, shape := range []struct{ name, spec string }{{"flat", row.flat}, {"4-ary", row.four}, {"8-ary", row.eight}} {
			prefix := fmt.Sprintf("%s/%d", shape.name, row.backends)
			b.Run(prefix+"/instantiate", func(b *testing.B) { benchInstantiate(b, shape.spec, InProcess{}) })
			b.Run(prefix+"/roundtrip", func(b *testing.B) { benchRoundTrip(b, shape.spec, InProcess{}) })
			b.Run(prefix+"/reduce", func(b *testing.B) { benchReduce(b, shape.spec, InProcess{}) })
		}
	}
}

// BenchmarkFigure5TCP is Figure 5's shape over TCP, up to 512 back-ends.
func BenchmarkFigure5TCP(b *testing.B) {
	for _, row := range figure5[:3] {
		for _, shape := range []struct{ name, spec string }{{"4-ary", row.four}, {"8-ary", row.eight}} {
			prefix := fmt.Sprintf("%s/%d", shape.name, row.backends)
			b.Run(prefix+"/instantiate", func(b *testing.B) { benchInstantiate(b, shape.spec, tcpForTest(nil)) })
			b.Run(prefix+"/roundtrip", func(b *testing.B) { benchRoundTrip(b, shape.spec, tcpForTest(nil)) })
			b.Run(prefix+"/reduce", func(b *testing.B) { benchReduce(b, shape.spec, tcpForTest(nil)) })
		}
	}
}

// BenchmarkFlatTCPBackendProcesses is Figure 5's flat tree over TCP as MRNet runs it:
// every back-end is an OS process of its own (this test binary re-executed, running the
// burst behaviour) that connects to the front-end and authenticates. Its instantiation
// is host time (this is the benchmark of a real network, not the simulation): starting
// the processes one after the other, their connections and handshakes. Run, e.g.:
//
//	go test -run ^$ -bench 'FlatTCPBackendProcesses' -benchtime 3x ./netreduce/
func BenchmarkFlatTCPBackendProcesses(b *testing.B) {
	for _, n := range []int{8, 16, 32, 64} {
		spec := fmt.Sprintf("flat:%d", n)
		tr := func() Transport { return tcpWithBackendProcesses("burst") }
		b.Run(fmt.Sprintf("flat/%d/instantiate", n), func(b *testing.B) { benchInstantiate(b, spec, tr()) })
		b.Run(fmt.Sprintf("flat/%d/roundtrip", n), func(b *testing.B) { benchRoundTrip(b, spec, tr()) })
		b.Run(fmt.Sprintf("flat/%d/reduce", n), func(b *testing.B) { benchReduce(b, spec, tr()) })
	}
}

// BenchmarkMemory65536 reports the heap and goroutines a 65,536-back-end tree costs.
func BenchmarkMemory65536(b *testing.B) {
	for _, spec := range []string{"b:4^8", "b:2x8x8x8x8x8", "bgl:65536:64:8", "flat:65536"} {
		b.Run(spec, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				g0 := runtime.NumGoroutine()
				topo, err := LoadTopology(spec)
				if err != nil {
					b.Fatal(err)
				}
				n, err := New(topo, Options{Backend: burstHandler})
				if err != nil {
					b.Fatal(err)
				}
				s, _ := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}})
				s.Send(FirstAppTag, "%ld", int64(1))
				recvB(b, s, 65536)
				time.Sleep(10 * time.Millisecond)
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapInuse+after.StackInuse-before.HeapInuse-before.StackInuse)/65536, "bytes/backend")
				b.ReportMetric(float64(runtime.NumGoroutine()-g0), "goroutines")
				n.Close()
			}
		})
	}
}
