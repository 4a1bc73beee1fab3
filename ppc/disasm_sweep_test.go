package ppc

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// sweepBase is the address the sweep's raw words are disassembled at.
const sweepBase = 0x10000000

// sweepWords returns, for every table entry, words with random operand fields (reserved
// bits clear, and a few with them set), every SPR for mfspr/mtspr, and uniformly random
// words. The seed is fixed so a failure reproduces.
func sweepWords() []uint32 {
	rng := rand.New(rand.NewPCG(440, 1))
	var ws []uint32
	specs := append([]spec(nil), table[1:]...)
	for _, s := range append(specs, gnuOnly...) {
		for i := 0; i < 200; i++ {
			ws = append(ws, s.value|rng.Uint32()&^s.mask&^s.reserved)
		}
		for i := 0; i < 50; i++ {
			ws = append(ws, s.value|rng.Uint32()&^s.mask)
		}
		if s.name == "mfspr" || s.name == "mtspr" || s.name == "mfdcr" || s.name == "mtdcr" {
			for n := int64(0); n < 1024; n++ {
				w, _ := ArgSPR.Insert(s.value|3<<21, n)
				ws = append(ws, w)
			}
		}
	}
	for i := 0; i < 300000; i++ {
		ws = append(ws, rng.Uint32())
	}
	return ws
}

// objdumpRaw disassembles ws as a flat big-endian image at sweepBase and returns the
// instruction text per word, whitespace folded and targets without "0x".
func objdumpRaw(t *testing.T, objdump string, ws []uint32) []string {
	t.Helper()
	buf := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.BigEndian.PutUint32(buf[4*i:], w)
	}
	path := filepath.Join(t.TempDir(), "words.bin")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(objdump, "-D", "-z", "-b", "binary", "-m", "powerpc:common", "-EB",
		"-M440", fmt.Sprintf("--adjust-vma=%#x", sweepBase), path).Output()
	if err != nil {
		t.Fatalf("objdump: %v", err)
	}
	texts := make([]string, len(ws))
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		addr, text, ok := parseObjdumpLine(sc.Text())
		if !ok || addr < sweepBase || addr >= sweepBase+uint32(4*len(ws)) {
			continue
		}
		if !strings.HasPrefix(text, ".long") {
			text = strings.ReplaceAll(text, "0x", "")
		}
		texts[(addr-sweepBase)/4] = text
	}
	return texts
}

// parseObjdumpLine splits "addr:\tbytes \ttext" and returns the folded text without
// "<symbol+off>" annotations.
func parseObjdumpLine(line string) (uint32, string, bool) {
	parts := strings.SplitN(line, "\t", 3)
	if len(parts) < 3 || !strings.HasSuffix(parts[0], ":") {
		return 0, "", false
	}
	a, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(parts[0], ":")), 16, 32)
	if err != nil {
		return 0, "", false
	}
	return uint32(a), foldText(parts[2]), true
}

// foldText folds runs of white space and drops " <symbol+off>" annotations.
func foldText(s string) string {
	if i := strings.Index(s, " <"); i >= 0 && strings.HasSuffix(s, ">") {
		s = s[:i]
	}
	return strings.Join(strings.Fields(s), " ")
}

// TestObjdumpSweep compares Disasm with objdump on random operands of every table entry,
// every SPR number and uniformly random words.
func TestObjdumpSweep(t *testing.T) {
	objdump := oracletest.Require(t, oracletest.Objdump)
	ws := sweepWords()
	want := objdumpRaw(t, objdump, ws)
	bad, udi, perOp := 0, 0, map[string]int{}
	for i, w := range ws {
		got := foldText(DisasmWord(w, sweepBase+uint32(4*i)))
		if _, err := Decode(w); err != nil && strings.HasPrefix(want[i], "udi") {
			udi++
			continue
		}
		if got != want[i] {
			bad++
			op := "?"
			if inst, err := Decode(w); err == nil {
				op = inst.Op.Name()
			}
			if perOp[op]++; perOp[op] <= 3 {
				t.Errorf("%08x %-8s ours %-32q objdump %q", w, op, got, want[i])
			}
		}
	}
	asmBad := 0
	for i, w := range ws {
		inst, err := Decode(w)
		if err != nil || strings.HasPrefix(want[i], ".long") ||
			w&table[inst.Op].reserved&gnuRules[inst.Op.Name()].loose != 0 {
			continue // not an Op, or ignored bits the text cannot carry
		}
		pc := sweepBase + uint32(4*i)
		w2, err := Assemble(want[i], pc)
		if err != nil || foldText(DisasmWord(w2, pc)) != want[i] {
			if asmBad++; asmBad <= 20 {
				t.Errorf("%08x: Assemble(%q) = %08x, %v", w, want[i], w2, err)
			}
		}
	}
	if asmBad > 0 {
		t.Errorf("%d objdump texts do not assemble to a word printing the same", asmBad)
	}
	if udi > 0 {
		t.Logf("%d random words are APU user-defined instructions (udiNfcm) the table leaves out", udi)
	}
	if bad > 0 {
		t.Errorf("%d of %d words differ", bad, len(ws))
	}
}
