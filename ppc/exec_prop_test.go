package ppc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// The property test: random straight-line integer and floating-point sequences, all in one
// program that loads a random register state, runs a sequence and writes every register
// out, give the same registers in the interpreter as in qemu-ppc -cpu 440epx.

const (
	propSequences = 10000
	propLength    = 16
	propSeed      = 440
	stateSize     = 32*8 + 32*4 + 4*4 // FPRs, GPRs, CR, XER, CTR, FPSCR
	dumpSize      = 32*4 + 4*4 + 32*8 // GPRs, CR, XER, CTR, FPSCR, FPRs
)

// gprs usable as operands: all but r1, which holds the stack the dump is written to.
var propGPRs = func() []int {
	var r []int
	for i := 0; i < 32; i++ {
		if i != 1 {
			r = append(r, i)
		}
	}
	return r
}()

// propGen makes random instructions in objdump/gas syntax.
type propGen struct{ r *rand.Rand }

func (g propGen) gpr() int            { return propGPRs[g.r.IntN(len(propGPRs))] }
func (g propGen) fpr() int            { return g.r.IntN(32) }
func (g propGen) dot(s string) string { return s + []string{"", "."}[g.r.IntN(2)] }
func (g propGen) oe(s string) string  { return s + []string{"", "o"}[g.r.IntN(2)] }

// Templates: %d operands filled by kind letters: g GPR, f FPR, s signed 16, u unsigned 16,
// h shift 0-31, c CR field, b CR bit.
var propInt = []string{
	"add", "addc", "adde", "subf", "subfc", "subfe", "mullw", "divw", "divwu",
}

var propIntOps = []func(g propGen) string{
	func(g propGen) string {
		op := propInt[g.r.IntN(len(propInt))]
		return fmt.Sprintf("%s %d,%d,%d", g.dot(g.oe(op)), g.gpr(), g.gpr(), g.gpr())
	},
	func(g propGen) string {
		op := []string{"addme", "addze", "subfme", "subfze", "neg"}[g.r.IntN(5)]
		return fmt.Sprintf("%s %d,%d", g.dot(g.oe(op)), g.gpr(), g.gpr())
	},
	func(g propGen) string {
		op := []string{"mulhw", "mulhwu", "and", "andc", "or", "orc", "xor", "nand", "nor", "eqv", "slw", "srw", "sraw"}[g.r.IntN(13)]
		return fmt.Sprintf("%s %d,%d,%d", g.dot(op), g.gpr(), g.gpr(), g.gpr())
	},
	func(g propGen) string {
		op := []string{"addi", "addis", "addic", "addic.", "subfic", "mulli"}[g.r.IntN(6)]
		return fmt.Sprintf("%s %d,%d,%d", op, g.gpr(), g.gpr(), g.r.IntN(65536)-32768)
	},
	func(g propGen) string {
		op := []string{"andi.", "andis.", "ori", "oris", "xori", "xoris"}[g.r.IntN(6)]
		return fmt.Sprintf("%s %d,%d,%d", op, g.gpr(), g.gpr(), g.r.IntN(65536))
	},
	func(g propGen) string {
		op := []string{"extsb", "extsh", "cntlzw"}[g.r.IntN(3)]
		return fmt.Sprintf("%s %d,%d", g.dot(op), g.gpr(), g.gpr())
	},
	func(g propGen) string {
		return fmt.Sprintf("%s %d,%d,%d", g.dot("srawi"), g.gpr(), g.gpr(), g.r.IntN(32))
	},
	func(g propGen) string {
		op := []string{"rlwinm", "rlwimi"}[g.r.IntN(2)]
		return fmt.Sprintf("%s %d,%d,%d,%d,%d", g.dot(op), g.gpr(), g.gpr(), g.r.IntN(32), g.r.IntN(32), g.r.IntN(32))
	},
	func(g propGen) string {
		return fmt.Sprintf("%s %d,%d,%d,%d,%d", g.dot("rlwnm"), g.gpr(), g.gpr(), g.gpr(), g.r.IntN(32), g.r.IntN(32))
	},
	func(g propGen) string {
		switch g.r.IntN(4) {
		case 0:
			return fmt.Sprintf("cmpw %d,%d,%d", g.r.IntN(8), g.gpr(), g.gpr())
		case 1:
			return fmt.Sprintf("cmplw %d,%d,%d", g.r.IntN(8), g.gpr(), g.gpr())
		case 2:
			return fmt.Sprintf("cmpwi %d,%d,%d", g.r.IntN(8), g.gpr(), g.r.IntN(65536)-32768)
		}
		return fmt.Sprintf("cmplwi %d,%d,%d", g.r.IntN(8), g.gpr(), g.r.IntN(65536))
	},
	func(g propGen) string {
		op := []string{"crand", "crandc", "creqv", "crnand", "crnor", "cror", "crorc", "crxor"}[g.r.IntN(8)]
		return fmt.Sprintf("%s %d,%d,%d", op, g.r.IntN(32), g.r.IntN(32), g.r.IntN(32))
	},
	func(g propGen) string {
		switch g.r.IntN(5) {
		case 0:
			return fmt.Sprintf("mcrf %d,%d", g.r.IntN(8), g.r.IntN(8))
		case 1:
			return fmt.Sprintf("mcrxr %d", g.r.IntN(8))
		case 2:
			return fmt.Sprintf("mfcr %d", g.gpr())
		case 3:
			return fmt.Sprintf("mtcrf %d,%d", g.r.IntN(256), g.gpr())
		}
		return fmt.Sprintf("mtxer %d", g.gpr())
	},
	func(g propGen) string {
		// MAC forms qemu-ppc models correctly (see intops.c).
		op := []string{"macchwuo", "machhwuo", "maclhwuo", "macchwsuo", "machhwsuo", "maclhwsuo",
			"mulchw", "mulchwu", "mulhhw", "mulhhwu", "mullhw", "mullhwu"}[g.r.IntN(12)]
		return fmt.Sprintf("%s %d,%d,%d", g.dot(op), g.gpr(), g.gpr(), g.gpr())
	},
	func(g propGen) string {
		return fmt.Sprintf("%s %d,%d,%d", g.dot("dlmzb"), g.gpr(), g.gpr(), g.gpr())
	},
}

