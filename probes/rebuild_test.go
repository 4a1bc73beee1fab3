package probes

import (
	"path/filepath"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// TestTestdataRebuildsByteForByte rebuilds the test programs from their sources with the
// Makefile in a scratch directory and compares them with the committed ELFs, when the
// installed compiler is the one recorded in their .comment section.
func TestTestdataRebuildsByteForByte(t *testing.T) {
	oracletest.RequireSameGCC(t, "testdata/points-O0.elf")
	tmp := t.TempDir()
	srcs, _ := filepath.Glob("testdata/*.c")
	oracletest.CopyFiles(t, tmp, append(srcs, "testdata/Makefile")...)
	bins := []string{"points-O0.elf", "points-O2.elf", "timers-O0.elf", "timers-O2.elf", "globals.elf"}
	oracletest.Make(t, tmp, append([]string{"-j2"}, bins...)...)
	oracletest.SameBytes(t, "testdata", tmp, bins)
}
