package ppc

// gnuRule records how objdump's 440 dialect reads an entry beyond its operand fields:
// reserved bits it ignores, operands it leaves out when zero, and operand combinations it
// rejects (printing ".long") although the 440 would execute them.
type gnuRule struct {
	loose uint32
	opt   []Arg
	valid func(w uint32) bool
}

var gnuRules = addUpdateRules(map[string]gnuRule{
	"cmpi":    {loose: 1 << 22},
	"cmpli":   {loose: 1 << 22},
	"mfapidi": {loose: mRB},
	"mfdcrx":  {loose: mRB},
	"mfdcrux": {loose: mRB},
	"mtdcrx":  {loose: mRB},
	"mtdcrux": {loose: mRB},
	"dcbf":    {opt: []Arg{ArgDL}, valid: func(w uint32) bool { return ArgDL.raw(w) != 2 }},
	"isel":    {loose: 1},
	"mtfsf":   {loose: 1<<25 | 1<<16},
	"dcbt":    {loose: mRT},
	"dcbtst":  {loose: mRT},
	"mbar":    {loose: mRA | mRB, opt: []Arg{ArgMO}},
	"sc":      {loose: 0xffff, opt: []Arg{ArgLEV}},
	"lwarx":   {opt: []Arg{ArgEH}},
	"dccci":   {opt: []Arg{ArgRA, ArgRB}},
	"iccci":   {opt: []Arg{ArgRA, ArgRB}},
	"icbt":    {opt: []Arg{ArgCT}},
	"tlbsx":   {opt: []Arg{ArgRT}},
	"tlbre":   {opt: []Arg{ArgRT, ArgRA, ArgWS}},
	"tlbwe":   {opt: []Arg{ArgRT, ArgRA, ArgWS}},
	"frsqrte": {opt: []Arg{ArgAL}},
	"mtmsr":   {opt: []Arg{ArgML}},
	"bclr":    {valid: validBO, opt: []Arg{ArgBH}},
	"bcctr":   {valid: validBO, opt: []Arg{ArgBH}},
	"bc":      {valid: validBO},
	"mfocrf":  {valid: oneField},
	"mtocrf":  {valid: oneField},
	"sync":    {valid: func(w uint32) bool { return ArgSyncL.raw(w) < 2 }},
	"lmw":     {valid: func(w uint32) bool { return ArgRA.raw(w) < ArgRT.raw(w) }},
	"lswi":    {valid: func(w uint32) bool { return ArgRT.raw(w) != ArgRA.raw(w) }},
	"lswx":    {valid: func(w uint32) bool { return ArgRT.raw(w) != ArgRA.raw(w) && ArgRT.raw(w) != ArgRB.raw(w) }},
})

// Update forms: loads need RA != 0 and RA != RT, stores and FP loads RA != 0.
var (
	loadUpdate  = []string{"lwzu", "lbzu", "lhzu", "lhau", "lwzux", "lbzux", "lhzux", "lhaux"}
	storeUpdate = []string{"stwu", "stbu", "sthu", "stwux", "stbux", "sthux",
		"lfsu", "lfdu", "stfsu", "stfdu", "lfsux", "lfdux", "stfsux", "stfdux"}
)

func addUpdateRules(rules map[string]gnuRule) map[string]gnuRule {
	for _, n := range loadUpdate {
		rules[n] = gnuRule{valid: func(w uint32) bool { return ArgRA.raw(w) != 0 && ArgRA.raw(w) != ArgRT.raw(w) }}
	}
	for _, n := range storeUpdate {
		rules[n] = gnuRule{valid: func(w uint32) bool { return ArgRA.raw(w) != 0 }}
	}
	return rules
}

// validBO is objdump's check of a BO field on a pre-POWER4 core: the "z" bits must be 0.
func validBO(w uint32) bool {
	b := ArgBO.raw(w)
	switch b & 0x14 {
	case 0x04:
		return b&2 == 0
	case 0x10:
		return b&8 == 0
	case 0x14:
		return b == 0x14
	}
	return true
}

// oneField: mfocrf/mtocrf name exactly one CR field.
func oneField(w uint32) bool {
	m := ArgFXM.raw(w)
	return m != 0 && m&(m-1) == 0
}
