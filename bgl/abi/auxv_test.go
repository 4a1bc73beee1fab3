package abi

import (
	"testing"

	"github.com/dpclsh/dpclsh/ppc"
)

// TestAuxvMatchesLoader keeps the two copies of the auxv numbers equal: ppc's loader builds
// the vector and may import nothing, and this package is where tools look them up.
func TestAuxvMatchesLoader(t *testing.T) {
	pairs := []struct {
		name      string
		abi, load uint32
	}{
		{"AT_NULL", AT_NULL, ppc.AT_NULL}, {"AT_PHDR", AT_PHDR, ppc.AT_PHDR},
		{"AT_PHENT", AT_PHENT, ppc.AT_PHENT}, {"AT_PHNUM", AT_PHNUM, ppc.AT_PHNUM},
		{"AT_PAGESZ", AT_PAGESZ, ppc.AT_PAGESZ}, {"AT_BASE", AT_BASE, ppc.AT_BASE},
		{"AT_FLAGS", AT_FLAGS, ppc.AT_FLAGS}, {"AT_ENTRY", AT_ENTRY, ppc.AT_ENTRY},
		{"AT_UID", AT_UID, ppc.AT_UID}, {"AT_EUID", AT_EUID, ppc.AT_EUID},
		{"AT_GID", AT_GID, ppc.AT_GID}, {"AT_EGID", AT_EGID, ppc.AT_EGID},
		{"AT_HWCAP", AT_HWCAP, ppc.AT_HWCAP}, {"AT_CLKTCK", AT_CLKTCK, ppc.AT_CLKTCK},
		{"AT_DCACHEBSIZE", AT_DCACHEBSIZE, ppc.AT_DCACHEBSIZE},
		{"AT_ICACHEBSIZE", AT_ICACHEBSIZE, ppc.AT_ICACHEBSIZE},
		{"AT_UCACHEBSIZE", AT_UCACHEBSIZE, ppc.AT_UCACHEBSIZE},
		{"AT_IGNOREPPC", AT_IGNOREPPC, ppc.AT_IGNOREPPC}, {"AT_SECURE", AT_SECURE, ppc.AT_SECURE},
		{"AT_RANDOM", AT_RANDOM, ppc.AT_RANDOM}, {"AT_HWCAP2", AT_HWCAP2, ppc.AT_HWCAP2},
		{"AT_EXECFN", AT_EXECFN, ppc.AT_EXECFN}, {"HWCAP440", HWCAP440, ppc.HWCAP440},
	}
	for _, p := range pairs {
		if p.abi != p.load {
			t.Errorf("%s: abi says %d, ppc's loader uses %d", p.name, p.abi, p.load)
		}
	}
}
