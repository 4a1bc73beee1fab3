package ppc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"testing"
)

// memDigest hashes every mapped page of m: address, permissions and, for the pages ever
// written, bytes.
func memDigest(m *Memory) uint64 {
	h := fnv.New64a()
	var hdr [5]byte
	for i, md := range m.root {
		if md == nil {
			continue
		}
		for j, l := range md.leaves {
			if l == nil {
				continue
			}
			for k := range l.pages {
				f := l.flags[k] & permMask
				if f == 0 {
					continue
				}
				addr := uint32(i)<<midShift | uint32(j)<<leafShift | uint32(k)<<pageShift
				binary.BigEndian.PutUint32(hdr[:], addr)
				hdr[4] = byte(f)
				h.Write(hdr[:])
				if p := l.pages[k]; p != nil {
					h.Write(p.data[:])
				}
			}
		}
	}
	return h.Sum64()
}

// requireTranslation skips tests of translated code on hosts without a translator.
func requireTranslation(t testing.TB) {
	if !nativeSupported {
		t.Skip("no translator on this host")
	}
}

// modeRun is one CPU of a translated-against-interpreted comparison, with its system
// call handler (true when the program exited).
type modeRun struct {
	c   *CPU
	sys func(c *CPU) bool
	out *bytes.Buffer
}

// sameStop compares two stops: kind and fault.
func sameStop(a, b Stop) bool {
	if a.Kind != b.Kind || (a.Fault == nil) != (b.Fault == nil) {
		return false
	}
	return a.Fault == nil || *a.Fault == *b.Fault
}

// lockstep runs interp and native with the same budgets (next gives each Run's) and
// fails at the first stop where their stop, registers or counters differ, or their
// memory at a system call or the end. It returns how many instructions ran translated.
func lockstep(t *testing.T, interp, native modeRun, next func() uint64) uint64 {
	t.Helper()
	interp.c.SetTranslation(false)
	native.c.SetTranslation(true)
	for stops := 0; ; stops++ {
		n := next()
		si, sn := interp.c.Run(n), native.c.Run(n)
		if !sameStop(si, sn) || stateOf(interp.c) != stateOf(native.c) {
			t.Fatalf("stop %d (budget %d):\ninterpreted %v %v %+v\ntranslated  %v %v %+v", stops, n,
				si.Kind, si.Fault, stateOf(interp.c), sn.Kind, sn.Fault, stateOf(native.c))
		}
		if si.Kind == StopBudget {
			continue
		}
		if di, dn := memDigest(interp.c.Mem), memDigest(native.c.Mem); di != dn {
			t.Fatalf("stop %d: memory differs at pc 0x%08x", stops, interp.c.PC)
		}
		if si.Kind != StopSyscall {
			return native.c.TranslatedInstructions()
		}
		doneI, doneN := interp.sys(interp.c), native.sys(native.c)
		if doneI != doneN || !bytes.Equal(interp.out.Bytes(), native.out.Bytes()) {
			t.Fatalf("stop %d: output: interpreted %q, translated %q", stops, interp.out.Bytes(), native.out.Bytes())
		}
		if doneI {
			return native.c.TranslatedInstructions()
		}
	}
}

