package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

// ENOTCONN: ais_send with no tool daemon in the I/O node's slot.
const enotconn abi.Errno = 107

type hypercallFn func(n *node, j *Job, a Args) Result

// hypercalls serves the tool's thin client (abi.Hypercalls); the MPI engine adds the MPI
// range's calls (mpi.go). Unassigned numbers get ENOSYS and an event.
var hypercalls = map[abi.Sysno]hypercallFn{
	abi.HcRank:    func(n *node, j *Job, a Args) Result { return ok(uint32(n.rank)) },
	abi.HcSize:    func(n *node, j *Job, a Args) Result { return ok(uint32(j.part.Tasks())) },
	abi.HcIONode:  func(n *node, j *Job, a Args) Result { return ok(uint32(n.io.Index)) },
	abi.HcCounter: hcCounter,
	abi.HcAisSend: hcAisSend,
}

func (n *node) hypercall(j *Job, num abi.Sysno, a Args) Result {
	if h, ok := hypercalls[num]; ok {
		return h(n, j, a)
	}
	why := "no such hypercall"
	if num >= abi.MPIFirst && num <= abi.MPILast {
		why = "unassigned number in the MPI hypercall range"
	}
	return n.proc.missing(num, why)
}

func counterValue(n *node, c abi.Counter) uint64 {
	k := n.cpu.Count
	return [abi.NumCounters]uint64{k.Instructions, k.Cycles, k.Loads, k.Stores, k.Branches, k.FPOps, k.BranchesNotTaken}[c]
}

func hcCounter(n *node, j *Job, a Args) Result {
	c := abi.Counter(a[0])
	if c >= abi.NumCounters {
		return fail(abi.EINVAL)
	}
	v := counterValue(n, c)
	return Result{R3: uint32(v >> 32), R4: uint32(v), Wide: true}
}

// hcAisSend hands a packet to the I/O node's tool daemon; it arrives one tree latency
// later. The send does not block, like a socket write into a roomy buffer.
func hcAisSend(n *node, j *Job, a Args) Result {
	if a[1] > abi.MaxPacket {
		return fail(abi.EINVAL)
	}
	if n.io.daemon == nil {
		return fail(enotconn)
	}
	b, e := n.proc.copyIn(a[0], a[1])
	if e != 0 {
		return fail(e)
	}
	n.send(&message{at: cyclesToNS(n.clock()) + TreeLatencyNS, kind: msgPacket, data: b, pc: n.proc.pc})
	n.sent++
	return ok(0)
}
