package dpcl

import (
	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// probeSumFuncs are the probe module's loop and the MPI engine's communicator sizes.
var probeSumFuncs = []script.Function{
	{Name: "sum", Doc: `probe.sum(n, function(i) return Exp end) -> Exp
The sum of the body's value for i = 0 .. n-1, computed by a loop in the probe's code: int64
for an int or int64 body, double for a double one. n is an int Exp or number, often read
from the program (an argument, a communicator's size): a negative n or one above 65,536
(the largest job) is garbage, so the loop runs 0 or 65,536 times and counts a fault
(h:stats().faults). The function runs once, when the sum is built, with the index i as an
Exp; i means nothing outside the body. Example, the bytes of MPI_Alltoallv's send side:
  probe.sum(probe.comm_size(probe.arg(7)), function(i)
    return probe.load(probe.arg(1) + i * 4, "int") end)`, Fn: probeSum},
	{Name: "comm_size", Doc: `probe.comm_size(comm) -> Exp
The number of ranks in MPI communicator comm's group as the rank sees it (MPI_Comm_size),
0 for a null, unknown or freed handle. The MPI engine answers without any effect the
program sees (one sc instruction, no virtual time).`, Fn: probeCommSize(false)},
	{Name: "comm_remote_size", Doc: `probe.comm_remote_size(comm) -> Exp
The number of ranks in intercommunicator comm's other group (MPI_Comm_remote_size), 0 for
an intracommunicator or a handle the rank cannot use; answered as probe.comm_size.`, Fn: probeCommSize(true)},
	{Name: "comm_rank", Doc: `probe.comm_rank(comm) -> Exp
The rank's rank in MPI communicator comm (in its own group, for an intercommunicator), -1
for a null, unknown or freed handle; answered as probe.comm_size.`, Fn: probeCommRank},
}

func probeSum(L *lua.LState) int {
	n := ProbeExpOf(L, 1)
	fn := L.CheckFunction(2)
	var failed error
	e := probes.Sum(n, func(i *probes.Exp) *probes.Exp {
		L.Push(fn)
		L.Push(script.NewObject(L, probeTypeName, i))
		if failed = L.PCall(1, 1, nil); failed != nil {
			return nil
		}
		body, err := probeExpOfValue(L.Get(-1))
		L.Pop(1)
		if err != nil {
			L.RaiseError("probe.sum: the body returned no probe expression: %v", err)
		}
		return body
	})
	if failed != nil {
		L.RaiseError("probe.sum: the body failed: %v", failed)
	}
	return pushExp(L, "probe.sum", e)
}

func probeCommSize(remote bool) lua.LGFunction {
	name := "probe.comm_size"
	if remote {
		name = "probe.comm_remote_size"
	}
	return func(L *lua.LState) int {
		return pushExp(L, name, probes.CommSize(ProbeExpOf(L, 1), remote))
	}
}

func probeCommRank(L *lua.LState) int {
	return pushExp(L, "probe.comm_rank", probes.CommRank(ProbeExpOf(L, 1)))
}
