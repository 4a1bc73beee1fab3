package bgl

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// twinEvent is an arrival or a receive posting for the naive twin.
type twinEvent struct {
	t       uint64
	arrival bool
	src     int
	seq     uint64
	tag     int32
	recv    int // index of the receive (postings)
}

// naiveMatch plays arrivals and postings one by one in time order (arrivals first at
// equal times, then by source and sequence): an arrival takes the first pending receive it
// matches, in posting order; a posting takes the first unexpected message it matches, in
// arrival order. It returns, per receive, "src/seq" or "".
func naiveMatch(events []twinEvent, recvs []*mpiReq) []string {
	slices.SortStableFunc(events, func(a, b twinEvent) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		if a.arrival != b.arrival {
			if a.arrival {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.src, b.src), cmp.Compare(a.seq, b.seq))
	})
	got := make([]string, len(recvs))
	var pending []int
	var unexpected []twinEvent
	for _, ev := range events {
		if ev.arrival {
			m := &mpiMsg{src: ev.src, ctx: mpiCommWorld, tag: ev.tag}
			i := slices.IndexFunc(pending, func(r int) bool { return recvs[r].matches(m) })
			if i < 0 {
				unexpected = append(unexpected, ev)
				continue
			}
			got[pending[i]] = fmt.Sprintf("%d/%d", ev.src, ev.seq)
			pending = slices.Delete(pending, i, i+1)
			continue
		}
		q := recvs[ev.recv]
		i := slices.IndexFunc(unexpected, func(u twinEvent) bool { return q.matches(&mpiMsg{src: u.src, ctx: mpiCommWorld, tag: u.tag}) })
		if i < 0 {
			pending = append(pending, ev.recv)
			continue
		}
		got[ev.recv] = fmt.Sprintf("%d/%d", unexpected[i].src, unexpected[i].seq)
		unexpected = slices.Delete(unexpected, i, i+1)
	}
	return got
}

// TestMPIMatchingAgainstNaiveTwin drives the engine's matching with random sends (of
// random sizes, so arrivals from different sources interleave) and random receives with
// wildcards, the engine seeing them in time order and progressing lazily as calls come;
// the matches must equal those of the naive twin, which plays every event eagerly.
func TestMPIMatchingAgainstNaiveTwin(t *testing.T) {
	j, err := Launch(JobConfig{Exe: "testdata/bin/hello.elf", Nodes: 8, Workdir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	n := j.nodes[0]
	bufs := n.cpu.GPR[1] - 64<<10 // receive buffers on rank 0's stack, below the stack pointer
	rng := rand.New(rand.NewPCG(1, 2))
	matched := 0
	world := &mpiComm{id: mpiCommWorld, size: 8}
	for trial := 0; trial < 300; trial++ {
		e := &mpiEngine{ranks: make([]mpiRank, 8), colls: map[collKey]*mpiColl{}}
		var twin []twinEvent
		var recvs []*mpiReq
		var now uint64
		for k := 0; k < 40; k++ {
			now += uint64(rng.IntN(3000))
			if rng.IntN(2) == 0 {
				src, tag := 1+rng.IntN(7), int32(rng.IntN(3))
				data := make([]byte, 8+rng.IntN(392)) // the sequence number leads
				be.PutUint64(data, e.ranks[src].sendSeq+1)
				e.send(j, src, 0, mpiCommWorld, tag, data, mpiCharge{}, now, nil)
				m := findMsg(e.ranks[0].future, src, e.ranks[src].sendSeq)
				twin = append(twin, twinEvent{t: m.arrival, arrival: true, src: src, seq: m.seq, tag: tag})
				continue
			}
			q := &mpiReq{recv: true, comm: world, src: int32(rng.IntN(8)), tag: int32(rng.IntN(4)) - 1, buf: bufs + uint32(512*len(recvs)), cap: 400}
			if q.src == 0 {
				q.src = mpiAnySource
			}
			if err := e.post(n, q, now); err != nil {
				t.Fatal(err)
			}
			twin = append(twin, twinEvent{t: now, recv: len(recvs)})
			recvs = append(recvs, q)
		}
		if err := e.progress(n, ^uint64(0)); err != nil {
			t.Fatal(err)
		}
		want := naiveMatch(twin, recvs)
		for i, q := range recvs {
			got := ""
			if q.done {
				b, errno := n.proc.copyIn(q.buf, 8)
				if errno != 0 {
					t.Fatal(errno)
				}
				got = fmt.Sprintf("%d/%d", q.st.src, be.Uint64(b))
			}
			if got != "" {
				matched++
			}
			if got != want[i] {
				t.Fatalf("trial %d: receive %d (source %d, tag %d) got %q, the twin %q", trial, i, q.src, q.tag, got, want[i])
			}
		}
	}
	if matched < 1000 {
		t.Errorf("only %d receives matched in all trials: the test exercises too little", matched)
	}
}

func findMsg(ms []*mpiMsg, src int, seq uint64) *mpiMsg {
	for _, m := range ms {
		if m.src == src && m.seq == seq {
			return m
		}
	}
	panic("message not deposited")
}

// TestMPIErrorEndsTheJob: a receive that would truncate its message is fatal, as under
// MPI_ERRORS_ARE_FATAL: the job ends with the error class, naming rank and call.
func TestMPIErrorEndsTheJob(t *testing.T) {
	var stderr strings.Builder
	j, err := Launch(JobConfig{Exe: "testdata/bin/hello.elf", Nodes: 3, Workdir: t.TempDir(), Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	e := &mpiEngine{ranks: make([]mpiRank, 3), colls: map[collKey]*mpiColl{}}
	n := j.nodes[1]
	e.send(j, 2, 1, mpiCommWorld, 5, make([]byte, 16), mpiCharge{}, 0, nil)
	q := &mpiReq{recv: true, comm: &mpiComm{id: mpiCommWorld, size: 3}, src: 2, tag: 5, buf: n.cpu.GPR[1] - 256, cap: 8}
	if err := e.post(n, q, 10_000); err == nil {
		t.Fatal("a 16-byte message into an 8-byte receive was accepted")
	} else if res := e.fail(j, n, &mpiCall{num: abi.HcMPIRecv}, err); !res.Exit || res.Status != mpiErrTruncate {
		t.Errorf("failing rank's result %+v, want exit %d", res, mpiErrTruncate)
	}
	end := e.ended
	if end == nil || end.Kind != MPIEndError || end.Rank != 1 || end.Status != mpiErrTruncate {
		t.Fatalf("end %+v", end)
	}
	for _, k := range []int{0, 2} {
		if j.nodes[k].state != nodeExited || j.nodes[k].exit.Status != mpiErrTruncate {
			t.Errorf("rank %d: state %v status %d", k, j.nodes[k].state, j.nodes[k].exit.Status)
		}
	}
	j.fe.flushAll()
	want := "dpclsh: rank 1: MPI_Recv at pc 0x00000000: message of 16 bytes from rank 2 (tag 5) truncated: the receive buffer holds 8 (MPI_ERR_TRUNCATE): ending the job\n"
	if stderr.String() != want {
		t.Errorf("stderr %q\nwant   %q", stderr.String(), want)
	}
}
