package bgl

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQueueOrder checks the heap against a naive twin: sorting by (at, src, seq).
func TestQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 50; round++ {
		var q msgQueue
		var all []*message
		for i := 0; i < 200; i++ {
			m := &message{at: uint64(rng.IntN(20)), src: rng.IntN(5), seq: uint64(i)}
			q.push(m)
			all = append(all, m)
		}
		slices.SortFunc(all, func(a, b *message) int {
			switch {
			case a.before(b):
				return -1
			case b.before(a):
				return 1
			}
			return 0
		})
		for i, want := range all {
			if got := q.pop(); got != want {
				t.Fatalf("round %d: pop %d = %+v, want %+v", round, i, got, want)
			}
		}
	}
}

func TestLabelledOutput(t *testing.T) {
	var out, errb bytes.Buffer
	fe := newFrontEnd(JobConfig{Stdout: &out, Stderr: &errb, Label: true}, 12)
	fe.Write(3, 1, 0, []byte("par"))
	fe.Write(11, 1, 0, []byte("one\ntwo\nthr"))
	fe.Write(3, 1, 0, []byte("tial\n"))
	fe.Write(0, 2, 0, []byte("err\n"))
	fe.rankDone(11)
	fe.flushAll()
	if want := "11: one\n11: two\n 3: partial\n11: thr\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	if errb.String() != " 0: err\n" {
		t.Errorf("stderr %q", errb.String())
	}
}
