package ppc

import "sort"

func aliasInt() {
	addAliases("addi", alias{name: "li", mask: mRA, ops: []operand{f(ArgRT), f(ArgSI)}})
	addAliases("addis", alias{name: "lis", mask: mRA, ops: []operand{f(ArgRT), f(ArgSI)}})
	addAliases("ori", alias{name: "nop", mask: 0x03ffffff})
	same := sameFields(kGPR, ArgRT, ArgRB)
	addAliases("or", alias{name: "mr", valid: fieldsEqual(ArgRT, ArgRB), ops: []operand{f(ArgRA), same}})
	addAliases("nor", alias{name: "not", valid: fieldsEqual(ArgRT, ArgRB), ops: []operand{f(ArgRA), same}})
	lbit := ArgL.Bits()
	addAliases("cmpi", alias{name: "cmpwi", mask: lbit, ops: []operand{o(f(ArgBF)), f(ArgRA), f(ArgSI)}})
	addAliases("cmpli", alias{name: "cmplwi", mask: lbit, ops: []operand{o(f(ArgBF)), f(ArgRA), f(ArgUI)}})
	addAliases("cmp", alias{name: "cmpw", mask: lbit, ops: []operand{o(f(ArgBF)), f(ArgRA), f(ArgRB)}})
	addAliases("cmpl", alias{name: "cmplw", mask: lbit, ops: []operand{o(f(ArgBF)), f(ArgRA), f(ArgRB)}})
	addAliases("tw", alias{name: "trap", mask: mRT | mRA | mRB, value: 31 << 21})
	for _, t := range trapConds {
		addAliases("tw", alias{name: "tw" + t.name, mask: mRT, value: t.to << 21,
			ops: []operand{f(ArgRA), f(ArgRB)}})
		addAliases("twi", alias{name: "tw" + t.name + "i", mask: mRT, value: t.to << 21,
			ops: []operand{f(ArgRA), f(ArgSI)}})
	}
	addAliases("mtcrf", alias{name: "mtcr", mask: ArgCRM.Bits(), value: ArgCRM.Bits(), ops: []operand{f(ArgRT)}})
	addAliases("sync",
		alias{name: "msync", mask: ArgSyncL.Bits()},
		alias{name: "lwsync", mask: ArgSyncL.Bits(), value: 1 << 21})
	addAliases("mbar", alias{name: "mbar", ops: []operand{o(f(ArgMO))}})
	for i, c := range crBitNames[:3] {
		addAliases("isel", alias{name: "isel" + c, mask: ArgBC.Bits() | 1, value: uint32(i) << 6,
			ops: []operand{f(ArgRT), f(ArgRA0), f(ArgRB)}})
	}
}

// trapConds are the TO encodings objdump names, in its order of preference.
var trapConds = []struct {
	name string
	to   uint32
}{
	{"lgt", 1}, {"llt", 2}, {"eq", 4}, {"lge", 5}, {"lnl", 5}, {"lle", 6}, {"lng", 6},
	{"gt", 8}, {"ge", 12}, {"nl", 12}, {"lt", 16}, {"le", 20}, {"ng", 20}, {"ne", 24}, {"u", 31},
}

func aliasRotate() {
	sh, mb := f(ArgSH), f(ArgMB)
	ra, rs := f(ArgRA), f(ArgRT)
	slwi := computed(ArgSH.Value, func(w uint32, v int64) (uint32, bool) {
		w, ok := ArgSH.Insert(w, v)
		w, ok2 := ArgME.Insert(w, 31-v)
		return w, ok && ok2
	})
	srwi := computed(ArgMB.Value, func(w uint32, v int64) (uint32, bool) {
		w, ok := ArgMB.Insert(w, v)
		w, ok2 := ArgSH.Insert(w, (32-v)&31)
		return w, ok && ok2 && v > 0
	})
	clrrwi := computed(func(w uint32) int64 { return 31 - ArgME.Value(w) },
		func(w uint32, v int64) (uint32, bool) { return ArgME.Insert(w, 31-v) })
	addAliases("rlwinm",
		alias{name: "rotlwi", mask: mMB | mME, value: 31 << 1, ops: []operand{ra, rs, sh}},
		alias{name: "clrlwi", mask: mSH | mME, value: 31 << 1, ops: []operand{ra, rs, mb}},
		alias{name: "slwi", mask: mMB, valid: func(w uint32) bool { return ArgME.raw(w) == 31-ArgSH.raw(w) },
			ops: []operand{ra, rs, slwi}},
		alias{name: "srwi", mask: mME, value: 31 << 1,
			valid: func(w uint32) bool { return ArgSH.raw(w) == (32-ArgMB.raw(w))&31 },
			ops:   []operand{ra, rs, srwi}},
		alias{name: "clrrwi", mask: mSH | mMB, ops: []operand{ra, rs, clrrwi}},
	)
	addAliases("rlwnm", alias{name: "rotlw", mask: mMB | mME, value: 31 << 1, ops: []operand{ra, rs, f(ArgRB)}})
}

