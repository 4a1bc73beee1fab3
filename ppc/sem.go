package ppc

import "fmt"

// semEntry binds a table entry to its semantics. prep, when set, fills inst.imm at
// predecode (branch targets, rotate masks); ends marks instructions after which a block
// must end besides branches, sc and traps.
type semEntry struct {
	op   Op
	fn   semFn
	prep func(in *inst)
	ends bool
}

// opSem is every entry's semantics, indexed by Op; filled by the semantics files' init.
var opSem [numOps]semEntry

// registerSem adds entries from a semantics file's init, taking the direct implementation
// of fastSem where there is one; binding an entry twice is a programmer error.
func registerSem(entries []semEntry) {
	for _, e := range entries {
		if e.op == 0 || e.op >= numOps || e.fn == nil {
			panic(fmt.Sprintf("ppc: semantics bound to Op %d without a function or table entry", e.op))
		}
		if opSem[e.op].fn != nil {
			panic("ppc: duplicate semantics for " + e.op.Name())
		}
		if f, ok := fastSem[e.op]; ok {
			e.fn = f
		}
		opSem[e.op] = e
	}
}

// predecode decodes w at pc into an inst. Undecodable words and supervisor instructions
// become instructions that fault when reached.
func predecode(w, pc uint32) inst {
	in := inst{
		w: w, pc: pc, imm: uint32(int32(int16(w))),
		rt: uint8(w >> 21 & 31), ra: uint8(w >> 16 & 31), rb: uint8(w >> 11 & 31), rc: uint8(w >> 6 & 31),
	}
	d, err := Decode(w)
	if err != nil {
		in.fn, in.ends = execIllegal, true
		return in
	}
	in.class = d.Op.Class()
	s := opSem[d.Op]
	switch {
	case s.fn != nil:
		in.fn = s.fn
	case in.class == ClassPriv:
		in.fn = execPriv
	default:
		in.fn = execIllegal
	}
	if s.prep != nil {
		s.prep(&in)
	}
	in.inline = inlineForm(d.Op, w)
	in.chain = chainForm(d.Op, &in)
	switch in.class {
	case ClassBranch, ClassSyscall, ClassTrap, ClassPriv:
		in.ends = true
	}
	in.ends = in.ends || s.ends || s.fn == nil
	return in
}

func execIllegal(c *CPU, in *inst) bool { return c.raise(in, FaultIllegal, 0, false) }

func execPriv(c *CPU, in *inst) bool { return c.raise(in, FaultPriv, 0, false) }
