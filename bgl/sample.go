package bgl

// Sampling: a timer interrupt in virtual time, as perf's and HPCToolkit's profilers take
// it. Every period cycles of a rank's own clock the core is stopped at the next block
// boundary, its pc and the r1 back chain are recorded, and the rank is charged the cost
// of the interrupt handler that would have done it. The samples depend only on the
// program and the period, never on the host.

// SampleCostCycles is what one sample costs its rank in virtual cycles: the interrupt
// entry and exit (about 60), the handler's bookkeeping (about 40) and 2 loads per frame
// walked, charged as SampleFrameCycles each.
const (
	SampleCostCycles  = 100
	SampleFrameCycles = 8
)

// MaxSampleDepth is the deepest stack one sample walks.
const MaxSampleDepth = 256

// Sample is one timer interrupt on one rank: Stack[0] is the interrupted pc, the rest
// are the return addresses of the back chain, innermost first (SysV PPC32: LR, then the
// LR save word 4 bytes above each caller's frame). Weight is the number of periods the
// sample stands for (more than 1 when one block ran past several period boundaries).
type Sample struct {
	Rank   int
	Cycle  uint64 // the rank's clock when it was taken
	Weight uint64
	Stack  []uint32
}

// sampler is one node's timer: the next due cycle and the samples not yet collected.
type sampler struct {
	period, depth uint64
	next          uint64
	taken         []Sample
}

// SetSampling starts (period > 0) or stops (period 0) sampling the ranks that ranks
// accepts (nil: every rank) every period cycles of their own virtual clock, walking depth
// frames (1..MaxSampleDepth). Samples already taken stay collectable.
func (j *Job) SetSampling(period uint64, depth int, ranks func(int) bool) error {
	if period == 0 {
		for _, n := range j.nodes {
			if n.sample != nil {
				n.sample.period = 0
			}
		}
		return nil
	}
	if depth < 1 || depth > MaxSampleDepth {
		return errorf("sampling: stack depth %d out of range 1..%d", depth, MaxSampleDepth)
	}
	for _, n := range j.nodes {
		if ranks != nil && !ranks(n.rank) {
			continue
		}
		if n.sample == nil {
			n.sample = &sampler{}
		}
		n.sample.period, n.sample.depth = period, uint64(depth)
		n.sample.next = n.clock() + period
	}
	return nil
}

// TakeSamples returns the samples taken since the last call, in rank order and, within
// a rank, in time order.
func (j *Job) TakeSamples() []Sample {
	var out []Sample
	for _, n := range j.nodes {
		if n.sample != nil {
			out = append(out, n.sample.taken...)
			n.sample.taken = nil
		}
	}
	return out
}

// sampleBudget limits an instruction budget so the core stops at the next sample due.
func (n *node) sampleBudget(budget uint64) uint64 {
	s := n.sample
	if s == nil || s.period == 0 {
		return budget
	}
	now := n.clock()
	if s.next <= now {
		return 1
	}
	return max(1, min(budget, s.next-now))
}

// takeSample records the pc and stack when a sample is due, and charges its cost.
func (n *node) takeSample() {
	s := n.sample
	if s == nil || s.period == 0 || n.state != nodeRunning {
		return
	}
	now := n.clock()
	if now < s.next {
		return
	}
	weight := (now-s.next)/s.period + 1
	s.next += weight * s.period
	stack := n.walkStack(int(s.depth))
	s.taken = append(s.taken, Sample{Rank: n.rank, Cycle: now, Weight: weight, Stack: stack})
	n.cpu.TBBase += SampleCostCycles + SampleFrameCycles*uint64(len(stack)-1)
	// The handler's own time is not the program's: do not let it make a sample due.
	s.next += SampleCostCycles + SampleFrameCycles*uint64(len(stack)-1)
}

// walkStack is the pc, LR and the back chain's saved LRs, as probes.Ustack walks it. It
// stops at a null, non-increasing or unreadable link.
func (n *node) walkStack(depth int) []uint32 {
	c := n.cpu
	stack := []uint32{c.PC}
	if depth > 1 {
		stack = append(stack, c.LR)
	}
	sp := c.GPR[1]
	for len(stack) < depth {
		back, err := c.Mem.Read32(sp)
		if err != nil || back == 0 || back <= sp {
			break
		}
		lr, err := c.Mem.Read32(back + 4)
		if err != nil || lr == 0 {
			break
		}
		stack = append(stack, lr)
		sp = back
	}
	return stack
}
