package ppc

import (
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	p := os.Getenv("ZZPROG")
	if p == "" {
		t.Skip()
	}
	r := runELF(t, p)
	os.WriteFile("/tmp/zz_ours.txt", r.stdout, 0o644)
}
