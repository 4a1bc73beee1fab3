package ppc

import (
	"bufio"
	"bytes"
	"debug/elf"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// corpusELFs are the committed test binaries (testdata/isa/Makefile builds them).
func corpusELFs(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob("testdata/isa/*.elf")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus ELF files under testdata/isa (%v)", err)
	}
	return paths
}

// ourListing maps address to folded instruction text for every word of the listing.
func ourListing(t *testing.T, path string) map[uint32]string {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	if err := WriteListing(&buf, f); err != nil {
		t.Fatal(err)
	}
	lines := map[uint32]string{}
	for _, line := range strings.Split(buf.String(), "\n") {
		a, text, ok := strings.Cut(line, ":\t")
		if !ok {
			continue
		}
		addr, err := strconv.ParseUint(a, 16, 32)
		if err != nil {
			t.Fatalf("bad listing line %q", line)
		}
		lines[uint32(addr)] = foldText(text)
	}
	return lines
}

// TestObjdumpCorpus compares every instruction line objdump -d -z -M440 prints for the
// corpus with WriteListing's, after folding white space and dropping <symbol> notes.
func TestObjdumpCorpus(t *testing.T) {
	objdump := oracletest.Require(t, oracletest.Objdump)
	for _, path := range corpusELFs(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			out, err := exec.Command(objdump, "-d", "-z", "-M440", path).Output()
			if err != nil {
				t.Fatalf("objdump: %v", err)
			}
			ours := ourListing(t, path)
			total, bad := 0, 0
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				addr, want, ok := parseObjdumpLine(sc.Text())
				if !ok {
					continue
				}
				total++
				got, ok := ours[addr]
				if got == want && ok {
					continue
				}
				if bad++; bad <= 40 {
					word := strings.Fields(strings.SplitN(sc.Text(), "\t", 3)[1])
					t.Errorf("%08x %s: ours %q objdump %q", addr, strings.Join(word, ""), got, want)
				}
			}
			if total != len(ours) {
				t.Errorf("objdump printed %d instruction lines, the listing %d", total, len(ours))
			}
			if bad > 0 {
				t.Errorf("%d of %d lines differ", bad, total)
			}
			t.Logf("%d lines, %d differ", total, bad)
		})
	}
}
