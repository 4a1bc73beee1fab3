package probes

import (
	"strconv"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// MaxSum bounds the iterations of a sum: its count is often read from program memory
// (a communicator's size, an argument), and a garbage count must not keep a rank inside a
// probe. 65,536 is the largest job of the machine, so a count array of any communicator fits.
const MaxSum = 1 << 16

// Sum is the sum of body(i) for i = 0 .. n-1, computed by a loop in the generated code:
// int64 for an int or int64 body, double for a double one. n is an int; a negative n or
// one above MaxSum is out of range: the loop runs 0 or MaxSum times and the code counts a
// fault (Target.FaultCounter), as for a load that faults. body receives the index (an
// int); the index means nothing outside the body, and compiling it there fails.
func Sum(n *Exp, body func(i *Exp) *Exp) *Exp {
	i := &Exp{Kind: KSumIndex}
	b := body(i)
	i.Name = sumIndexName(sumDepth(b, map[*Exp]int{}))
	return &Exp{Kind: KSum, Kids: []*Exp{n, b, i}}
}

// sumIndexName names an index by how many sums its body nests: i, j, k, then i3, i4...
// so nested sums' indexes print apart.
func sumIndexName(depth int) string {
	if depth < 3 {
		return string(rune('i' + depth))
	}
	return "i" + strconv.Itoa(depth)
}

// sumDepth is how deeply sums nest in e (0: none); memo keeps a shared subtree to one visit.
func sumDepth(e *Exp, memo map[*Exp]int) int {
	if e == nil {
		return 0
	}
	if d, ok := memo[e]; ok {
		return d
	}
	d := 0
	for _, k := range e.Kids {
		d = max(d, sumDepth(k, memo))
	}
	if e.Kind == KSum {
		d++
	}
	memo[e] = d
	return d
}

// CommSize is the number of ranks in the group of MPI communicator comm (an int handle)
// as the calling rank sees it, or with remote the size of an intercommunicator's other
// group (0 for an intracommunicator). The MPI engine answers it (abi.HcCommInfo) without
// any effect the program can see; an unknown or freed handle gives 0.
func CommSize(comm *Exp, remote bool) *Exp {
	e := &Exp{Kind: KCommInfo, Kids: []*Exp{comm}, Idx: abi.CommSize}
	if remote {
		e.Idx = abi.CommRemoteSize
	}
	return e
}

// CommRank is the calling rank's rank in MPI communicator comm (its local group's, for an
// intercommunicator), -1 for a handle it cannot use; answered as CommSize.
func CommRank(comm *Exp) *Exp {
	return &Exp{Kind: KCommInfo, Kids: []*Exp{comm}, Idx: abi.CommRank}
}

func (c *checker) checkSum(e *Exp) (Type, error) {
	if len(e.Kids) != 3 || e.Kids[2] == nil || e.Kids[2].Kind != KSumIndex {
		return Void, typeErr(e, "malformed sum node")
	}
	t, err := c.operand(e, e.Kids[0])
	if err != nil {
		return Void, err
	}
	if t != Int {
		return Void, typeErr(e, "the count of a sum must be an int, not %s", t)
	}
	if t, err = c.operand(e, e.Kids[1]); err != nil {
		return Void, err
	}
	if _, err := c.check(e.Kids[2]); err != nil {
		return Void, err
	}
	if t == Double {
		return Double, nil
	}
	return Int64, nil
}

func (c *checker) checkCommInfo(e *Exp) (Type, error) {
	if len(e.Kids) != 1 || e.Idx < abi.CommSize || e.Idx > abi.CommRank {
		return Void, typeErr(e, "malformed comm_info node")
	}
	t, err := c.operand(e, e.Kids[0])
	if err != nil {
		return Void, err
	}
	if t != Int {
		return Void, typeErr(e, "a communicator handle is an int, not %s", t)
	}
	return Int, nil
}
