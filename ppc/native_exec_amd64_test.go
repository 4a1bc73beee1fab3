//go:build linux

package ppc

import "testing"

// TestTranslatedPagesMode runs random blocks with the code arena in the mode it takes
// where the kernel refuses a dual-mapped memfd: a page-aligned chunk per translation made
// read-execute by Mprotect.
func TestTranslatedPagesMode(t *testing.T) {
	requireTranslation(t)
	codeArena.Lock()
	was := codeArena.single
	codeArena.single = true
	codeArena.Unlock()
	defer func() {
		codeArena.Lock()
		codeArena.single = was
		codeArena.Unlock()
	}()
	var translated uint64
	for seed := range uint64(60) {
		tr, _ := checkRandomBlock(t, 1e6+seed)
		translated += tr
	}
	if translated == 0 {
		t.Error("nothing ran translated")
	}
}
