package runtime

import (
	"errors"

	"github.com/dpclsh/dpclsh/bgl"
)

// AttachOptions shape the tool a tool attaching to a running job instantiates; the job's
// own shape (ranks, I/O nodes, program) comes from the job.
type AttachOptions struct {
	Topology  string // as Options.Topology
	Costs     *Costs // nil: "default"
	Clocks    ClockSkew
	QuantumNS uint64
}

// attachment is how the tool came to an App it did not launch.
type attachment struct {
	at       uint64 // virtual time of the attach
	remote   *remoteJob
	job      *bgl.Job // the job in this process, when not remote
	detached bool
}

// AttachJob instantiates the tool (its daemons in the I/O nodes' slots, its tree) on a
// job that runs in this process without one, where the job stands now. The job must not
// be driven elsewhere while the tool is attached: the App drives it (Step).
func AttachJob(job *bgl.Job, o AttachOptions) (*App, error) {
	if err := job.SetTool("dpcl"); err != nil {
		return nil, errorf("attach: %w", err)
	}
	cfg := job.Config()
	a, err := attach(localJob{job}, cfg.Exe, cfg.Args, cfg.Env, cfg.Nodes, cfg.PerIO, o)
	if err != nil {
		job.SetTool("")
		return nil, err
	}
	a.Job, a.attach.job = job, job
	return a, nil
}

// Attach dials a job published at addr (Publisher, dpclsh exec --listen), proves secret
// and instantiates the tool on it at the virtual time the job chooses (the end of the
// quantum it is running).
func Attach(addr string, secret []byte, o AttachOptions) (*App, error) {
	r, err := dialJob(addr, secret)
	if err != nil {
		return nil, err
	}
	h := r.hello
	a, err := attach(r, h.Exe, h.Args, h.Env, h.Nodes, h.PerIO, o)
	if err != nil {
		r.Close()
		return nil, err
	}
	a.attach.remote = r
	return a, nil
}

func attach(m machine, exe string, args, env []string, nodes, perIO int, o AttachOptions) (*App, error) {
	if o.Costs == nil {
		o.Costs, _ = NamedCosts("default")
	}
	opts := Options{Exe: exe, Args: args, Env: env, Nodes: nodes, PerIO: perIO, Topology: o.Topology,
		Costs: o.Costs, Clocks: o.Clocks, QuantumNS: o.QuantumNS}
	a, err := newApp(opts, m, m.Image(), nil)
	if err != nil {
		return nil, err
	}
	a.attach = &attachment{at: m.Now()}
	a.started = true
	// Ranks that ended before the tool came leave its tree at once.
	err = m.Exec(func(d ioDebug) error {
		first, end := d.Ranks()
		for r := first; r < end; r++ {
			st, err := d.Status(r)
			if err != nil {
				return err
			}
			if st.State == "exited" || st.State == "faulted" {
				a.ended[r] = st.Exit
				a.tree.Kill(r, int64(st.Exit.Time))
			}
		}
		return nil
	})
	if err != nil {
		a.release()
		return nil, errorf("attach: %w", err)
	}
	return a, nil
}

// Attached reports whether the tool attached to a running job (rather than launching
// it), and the virtual time (ns) it attached at.
func (a *App) Attached() (bool, uint64) {
	if a.attach == nil {
		return false, 0
	}
	return true, a.attach.at
}

// Detach removes every probe, phase, replacement, watchpoint and sampling the tool made
// and leaves the job running without the tool, to its end: DPCL's disconnect. The
// application is closed afterwards. Only a tool that attached can detach.
func (a *App) Detach() error {
	if a.attach == nil {
		return errorf("detach: the tool launched this job; close it instead")
	}
	if a.closed {
		return errorf("detach: the application is closed")
	}
	var errs []error
	if a.lostErr() == nil {
		errs = a.undoAll()
	}
	a.release()
	return errors.Join(errs...)
}

// undoAll removes what the tool put into the job, while it is still attached.
func (a *App) undoAll() []error {
	var errs []error
	for _, p := range a.profiles {
		p.Stop()
	}
	for _, w := range a.watches {
		if !w.removed {
			errs = append(errs, w.Remove())
		}
	}
	for _, h := range a.handles {
		if h.state != "removed" && !h.oneShot {
			errs = append(errs, h.Remove())
		}
	}
	if a.suspended {
		errs = append(errs, a.Resume())
	}
	return errs
}

// release empties the daemon slots and lets the job go: in this process the job is
// driven by its owner again; a remote job is told the tool detached.
func (a *App) release() {
	a.closed = true
	a.attach.detached = true
	for _, h := range a.handles {
		a.tree.Close(h.stream)
	}
	if a.attach.remote != nil {
		a.attach.remote.Close()
		return
	}
	for io := range a.m.Partition().IONodes() {
		a.m.SetDaemon(io, nil)
	}
	a.m.SetSymbolizer(nil)
	if a.attach.job != nil {
		a.attach.job.SetTool("")
	}
}

// lostErr is why a remote job is out of reach, or why a sharded run cannot go on, if it is.
func (a *App) lostErr() error {
	if a.sharded != nil {
		return a.sharded.failure()
	}
	if a.attach == nil || a.attach.remote == nil {
		return nil
	}
	return a.attach.remote.lost
}
