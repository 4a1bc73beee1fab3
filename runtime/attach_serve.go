package runtime

import (
	"context"
	"fmt"
	"io"
	"net"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/netreduce"
)

// Publisher lets tools attach to a job that runs without one (dpclsh exec --listen): it
// publishes the job's MPIR proctable and its I/O nodes' debug interfaces on a listener,
// to peers that prove they know the secret.
//
// When the tool attaches is the job's choice: it runs in quanta of QuantumNS virtual ns,
// and a tool whose connection was accepted meanwhile attaches at the next quantum's end.
// From then on the job advances only inside the tool's run requests, so everything the
// tool sees and does is placed in the job's virtual time exactly as with a tool that
// launched the job. When the tool detaches, or its connection drops, the job runs on by
// itself; a dropped tool's breakpoints, watches, sampling and holds are undone first (the
// probes it wrote stay: their sends find no daemon and fail, and the program goes on).
type Publisher struct {
	ln        net.Listener
	secret    []byte
	log       io.Writer
	quantum   uint64
	accepted  chan net.Conn
	closeOnce chan struct{}
	server    *jobServer // the job's side, made on the job's first run
	hold      bool       // the job waits for its first tool before it runs (HoldForTool)
}

// Publish starts accepting tools on ln; notices (a tool attached, detached, was refused)
// go to log. Close stops it. A Publisher serves one job.
func Publish(ln net.Listener, secret []byte, log io.Writer) *Publisher {
	if log == nil {
		log = io.Discard
	}
	p := &Publisher{ln: ln, secret: secret, log: log, quantum: DefaultQuantumNS,
		accepted: make(chan net.Conn), closeOnce: make(chan struct{})}
	go p.acceptLoop()
	return p
}

// HoldForTool makes the job wait, before its first instruction, until a tool attaches
// (as gdbserver waits for its debugger and frida's spawn gating holds a process): a job
// shorter than a tool's start would otherwise end before the tool came. Tools refused
// meanwhile do not release it; ending the run's context does.
func (p *Publisher) HoldForTool() { p.hold = true }

// Addr is the address tools dial.
func (p *Publisher) Addr() string { return p.ln.Addr().String() }

// Close stops accepting tools.
func (p *Publisher) Close() error {
	select {
	case <-p.closeOnce:
	default:
		close(p.closeOnce)
	}
	return p.ln.Close()
}

func (p *Publisher) acceptLoop() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.admit(c)
	}
}

// admit authenticates a tool and hands its connection to the job's driver, which takes
// it at its next quantum's end; one tool at a time, the others wait their turn.
func (p *Publisher) admit(c net.Conn) {
	if _, err := netreduce.Challenge(c, p.secret); err != nil {
		c.Write([]byte{attachRefused})
		fmt.Fprintf(p.log, "dpclsh: refused a tool from %s: %v\n", c.RemoteAddr(), err)
		c.Close()
		return
	}
	if _, err := c.Write([]byte{attachAccepted}); err != nil {
		c.Close()
		return
	}
	select {
	case p.accepted <- c:
	case <-p.closeOnce:
		c.Close()
	}
}

// Drive runs the job to its end (bgl.JobConfig.Drive), serving each tool that attaches;
// ctx ends it as it ends RunContext.
func (p *Publisher) Drive(ctx context.Context) func(j *bgl.Job) bgl.StopReason {
	return func(j *bgl.Job) bgl.StopReason { return p.RunUntil(ctx, j, ^uint64(0)) }
}

// RunUntil runs the job until virtual time limit as bgl.Job.RunUntil does, in quanta at
// whose ends a tool that came attaches; the job then advances only as the tool asks,
// until it detaches. A job that already has a tool in this process is not run.
func (p *Publisher) RunUntil(ctx context.Context, j *bgl.Job, limit uint64) bgl.StopReason {
	s := p.server
	if s == nil {
		s = &jobServer{p: p, j: j}
		j.OnEvent(s.onEvent)
		p.server = s
	}
	for {
		if p.hold {
			p.hold = false
			select {
			case c := <-p.accepted:
				s.serve(ctx, c)
			case <-ctx.Done():
			case <-p.closeOnce:
			}
		}
		select {
		case c := <-p.accepted:
			s.serve(ctx, c)
		default:
		}
		if ctx.Err() != nil {
			j.Pause()
		}
		if j.Done() {
			return j.RunUntil(limit)
		}
		end := min(limit, (j.Now()/p.quantum+1)*p.quantum)
		if r := j.RunUntil(end); r != bgl.StopTime || end == limit {
			return r
		}
	}
}
