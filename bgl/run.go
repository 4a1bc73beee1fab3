package bgl

import (
	"context"
	"fmt"
	"time"
)

// RunResult summarises a job run to its end.
type RunResult struct {
	Status       []int   // per rank: exit status, or 128+signal
	Exits        []Event // exit and fault events, in delivery order
	Unsupported  []Event // system calls that got ENOSYS, in delivery order
	Stop         StopReason
	TimeNS       uint64 // virtual time at the end
	Instructions uint64 // summed over all ranks
	// Translated is how many of Instructions ran as translated amd64 code. Which blocks
	// get translated first depends on the host's scheduling of ranks, so, like Wall, it is
	// kept out of Summary.
	Translated uint64
	Env        []string // the environment every rank saw (JobConfig.Env)
	// Wall is the host time the run took: it differs on every run, so Summary leaves it out.
	Wall time.Duration
	// PrivateBytes sums what every rank's memory costs beyond the pages it shares
	// copy-on-write (page tables and private pages), measured at the end.
	PrivateBytes uint64
	// Stdout and Stderr hold each rank's output when JobConfig.Capture is set (in a
	// sharded run, on process 0).
	Stdout, Stderr [][]byte
	// Shards is every process's account of a sharded run, on process 0 (nil otherwise).
	Shards []ShardStats
}

// ExitStatus is the job's status as srun reports it: the highest rank status.
func (r *RunResult) ExitStatus() int {
	hi := 0
	for _, s := range r.Status {
		hi = max(hi, s)
	}
	return hi
}

// Run launches cfg, runs it to the end and closes it. A rank killed by a signal gets one
// line on the job's stderr naming rank, pc and signal, in event order with the output.
func Run(cfg JobConfig) (*RunResult, error) { return RunContext(context.Background(), cfg) }

// RunContext is Run that pauses the machine and gives up when ctx is done.
func RunContext(ctx context.Context, cfg JobConfig) (*RunResult, error) {
	start := time.Now()
	j, err := Launch(cfg)
	if err != nil {
		return nil, err
	}
	defer j.Close()
	res := &RunResult{Status: make([]int, j.Size()), Env: cfg.Env}
	j.OnEvent(func(ev Event) {
		switch ev.Kind {
		case EventExit, EventFault:
			res.Status[ev.Rank] = ev.Status
			res.Exits = append(res.Exits, ev)
			if ev.Signal != 0 {
				j.fe.notice(1, "dpclsh: "+ev.FaultReport()+"\n")
			}
		case EventUnsupported:
			res.Unsupported = append(res.Unsupported, ev)
			j.fe.notice(1, "dpclsh: "+ev.String()+"\n")
		case EventNoMemory:
			j.fe.notice(1, "dpclsh: "+ev.String()+"\n")
		}
	})
	j.Start()
	stop := context.AfterFunc(ctx, j.Pause)
	if ctx.Err() != nil {
		j.Pause()
	}
	if cfg.Drive != nil {
		res.Stop = cfg.Drive(j)
	} else {
		res.Stop = j.Run()
	}
	stop()
	if res.Stop == StopError {
		j.ownCounts(res) // the other processes may be gone: no totals
	} else if err := j.Account(res); err != nil {
		return res, errorf("run %s: %w", cfg.Exe, err)
	}
	if cfg.Capture {
		res.Stdout, res.Stderr = make([][]byte, j.Size()), make([][]byte, j.Size())
		for r := range res.Stdout {
			res.Stdout[r], res.Stderr[r] = j.Output(r)
		}
	}
	res.Wall = time.Since(start)
	if res.Stop == StopError {
		return res, errorf("run %s: %w", cfg.Exe, j.Err())
	}
	if res.Stop == StopPaused {
		return res, errorf("run %s: %w at virtual time %d ns", cfg.Exe, context.Cause(ctx), res.TimeNS)
	}
	if res.Stop != StopDone {
		return res, errorf("run %s: stopped (%v) with %d of %d ranks still alive", cfg.Exe, res.Stop, j.live, j.Size())
	}
	return res, nil
}

// Account fills res with what the job cost so far: its virtual time and, summed over its
// ranks, instructions (Translated among them) and private memory. In a sharded job it is
// collective (every process calls it at the same point of the run): res then holds the
// whole job's sums on every process and, on process 0, every process's ShardStats.
func (j *Job) Account(res *RunResult) error {
	j.ownCounts(res)
	if j.sh == nil {
		return nil
	}
	return j.sh.totals(res)
}

// ownCounts is Account over this process's ranks only.
func (j *Job) ownCounts(res *RunResult) {
	res.TimeNS = j.Now()
	res.Instructions, res.Translated, res.PrivateBytes = 0, 0, 0
	for _, n := range j.nodes {
		if n == nil {
			continue
		}
		res.Instructions += n.cpu.Count.Instructions
		res.Translated += n.cpu.TranslatedInstructions()
		res.PrivateBytes += uint64(n.cpu.Mem.Stats().PrivateBytes)
	}
}

// Summary is a one-line account of the run for humans and benchmark scripts. It depends
// only on the job's inputs, so two runs of one command line give the same line byte for
// byte; it ends with the environment's size and digest (EnvDigest), which tell two runs
// whose ranks saw different variables apart. The host's wall time is not in it (Wall).
func (r *RunResult) Summary() string {
	n := uint64(max(len(r.Status), 1))
	return fmt.Sprintf("%d ranks, status %d, %d instructions (%d per rank), virtual time %.1f µs, "+
		"private memory %d bytes per rank, environment %d variables, sha256 %s",
		len(r.Status), r.ExitStatus(), r.Instructions, r.Instructions/n, float64(r.TimeNS)/1e3,
		r.PrivateBytes/n, len(r.Env), EnvDigest(r.Env))
}
