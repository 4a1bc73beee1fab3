package runtime

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"time"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/ppc"
)

// ErrRefused is returned when the job does not accept the tool's secret.
var ErrRefused = errors.New("the job refused the secret")

// remoteJob is a job in another process, driven over an attach connection: every debug
// call and every run is one request and its reply. The machine hands over packets and
// events at the end of each run, in the order it made them, and they are given to this
// process's listeners and daemons then, as the machine itself would have.
type remoteJob struct {
	addr      string
	w         *wire
	hello     jobHello
	part      *bgl.Partition
	img       *ppc.Image
	now       uint64
	daemons   map[int]bgl.Daemon
	listeners []func(bgl.Event)
	paused    atomic.Bool
	lost      error // set once the connection failed: the job is out of reach
	closed    bool
}

// dialJob connects to a published job, proves the secret and reads what it publishes.
func dialJob(addr string, secret []byte) (*remoteJob, error) {
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return nil, errorf("attach %s: %w", addr, err)
	}
	fail := func(err error) (*remoteJob, error) {
		c.Close()
		return nil, errorf("attach %s: %w", addr, err)
	}
	if err := netreduce.Answer(c, secret, attachID); err != nil {
		return fail(err)
	}
	var verdict [1]byte
	if _, err := io.ReadFull(c, verdict[:]); err != nil || verdict[0] != attachAccepted {
		return fail(ErrRefused)
	}
	r := &remoteJob{addr: addr, w: newWire(c), daemons: map[int]bgl.Daemon{}}
	if err := r.w.dec.Decode(&r.hello); err != nil {
		return fail(fmt.Errorf("reading the job's proctable: %w", err))
	}
	h := r.hello
	if r.part, err = bgl.NewPlacedPartition(h.Nodes, h.Partition, h.PerIO, h.Place); err != nil {
		return fail(err)
	}
	if r.img, err = loadImage(h.Exe); err != nil {
		return fail(err)
	}
	r.now = h.Now
	return r, nil
}

// call sends one request and waits for its reply. A broken connection leaves the job out
// of reach for good (lost).
func (r *remoteJob) call(rq request) (reply, error) {
	if r.lost != nil {
		return reply{}, r.lost
	}
	var rp reply
	err := r.w.enc.Encode(rq)
	if err == nil {
		err = r.w.dec.Decode(&rp)
	}
	if err != nil {
		r.lost = errorf("the attached job at %s is gone: %w", r.addr, err)
		r.w.c.Close()
		return reply{}, r.lost
	}
	r.now = max(r.now, rp.Now)
	return rp, rp.Err.err()
}

func (r *remoteJob) Now() uint64 { return r.now }

// RunUntil runs the job until limit or until an event it handed over paused it here, as
// a listener pausing the machine does. A lost job counts as idle: Step then reports it.
func (r *remoteJob) RunUntil(limit uint64) bgl.StopReason {
	for {
		if r.paused.Swap(false) {
			return bgl.StopPaused
		}
		rp, err := r.call(request{Op: opRun, Limit: limit})
		if err != nil {
			return bgl.StopIdle
		}
		r.replay(rp.Calls)
		// The job pauses itself after every event it hands over (a listener here may
		// pause it); with no pause here it goes on.
		if rp.Reason != bgl.StopPaused || r.paused.Load() {
			if rp.Reason == bgl.StopPaused {
				r.paused.Store(false)
			}
			return rp.Reason
		}
	}
}

// replay gives this process's listeners and daemons what the machine handed over.
func (r *remoteJob) replay(calls []slotCall) {
	for _, c := range calls {
		d := r.daemons[c.IO]
		switch {
		case c.Packet != nil:
			if d != nil {
				d.Packet(nil, *c.Packet)
			}
		case c.Event != nil:
			for _, fn := range r.listeners {
				fn(*c.Event)
			}
			if d != nil {
				d.Event(nil, *c.Event)
			}
		}
	}
}

func (r *remoteJob) Pause() { r.paused.Store(true) }

// Start does nothing: a job tools attach to is already running.
func (r *remoteJob) Start() {}

func (r *remoteJob) Debug(io int) ioDebug { return remoteDebug{r, io} }

func (r *remoteJob) Exec(fn func(d ioDebug) error) error {
	errs := make([]error, r.part.IONodes())
	for io := range errs {
		errs[io] = fn(r.Debug(io))
	}
	return errors.Join(errs...)
}

func (r *remoteJob) SetSampling(period uint64, depth int, ranks func(int) bool) error {
	rq := request{Op: opSetSampling, Period: period, Depth: depth}
	for rank := range r.part.Tasks() {
		if ranks == nil || ranks(rank) {
			rq.Ranks = append(rq.Ranks, rank)
		}
	}
	_, err := r.call(rq)
	return err
}