// branchConds are the BO/BI classes with extended branch mnemonics, y (hint) bit clear.
var branchConds = []struct {
	name   string
	bo     uint32
	boMask uint32 // bits of BO fixed by the bc mnemonic (bclr and bcctr fix all but y)
	biMask uint32 // bits of BI fixed by the mnemonic
	bi     uint32
	crf    bool // the CR field is an optional operand (beq cr7,...)
	biArg  bool // the whole BI is an operand (bdnzt 4*cr1+eq,...)
}{
	{"bdnzf", 0, 0x1e, 0, 0, false, true}, {"bdzf", 2, 0x1e, 0, 0, false, true},
	{"bge", 4, 0x1c, 3, 0, true, false}, {"ble", 4, 0x1c, 3, 1, true, false},
	{"bne", 4, 0x1c, 3, 2, true, false}, {"bns", 4, 0x1c, 3, 3, true, false},
	{"bdnzt", 8, 0x1e, 0, 0, false, true}, {"bdzt", 10, 0x1e, 0, 0, false, true},
	{"blt", 12, 0x1c, 3, 0, true, false}, {"bgt", 12, 0x1c, 3, 1, true, false},
	{"beq", 12, 0x1c, 3, 2, true, false}, {"bso", 12, 0x1c, 3, 3, true, false},
	{"bdnz", 16, 0x16, 31, 0, false, false}, {"bdz", 18, 0x16, 31, 0, false, false},
}

// crfOfBI is the CR field part of BI (beq cr7,...).
var crfOfBI = operand{
	kind: kCRF, opt: true,
	get: func(w uint32) int64 { return int64(ArgBI.raw(w) >> 2) },
	set: func(w uint32, v int64) (uint32, bool) {
		if v < 0 || v > 7 {
			return w, false
		}
		return w&^(7<<18) | uint32(v)<<18, true
	},
}

func aliasBranch() {
	for _, c := range branchConds {
		var ops []operand
		switch {
		case c.crf:
			ops = []operand{crfOfBI}
		case c.biArg:
			ops = []operand{f(ArgBI)}
		}
		mask, value := mBOz|c.biMask<<16, bo(c.bo)|bi(c.bi)
		addAliases("bc", alias{name: c.name, mask: bo(c.boMask) | c.biMask<<16, value: value, hint: true,
			ops: append(append([]operand(nil), ops...), f(ArgBD))})
		ops = append(ops, o(f(ArgBH)))
		addAliases("bclr", alias{name: c.name + "lr", mask: mask, value: value, hint: true, ops: ops})
		if !c.crf {
			continue
		}
		addAliases("bcctr", alias{name: c.name + "ctr", mask: mask, value: value, hint: true, ops: ops})
	}
	bh := []operand{o(f(ArgBH))}
	addAliases("bclr", alias{name: "blr", mask: mBO | mBI, value: bo(20), ops: bh})
	addAliases("bcctr", alias{name: "bctr", mask: mBO | mBI, value: bo(20), ops: bh})
}

func aliasCR() {
	bt := f(ArgBT)
	addAliases("crxor", alias{name: "crclr", valid: fieldsEqual(ArgBT, ArgBA, ArgBB),
		ops: []operand{sameFields(kCRBit, ArgBT, ArgBA, ArgBB)}})
	addAliases("creqv", alias{name: "crset", valid: fieldsEqual(ArgBT, ArgBA, ArgBB),
		ops: []operand{sameFields(kCRBit, ArgBT, ArgBA, ArgBB)}})
	addAliases("crnor", alias{name: "crnot", valid: fieldsEqual(ArgBA, ArgBB),
		ops: []operand{bt, sameFields(kCRBit, ArgBA, ArgBB)}})
	addAliases("cror", alias{name: "crmove", valid: fieldsEqual(ArgBA, ArgBB),
		ops: []operand{bt, sameFields(kCRBit, ArgBA, ArgBB)}})
}

func aliasSPR() {
	mspr := ArgSPR.Bits()
	nums := make([]int, 0, len(sprNames))
	for n := range sprNames {
		nums = append(nums, int(n))
	}
	sort.Ints(nums) // Assemble takes the lowest number for a shared name ("mfsprg r3,4")
	for _, n := range nums {
		s := sprNames[uint16(n)]
		w, _ := ArgSPR.Insert(0, int64(n))
		if s.mf != "" {
			ops := []operand{f(ArgRT)}
			if s.mfArg >= 0 {
				ops = append(ops, constOperand(int64(s.mfArg)))
			}
			addAliases("mfspr", alias{name: s.mf, mask: mspr, value: w, ops: ops})
		}
		if s.mt != "" {
			var ops []operand
			if s.mtArg >= 0 {
				ops = append(ops, constOperand(int64(s.mtArg)))
			}
			addAliases("mtspr", alias{name: s.mt, mask: mspr, value: w, ops: append(ops, f(ArgRT))})
		}
	}
}
