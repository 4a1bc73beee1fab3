package bgl

import "sync/atomic"

// Progress is a job's counters for a display on another goroutine (dpclsh's progress
// line): the job stores them while it launches and runs, readers load them at any time.
// They describe the run and never steer it, so a job with a Progress behaves exactly as
// one without.
type Progress struct {
	Ranks        atomic.Int64  // ranks in the job
	Loaded       atomic.Int64  // processes created so far (launch)
	Running      atomic.Int64  // ranks released and neither exited nor faulted
	Ended        atomic.Int64  // ranks exited or faulted
	NowNS        atomic.Uint64 // virtual time reached
	Instructions atomic.Uint64 // summed over every rank
}

// progressEvery is how many windows pass between two full samples (a pass over every
// node); the virtual time is stored every window.
const progressEvery = 64

// sampleProgress stores the job's counters in its Progress, if it has one. full forces
// the pass over the nodes that counts instructions and states.
func (j *Job) sampleProgress(full bool) {
	p := j.cfg.Progress
	if p == nil {
		return
	}
	p.NowNS.Store(j.now)
	j.progressSteps++
	if !full && j.progressSteps%progressEvery != 0 {
		return
	}
	var instr uint64
	running := 0
	for _, n := range j.nodes {
		if n == nil {
			continue
		}
		instr += n.cpu.Count.Instructions
		if n.state == nodeRunning && !n.held || n.state == nodeBlocked && !n.held {
			running++
		}
	}
	p.Instructions.Store(instr)
	p.Running.Store(int64(running))
	p.Ended.Store(int64(len(j.nodes) - j.live))
}