// TestTranslatedMatchesInterpreter runs every qemu differential program of the package
// (testdata/exec, the glibc one included) translated and interpreted, in one slice per
// system call, and in random slices that cut blocks anywhere (the interpreter then runs
// the blocks the budget does not cover): stops, registers, counters, output and memory
// must agree at every stop, and most instructions must have run translated.
func TestTranslatedMatchesInterpreter(t *testing.T) {
	requireTranslation(t)
	progs := []struct {
		name string
		args []string
	}{
		{"hello", []string{"a", "bb"}}, {"fib", []string{"16"}}, {"loop", []string{"3000"}},
		{"intops", nil}, {"strops", nil}, {"fpops", nil}, {"auxv", []string{"x"}},
		{"faults", []string{"illegal"}}, {"faults", []string{"segv"}}, {"faults", []string{"trap"}},
		{"faults", []string{"priv"}}, {"faults", []string{"wx"}}, {"faults", []string{"align"}},
		{"faults", []string{"nx"}}, {"faults", []string{"none"}},
	}
	budgets := []struct {
		name string
		gen  func(r *rand.Rand) uint64
	}{
		{"whole", func(*rand.Rand) uint64 { return testBudget }},
		{"cut", func(r *rand.Rand) uint64 { return 1 + r.Uint64N(90) }},
		{"mixed", func(r *rand.Rand) uint64 {
			if r.IntN(4) == 0 {
				return 1 + r.Uint64N(8)
			}
			return 1 + r.Uint64N(5000)
		}},
	}
	for _, p := range progs {
		for _, bud := range budgets {
			if testing.Short() && bud.name == "cut" {
				continue // the slowest: a stop every 45 instructions
			}
			t.Run(p.name+"/"+join(p.args)+"/"+bud.name, func(t *testing.T) {
				mk := func() modeRun {
					c := newTestProcess(t, p.name, p.args...)
					out := &bytes.Buffer{}
					if p.name == "auxv" {
						s := &glibcSys{brk: 0}
						s.brk = brkOf(t, p.name)
						return modeRun{c, func(c *CPU) bool { d, _ := s.call(t, c); return d }, &s.out}
					}
					return modeRun{c, func(c *CPU) bool { d, _ := testSyscall(t, c, out); return d }, out}
				}
				r := rand.New(rand.NewPCG(27, uint64(len(p.name))))
				interp, native := mk(), mk()
				n := lockstep(t, interp, native, func() uint64 { return bud.gen(r) })
				if total := native.c.Count.Instructions; bud.name == "whole" && n < total/2 {
					t.Errorf("%d of %d instructions ran translated", n, total)
				}
			})
		}
	}
}

// brkOf returns the initial break of a test program's image.
func brkOf(t *testing.T, name string) uint32 {
	return loadFile(t, execProg(name)).Brk()
}

// blockGen makes random blocks of the integer and floating-point forms the translator
// covers (native_fp_test.go has the floating-point ones), with a few it leaves to the
// interpreter, over registers r0-r7 whose values start as pointers into the data pages.
type blockGen struct{ r *rand.Rand }

const (
	fuzzCode = 0x10000
	fuzzData = 0x20000000 // 3 RW pages, then a read-only one
)

func (g blockGen) reg() uint32 { return g.r.Uint32N(8) }

// disp is a displacement that mostly stays in the data pages, sometimes near a page end.
func (g blockGen) disp() uint32 {
	if g.r.IntN(8) == 0 {
		return uint32(PageSize - 4 + g.r.IntN(8))
	}
	return uint32(g.r.IntN(256)-128) & 0xffff
}