func (r *remoteJob) TakeSamples() []bgl.Sample {
	rp, _ := r.call(request{Op: opTakeSamples})
	return rp.Samples
}

func (r *remoteJob) Partition() *bgl.Partition { return r.part }
func (r *remoteJob) Image() *ppc.Image         { return r.img }
func (r *remoteJob) Proctable() []bgl.ProcEntry {
	return append([]bgl.ProcEntry(nil), r.hello.Proctable...)
}
func (r *remoteJob) SetDaemon(io int, d bgl.Daemon) { r.daemons[io] = d }
func (r *remoteJob) OnEvent(fn func(bgl.Event))     { r.listeners = append(r.listeners, fn) }

// SetSymbolizer does nothing: the job names code in its own reports by the program's
// symbols only, since the tool's code layout stays with the tool.
func (r *remoteJob) SetSymbolizer(ppc.Symbolizer) {}

// Close detaches: the job runs on by itself.
func (r *remoteJob) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	defer r.w.c.Close()
	if r.lost != nil {
		return nil
	}
	_, err := r.call(request{Op: opDetach})
	return err
}

// remoteDebug is one I/O node's debug interface of a job whose debug calls travel as
// requests: a remote job's (remoteJob), or a sharded job's, whose owner of the I/O node
// answers every process (shardJob).
type remoteDebug struct {
	r  debugCaller
	io int
}

// debugCaller carries out one debug request and returns its reply.
type debugCaller interface {
	call(rq request) (reply, error)
	Partition() *bgl.Partition
}

func (d remoteDebug) do(rq request) (reply, error) {
	rq.IO = d.io
	return d.r.call(rq)
}

func (d remoteDebug) Ranks() (first, end int) { return d.r.Partition().RanksOf(d.io) }

func (d remoteDebug) Stop(rank int) error {
	_, err := d.do(request{Op: opStop, Rank: rank})
	return err
}

func (d remoteDebug) Continue(rank int) error {
	_, err := d.do(request{Op: opContinue, Rank: rank})
	return err
}

func (d remoteDebug) Status(rank int) (bgl.NodeStatus, error) {
	rp, err := d.do(request{Op: opStatus, Rank: rank})
	return rp.Status, err
}

func (d remoteDebug) ReadMem(rank int, addr, size uint32) ([]byte, error) {
	rp, err := d.do(request{Op: opReadMem, Rank: rank, Addr: addr, Size: size})
	return rp.Data, err
}

func (d remoteDebug) WriteMem(rank int, addr uint32, b []byte) error {
	_, err := d.do(request{Op: opWriteMem, Rank: rank, Addr: addr, Data: b})
	return err
}

func (d remoteDebug) Regs(rank int) (bgl.Regs, error) {
	rp, err := d.do(request{Op: opRegs, Rank: rank})
	return rp.Regs, err
}

func (d remoteDebug) SetRegs(rank int, regs bgl.Regs) error {
	_, err := d.do(request{Op: opSetRegs, Rank: rank, Regs: regs})
	return err
}

func (d remoteDebug) SetBreakpoint(rank int, addr uint32) error {
	_, err := d.do(request{Op: opSetBreak, Rank: rank, Addr: addr})
	return err
}

func (d remoteDebug) ClearBreakpoint(rank int, addr uint32) error {
	_, err := d.do(request{Op: opClearBreak, Rank: rank, Addr: addr})
	return err
}

func (d remoteDebug) MarkEntry(rank int, addr uint32) error {
	_, err := d.do(request{Op: opMark, Rank: rank, Addr: addr})
	return err
}

func (d remoteDebug) ClearEntryMark(rank int, addr uint32) error {
	_, err := d.do(request{Op: opUnmark, Rank: rank, Addr: addr})
	return err
}

func (d remoteDebug) EntryReached(rank int, addr uint32) (bool, error) {
	rp, err := d.do(request{Op: opReached, Rank: rank, Addr: addr})
	return rp.Reached, err
}

func (d remoteDebug) Backtrace(rank int) ([]ppc.Frame, error) {
	rp, err := d.do(request{Op: opBacktrace, Rank: rank})
	return rp.Frames, err
}

func (d remoteDebug) RedirectFault(addr, target uint32) error {
	_, err := d.do(request{Op: opRedirectFault, Addr: addr, Size: target})
	return err
}

func (d remoteDebug) ClearFault(addr uint32) { d.do(request{Op: opClearFault, Addr: addr}) }

func (d remoteDebug) Watch(rank int, w bgl.Watch) error {
	_, err := d.do(request{Op: opWatch, Rank: rank, Watch: w})
	return err
}

func (d remoteDebug) Unwatch(rank int, addr uint32) error {
	_, err := d.do(request{Op: opUnwatch, Rank: rank, Addr: addr})
	return err
}