var propFPOps = []func(g propGen) string{
	func(g propGen) string {
		op := []string{"fadd", "fsub", "fdiv", "fadds", "fsubs", "fdivs"}[g.r.IntN(6)]
		return fmt.Sprintf("%s %d,%d,%d", g.dot(op), g.fpr(), g.fpr(), g.fpr())
	},
	func(g propGen) string {
		op := []string{"fmul", "fmuls"}[g.r.IntN(2)]
		return fmt.Sprintf("%s %d,%d,%d", g.dot(op), g.fpr(), g.fpr(), g.fpr())
	},
	func(g propGen) string {
		op := []string{"fmadd", "fmsub", "fnmadd", "fnmsub", "fmadds", "fmsubs", "fnmadds", "fnmsubs", "fsel"}[g.r.IntN(9)]
		return fmt.Sprintf("%s %d,%d,%d,%d", g.dot(op), g.fpr(), g.fpr(), g.fpr(), g.fpr())
	},
	func(g propGen) string {
		// fres and frsqrte are estimates (the low bits are implementation-defined) and are
		// left out; TestEstimates covers them.
		op := []string{"frsp", "fctiw", "fctiwz", "fneg", "fabs", "fnabs", "fmr", "fsqrt", "fsqrts"}[g.r.IntN(9)]
		return fmt.Sprintf("%s %d,%d", g.dot(op), g.fpr(), g.fpr())
	},
	func(g propGen) string {
		op := []string{"fcmpu", "fcmpo"}[g.r.IntN(2)]
		return fmt.Sprintf("%s %d,%d,%d", op, g.r.IntN(8), g.fpr(), g.fpr())
	},
	func(g propGen) string {
		switch g.r.IntN(5) {
		case 4:
			return fmt.Sprintf("mtfsfi 7,%d", g.r.IntN(4)) // rounding mode
		case 0:
			return fmt.Sprintf("%s %d", g.dot("mffs"), g.fpr())
		case 1:
			return fmt.Sprintf("mcrfs %d,%d", g.r.IntN(8), g.r.IntN(6))
		case 2:
			// Status bits only: enables and NI stay 0.
			bit := []int{0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23}[g.r.IntN(21)]
			return fmt.Sprintf("%s %d", g.dot([]string{"mtfsb0", "mtfsb1"}[g.r.IntN(2)]), bit)
		}
		return fmt.Sprintf("%s %d,%d", g.dot("mtfsfi"), g.r.IntN(6), g.r.IntN(16))
	},
}