func (g blockGen) word() uint32 {
	rc := g.r.Uint32N(2)
	rt, ra, rb := g.reg(), g.reg(), g.reg()
	d := func(op, imm uint32) uint32 { return op<<26 | rt<<21 | ra<<16 | imm&0xffff }
	x := func(xo uint32) uint32 { return 31<<26 | rt<<21 | ra<<16 | rb<<11 | xo<<1 | rc }
	switch g.r.IntN(11) {
	case 8, 9, 10:
		return g.fpWord()
	case 0, 1: // D-form arithmetic, logical and compares
		op := []uint32{14, 15, 12, 13, 8, 7, 24, 25, 26, 27, 28, 29, 11, 10}[g.r.IntN(14)]
		if op == 11 || op == 10 {
			rt = g.r.Uint32N(8) << 2
		}
		return d(op, g.r.Uint32())
	case 2, 3: // D-form loads and stores, with update
		op := []uint32{32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45}[g.r.IntN(14)]
		return d(op, g.disp())
	case 4: // X-form arithmetic and logical, the carry chain, high multiplies, divides
		xo := []uint32{266, 40, 104, 235, 28, 60, 444, 412, 316, 476, 124, 284, 954, 922, 26, 24, 536,
			10, 138, 792, 491, 8, 136, 202, 234, 200, 232, 11, 75, 459}[g.r.IntN(30)]
		w := x(xo)
		if g.r.IntN(6) == 0 {
			w |= bitOE
		}
		return w
	case 5: // indexed loads and stores: small RB so the address stays near RA
		xo := []uint32{23, 55, 87, 119, 151, 183, 215, 247, 279, 311, 343, 375, 407, 439}[g.r.IntN(14)]
		return x(xo)
	case 6: // rotates, srawi, compares
		sh, mb, me := g.r.Uint32N(32), g.r.Uint32N(32), g.r.Uint32N(32)
		switch g.r.IntN(5) {
		case 0, 1:
			return []uint32{21, 20, 23}[g.r.IntN(3)]<<26 | rt<<21 | ra<<16 | sh<<11 | mb<<6 | me<<1 | rc
		case 2:
			return x(824)&^(31<<11) | sh<<11
		}
		return 31<<26 | g.r.Uint32N(8)<<23 | ra<<16 | rb<<11 | []uint32{0, 32}[g.r.IntN(2)]<<1
	}
	switch g.r.IntN(4) { // CR and SPR moves
	case 0:
		return 31<<26 | rt<<21 | 19<<1 // mfcr
	case 1:
		return 31<<26 | rt<<21 | g.r.Uint32N(256)<<12 | 144<<1 // mtcrf
	}
	spr := []uint32{8, 9, 1}[g.r.IntN(3)] // LR, CTR; XER stays interpreted
	return 31<<26 | rt<<21 | spr<<16 | []uint32{339, 467}[g.r.IntN(2)]<<1
}

// branch closes the block at pc, going back to the start one way or another.
func (g blockGen) branch(pc uint32) uint32 {
	rel := (fuzzCode - pc) & 0xffff
	lk := g.r.Uint32N(2)
	bo := []uint32{20, 12, 4, 16, 18, 8, 0, 10, 2}[g.r.IntN(9)]
	bi := g.r.Uint32N(32)
	switch g.r.IntN(4) {
	case 0:
		return 18<<26 | (fuzzCode-pc)&0x03fffffc | lk
	case 1:
		return 16<<26 | bo<<21 | bi<<16 | rel&0xfffc | lk
	case 2:
		return 19<<26 | bo<<21 | bi<<16 | 16<<1 | lk
	}
	return 19<<26 | (bo|4)<<21 | bi<<16 | 528<<1 | lk
}

// fuzzMachine builds a CPU running the block words in a loop over random data pages.
func fuzzMachine(t testing.TB, r *rand.Rand, words []uint32) *CPU {
	mem := NewMemory()
	code := make([]byte, 4*len(words))
	for i, w := range words {
		binary.BigEndian.PutUint32(code[4*i:], w)
	}
	data := make([]byte, 4*PageSize)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	if err := mem.Map(fuzzCode, PageSize, PermRX); err != nil {
		t.Fatal(err)
	}
	if err := mem.Map(fuzzData, 4*PageSize, PermRW); err != nil {
		t.Fatal(err)
	}
	if err := mem.Poke(fuzzCode, code); err != nil {
		t.Fatal(err)
	}
	if err := mem.Write(fuzzData, data); err != nil {
		t.Fatal(err)
	}
	if err := mem.Protect(fuzzData+3*PageSize, PageSize, PermR); err != nil {
		t.Fatal(err)
	}
	c := NewCPU(mem)
	c.PC = fuzzCode
	for i := range c.GPR {
		c.GPR[i] = fuzzData + r.Uint32N(4*PageSize)
	}
	c.GPR[0], c.GPR[7] = r.Uint32(), r.Uint32N(64)
	if r.IntN(4) == 0 { // the divides' undefined cases: by zero (r7 is small), -2^31 / -1
		c.GPR[5], c.GPR[6], c.GPR[7] = 0x80000000, 0xffffffff, 0
	}
	c.CR, c.XER = r.Uint32(), r.Uint32()&0xe000007f
	c.LR, c.CTR = fuzzCode, 1+r.Uint32N(40)
	blockGen{r}.fpSetup(c)
	return c
}

