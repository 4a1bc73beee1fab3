//go:build mpi && linux

package shard

/*
#cgo pkg-config: mpich
#include <mpi.h>

static int shard_init(int *rank, int *size) {
	int provided;
	int err = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
	if (err != MPI_SUCCESS) return err;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, rank);
	return MPI_Comm_size(MPI_COMM_WORLD, size);
}

static int shard_counts(int *send, int *recv) {
	return MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD);
}

static int shard_alltoallv(void *sbuf, int *scounts, int *sdispls, void *rbuf, int *rcounts, int *rdispls) {
	return MPI_Alltoallv(sbuf, scounts, sdispls, MPI_BYTE, rbuf, rcounts, rdispls, MPI_BYTE, MPI_COMM_WORLD);
}

static int shard_allreduce(long long *vals, int n, int op) {
	MPI_Op o = op == 1 ? MPI_SUM : op == 2 ? MPI_MIN : MPI_MAX;
	return MPI_Allreduce(MPI_IN_PLACE, vals, n, MPI_LONG_LONG, o, MPI_COMM_WORLD);
}

static int shard_barrier(void) { return MPI_Barrier(MPI_COMM_WORLD); }
static void shard_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
static int shard_finalize(void) { return MPI_Finalize(); }

static int shard_error_string(int err, char *buf) {
	int len = 0;
	MPI_Error_string(err, buf, &len);
	return len;
}
*/
import "C"

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// HasMPI reports whether this build can run sharded under mpiexec.
const HasMPI = true

// mpiProc is the Exchanger of one process of an MPI run. MPI is initialised with
// MPI_THREAD_FUNNELED and every call is made from one locked OS thread, since goroutines
// move between threads.
type mpiProc struct {
	rank, size int
	calls      chan func()
	report     *os.File // the supervisor's pipe
	heldMu     sync.Mutex
	held       string // also read by the supervisor's watch (watchSupervisor)
	stats      Stats
	rbuf       []byte
	closed     bool
}

// OpenMPI joins the run the launcher (mpiexec, srun) started. Call it first thing in
// main, before any output: in the process the launcher started it runs this program again
// as the worker and supervises it, and never returns (it exits with the worker's status);
// in the worker it initialises MPI and returns this process's Exchanger.
func OpenMPI() (Exchanger, error) {
	report, lifeline, worker := workerPipes()
	if !worker {
		exit(supervise(os.Args, os.Environ(), os.Stderr))
	}
	os.Unsetenv(workerEnv)
	m := &mpiProc{calls: make(chan func()), report: report}
	started := make(chan C.int)
	go m.serve(started)
	if rc := <-started; rc != C.MPI_SUCCESS {
		return nil, fmt.Errorf("shard: MPI_Init_thread: %s", errorString(rc))
	}
	m.say(reportLine("shard", fmt.Sprintf("%d %d", m.rank, m.size)))
	if lifeline != nil {
		watchSupervisor(lifeline, os.Getppid(), m.describe, os.Stderr)
	}
	return m, nil
}

// serve is the one thread that calls MPI.
func (m *mpiProc) serve(started chan<- C.int) {
	runtime.LockOSThread()
	var rank, size C.int
	rc := C.shard_init(&rank, &size)
	m.rank, m.size = int(rank), int(size)
	started <- rc
	for f := range m.calls {
		f()
	}
}

// do runs f on the MPI thread and counts the time this process waited for it.
func (m *mpiProc) do(f func()) {
	start := time.Now()
	done := make(chan struct{})
	m.calls <- func() { f(); close(done) }
	<-done
	m.stats.Wait += time.Since(start)
}

func (m *mpiProc) say(line string) {
	if m.report != nil {
		m.report.WriteString(line)
	}
}

func (m *mpiProc) Rank() int { return m.rank }
func (m *mpiProc) Size() int { return m.size }

func (m *mpiProc) Hold(what string) {
	m.heldMu.Lock()
	m.held = what
	m.heldMu.Unlock()
	m.say(reportLine("hold", what))
}

// describe names this shard and what it holds.
func (m *mpiProc) describe() string {
	m.heldMu.Lock()
	defer m.heldMu.Unlock()
	return describe(m.rank, m.size, m.held)
}

func (m *mpiProc) fail(call string, rc C.int) error {
	return fmt.Errorf("shard: %s on %s: %s", call, m.describe(), errorString(rc))
}

