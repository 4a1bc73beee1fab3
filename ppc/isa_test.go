package ppc

import (
	"bufio"
	"debug/elf"
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestTableWellFormed checks each entry's encoding: opcode bits inside the mask, operand
// and flag bits outside it, and no two entries claiming a word unless one strictly
// refines the other (mffscrn refines mffs).
func TestTableWellFormed(t *testing.T) {
	for _, op := range Ops() {
		s := &table[op]
		if s.value&^s.mask != 0 {
			t.Errorf("%s: value %#x has bits outside mask %#x", s.name, s.value, s.mask)
		}
		if s.args.bits()&s.mask != 0 || s.flags.bits()&s.mask != 0 {
			t.Errorf("%s: operand or flag bits overlap the opcode mask", s.name)
		}
		if op.Class() == ClassNone {
			t.Errorf("%s: no class", s.name)
		}
		if got, _ := OpByName(s.name); got != op {
			t.Errorf("OpByName(%q) = %v", s.name, got)
		}
		for _, op2 := range Ops()[op:] {
			u := &table[op2]
			if (s.value^u.value)&s.mask&u.mask != 0 {
				continue
			}
			if s.mask&u.mask == s.mask && s.mask != u.mask || s.mask&u.mask == u.mask && s.mask != u.mask {
				continue
			}
			t.Errorf("%s and %s claim the same words", s.name, u.name)
		}
	}
}

// TestEncodeDecodeForms: for random fillings of every entry, Decode finds an entry whose
// Encode gives the word back, and Disasm never yields an empty text.
func TestEncodeDecodeForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, op := range Ops() {
		s := &table[op]
		if inst, err := Decode(s.value); err != nil || inst.Op != op {
			t.Errorf("Decode(%#08x) = %v, %v; want %s", s.value, inst.Op, err, s.name)
		}
		for i := 0; i < 500; i++ {
			w := s.value | rng.Uint32()&^s.mask
			inst, err := Decode(w)
			if err != nil {
				t.Fatalf("%s: Decode(%#08x): %v", s.name, w, err)
			}
			if got := Encode(inst); got != w {
				t.Fatalf("%s: Encode(Decode(%#08x)) = %#08x", s.name, w, got)
			}
			if Disasm(inst, 0x1000) == "" {
				t.Fatalf("%s: empty text for %#08x", s.name, w)
			}
		}
	}
}

func TestDecodeUnknown(t *testing.T) {
	for _, w := range []uint32{0, 0x7c6029ce /* stvx */, 0x7c00051d /* tbegin. */, 0xe8610008 /* ld */} {
		_, err := Decode(w)
		var de *DecodeError
		if !errors.As(err, &de) || de.Word != w {
			t.Errorf("Decode(%#08x) error = %v, want *DecodeError", w, err)
		}
		if got := DisasmWord(w, 0); got != ".long 0x"+strconv.FormatUint(uint64(w), 16) {
			t.Errorf("DisasmWord(%#08x) = %q", w, got)
		}
	}
}

// TestDecodeGolden checks testdata/decode.txt: one word per mnemonic objdump printed for
// the corpus and for sweeps of every extended opcode and SPR.
func TestDecodeGolden(t *testing.T) {
	f, err := os.Open("testdata/decode.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || text[0] == '#' {
			continue
		}
		head, want, ok := strings.Cut(text, "\t")
		fields := strings.Fields(head)
		if !ok || len(fields) != 2 {
			t.Fatalf("decode.txt:%d: want \"ADDR WORD<TAB>TEXT\"", line)
		}
		pc, err1 := strconv.ParseUint(fields[0], 16, 32)
		w, err2 := strconv.ParseUint(fields[1], 16, 32)
		if err1 != nil || err2 != nil {
			t.Fatalf("decode.txt:%d: bad hex", line)
		}
		if got := DisasmWord(uint32(w), uint32(pc)); foldText(got) != want {
			t.Errorf("decode.txt:%d: %08x: got %q, want %q", line, w, got, want)
		}
		n++
	}
	if n < 500 {
		t.Errorf("only %d golden lines", n)
	}
}

// corpusWords returns every word of the corpus's code sections with its address.
func corpusWords(t testing.TB) (words, addrs []uint32) {
	for _, path := range corpusELFs(t) {
		f, err := elf.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		secs, err := CodeSections(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secs {
			for i, w := range s.Words {
				words = append(words, w)
				addrs = append(addrs, s.Addr+4*uint32(i))
			}
		}
	}
	return words, addrs
}

// TestCorpusRoundTrip: every corpus word that decodes encodes back, and every printed
// word assembles back: Assemble(Disasm(w)) == w.
func TestCorpusRoundTrip(t *testing.T) {
	words, addrs := corpusWords(t)
	bad := 0
	for i, w := range words {
		if inst, err := Decode(w); err == nil && Encode(inst) != w {
			t.Fatalf("%08x: Encode(Decode(%08x)) = %08x", addrs[i], w, Encode(inst))
		}
		text := DisasmWord(w, addrs[i])
		got, err := Assemble(text, addrs[i])
		if err != nil || got != w {
			if bad++; bad <= 20 {
				t.Errorf("%08x %08x %q: Assemble = %08x, %v", addrs[i], w, text, got, err)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d words do not assemble back", bad, len(words))
	}
}