// propDouble returns an interesting double: a special value, a random double near 1, a
// random double of any exponent, or a single-representable value.
func (g propGen) double() uint64 {
	specials := []uint64{0, 1 << 63, 0x3ff0000000000000, 0x7ff0000000000000, 0xfff0000000000000,
		0x7ff8000000000000, 0x7ff4000000000001, 1, 0x000fffffffffffff, 0x7fefffffffffffff,
		0x0010000000000000, 0x41dfffffffc00000, 0xc1e0000000000000, 0x47efffffe0000000,
		0x3810000000000000, 0x36a0000000000000}
	switch g.r.IntN(6) {
	case 0:
		return specials[g.r.IntN(len(specials))]
	case 1:
		return math.Float64bits(float64(math.Float32frombits(g.r.Uint32())))
	case 2:
		return g.r.Uint64()
	case 3:
		return math.Float64bits(float64(g.r.IntN(1<<20)-1<<19) / float64(int(1)<<g.r.IntN(40)))
	}
	return math.Float64bits((g.r.Float64()*2 - 1) * math.Ldexp(1, g.r.IntN(80)-40))
}

func (g propGen) word() uint32 {
	specials := []uint32{0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x8000, 0xffff, 0x10000, 0x00ff00ff}
	if g.r.IntN(3) == 0 {
		return specials[g.r.IntN(len(specials))]
	}
	return g.r.Uint32()
}

// propProgram writes the assembly source and returns it with the sequences' text.
func propProgram(n int) (string, [][]string) {
	g := propGen{rand.New(rand.NewPCG(propSeed, 0))}
	var text, data strings.Builder
	seqs := make([][]string, n)
	for i := range n {
		fmt.Fprintf(&data, "state%d:\n", i)
		for range 32 {
			fmt.Fprintf(&data, "\t.quad 0x%x\n", g.double())
		}
		for range 32 {
			fmt.Fprintf(&data, "\t.long 0x%x\n", g.word())
		}
		fmt.Fprintf(&data, "\t.long 0x%x, 0x%x, 0x%x, 0\n", g.r.Uint32(), g.r.Uint32()&0xe000007f, g.word())
		fmt.Fprintf(&text, "\tlis 3,state%d@ha\n\taddi 3,3,state%d@l\n\tbl load_state\n", i, i)
		for range propLength {
			var ins string
			if g.r.IntN(2) == 0 {
				ins = propIntOps[g.r.IntN(len(propIntOps))](g)
			} else {
				ins = propFPOps[g.r.IntN(len(propFPOps))](g)
			}
			seqs[i] = append(seqs[i], ins)
			fmt.Fprintf(&text, "\t%s\n", ins)
		}
		text.WriteString("\tbl dump\n")
	}
	return propAsmHead + text.String() + "\tli 0,1\n\tli 3,0\n\tsc\n" + propAsmTail + data.String(), seqs
}

const propAsmHead = `	.text
	.globl _start
_start:
	stwu 1,-1024(1)
`

