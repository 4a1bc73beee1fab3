package ppc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// TestPrebuiltUpToDate rebuilds testdata/exec in a scratch directory and compares every
// ELF with the committed one, when the installed compiler is the one that built them.
func TestPrebuiltUpToDate(t *testing.T) {
	src := filepath.Join("testdata", "exec")
	gcc := oracletest.RequireSameGCC(t, filepath.Join(src, "hello.elf"))
	dir := t.TempDir()
	oracletest.CopyTree(t, src, dir)
	elfs, _ := filepath.Glob(filepath.Join(dir, "*.elf"))
	for i, p := range elfs {
		if err := removeFile(p); err != nil {
			t.Fatal(err)
		}
		elfs[i] = filepath.Base(p)
	}
	oracletest.Make(t, dir, "CC="+gcc)
	oracletest.SameBytes(t, src, dir, elfs)
}

func removeFile(path string) error {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}
