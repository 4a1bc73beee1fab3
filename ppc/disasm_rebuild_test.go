package ppc

import (
	"path/filepath"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// TestCorpusRebuild rebuilds the -O0 corpus programs and the static hello with the
// Makefile in a fresh directory and compares them with the committed bytes, when the
// installed compiler is the one that built them (its version is in .comment).
func TestCorpusRebuild(t *testing.T) {
	oracletest.RequireSameGCC(t, "testdata/isa/hello-O2-static.elf")
	dir := t.TempDir()
	src := filepath.Join("testdata", "isa")
	oracletest.CopyTree(t, src, dir)
	targets := []string{"arith-O0.elf", "fpu-O0.elf", "strs-O0.elf", "hello-O2-static.elf"}
	for _, name := range targets {
		if err := removeFile(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	oracletest.Make(t, dir, targets...)
	oracletest.SameBytes(t, src, dir, targets)
}
