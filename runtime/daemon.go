package runtime

import (
	"encoding/binary"
	"fmt"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/contexts"
	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/probes"
)

// Machine is what a daemon needs of its I/O node's debug interface; *bgl.Debug has it,
// and tests drive the daemon with a plain twin.
type Machine interface {
	Stop(rank int) error
	Continue(rank int) error
	Status(rank int) (bgl.NodeStatus, error)
	ReadMem(rank int, addr, size uint32) ([]byte, error)
	WriteMem(rank int, addr uint32, b []byte) error
	Regs(rank int) (bgl.Regs, error)
	SetRegs(rank int, r bgl.Regs) error
	SetBreakpoint(rank int, addr uint32) error
	ClearBreakpoint(rank int, addr uint32) error
	// Entry marks (bgl.Debug.MarkEntry) tell whether a trampoline ever began to run,
	// at no cost to the node.
	MarkEntry(rank int, addr uint32) error
	ClearEntryMark(rank int, addr uint32) error
	EntryReached(rank int, addr uint32) (bool, error)
}

// span is a trampoline's memory on one node.
type span struct{ base, size uint32 }

func (s span) contains(a uint32) bool { return a-s.base < s.size }

// Outgoing is a probe packet a daemon forwards up the tree on a handle's stream.
type Outgoing struct {
	Rank   int
	Stream uint32
	Handle uint32
	Time   uint64
	Values []any
}

// Daemon is the tool daemon of one I/O node (the mutator of the BG/L paper), one tool
// process: it owns its place in the tool's tree (a netreduce.Node, whose stream filters
// run here), applies the commands that reach it to the compute nodes it serves through
// their debug interface and answers up the tree, and validates what probes send before
// its Node takes it. It is a state machine that returns its effects (as etcd raft's
// Ready): Step (a netreduce.Process) returns the messages it sends, Packet what to push
// up and what it rejected; whoever drives it delivers them. It has no lock and no
// goroutine.
type Daemon struct {
	IONode int
	size   int // ranks in the job (rank specs are over [0, size))
	inReg  func(uint32) bool
	m      Machine
	node   *netreduce.Node // nil when the daemon stands alone (tests)

	handles  map[uint32]*handleRanks
	layouts  map[int]*layout        // rank -> its placed trampolines (layout.go)
	unlinked map[int][]span         // rank -> trampolines unlinked, not yet freed
	pending  map[int]*pendingExec   // blocked ranks waiting to run a one-shot snippet
	streams  map[uint32]uint32      // handle -> stream
	images   map[string]*blob       // trampoline bytes per (plan, toggles) of the command
	words    map[uint32]*blob       // the bytes of each patch word of the command
	batches  map[string]*writeBatch // the command's distinct batches of writes to a rank
	blobs    uint32                 // blobs numbered in the command
	scratch  rankWrites             // the writes of the rank being patched
	imageKey []byte                 // the key of the image being looked up
	owners   map[int][]uint32       // the handles of each point plan of the command
	// nextLayout: the layouts the command made, by the layout they were made from and
	// the changes (layoutSteps.key); layoutSteps is the changes of the rank being patched.
	nextLayout  map[*layout]map[string]*layout
	layoutSteps layoutSteps
	repeats     bool            // the command names a point twice
	ran         map[uint32]bool // points whose trampoline began to run on one of the ranks (ran.go)
	// resumes: rank -> one-shot trampoline base -> the address inside another trampoline
	// it goes back to (the rank was redirected while inside that one): that one is busy
	// as long as this one is.
	resumes map[int]map[uint32]uint32
	// sharded is the sharded job whose process owning the I/O node carries out the
	// daemon's commands (machine_shard.go); nil when the job is in one process.
	sharded *shardJob
}

// codeSpan is a trampoline on one node and the handles whose snippets it holds: only
// their sends may come from inside it.
type codeSpan struct {
	span
	handles []uint32
}

type handleRanks struct {
	ranks  *contexts.Set
	active bool
}

// NewDaemon returns the daemon of I/O node io in a job of size ranks, working through
// m; inRegion tells whether an address lies in the instrumentation region (trampoline
// frames live there); node is its place in the tool's tree (nil: none, for tests).
func NewDaemon(io, size int, m Machine, inRegion func(uint32) bool, node *netreduce.Node) *Daemon {
	return &Daemon{IONode: io, size: size, m: m, inReg: inRegion, node: node, handles: map[uint32]*handleRanks{},
		layouts: map[int]*layout{}, unlinked: map[int][]span{}, pending: map[int]*pendingExec{},
		streams: map[uint32]uint32{}, ran: map[uint32]bool{},
		resumes: map[int]map[uint32]uint32{}}
}

