package script_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/shard"
	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/scripttest"
)

// TestShardedSessionWritesFilesOnce runs one chunk in the sessions of three in-process
// shards: dpcl.write_file to an open descriptor (a pipe) must put the bytes there once,
// process 0's, every process must return the bytes written, and a write that fails must
// raise process 0's error in every process.
func TestShardedSessionWritesFilesOnce(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	missing := filepath.Join(t.TempDir(), "missing", "out.txt")
	chunk := fmt.Sprintf(`local n = dpcl.write_file("/dev/fd/%d", {"ab", 12, "cd"})
local ok, err = pcall(dpcl.write_file, %q, "x")
local cok, cerr = pcall(dpcl.check_write, %q)
print(n, ok, err, cok, cerr)`, w.Fd(), missing, missing)
	const p = 3
	exs := shard.InProcess(p)
	outs := make([]string, p)
	var wg sync.WaitGroup
	for i := range exs {
		s, out := scripttest.New(t)
		script.SetShard(s, exs[i])
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.DoString(chunk, "t.lua"); err != nil {
				outs[i] = "error: " + err.Error()
				return
			}
			outs[i] = out.String()
		}()
	}
	wg.Wait()
	w.Close()
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "ab12cd" {
		t.Errorf("the pipe got %q from %d processes, want \"ab12cd\" once", got, p)
	}
	want := fmt.Sprintf("6\tfalse\tt.lua:2: cannot write %s: no such file or directory\tfalse\tt.lua:3: cannot write %[1]s", missing)
	for i, out := range outs {
		if !strings.HasPrefix(out, want) || out != outs[0] {
			t.Errorf("process %d printed %q, want %q... and process 0's %q", i, out, want, outs[0])
		}
	}
}