func (m *mpiProc) Exchange(out [][]byte) ([][]byte, error) {
	if err := checkOut(out, m.size); err != nil {
		return nil, err
	}
	scounts, sdispls := make([]C.int, m.size), make([]C.int, m.size)
	total := 0
	for p, b := range out {
		if p == m.rank {
			continue
		}
		if len(b) > math.MaxInt32-total {
			return nil, fmt.Errorf("shard: exchange on %s: %d bytes for process %d after %d others exceed MPI's int counts", m.describe(), len(b), p, total)
		}
		sdispls[p], scounts[p] = C.int(total), C.int(len(b))
		total += len(b)
	}
	sbuf := make([]byte, 0, max(total, 1))
	for p, b := range out {
		if p != m.rank {
			sbuf = append(sbuf, b...)
		}
	}
	sbuf = sbuf[:max(total, 1)]
	rcounts, rdispls := make([]C.int, m.size), make([]C.int, m.size)
	var rc C.int
	m.do(func() { rc = C.shard_counts(&scounts[0], &rcounts[0]) })
	if rc != C.MPI_SUCCESS {
		return nil, m.fail("MPI_Alltoall of the record lengths", rc)
	}
	rtotal := 0
	for p, n := range rcounts {
		if int(n) > math.MaxInt32-rtotal {
			return nil, fmt.Errorf("shard: exchange on %s: %d bytes from process %d after %d others exceed MPI's int counts", m.describe(), n, p, rtotal)
		}
		rdispls[p] = C.int(rtotal)
		rtotal += int(n)
	}
	if cap(m.rbuf) < max(rtotal, 1) {
		m.rbuf = make([]byte, max(rtotal, 1))
	}
	rbuf := m.rbuf[:max(rtotal, 1)]
	m.do(func() {
		rc = C.shard_alltoallv(unsafe.Pointer(&sbuf[0]), &scounts[0], &sdispls[0],
			unsafe.Pointer(&rbuf[0]), &rcounts[0], &rdispls[0])
	})
	if rc != C.MPI_SUCCESS {
		return nil, m.fail("MPI_Alltoallv of the records", rc)
	}
	in := make([][]byte, m.size)
	for p := range in {
		in[p] = rbuf[rdispls[p] : int(rdispls[p])+int(rcounts[p]) : int(rdispls[p])+int(rcounts[p])]
	}
	in[m.rank] = out[m.rank]
	m.stats.Exchanges++
	m.stats.BytesSent += uint64(total)
	m.stats.BytesReceived += uint64(rtotal)
	return in, nil
}

func (m *mpiProc) Allreduce(op Op, vals []int64) error {
	if opNames[op] == "" {
		return fmt.Errorf("shard: allreduce with unknown operation %v", op)
	}
	m.stats.Reductions++
	if len(vals) == 0 {
		return nil
	}
	buf := make([]C.longlong, len(vals))
	for i, v := range vals {
		buf[i] = C.longlong(v)
	}
	var rc C.int
	m.do(func() { rc = C.shard_allreduce(&buf[0], C.int(len(buf)), C.int(op)) })
	if rc != C.MPI_SUCCESS {
		return m.fail("MPI_Allreduce ("+op.String()+")", rc)
	}
	for i, v := range buf {
		vals[i] = int64(v)
	}
	return nil
}

func (m *mpiProc) Barrier() error {
	m.stats.Reductions++
	var rc C.int
	m.do(func() { rc = C.shard_barrier() })
	if rc != C.MPI_SUCCESS {
		return m.fail("MPI_Barrier", rc)
	}
	return nil
}

func (m *mpiProc) Abort(code int, msg string) {
	m.heldMu.Lock()
	held := m.held
	m.heldMu.Unlock()
	abortMessage(m.rank, m.size, held, msg)
	m.do(func() { C.shard_abort(C.int(code)) })
	exit(code)
}

func (m *mpiProc) Stats() Stats { return m.stats }

func (m *mpiProc) Close() error {
	if m.closed {
		return nil
	}
	m.closed = true
	var rc C.int
	m.do(func() { rc = C.shard_finalize() })
	close(m.calls)
	if m.report != nil {
		m.report.Close()
	}
	if rc != C.MPI_SUCCESS {
		return m.fail("MPI_Finalize", rc)
	}
	return nil
}

func errorString(rc C.int) string {
	var buf [C.MPI_MAX_ERROR_STRING + 1]C.char
	n := C.shard_error_string(rc, &buf[0])
	return fmt.Sprintf("%s (MPI error %d)", C.GoStringN(&buf[0], n), int(rc))
}