// prepare takes in what a command says about handles (which ranks each covers, whether
// it is active, its stream), once per command.
func (d *Daemon) prepare(c *Command) error {
	for _, h := range c.Handles {
		if h.Ranks == nil || h.Ranks.Size() != d.size {
			return errorf("daemon %d: handle %d: no rank set over the job's %d ranks", d.IONode, h.Handle, d.size)
		}
		d.handles[h.Handle] = &handleRanks{ranks: h.Ranks, active: h.Active}
		d.streams[h.Handle] = h.Stream
	}
	if c.Op == OpToggle {
		if h := d.handles[c.Handle]; h != nil {
			h.active = c.Active
		}
	}
	if c.Exec != nil {
		d.streams[c.Exec.Handle] = c.Exec.Stream
	}
	d.images, d.words, d.batches, d.blobs = map[string]*blob{}, map[uint32]*blob{}, map[string]*writeBatch{}, 0
	d.owners, d.nextLayout = map[int][]uint32{}, map[*layout]map[string]*layout{}
	seen := map[uint32]bool{}
	d.repeats = false
	for _, p := range c.Points {
		d.repeats = d.repeats || seen[p.Addr]
		seen[p.Addr] = true
	}
	return nil
}

// finish drops what the command cached for its ranks (trampoline images, batches, the
// layouts it started from): a daemon per I/O node holding one command's images until
// the next was 20 KiB a rank.
func (d *Daemon) finish() {
	d.images, d.words, d.batches, d.owners, d.nextLayout = nil, nil, nil, nil, nil
}

// Step implements netreduce.Process: a command is carried out on the daemon's compute
// nodes it concerns and answered up the tree; anything else is the tree protocol's, for
// its Node.
func (d *Daemon) Step(msg netreduce.Msg) []netreduce.Msg {
	if msg.Kind != netreduce.MsgUser {
		d.node.Step(msg)
		return d.node.Take()
	}
	cm := msg.Body.(*cmdMsg)
	var ranks []int
	for _, r := range d.node.Children() {
		if cm.ranks.Contains(r) {
			ranks = append(ranks, r)
		}
	}
	var ans *Answer
	if d.sharded != nil {
		ans = d.sharded.handle(d, cm.cmd, ranks)
	} else {
		ans = d.Handle(cm.cmd, ranks)
	}
	return []netreduce.Msg{{Kind: netreduce.MsgUser, From: int32(d.node.Rank()), To: int32(d.node.Parent()), Seq: msg.Seq,
		Body: &cmdMsg{cmd: cm.cmd, answer: ans}}}
}

// count is how many of the daemon's compute nodes lie in set.
func (d *Daemon) count(set *netreduce.RankSet) int {
	n := 0
	for _, r := range d.node.Children() {
		if set.Contains(r) {
			n++
		}
	}
	return n
}

// Handle applies command c to the daemon's ranks among ranks (the command reaches the
// daemon once, whatever the number of its ranks) and answers for all of them.
func (d *Daemon) Handle(c *Command, ranks []int) *Answer {
	m := d.m
	sum := &Answer{}
	if _, ok := opNames[c.Op]; !ok {
		err := errorf("daemon %d: unknown command op %d", d.IONode, c.Op)
		for _, r := range ranks {
			sum.Merge(failed(r, err))
		}
		return sum
	}
	if c.Op == OpClock {
		// The daemon's own clock against itself; each hop up adds its link's offset.
		return &Answer{Done: len(ranks), Clocks: map[int]int64{d.IONode: 0}}
	}
	if err := d.prepare(c); err != nil {
		for _, r := range ranks {
			sum.Merge(failed(r, err))
		}
		return sum
	}
	for _, r := range ranks {
		sum.Merge(d.handle1(m, c, r))
	}
	d.finish()
	return sum
}

// handle1 applies c to one rank and answers for it.
func (d *Daemon) handle1(m Machine, c *Command, rank int) *Answer {
	if err := d.apply(m, c, rank); err != nil {
		return failed(rank, err)
	}
	a := &Answer{Done: 1}
	if c.Op == OpRead {
		b, err := m.ReadMem(rank, c.Addr, c.Size)
		if err != nil {
			return failed(rank, err)
		}
		a.Data = map[int][]byte{rank: b}
	}
	if freed := d.collect(m, rank); len(freed) > 0 {
		a.Freed = map[uint32][]int{}
		for _, base := range freed {
			a.Freed[base] = []int{rank}
		}
	}
	return a
}

