package shard

import (
	"errors"
	"fmt"
	"time"
)

// Exchanger moves bytes between the processes of a sharded run at window ends. Every
// process makes the same calls in the same order (they are collective); a process that
// stops calling, or dies, ends the whole run rather than leaving the others waiting.
type Exchanger interface {
	// Rank is this process's index, 0..Size()-1; process 0 owns the front-end.
	Rank() int
	// Size is the number of processes.
	Size() int
	// Exchange sends out[p] to process p (len(out) == Size()) and returns in, where in[p]
	// is what process p sent to this one. in[Rank()] is out[Rank()]; the slices in in
	// are the callee's own and stay valid until the next Exchange.
	Exchange(out [][]byte) (in [][]byte, err error)
	// Allreduce combines vals element-wise over every process with op; on return every
	// process holds the same result in vals.
	Allreduce(op Op, vals []int64) error
	// Barrier returns when every process has called it.
	Barrier() error
	// Hold says what this process holds (its psets and ranks), so that its death is
	// reported with it: "shard 1 of 4 died (killed by signal 9) holding psets 2-3".
	Hold(what string)
	// Abort ends every process of the run with status code after printing
	// "dpclsh: shard R of P (holding ...): msg" once on standard error.
	Abort(code int, msg string)
	// Stats returns the process's counters so far.
	Stats() Stats
	// Close ends the process's part of the run; every process calls it once.
	Close() error
}

// Op is a reduction operation of Allreduce.
type Op uint8

// Reduction operations.
const (
	Sum Op = iota + 1
	Min
	Max
)

var opNames = map[Op]string{Sum: "sum", Min: "min", Max: "max"}

func (o Op) String() string {
	if s, ok := opNames[o]; ok {
		return s
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// apply combines b into a.
func (o Op) apply(a, b int64) int64 {
	switch o {
	case Min:
		return min(a, b)
	case Max:
		return max(a, b)
	}
	return a + b
}

// Stats counts one process's exchanges. Wait is host time: it belongs in --stats and
// nowhere else, since it differs on every run.
type Stats struct {
	Exchanges     uint64        // Exchange calls (one per window end)
	Reductions    uint64        // Allreduce and Barrier calls
	BytesSent     uint64        // to other processes (what a process sends itself is not counted)
	BytesReceived uint64        // from other processes
	Wait          time.Duration // host time spent inside Exchange, Allreduce and Barrier
}

// Since is what was counted after before, a snapshot of the same process's Stats.
func (s Stats) Since(before Stats) Stats {
	return Stats{Exchanges: s.Exchanges - before.Exchanges, Reductions: s.Reductions - before.Reductions,
		BytesSent: s.BytesSent - before.BytesSent, BytesReceived: s.BytesReceived - before.BytesReceived,
		Wait: s.Wait - before.Wait}
}

// ErrNoMPI is OpenMPI's error in a build without the mpi tag.
var ErrNoMPI = errors.New("shard: this dpclsh was built without MPI: build it with `go build -tags mpi` (MPICH's libmpich, found by pkg-config mpich) to run under mpiexec or srun")

// checkOut refuses an out slice that does not have one entry per process.
func checkOut(out [][]byte, size int) error {
	if len(out) != size {
		return fmt.Errorf("shard: exchange of %d buffers among %d processes: want one per process", len(out), size)
	}
	return nil
}

// single is the one-process Exchanger: everything stays in the process.
type single struct {
	stats Stats
}

// Single returns the Exchanger of a run in one process (the default build's only one):
// Exchange gives back what was sent, reductions are the identity.
func Single() Exchanger { return &single{} }

func (s *single) Rank() int { return 0 }
func (s *single) Size() int { return 1 }

func (s *single) Exchange(out [][]byte) ([][]byte, error) {
	if err := checkOut(out, 1); err != nil {
		return nil, err
	}
	s.stats.Exchanges++
	return [][]byte{out[0]}, nil
}

func (s *single) Allreduce(op Op, vals []int64) error {
	if opNames[op] == "" {
		return fmt.Errorf("shard: allreduce with unknown operation %v", op)
	}
	s.stats.Reductions++
	return nil
}

func (s *single) Barrier() error {
	s.stats.Reductions++
	return nil
}

func (s *single) Hold(string) {}

func (s *single) Abort(code int, msg string) {
	abortMessage(0, 1, "", msg)
	exit(code)
}

func (s *single) Stats() Stats { return s.stats }
func (s *single) Close() error { return nil }
