package dpcl

import (
	"io"
	"os"
	"syscall"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/ppc"
	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/runtime"
)

// jacobiBatches makes what limpio.trace's ranks send for a jacobi-like run: per rank and
// iteration four MPI_Irecv, four MPI_Isend to the torus neighbours, one MPI_Waitall and
// two MPI_Allreduce, in batches of 25 records as the probes fill them.
func jacobiBatches(prog *probes.Program, ranks, iters int) (map[int32]callKind, []runtime.Message) {
	id := func(name string) int64 {
		for i, f := range prog.Funcs {
			if f.Name == name {
				return int64(i)
			}
		}
		return -1
	}
	irecv, isend, waitall, allreduce := id("MPI_Irecv"), id("MPI_Isend"), id("MPI_Waitall"), id("MPI_Allreduce")
	kinds := map[int32]callKind{int32(irecv): kindIrecv, int32(isend): kindSend, int32(waitall): kindWait}
	lr := int64(0x10000400)
	if f, ok := prog.Lookup("main"); ok {
		lr = int64(f.Addr + 0x40)
	}
	const per = 25
	var msgs []runtime.Message
	for r := 0; r < ranks; r++ {
		var vals []any
		flush := func() {
			vals = append(vals, int64(len(vals)), int64(0))
			msgs = append(msgs, runtime.Message{Rank: r, Count: 1, Values: vals})
			vals = nil
		}
		rec := func(fn, t, bytes, peer, tag, comm, req, nreq int64) {
			vals = append(vals, fn, t, t+300, lr, bytes, peer, tag, comm, req, nreq, absentArg, absentArg)
			if len(vals) == per*nFields {
				flush()
			}
		}
		nbr := []int64{int64((r + 1) % ranks), int64((r + ranks - 1) % ranks), int64((r + 32) % ranks), int64((r + ranks - 32) % ranks)}
		for it := 0; it < iters; it++ {
			t := int64(it) * 100000
			for k := 0; k < 4; k++ {
				rec(irecv, t+int64(k)*400, 256, nbr[k], int64(k^1), 1, 0x7fff0000+4*int64(k), absentArg)
			}
			for k := 0; k < 4; k++ {
				rec(isend, t+2000+int64(k)*400, 256, nbr[k], int64(k), 1, 0x7fff0010+4*int64(k), absentArg)
			}
			rec(waitall, t+4000, absentArg, absentArg, absentArg, absentArg, 0x7fff0000, 8)
			rec(allreduce, t+9000, 8, absentArg, absentArg, 1, absentArg, absentArg)
			rec(allreduce, t+9500, 8, absentArg, absentArg, 1, absentArg, absentArg)
		}
		if len(vals) > 0 {
			flush()
		}
	}
	return kinds, msgs
}

// cpuSeconds is the process's user and system time: what a benchmark costs on a host
// other work also loads.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// BenchmarkEventLogPerfetto: the front-end's part of a 1,024-rank, 100-iteration jacobi
// trace (1.1 M records): decoding the batches and writing the Perfetto JSON.
func BenchmarkEventLogPerfetto(b *testing.B) {
	f, err := os.Open("../../examples/apps/bin/jacobi.elf")
	if err != nil {
		b.Skip(err)
	}
	img, err := ppc.LoadELF(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	prog := probes.NewProgram(img)
	part, err := bgl.NewPartition(1024, 64)
	if err != nil {
		b.Fatal(err)
	}
	kinds, msgs := jacobiBatches(prog, 1024, 100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cpu0 := cpuSeconds()
		log := &eventLog{prog: prog, part: part, kinds: kinds, drops: map[int32]int64{}}
		for _, m := range msgs {
			if err := log.receive(m); err != nil {
				b.Fatal(err)
			}
		}
		info, err := log.writePerfetto(io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(info.events), "events")
		b.ReportMetric(float64(info.flows), "flows")
		b.ReportMetric(float64(info.bytes), "bytes")
		b.ReportMetric(cpuSeconds()-cpu0, "cpu-s")
	}
}
