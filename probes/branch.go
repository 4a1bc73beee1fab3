package probes

import "github.com/dpclsh/dpclsh/ppc"

// branchKind classifies the words that change control flow.
type branchKind uint8

const (
	brNone branchKind = iota
	brB               // b, bl, ba, bla
	brBC              // bc and its extended forms
	brLR              // bclr: blr, beqlr, ...
	brCTR             // bcctr: bctr, bctrl, ...
)

var branchKinds = map[string]branchKind{"b": brB, "bc": brBC, "bclr": brLR, "bcctr": brCTR}

// branch is the control-flow reading of one word at a known address.
type branch struct {
	inst   ppc.Inst
	kind   branchKind
	link   bool
	bo, bi uint32
	target uint32 // b and bc: the destination; 0 for bclr/bcctr
}

// BO bits of a conditional branch: "always" ignores both the condition and CTR.
const boAlwaysMask = 0x14

// decodeBranch reads the branch fields of w at pc; non-branches give kind brNone.
func decodeBranch(w, pc uint32) branch {
	if op := w >> 26; op != 16 && op != 18 && op != 19 {
		return branch{} // only primary opcodes 16 (bc), 18 (b) and 19 (bclr, bcctr) branch
	}
	inst, err := ppc.Decode(w)
	if err != nil {
		return branch{}
	}
	k := branchKinds[inst.Op.Name()]
	if k == brNone {
		return branch{}
	}
	br := branch{inst: inst, kind: k, link: w&1 != 0}
	if k != brB {
		br.bo, br.bi = uint32(inst.Arg(ppc.ArgBO)), uint32(inst.Arg(ppc.ArgBI))
	}
	br.target, _ = ppc.BranchTarget(inst, pc)
	return br
}

// unconditional reports whether a bc-style branch ignores CR and CTR.
func (br branch) unconditional() bool { return br.bo&boAlwaysMask == boAlwaysMask }

// pic reports whether the branch is gcc's "bcl 20,31,.+4" that only reads the PC into LR.
func (br branch) pic(pc uint32) bool {
	return br.kind == brBC && br.link && br.unconditional() && br.target == pc+4
}
