package ppc

import "sync"

// semEntry binds an instruction name to its semantics. prep, when set, fills inst.imm at
// predecode (branch targets, rotate masks); ends marks instructions after which a block
// must end besides branches, sc and traps.
type semEntry struct {
	name string
	fn   semFn
	prep func(in *inst)
	ends bool
}

var (
	semByName = map[string]semEntry{}
	bindOnce  sync.Once
	opSem     []semEntry
)

// registerSem adds entries from a semantics file's init; a duplicate name is a programmer
// error.
func registerSem(entries []semEntry) {
	for _, e := range entries {
		if _, dup := semByName[e.name]; dup {
			panic("ppc: duplicate semantics for " + e.name)
		}
		semByName[e.name] = e
	}
}

// bindSemantics resolves every Op of the instruction table to its semantics by name, once
// (the table is complete only after the package's init functions ran).
func bindSemantics() {
	bindOnce.Do(func() {
		ops := Ops()
		opSem = make([]semEntry, len(ops)+1)
		for _, op := range ops {
			e := semByName[op.Name()]
			if f, ok := fastSem[op.Name()]; ok && e.fn != nil {
				e.fn = f
			}
			opSem[op] = e
		}
	})
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
	if f, ok := inlineForms[d.Op.Name()]; ok && w&f.clear == 0 {
		in.inline = f.op
	} else {
		in.inline = inlineSPR(d.Op.Name(), w)
	}
	in.chain = chainForm(d.Op.Name(), &in)
	switch in.class {
	case ClassBranch, ClassSyscall, ClassTrap, ClassPriv:
		in.ends = true
	}
	in.ends = in.ends || s.ends || s.fn == nil
	return in
}

func execIllegal(c *CPU, in *inst) bool { return c.raise(in, FaultIllegal, 0, false) }

func execPriv(c *CPU, in *inst) bool { return c.raise(in, FaultPriv, 0, false) }
