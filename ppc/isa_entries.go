package ppc

// table is every entry, indexed by Op.
var table = concatSpecs(baseOps, op31, op31mem, fpOps, macOps)

func concatSpecs(parts ...[]spec) []spec {
	var all []spec
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}

// baseOps begins the PowerPC 440 instruction set as GCC -mcpu=440fp and static glibc use it,
// plus the supervisor instructions objdump's 440 dialect names. Index 0 is "no
// instruction"; an Op is an index. Order only matters for readability: Decode tries the
// most specific mask first.
var baseOps = []spec{
	{name: "(none)"},

	// Integer arithmetic, D form.
	e("twi", d(3), 0, ClassTrap, ArgTO, ArgRA, ArgSI),
	e("mulli", d(7), 0, ClassMul, ArgRT, ArgRA, ArgSI),
	e("subfic", d(8), 0, ClassInt, ArgRT, ArgRA, ArgSI),
	e("cmpli", d(10), 0, ClassInt, ArgBF, ArgL, ArgRA, ArgUI),
	e("cmpi", d(11), 0, ClassInt, ArgBF, ArgL, ArgRA, ArgSI),
	e("addic", d(12), 0, ClassInt, ArgRT, ArgRA, ArgSI),
	e("addic.", d(13), 0, ClassInt, ArgRT, ArgRA, ArgSI),
	e("addi", d(14), 0, ClassInt, ArgRT, ArgRA0, ArgSI),
	e("addis", d(15), 0, ClassInt, ArgRT, ArgRA0, ArgSI),

	// Branches and system call.
	e("bc", d(16), fAA|fLK, ClassBranch, ArgBO, ArgBI, ArgBD),
	e("sc", d(17).and(2, 2), 0, ClassSyscall, ArgLEV),
	e("b", d(18), fAA|fLK, ClassBranch, ArgLI),

	// Condition register and branch-to-register, XL form.
	e("mcrf", x(19, 0), 0, ClassCR, ArgBF, ArgBFA),
	e("bclr", x(19, 16), fLK, ClassBranch, ArgBO, ArgBI, ArgBH),
	e("crnor", x(19, 33), 0, ClassCR, ArgBT, ArgBA, ArgBB),
	e("rfmci", x(19, 38), 0, ClassPriv),
	e("rfi", x(19, 50), 0, ClassPriv),
	e("rfci", x(19, 51), 0, ClassPriv),
	e("crandc", x(19, 129), 0, ClassCR, ArgBT, ArgBA, ArgBB),
	e("isync", x(19, 150), 0, ClassSync),
	e("crxor", x(19, 193), 0, ClassCR, ArgBT, ArgBA, ArgBB),
	e("crnand", x(19, 225), 0, ClassCR, ArgBT, ArgBA, ArgBB),
	e("crand", x(19, 257), 0, ClassCR, ArgBT, ArgBA, ArgBB),
	e("creqv", x(19, 289), 0, ClassCR, ArgBT, ArgBA, ArgBB),
	e("crorc", x(19, 417), 0, ClassCR, ArgBT, ArgBA, ArgBB),
	e("cror", x(19, 449), 0, ClassCR, ArgBT, ArgBA, ArgBB),
	e("bcctr", x(19, 528), fLK, ClassBranch, ArgBO, ArgBI, ArgBH),

	// Rotates and logical immediates.
	e("rlwimi", d(20), fRc, ClassInt, ArgRA, ArgRT, ArgSH, ArgMB, ArgME),
	e("rlwinm", d(21), fRc, ClassInt, ArgRA, ArgRT, ArgSH, ArgMB, ArgME),
	e("rlwnm", d(23), fRc, ClassInt, ArgRA, ArgRT, ArgRB, ArgMB, ArgME),
	e("ori", d(24), 0, ClassInt, ArgRA, ArgRT, ArgUI),
	e("oris", d(25), 0, ClassInt, ArgRA, ArgRT, ArgUI),
	e("xori", d(26), 0, ClassInt, ArgRA, ArgRT, ArgUI),
	e("xoris", d(27), 0, ClassInt, ArgRA, ArgRT, ArgUI),
	e("andi.", d(28), 0, ClassInt, ArgRA, ArgRT, ArgUI),
	e("andis.", d(29), 0, ClassInt, ArgRA, ArgRT, ArgUI),

	// Loads and stores, D form.
	e("lwz", d(32), 0, ClassLoad, ArgRT, ArgD, ArgRA0),
	e("lwzu", d(33), 0, ClassLoad, ArgRT, ArgD, ArgRA0),
	e("lbz", d(34), 0, ClassLoad, ArgRT, ArgD, ArgRA0),
	e("lbzu", d(35), 0, ClassLoad, ArgRT, ArgD, ArgRA0),
	e("stw", d(36), 0, ClassStore, ArgRT, ArgD, ArgRA0),
	e("stwu", d(37), 0, ClassStore, ArgRT, ArgD, ArgRA0),
	e("stb", d(38), 0, ClassStore, ArgRT, ArgD, ArgRA0),
	e("stbu", d(39), 0, ClassStore, ArgRT, ArgD, ArgRA0),
	e("lhz", d(40), 0, ClassLoad, ArgRT, ArgD, ArgRA0),
	e("lhzu", d(41), 0, ClassLoad, ArgRT, ArgD, ArgRA0),
	e("lha", d(42), 0, ClassLoad, ArgRT, ArgD, ArgRA0),
	e("lhau", d(43), 0, ClassLoad, ArgRT, ArgD, ArgRA0),
	e("sth", d(44), 0, ClassStore, ArgRT, ArgD, ArgRA0),
	e("sthu", d(45), 0, ClassStore, ArgRT, ArgD, ArgRA0),
	e("lmw", d(46), 0, ClassString, ArgRT, ArgD, ArgRA0),
	e("stmw", d(47), 0, ClassString, ArgRT, ArgD, ArgRA0),
	e("lfs", d(48), 0, ClassFPLoad, ArgFRT, ArgD, ArgRA0),
	e("lfsu", d(49), 0, ClassFPLoad, ArgFRT, ArgD, ArgRA0),
	e("lfd", d(50), 0, ClassFPLoad, ArgFRT, ArgD, ArgRA0),
	e("lfdu", d(51), 0, ClassFPLoad, ArgFRT, ArgD, ArgRA0),
	e("stfs", d(52), 0, ClassFPStore, ArgFRT, ArgD, ArgRA0),
	e("stfsu", d(53), 0, ClassFPStore, ArgFRT, ArgD, ArgRA0),
	e("stfd", d(54), 0, ClassFPStore, ArgFRT, ArgD, ArgRA0),
	e("stfdu", d(55), 0, ClassFPStore, ArgFRT, ArgD, ArgRA0),
}
