package script

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/script/luavm"
)

// TestSessionPatternIsInterruptible: Interrupt stops a chunk inside a match.
func TestSessionPatternIsInterruptible(t *testing.T) {
	var out bytes.Buffer
	s, err := NewSessionWith(Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Interrupt only stops a running chunk: on a loaded machine the chunk may start after
	// a single timer fired, so keep interrupting until it returns.
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				s.Interrupt()
			}
		}
	}()
	// A find that fails after trying 30^30 ways, inside one library call.
	err = s.DoString(`print(string.find(string.rep("a", 30), string.rep("a*", 30) .. "c"))`, "m.lua")
	close(done)
	<-stopped
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want an interrupt", err)
	}
	if err := s.DoString(`print(("ab"):find("b"))`, "next.lua"); err != nil || out.String() != "2\t2\n" {
		t.Errorf("next chunk: %v, %q", err, out.String())
	}
}

// TestSessionMemoryBudget: a chunk that would pass the session's budget fails with
// ErrMemoryBudget, through library functions or tables grown by the VM alone, and the
// session goes on.
func TestSessionMemoryBudget(t *testing.T) {
	var out bytes.Buffer
	s, err := NewSessionWith(Options{Stdout: &out, Stderr: &out, Memory: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []struct{ src, want string }{
		{`t = {} for i = 1, 1000 do t[i] = string.rep("x", 60 * 2^20) .. i end`,
			"memory budget exceeded: string concatenation of 60 MiB would take what the script holds past 64 MiB"},
		{`t = {} for i = 1, 1e8 do t[i] = i end`, "memory budget exceeded: the session's Lua state holds more than 64 MiB"},
		{`t = {} for i = 1, 1e8 do pcall(function() t[i] = {i} end) end`, "memory budget exceeded"},
	} {
		err := s.DoString(c.src, "c.lua")
		if !errors.Is(err, luavm.ErrMemoryBudget) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.src, err)
		}
		if err := s.DoString("t = nil print('goes on')", "next.lua"); err != nil {
			t.Errorf("after %s: %v", c.src, err)
		}
	}
	if got := strings.Count(out.String(), "goes on\n"); got != 3 {
		t.Errorf("output %q", out.String())
	}
}
