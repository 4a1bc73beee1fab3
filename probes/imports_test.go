package probes

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports keeps probes' project imports to ppc and bgl/abi (DESIGN.md section 1).
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	allowed := map[string]bool{
		"github.com/dpclsh/dpclsh/probes": true, "github.com/dpclsh/dpclsh/bgl/abi": true,
		"github.com/dpclsh/dpclsh/ppc": true,
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/dpclsh/dpclsh") && !allowed[p] {
			t.Errorf("probes depends on %s", p)
		}
		if strings.Contains(p, ".") && !strings.HasPrefix(p, "github.com/dpclsh/dpclsh") {
			t.Errorf("probes depends on third-party %s", p)
		}
	}
}
