package ppc

// specFlag marks bits of an entry's word that modify it without changing the Op.
type specFlag uint8

const (
	fRc     specFlag = 1 << iota // bit 31 is Rc: "." suffix, CR0 (CR1 for FP) set
	fOE                          // bit 21 is OE: "o" suffix, XER[OV,SO] set
	fLK                          // bit 31 is LK: link, "l" suffix
	fAA                          // bit 30 is AA: absolute target, "a" suffix
	fNotGNU                      // objdump's 440 dialect does not name it: prints .long
)

func (f specFlag) bits() uint32 {
	var m uint32
	if f&(fRc|fLK) != 0 {
		m |= 1
	}
	if f&fOE != 0 {
		m |= 1 << 10
	}
	if f&fAA != 0 {
		m |= 2
	}
	return m
}

// spec is one table entry: the word matches it when w&mask == value.
type spec struct {
	name  string
	value uint32
	mask  uint32
	flags specFlag
	class Class
	args  argList
	// reserved is every bit that is neither opcode, operand nor flag (computed at init).
	reserved uint32
}

// Word layouts: primary opcode in bits 0-5; extended opcodes in bits 21-30 (X, XL,
// XFX), 22-30 (XO, with OE at bit 21) or 26-30 (A).
const (
	maskD  = 0xfc000000
	maskX  = 0xfc0007fe
	maskXO = 0xfc0003fe
	maskA  = 0xfc00003e
)

// enc is an entry's opcode bits and the mask that selects them.
type enc struct{ v, m uint32 }

func d(op uint32) enc             { return enc{op << 26, maskD} }
func x(op, n uint32) enc          { return enc{op<<26 | n<<1, maskX} }
func xo(op, n uint32) enc         { return enc{op<<26 | n<<1, maskXO} }
func a(op, n uint32) enc          { return enc{op<<26 | n<<1, maskA} }
func (c enc) and(v, m uint32) enc { return enc{c.v | v, c.m | m} }

func e(name string, c enc, flags specFlag, class Class, args ...Arg) spec {
	return spec{name: name, value: c.v, mask: c.m, flags: flags, class: class, args: args}
}