// checkRandomBlock runs one random block from seed translated and interpreted, and
// returns how many instructions ran translated and in all.
func checkRandomBlock(t *testing.T, seed uint64) (translated, total uint64) {
	g := blockGen{rand.New(rand.NewPCG(seed, 440))}
	words := make([]uint32, 1+g.r.IntN(24))
	for i := range words[:len(words)-1] {
		words[i] = g.word()
	}
	words[len(words)-1] = g.branch(fuzzCode + 4*uint32(len(words)-1))
	setup := rand.New(rand.NewPCG(seed, 27))
	interp := fuzzMachine(t, setup, words)
	setup = rand.New(rand.NewPCG(seed, 27))
	native := fuzzMachine(t, setup, words)
	interp.SetTranslation(false)
	native.SetTranslation(true)
	budgets := rand.New(rand.NewPCG(seed, 1))
	for stop := 0; stop < 12; stop++ {
		n := 1 + budgets.Uint64N(uint64(3*len(words)))
		if stop%3 == 0 {
			n = uint64(20 * len(words))
		}
		si, sn := interp.Run(n), native.Run(n)
		if !sameStop(si, sn) || stateOf(interp) != stateOf(native) || memDigest(interp.Mem) != memDigest(native.Mem) {
			var prog bytes.Buffer
			for i, w := range words {
				d, err := Decode(w)
				if err != nil {
					fmt.Fprintf(&prog, "%08x: .long 0x%08x\n", fuzzCode+4*i, w)
					continue
				}
				fmt.Fprintf(&prog, "%08x: %08x %s\n", fuzzCode+4*i, w, Disasm(d, uint32(fuzzCode+4*i)))
			}
			t.Fatalf("seed %d, stop %d (budget %d):\n%s\ninterpreted %v %v %+v\ntranslated  %v %v %+v\nmemory equal: %v",
				seed, stop, n, prog.String(), si.Kind, si.Fault, stateOf(interp), sn.Kind, sn.Fault, stateOf(native),
				memDigest(interp.Mem) == memDigest(native.Mem))
		}
		if si.Kind != StopBudget {
			break
		}
	}
	return native.TranslatedInstructions(), native.Count.Instructions
}

// TestTranslatedRandomBlocks runs random blocks (FuzzTranslatedBlock's generator) in a
// loop, translated and interpreted, and compares them at every stop.
func TestTranslatedRandomBlocks(t *testing.T) {
	requireTranslation(t)
	n := 3000
	if testing.Short() {
		n = 300
	}
	var translated, total uint64
	for seed := range uint64(n) {
		tr, all := checkRandomBlock(t, seed)
		translated, total = translated+tr, total+all
	}
	// Blocks leave before their first interpreted instruction or page-cache miss, so not
	// all of it runs translated; most must, or the test proves nothing.
	if translated < total/2 {
		t.Errorf("%d of %d instructions ran translated", translated, total)
	}
	t.Logf("%d of %d instructions ran translated", translated, total)
}

// FuzzTranslatedBlock compares translated and interpreted runs of random blocks.
func FuzzTranslatedBlock(f *testing.F) {
	requireTranslation(f)
	for seed := range uint64(8) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { checkRandomBlock(t, seed) })
}

