package bgl

import (
	"path/filepath"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// TestCorpusRebuildsByteForByte rebuilds testdata/bin with the Makefile in a copy of the
// tree and compares with the committed ELFs, when the installed compiler is the one
// recorded in their .comment section.
func TestCorpusRebuildsByteForByte(t *testing.T) {
	oracletest.RequireSameGCC(t, "testdata/bin/hello.elf")
	tmp := t.TempDir()
	oracletest.CopyTree(t, "testdata", filepath.Join(tmp, "bgl", "testdata"), "bin")
	oracletest.CopyTree(t, "target", filepath.Join(tmp, "bgl", "target"))
	oracletest.Make(t, filepath.Join(tmp, "bgl", "testdata"), "-j2")
	bins, _ := filepath.Glob("testdata/bin/*.elf")
	for i, b := range bins {
		bins[i] = filepath.Base(b)
	}
	oracletest.SameBytes(t, "testdata/bin", filepath.Join(tmp, "bgl", "testdata", "bin"), bins)
}
