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
	// Windows counts the scheduler's windows run; InWindow is how many ranks the window
	// under way advances and Through how many of them it has advanced so far. Most
	// windows pass in a blink, but a large job's first ones last seconds (every rank
	// touches its memory for the first time: page copies and allocation), and Through is
	// what moves meanwhile.
	Windows  atomic.Uint64
	InWindow atomic.Int64
	Through  atomic.Int64
	want     atomic.Bool // a reader asked for a full sample (Request)
}

// Request asks for a full sample at the next window's end: a display calls it each time
// it draws, so that its counts are fresh however long the windows take.
func (p *Progress) Request() { p.want.Store(true) }

// progressEvery is how many windows pass between two full samples (a pass over every
// node) that nobody requested; the virtual time is stored every window.
const progressEvery = 64

// sampleProgress stores the job's counters in its Progress, if it has one. full forces
// the pass over the nodes that counts instructions and states; a reader's Request makes
// one too, so a display never says "0 running" or "0 instr/s" about ranks that run.
func (j *Job) sampleProgress(full bool) {
	p := j.cfg.Progress
	if p == nil {
		return
	}
	p.NowNS.Store(j.now)
	p.Windows.Add(1)
	j.progressSteps++
	full = p.want.Swap(false) || full
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

// windowBegins tells the Progress how many ranks the window advances.
func (j *Job) windowBegins(ranks int) {
	if p := j.cfg.Progress; p != nil {
		p.Through.Store(0)
		p.InWindow.Store(int64(ranks))
	}
}

// advanced tells the Progress that n more ranks are through the window.
func (j *Job) advanced(n int) {
	if p := j.cfg.Progress; p != nil {
		p.Through.Add(int64(n))
	}
}
