package bgl

import (
	"bytes"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// The operations: Put, Get, Accumulate, Get_accumulate (Fetch_and_op is one of count
// 1) and Compare_and_swap. Issuing one checks it against the target's part of the window
// and copies the origin's data; the synchronisation call that completes it (fence,
// unlock, flush, complete, free) carries it out on the target's memory and writes what
// it fetched into the origin's result buffer. Operations complete in issue order, each
// at once, so accumulates are atomic per element as MPI requires, and an epoch's
// operations reach a target together.

// MPI_REPLACE and MPI_NO_OP (mpi.h): the accumulate-only operations.
const (
	opReplace mpiOp = 13
	opNoOp    mpiOp = 14
)

func init() {
	// The call's own name (MPI_Put, MPI_Get...) is in every message about it.
	mpiOps[abi.HcMPIRMA] = mpiOpSpec{"MPI one-sided operation", startRMA, nil}
}

// rmaName names the operation a call issued.
var rmaName = map[uint32]string{abi.RMAPut: "MPI_Put", abi.RMAGet: "MPI_Get", abi.RMAAccumulate: "MPI_Accumulate",
	abi.RMAGetAccumulate: "MPI_Get_accumulate", abi.RMACompareAndSwap: "MPI_Compare_and_swap"}

// winSpan is a run of count elements of a predefined type at addr.
type winSpan struct {
	addr  uint32
	typ   mpiType
	count uint32
}

func (s winSpan) bytes() uint32 { return s.count * uint32(s.typ.size) }

// rmaOp is an issued operation.
type rmaOp struct {
	kind           uint32
	origin, target int    // communicator ranks
	data           []byte // the origin's data (Put, the accumulates, the new value of a swap)
	compare        []byte
	result         []winSpan // the origin's buffer for fetched data
	at             []winSpan // the target's memory
	op             mpiOp
}

// readLayout reads a layout {address, blocks, block list} into spans; a target layout's
// address is a displacement, which the caller applies (base ignored here).
func readLayout(n *node, addr uint32, what string) (uint32, []winSpan, error) {
	if addr == 0 {
		return 0, nil, nil
	}
	hd, err := readInts(n, addr, 3, what)
	if err != nil {
		return 0, nil, err
	}
	nblk := hd[1]
	if nblk < 0 || nblk > 1<<20 {
		return 0, nil, mpiErrorf(mpiErrArg, "%s: invalid datatype layout of %d blocks", what, nblk)
	}
	blk, err := readInts(n, uint32(hd[2]), 3*int(nblk), what)
	if err != nil {
		return 0, nil, err
	}
	spans := make([]winSpan, 0, nblk)
	for i := 0; i < int(nblk); i++ {
		off, h, count := blk[3*i], uint32(blk[3*i+1]), blk[3*i+2]
		t, err := typeOf(h)
		if err != nil {
			return 0, nil, err
		}
		if count < 0 || int64(count)*int64(t.size) > 1<<30 {
			return 0, nil, mpiErrorf(mpiErrCount, "%s: count %d of %s", what, count, t.name)
		}
		if count > 0 {
			spans = append(spans, winSpan{addr: uint32(hd[0]) + uint32(off), typ: t, count: uint32(count)})
		}
	}
	return uint32(hd[0]), spans, nil
}

func spanBytes(s []winSpan) uint32 {
	var b uint32
	for _, x := range s {
		b += x.bytes()
	}
	return b
}

// gather reads the spans of node n's memory into one buffer.
func gather(n *node, spans []winSpan, what string) ([]byte, error) {
	out := make([]byte, 0, spanBytes(spans))
	for _, s := range spans {
		b, err := readBuf(n, s.addr, s.bytes(), what)
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return out, nil
}

// scatter writes data over the spans of node n's memory.
func scatter(n *node, spans []winSpan, data []byte, what string) error {
	for _, s := range spans {
		if err := writeBuf(n, s.addr, data[:s.bytes()], what); err != nil {
			return err
		}
		data = data[s.bytes():]
	}
	return nil
}

// startRMA issues {kind, win, target, origin, result, target layout, op, compare}.
func startRMA(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	kind := c.w[0]
	name, ok := rmaName[kind]
	if !ok {
		return false, mpiErrorf(mpiErrArg, "invalid one-sided operation %d", kind)
	}
	w, me, err := e.win(n, c.w[1])
	if err != nil {
		return false, callError(name, err)
	}
	target := int(int32(c.w[2]))
	if target == mpiProcNull {
		return true, nil
	}
	if target < 0 || target >= w.comm.size {
		return false, mpiErrorf(mpiErrRank, "%s: invalid target rank %d (window of %d ranks)", name, target, w.comm.size)
	}
	o := &rmaOp{kind: kind, origin: me, target: target, op: mpiOp(c.w[6])}
	_, origin, err := readLayout(n, c.w[3], name+" origin buffer")
	if err != nil {
		return false, err
	}
	if _, o.result, err = readLayout(n, c.w[4], name+" result buffer"); err != nil {
		return false, err
	}
	disp, at, err := readLayout(n, c.w[5], name+" target")
	if err != nil {
		return false, err
	}
	if err := o.place(w, disp, at); err != nil {
		return false, callError(name, err)
	}
	if kind != abi.RMAGet && (kind != abi.RMAGetAccumulate || o.op != opNoOp) {
		if o.data, err = gather(n, origin, name+" origin buffer"); err != nil {
			return false, err
		}
	}
	if err := o.check(name, origin); err != nil {
		return false, err
	}
	if kind == abi.RMACompareAndSwap {
		if o.compare, err = readBuf(n, c.w[7], uint32(len(o.data)), name+" compare buffer"); err != nil {
			return false, err
		}
	}
	w.pending = append(w.pending, o)
	return true, nil
}

// place moves the target spans to the target's memory: disp displacement units from its
// base (a dynamic window's displacements are addresses), each checked against the window.
func (o *rmaOp) place(w *mpiWin, disp uint32, at []winSpan) error {
	m := &w.mem[o.target]
	start := m.base + disp*m.unit
	for i := range at {
		at[i].addr = at[i].addr - disp + start
		if err := w.targetRange(o.target, at[i].addr, at[i].bytes()); err != nil {
			return err
		}
	}
	o.at = at
	return nil
}

// check compares the origin's, result's and target's sizes and the operation.
func (o *rmaOp) check(name string, origin []winSpan) error {
	tb := spanBytes(o.at)
	switch o.kind {
	case abi.RMAGet:
		if spanBytes(o.result) != tb {
			return mpiErrorf(mpiErrCount, "%s: %d bytes of origin buffer for %d bytes of target", name, spanBytes(o.result), tb)
		}
		return nil
	case abi.RMAGetAccumulate, abi.RMACompareAndSwap:
		if spanBytes(o.result) != tb {
			return mpiErrorf(mpiErrCount, "%s: %d bytes of result buffer for %d bytes of target", name, spanBytes(o.result), tb)
		}
	}
	if o.data != nil && uint32(len(o.data)) != tb {
		return mpiErrorf(mpiErrCount, "%s: %d bytes of origin data for %d bytes of target", name, len(o.data), tb)
	}
	if o.kind != abi.RMAAccumulate && o.kind != abi.RMAGetAccumulate {
		return nil
	}
	if o.op == opReplace || o.op == opNoOp {
		return nil
	}
	if o.op < opSum || o.op > opMaxloc {
		return mpiErrorf(mpiErrOp, "%s: operation %d is not a predefined one (user operations are not allowed)", name, o.op)
	}
	for _, s := range o.at {
		if !opAllowed(o.op, s.typ.kind) {
			return mpiErrorf(mpiErrOp, "%s: %s is not defined on %s", name, opName(o.op), s.typ.name)
		}
	}
	return nil
}

// apply carries the operation out on the target's memory.
func (e *mpiEngine) apply(j *Job, w *mpiWin, o *rmaOp) error {
	tn := j.nodes[w.comm.worldOf(o.target)]
	on := j.nodes[w.comm.worldOf(o.origin)]
	name := rmaName[o.kind]
	if o.kind == abi.RMAPut {
		return scatter(tn, o.at, o.data, name+" target")
	}
	old, err := gather(tn, o.at, name+" target")
	if err != nil {
		return err
	}
	if o.kind != abi.RMAAccumulate {
		if err := scatter(on, o.result, old, name+" result buffer"); err != nil {
			return err
		}
	}
	switch o.kind {
	case abi.RMAGet:
		return nil
	case abi.RMACompareAndSwap:
		if bytes.Equal(old, o.compare) {
			return scatter(tn, o.at, o.data, name+" target")
		}
		return nil
	}
	if o.op == opNoOp {
		return nil
	}
	if o.op == opReplace {
		return scatter(tn, o.at, o.data, name+" target")
	}
	pos := uint32(0)
	for _, s := range o.at {
		end := pos + s.bytes()
		reduceInto(old[pos:end], o.data[pos:end], s.typ, o.op)
		pos = end
	}
	return scatter(tn, o.at, old, name+" target")
}

// completeOps carries out, in issue order, the pending operations that want selects and
// returns the cost the completing rank pays: a round trip to the farthest target, and the
// bytes moved over the torus.
func (e *mpiEngine) completeOps(j *Job, w *mpiWin, want func(o *rmaOp) bool) (map[int]uint64, error) {
	cost := map[int]uint64{}
	keep := w.pending[:0]
	var failed error
	for _, o := range w.pending {
		if !want(o) {
			keep = append(keep, o)
			continue
		}
		if failed == nil {
			failed = e.apply(j, w, o)
		}
		src, dst := w.comm.worldOf(o.origin), w.comm.worldOf(o.target)
		rt := 2 * (max(TorusLatencyNS, j.window) + uint64(j.part.Hops(j.part.NodeOf(src), j.part.NodeOf(dst)))*TorusHopNS)
		c := cost[o.origin]
		if c == 0 {
			c = rt
		}
		cost[o.origin] = max(c, rt) + uint64(spanBytes(o.at))*TorusNSPerByte
	}
	clear(w.pending[len(keep):])
	w.pending = keep
	return cost, failed
}