// TestTranslatedPageCrossing runs loads and stores that straddle two pages, each after an
// instruction the translated block runs: they must leave the translated code (the
// software TLB maps one page) and read and write both pages as the interpreter does.
func TestTranslatedPageCrossing(t *testing.T) {
	requireTranslation(t)
	src := []string{
		"addi r9,r9,1", "lwz r3,0(r10)", "b 1000c",
		"addi r9,r9,1", "lhz r4,0(r11)", "b 10018",
		"addi r9,r9,1", "lha r5,0(r11)", "b 10024",
		"addi r9,r9,1", "stw r3,0(r12)", "b 10030",
		"addi r9,r9,1", "sthu r4,2(r13)", "b 1003c",
		"addi r9,r9,1", "lwzx r6,r14,r15", "b 10000",
	}
	var code []byte
	for i, s := range src {
		w, err := Assemble(s, fuzzCode+4*uint32(i))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		code = binary.BigEndian.AppendUint32(code, w)
	}
	mk := func() *CPU {
		mem := NewMemory()
		data := make([]byte, 3*PageSize)
		for i := range data {
			data[i] = byte(i*7 + i>>12)
		}
		// Each data page is allocated after an unrelated page: a translated access that ran
		// past its page would read the unrelated bytes, not the next data page's.
		filler := bytes.Repeat([]byte{0xa5}, PageSize)
		errs := []error{mem.Map(fuzzCode, PageSize, PermRX), mem.Map(fuzzData, 3*PageSize, PermRW),
			mem.Map(fuzzData+16*PageSize, 3*PageSize, PermRW), mem.Poke(fuzzCode, code)}
		for p := uint32(0); p < 3; p++ {
			errs = append(errs, mem.Write(fuzzData+16*PageSize+p*PageSize, filler),
				mem.Write(fuzzData+p*PageSize, data[p*PageSize:(p+1)*PageSize]))
		}
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		c := NewCPU(mem)
		c.PC = fuzzCode
		c.GPR[10], c.GPR[11], c.GPR[12] = fuzzData+PageSize-2, fuzzData+PageSize-1, fuzzData+2*PageSize-3
		c.GPR[13], c.GPR[14], c.GPR[15] = fuzzData+PageSize-3, fuzzData+2*PageSize-1, 0
		return c
	}
	interp, native := mk(), mk()
	interp.SetTranslation(false)
	native.SetTranslation(true)
	for round := range 20 {
		si, sn := interp.Run(uint64(len(src))), native.Run(uint64(len(src)))
		if !sameStop(si, sn) || stateOf(interp) != stateOf(native) || memDigest(interp.Mem) != memDigest(native.Mem) {
			t.Fatalf("round %d:\ninterpreted %v %+v\ntranslated  %v %+v", round, si.Kind, stateOf(interp), sn.Kind, stateOf(native))
		}
		native.GPR[13], interp.GPR[13] = fuzzData+PageSize-3, fuzzData+PageSize-3
	}
	m := native.Mem
	want32 := func(a uint32) uint32 { v, _ := m.Read32(a); return v }
	want16 := func(a uint32) uint32 { v, _ := m.Read16(a); return uint32(v) }
	if g, w := native.GPR[3], want32(fuzzData+PageSize-2); g != w {
		t.Errorf("lwz across pages: 0x%08x, want 0x%08x", g, w)
	}
	if g, w := native.GPR[4], want16(fuzzData+PageSize-1); g != w {
		t.Errorf("lhz across pages: 0x%04x, want 0x%04x", g, w)
	}
	if g, w := native.GPR[5], uint32(int32(int16(want16(fuzzData+PageSize-1)))); g != w {
		t.Errorf("lha across pages: 0x%08x, want 0x%08x", g, w)
	}
	if g, w := want32(fuzzData+2*PageSize-3), native.GPR[3]; g != w {
		t.Errorf("stw across pages stored 0x%08x, want 0x%08x", g, w)
	}
	if g, w := want16(fuzzData+PageSize-1), native.GPR[4]&0xffff; g != w {
		t.Errorf("sthu across pages stored 0x%04x, want 0x%04x", g, w)
	}
	if g, w := native.GPR[6], want32(fuzzData+2*PageSize-1); g != w {
		t.Errorf("lwzx across pages: 0x%08x, want 0x%08x", g, w)
	}
	if native.TranslatedInstructions() == 0 {
		t.Error("nothing ran translated")
	}
	t.Logf("%d of %d instructions ran translated", native.TranslatedInstructions(), native.Count.Instructions)
}
