package netreduce

import "math/rand"

// ClockHosts is the simulated hosts and links of a standalone tree for MRNet's clock-skew
// detection (seed 004, section 3): every process's clock runs off true time by an
// offset drawn from Seed, and every message on a link takes LinkNs plus a queueing delay.
// The front-end's clock is the reference (offset 0).
type ClockHosts struct {
	Seed    int64
	RangeNs int64 // offsets are uniform in [-RangeNs/2, RangeNs/2]
	LinkNs  int64 // one-way latency of a link
	// SendNs is how long a process is busy writing one message.
	SendNs int64
	// JitterNs bounds a message's extra delay on a link (other traffic), seeded.
	JitterNs int64
}

// Offsets is each process's true clock offset from the front-end's, by rank: what the
// measurement must recover, never read by it.
func (h ClockHosts) Offsets(topo *Topology) []int64 {
	rng := rand.New(rand.NewSource(h.Seed))
	off := make([]int64, topo.Size())
	for r := range off {
		if r != topo.Root() && h.RangeNs > 0 {
			off[r] = rng.Int63n(h.RangeNs+1) - h.RangeNs/2
		}
	}
	return off
}

// linkEstimate is one child's offset against its parent as one probe measured it, and
// that probe's round trip less the child's own time (the estimate's error bound, twice).
type linkEstimate struct {
	offset, rtt int64
}

// MeasureClocks runs the two-phase algorithm over the tree's links, rounds times: in each
// round every parent sends a timestamped probe down to each child (t1, its clock as the
// probe leaves), the child reads its clock as it takes the probe (t2) and as its answer
// leaves (t3), and the parent reads its clock as it takes the answer (t4). A link's
// offset is ((t2-t1)+(t3-t4))/2 from the round with the smallest round trip; each node
// adds its children's offsets to what they measured below, so the front-end ends with
// every back-end's clock minus its own (by back-end rank, ns). The readings are the only
// input: the offsets themselves are used only to make each host's clock read as it does.
func (h ClockHosts) MeasureClocks(topo *Topology, rounds int) []int64 {
	if rounds < 1 {
		rounds = 1
	}
	off := h.Offsets(topo)
	rng := rand.New(rand.NewSource(h.Seed ^ 0x5eed))
	jitter := func() int64 {
		if h.JitterNs <= 0 {
			return 0
		}
		return rng.Int63n(h.JitterNs + 1)
	}
	best := make([]linkEstimate, topo.Size())
	now := int64(0)
	for round := 0; round < rounds; round++ {
		end := now
		for _, parent := range topo.breadthFirst() {
			kids := topo.Children(parent)
			if len(kids) == 0 {
				continue
			}
			// A parent probes its children one at a time (as MRNet's front-end does, so
			// that no answer waits behind a burst of probes still being written); what
			// queues is the links' other traffic (jitter) and the parent's own writes.
			free := now
			for _, c := range kids {
				leave := free + h.SendNs
				taken := leave + h.LinkNs + jitter()
				replied := taken + h.SendNs
				arrives := replied + h.LinkNs + jitter()
				t1, t2, t3, t4 := leave+off[parent], taken+off[c], replied+off[c], arrives+off[parent]
				est := linkEstimate{((t2 - t1) + (t3 - t4)) / 2, (t4 - t1) - (t3 - t2)}
				if round == 0 || est.rtt < best[c].rtt {
					best[c] = est
				}
				free = arrives
			}
			end = max(end, free)
		}
		now = end
	}
	// Phase two: offsets accumulate up the tree (a back-end's against the front-end is
	// the sum of its links' on the way up).
	out := make([]int64, topo.Backends())
	for b := range out {
		for r := b; r != topo.Root(); r = topo.Parent(r) {
			out[b] += best[r].offset
		}
	}
	return out
}
