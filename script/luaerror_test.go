package script

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/contexts/ranks"
	"github.com/dpclsh/dpclsh/ppc"
	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/runtime"
)

func TestErrorBoundary(t *testing.T) {
	global := &probes.GlobalError{Name: "counter", Why: "no such symbol"}
	_, partition := bgl.NewPartition(0, 64)
	tests := []struct {
		name string
		err  error
		pkgs []string
		want string
	}{
		{"the package's own error", &runtime.Error{Err: errors.New("launch x.elf: no such file")},
			[]string{"runtime"}, "launch x.elf: no such file"},
		{"another package's error keeps its name", partition,
			[]string{"runtime"}, "bgl: partition: 0 compute nodes: want 1..65536"},
		{"a typed error of a lower package", global,
			[]string{"probes"}, "global counter: no such symbol"},
		{"a wrapper naming nothing is transparent", &runtime.Error{Err: fmt.Errorf("%w", global)},
			[]string{"runtime", "probes"}, "global counter: no such symbol"},
		{"a cause after words keeps its name", &runtime.Error{Err: fmt.Errorf("install: %w", global)},
			[]string{"runtime", "probes"}, "install: probes: global counter: no such symbol"},
		{"the packages tried in order", global,
			[]string{"runtime", "probes"}, "global counter: no such symbol"},
		{"an untyped wrapper's words stay", fmt.Errorf("reading: %w", global),
			[]string{"probes"}, "reading: probes: global counter: no such symbol"},
		{"an error of no package", errors.New("runtime: made up"),
			[]string{"runtime"}, "runtime: made up"},
		{"ranks below contexts", &ranks.RankError{Rank: 9, Size: 4},
			[]string{"contexts", "ranks"}, "rank 9 out of range [0, 4)"},
	}
	for _, tt := range tests {
		if got := ErrorText(tt.err, tt.pkgs...); got != tt.want {
			t.Errorf("%s: ErrorText(%q, %q) = %q, want %q", tt.name, tt.err, tt.pkgs, got, tt.want)
		}
	}
	if partition == nil {
		t.Fatal("bgl.NewPartition(0, 64) accepted 0 nodes")
	}
	for _, tt := range []struct {
		name string
		err  error
		pkg  string
		want string
	}{
		{"an operation's reason", partition, "bgl", "0 compute nodes: want 1..65536"},
		{"the assembler's reason", &ppc.AsmError{Text: "addi r3", Reason: "too few operands"}, "ppc",
			`"addi r3": too few operands`},
		{"no operation named", &bgl.Error{Err: errors.New("run x.elf: stopped")}, "bgl", "run x.elf: stopped"},
	} {
		if got := ErrorReason(tt.err, tt.pkg); got != tt.want {
			t.Errorf("%s: errorReason(%q, %q) = %q, want %q", tt.name, tt.err, tt.pkg, got, tt.want)
		}
	}
}