func failed(rank int, err error) *Answer {
	return &Answer{Failed: map[int]string{rank: err.Error()}}
}

// opTable says, per command, whether the rank is held around it and what it does.
var opTable = map[Op]struct {
	hold bool
	fn   func(d *Daemon, m Machine, c *Command, rank int) error
}{
	OpPatch:    {true, (*Daemon).patch},
	OpToggle:   {false, (*Daemon).toggle},
	OpExecute:  {false, (*Daemon).execute},
	OpRead:     {false, func(*Daemon, Machine, *Command, int) error { return nil }},
	OpWrite:    {true, func(_ *Daemon, m Machine, c *Command, r int) error { return m.WriteMem(r, c.Addr, c.Data) }},
	OpStop:     {false, func(_ *Daemon, m Machine, _ *Command, r int) error { return m.Stop(r) }},
	OpContinue: {false, func(_ *Daemon, m Machine, _ *Command, r int) error { return m.Continue(r) }},
}

// apply runs c on rank, holding the rank around the change when the op needs it and
// leaving it held or running as it was.
func (d *Daemon) apply(m Machine, c *Command, rank int) error {
	op := opTable[c.Op]
	st, err := m.Status(rank)
	if err != nil {
		return err
	}
	if c.Op != OpRead && (st.State == "exited" || st.State == "faulted") {
		return fmt.Errorf("process has %s", st.State)
	}
	if op.hold && !st.Held {
		if err := m.Stop(rank); err != nil {
			return err
		}
		defer m.Continue(rank)
	}
	return op.fn(d, m, c, rank)
}

// covers reports whether handle h covers rank (and so whether its toggle may be on).
func (d *Daemon) covers(h uint32, rank int) (in, active bool) {
	hr := d.handles[h]
	if hr == nil || !hr.ranks.Contains(rank) {
		return false, false
	}
	return true, hr.active
}

// patch writes each point's new trampoline (toggles set for this rank), or restores the
// original word where no handle at the point covers the rank; replaced trampolines are
// unlinked for a later free. The rank's writes go to its memory as one batch after its
// bookkeeping (the rank is held, and entry marks do not depend on memory): ranks given the
// same writes share one batch, whose pokes are then paid about once (patchbatch.go).
func (d *Daemon) patch(m Machine, c *Command, rank int) error {
	old := d.layouts[rank]
	w, steps := &d.scratch, &d.layoutSteps
	w.reset()
	steps.reset()
	for i := range c.Points {
		p := &c.Points[i]
		image, any := d.image(i, p, rank)
		prev, had := old.at(p.Addr)
		if d.repeats {
			prev, had = steps.latest(p.Addr, prev, had)
		}
		if had {
			if err := d.harvest(m, rank, p.Addr, prev.base); err != nil {
				return err
			}
		}
		if p.Base != 0 && any {
			w.add(p.Base, image)
			w.add(p.Addr, d.word(p.Patch))
			if !d.ran[p.Addr] {
				if err := m.MarkEntry(rank, p.Base); err != nil {
					return err
				}
			}
			steps.place(p.Addr, span{p.Base, uint32(len(image.b))}, image.id, d.pointHandles(i, p))
		} else if had {
			w.add(p.Addr, d.word(p.Orig))
			steps.remove(p.Addr)
		}
		if had && (prev.base != p.Base || !any) {
			d.unlinked[rank] = append(d.unlinked[rank], prev)
		}
	}
	d.advance(rank, steps)
	return d.write(m, rank, w)
}

// image returns the bytes of point plan i as rank gets them (each toggle on when its
// handle covers the rank and is active) and whether any handle there covers the rank.
// Ranks with the same toggles share one image per command.
func (d *Daemon) image(i int, p *PointPlan, rank int) (*blob, bool) {
	key := append(d.imageKey[:0], byte(i), byte(i>>8), byte(i>>16), byte(i>>24))
	any := false
	for _, t := range p.Toggles {
		in, on := d.covers(t.Handle, rank)
		any = any || in
		bit := byte('0')
		if on {
			bit = '1'
		}
		key = append(key, bit)
	}
	d.imageKey = key
	for _, h := range p.Cover {
		in, _ := d.covers(h, rank)
		any = any || in
	}
	if b, ok := d.images[string(key)]; ok {
		return b, any
	}
	words := append([]uint32(nil), p.Words...)
	for j, t := range p.Toggles {
		w := t.Off
		if key[4+j] == '1' {
			w = t.On
		}
		words[(t.Addr-p.Base)/4] = w
	}
	b := d.blob(wordBytes(words...))
	d.images[string(key)] = b
	return b, any
}

