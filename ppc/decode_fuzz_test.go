package ppc

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// FuzzDecode: any word decodes or errors without panicking; a decoded word prints,
// re-encodes to itself, and the printed text (unless ".long" or carrying bits objdump
// ignores) assembles to a word that prints the same.
func FuzzDecode(f *testing.F) {
	if fh, err := os.Open("testdata/decode.txt"); err == nil {
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			if fields := strings.Fields(sc.Text()); len(fields) > 1 && fields[0] != "#" {
				if w, err := strconv.ParseUint(fields[1], 16, 32); err == nil {
					f.Add(uint32(w))
				}
			}
		}
		fh.Close()
	}
	f.Fuzz(func(t *testing.T, w uint32) {
		const pc = 0x10000000
		text := DisasmWord(w, pc)
		inst, err := Decode(w)
		if err != nil {
			return
		}
		if Encode(inst) != w {
			t.Fatalf("Encode(Decode(%08x)) = %08x", w, Encode(inst))
		}
		if got := Disasm(inst, pc); got != text || got == "" {
			t.Fatalf("Disasm(%08x) = %q, DisasmWord = %q", w, got, text)
		}
		if strings.HasPrefix(text, ".long") || w&table[inst.Op].reserved&gnuRules[inst.Op.Name()].loose != 0 {
			return
		}
		w2, err := Assemble(text, pc)
		if err != nil {
			t.Fatalf("Assemble(%q) from %08x: %v", text, w, err)
		}
		if got := DisasmWord(w2, pc); got != text {
			t.Fatalf("%08x prints %q; assembled %08x prints %q", w, text, w2, got)
		}
	})
}

// BenchmarkDecode decodes the corpus's code words; words/s is the throughput.
func BenchmarkDecode(b *testing.B) {
	words, _ := corpusWords(b)
	b.ResetTimer()
	n := 0
	for b.Loop() {
		for _, w := range words {
			if _, err := Decode(w); err == nil {
				n++
			}
		}
	}
	b.ReportMetric(float64(len(words))*float64(b.N)/b.Elapsed().Seconds(), "words/s")
	if n == 0 {
		b.Fatal("nothing decoded")
	}
}

// BenchmarkDisasm prints the corpus's code words.
func BenchmarkDisasm(b *testing.B) {
	words, addrs := corpusWords(b)
	buf := make([]byte, 0, 64)
	b.ResetTimer()
	for b.Loop() {
		for i, w := range words {
			buf = appendWord(buf[:0], w, addrs[i])
		}
	}
	b.ReportMetric(float64(len(words))*float64(b.N)/b.Elapsed().Seconds(), "words/s")
}
