package ppc

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestInitialStackBeyondItsBuffer builds an initial stack of many long arguments, past
// the stack writer's first buffer, and reads every string and the auxv back.
func TestInitialStackBeyondItsBuffer(t *testing.T) {
	img := loadFile(t, execProg("auxv"))
	args := []string{"prog"}
	for i := range 60 {
		args = append(args, fmt.Sprintf("%02d-%s", i, strings.Repeat("x", 90+i)))
	}
	env := []string{"A=1", "B=" + strings.Repeat("y", 3000)}
	c, err := img.NewProcess(ProcessConfig{Args: args, Env: env, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	got := readStack(t, c)
	if !slices.Equal(got.args, args) || !slices.Equal(got.env, env) {
		t.Fatalf("argv or envp read back differs: %d args, %d env strings", len(got.args), len(got.env))
	}
	if c.GPR[1]%stackAlign != 0 {
		t.Errorf("sp 0x%08x is not %d-byte aligned", c.GPR[1], stackAlign)
	}
	if len(got.aux) == 0 || got.aux[0].Tag != AT_IGNOREPPC {
		t.Errorf("auxv %v", got.aux)
	}
}

// TestBuildStackGarbage: the initial stack is built in one buffer, not re-made at each
// string and pad (a kilobyte per process, 64 MiB of a 65,536-rank launch).
func TestBuildStackGarbage(t *testing.T) {
	img := loadFile(t, execProg("auxv"))
	cfg := ProcessConfig{Args: []string{"prog", "one", "two"}, Env: []string{"A=1", "B=2"}, Seed: 1}
	c, err := img.NewProcess(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The buffer, argv's and envp's addresses, the auxv and AT_RANDOM's bytes.
	if n := testing.AllocsPerRun(20, func() { img.buildStack(c.Mem, cfg) }); n > 5 {
		t.Errorf("building the initial stack made %v allocations, want at most 5", n)
	}
}

// TestMemorySizeClass: a Memory is made per rank; its root's shared flags are a bitmask
// so it takes the allocator's 2,304-byte size (256 bools took it to 2,688).
func TestMemorySizeClass(t *testing.T) {
	if n := unsafe.Sizeof(Memory{}); n > 2304 {
		t.Errorf("a Memory is %d bytes, past the 2,304-byte size class", n)
	}
}
