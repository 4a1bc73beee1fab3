package runtime

import (
	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/ppc"
)

// machine is the job as the tool drives it: a *bgl.Job in this process (launched by the
// tool, or attached to), or one in another process reached over a socket (remote.go).
// Its methods are bgl.Job's, with the debug interface behind ioDebug so that a remote
// job's can cross the socket.
type machine interface {
	Now() uint64
	RunUntil(limit uint64) bgl.StopReason
	Pause()
	Start()
	Debug(io int) ioDebug
	// Exec runs fn with every I/O node's debug interface, in I/O-node order, while the
	// machine stands still; the errors are joined in that order.
	Exec(fn func(d ioDebug) error) error
	SetSampling(period uint64, depth int, ranks func(int) bool) error
	TakeSamples() []bgl.Sample
	Partition() *bgl.Partition
	Image() *ppc.Image
	Proctable() []bgl.ProcEntry
	SetDaemon(io int, d bgl.Daemon)
	OnEvent(fn func(bgl.Event))
	SetSymbolizer(s ppc.Symbolizer)
	Close() error
}

// ioDebug is one I/O node's debug interface: what daemons, processes, fault fixups and
// watchpoints use of it. *bgl.Debug has it.
type ioDebug interface {
	Machine
	Ranks() (first, end int)
	Backtrace(rank int) ([]ppc.Frame, error)
	RedirectFault(addr, target uint32) error
	ClearFault(addr uint32)
	Watch(rank int, w bgl.Watch) error
	Unwatch(rank int, addr uint32) error
}

// localJob is a job in this process.
type localJob struct{ *bgl.Job }

func (l localJob) Debug(io int) ioDebug { return l.Job.Debug(io) }

func (l localJob) Exec(fn func(d ioDebug) error) error {
	return l.Job.Exec(func(d *bgl.Debug) error { return fn(d) })
}