// toggle writes one handle's toggle words on a rank it covers.
func (d *Daemon) toggle(m Machine, c *Command, rank int) error {
	in, on := d.covers(c.Handle, rank)
	if !in {
		return nil
	}
	for _, t := range c.Toggles {
		w := t.Off
		if on {
			w = t.On
		}
		if err := m.WriteMem(rank, t.Addr, wordBytes(w)); err != nil {
			return err
		}
	}
	return nil
}

// collect frees the rank's unlinked trampolines that no PC or return address points
// into (filling them with zero words, which fault if ever reached) and lists them.
func (d *Daemon) collect(m Machine, rank int) []uint32 {
	list := d.unlinked[rank]
	if len(list) == 0 {
		return nil
	}
	r, err := m.Regs(rank)
	if err != nil {
		return nil
	}
	read32 := func(a uint32) (uint32, error) {
		b, err := m.ReadMem(rank, a, 4)
		if err != nil {
			return 0, err
		}
		return binary.BigEndian.Uint32(b), nil
	}
	returns := probes.ReturnAddresses(r.PC, r.LR, r.GPR[1], read32, d.inReg)
	// A one-shot trampoline the rank still needs may go back into another (it was
	// redirected from inside it): that one is needed too, and so on down the chain.
	needed := map[uint32]bool{}
	for changed := true; changed; {
		changed = false
		for _, s := range list {
			if needed[s.base] {
				continue
			}
			into := busy(s, r.PC, returns)
			for base, back := range d.resumes[rank] {
				into = into || needed[base] && s.contains(back)
			}
			if into {
				needed[s.base], changed = true, true
			}
		}
	}
	kept, freed := list[:0], []uint32(nil)
	for _, s := range list {
		if needed[s.base] || clearSpan(m, rank, s) != nil {
			kept = append(kept, s)
			continue
		}
		freed = append(freed, s.base)
	}
	d.unlinked[rank] = kept
	// d.code keeps a freed trampoline's owners until another takes its place: a packet
	// its snippet sent may still be on its way to the daemon, and is checked against it.
	for _, base := range freed {
		delete(d.resumes[rank], base)
	}
	return freed
}

// zeroBlock is what a freed trampoline is cleared with, a block at a time: the same
// bytes for every rank (a page already cleared on another is shared, not copied), and no
// allocation per rank.
var zeroBlock [16 << 10]byte

func clearSpan(m Machine, rank int, s span) error {
	for off := uint32(0); off < s.size; off += uint32(len(zeroBlock)) {
		n := min(s.size-off, uint32(len(zeroBlock)))
		if err := m.WriteMem(rank, s.base+off, zeroBlock[:n]); err != nil {
			return err
		}
	}
	return nil
}

func busy(s span, pc uint32, returns []uint32) bool {
	if s.contains(pc) {
		return true
	}
	for _, a := range returns {
		if s.contains(a) {
			return true
		}
	}
	return false
}

// Unlinked is the number of trampolines unlinked on rank and not yet freed.
func (d *Daemon) Unlinked(rank int) int { return len(d.unlinked[rank]) }

func wordBytes(ws ...uint32) []byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.BigEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// own records that the trampoline s on rank holds the snippets of handles.
func (d *Daemon) own(rank int, s span, handles ...uint32) {
	steps := &d.layoutSteps
	steps.reset()
	steps.own(s, handles...)
	d.advance(rank, steps)
}

// owns reports whether pc on rank lies in a trampoline holding handle's code.
func (d *Daemon) owns(rank int, pc, handle uint32) bool {
	l := d.layouts[rank]
	if l == nil {
		return false
	}
	for _, c := range l.code {
		if c.contains(pc) {
			for _, h := range c.handles {
				if h == handle {
					return true
				}
			}
		}
	}
	return false
}

func toggleHandles(p *PointPlan) []uint32 {
	hs := make([]uint32, 0, len(p.Toggles))
	for _, t := range p.Toggles {
		hs = append(hs, t.Handle)
	}
	return hs
}