// load_state: r3 points at FPRs, GPRs, CR, XER, CTR, FPSCR. dump writes GPRs, CR, XER,
// CTR, FPSCR, FPRs below r1 and calls write(1, ...).
var propAsmTail = func() string {
	var b strings.Builder
	b.WriteString("load_state:\n\tlfd 0,392(3)\n\tmtfsf 0xff,0\n")
	for i := 0; i < 32; i++ {
		fmt.Fprintf(&b, "\tlfd %d,%d(3)\n", i, 8*i)
	}
	b.WriteString("\tlwz 4,384(3)\n\tmtcrf 0xff,4\n\tlwz 4,388(3)\n\tmtxer 4\n\tlwz 4,392(3)\n\tmtctr 4\n")
	for i := 0; i < 32; i++ {
		if i != 1 && i != 3 {
			fmt.Fprintf(&b, "\tlwz %d,%d(3)\n", i, 256+4*i)
		}
	}
	b.WriteString("\tlwz 3,268(3)\n\tblr\n")
	b.WriteString("dump:\n")
	for i := 0; i < 32; i++ {
		if i != 1 {
			fmt.Fprintf(&b, "\tstw %d,%d(1)\n", i, 16+4*i)
		}
	}
	b.WriteString("\tmfcr 3\n\tstw 3,144(1)\n\tmfxer 3\n\tstw 3,148(1)\n\tmfctr 3\n\tstw 3,152(1)\n")
	for i := 0; i < 32; i++ {
		fmt.Fprintf(&b, "\tstfd %d,%d(1)\n", i, 160+8*i)
	}
	b.WriteString("\tmffs 0\n\tstfd 0,600(1)\n\tlwz 3,604(1)\n\tstw 3,156(1)\n")
	b.WriteString("\tli 0,4\n\tli 3,1\n\taddi 4,1,16\n\tli 5,400\n\tsc\n\tblr\n")
	b.WriteString("\t.data\n\t.align 3\n")
	return b.String()
}()

func TestRandomSequences(t *testing.T) {
	gcc := oracletest.Require(t, oracletest.GCC)
	oracletest.Require(t, oracletest.QEMU)
	n := propSequences
	if testing.Short() {
		n = 1000
	}
	src, seqs := propProgram(n)
	dir := t.TempDir()
	asm, elf := filepath.Join(dir, "prop.s"), filepath.Join(dir, "prop.elf")
	if err := os.WriteFile(asm, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gcc, "-mcpu=440fp", "-nostdlib", "-static", "-o", elf, asm).CombinedOutput(); err != nil {
		t.Fatalf("assemble: %v\n%s", err, out)
	}
	want := runQEMU(t, elf)
	got := runELF(t, elf)
	if got.status != want.status || len(got.stdout) != len(want.stdout) {
		t.Fatalf("status %d, %d bytes; qemu-ppc status %d, %d bytes", got.status, len(got.stdout), want.status, len(want.stdout))
	}
	if len(got.stdout) != n*dumpSize {
		t.Fatalf("dump is %d bytes, want %d", len(got.stdout), n*dumpSize)
	}
	bad := 0
	for i := range n {
		a, b := got.stdout[i*dumpSize:(i+1)*dumpSize], want.stdout[i*dumpSize:(i+1)*dumpSize]
		if !bytes.Equal(a, b) {
			bad++
			if bad <= 5 {
				t.Errorf("sequence %d differs: %s\n%s", i, describeDump(a, b), strings.Join(seqs[i], "\n"))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d sequences differ", bad, n)
	}
}

// describeDump names the registers that differ between two dumps.
func describeDump(a, b []byte) string {
	names := make([]string, 0, 68)
	for i := 0; i < 32; i++ {
		names = append(names, fmt.Sprintf("r%d", i))
	}
	names = append(names, "cr", "xer", "ctr", "fpscr")
	var out []string
	for i, name := range names {
		x, y := binary.BigEndian.Uint32(a[4*i:]), binary.BigEndian.Uint32(b[4*i:])
		if x != y {
			out = append(out, fmt.Sprintf("%s %08x (qemu %08x)", name, x, y))
		}
	}
	for i := 0; i < 32; i++ {
		x, y := binary.BigEndian.Uint64(a[144+8*i:]), binary.BigEndian.Uint64(b[144+8*i:])
		if x != y {
			out = append(out, fmt.Sprintf("f%d %016x (qemu %016x)", i, x, y))
		}
	}
	return strings.Join(out, ", ")
}
