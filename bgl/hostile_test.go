package bgl_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
)

const hostileELF = "testdata/bin/hostile.elf"

// runHostile runs hostile.elf with args on n ranks and returns each rank's stdout and
// the job's events.
func runHostile(t *testing.T, cfg bgl.JobConfig, args ...string) ([]string, []bgl.Event) {
	t.Helper()
	cfg.Exe, cfg.Args, cfg.Capture = hostileELF, args, true
	j, err := bgl.Launch(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var events []bgl.Event
	j.OnEvent(func(ev bgl.Event) { events = append(events, ev) })
	j.Start()
	if r := j.Run(); r != bgl.StopDone {
		t.Fatalf("run stopped: %v", r)
	}
	out := make([]string, j.Size())
	for r := range out {
		o, _ := j.Output(r)
		out[r] = string(o)
	}
	return out, events
}

// TestNodeMemoryIsBounded: a rank that mallocs until NULL and then maps 2.5 GiB with
// MAP_FIXED above its stack gets at most its node's memory, ENOMEM for the rest, and one
// event saying so; sysinfo reports the same memory.
func TestNodeMemoryIsBounded(t *testing.T) {
	for _, mb := range []int{0, 48} {
		t.Run(fmt.Sprint(mb), func(t *testing.T) {
			// An explicit pool: the default follows GOMEMLIMIT, which CI may set low.
			out, events := runHostile(t, bgl.JobConfig{Nodes: 2, PerIO: 8, MemoryMB: mb, HostPoolMB: 2048}, "memory")
			want := mb
			if mb == 0 {
				want = bgl.DefaultMemoryMB
			}
			for r, o := range out {
				var got, total, free int
				if _, err := fmt.Sscanf(strings.ReplaceAll(o, ";", ""), "malloc %d MiB fixed mmap Cannot allocate memory totalram %d MiB freeram %d MiB",
					&got, &total, &free); err != nil {
					t.Fatalf("rank %d printed %q: %v", r, o, err)
				}
				if got > want || got < want-32 || total != want || free > 2 {
					t.Errorf("rank %d: malloc %d MiB, totalram %d, freeram %d; node memory %d MiB", r, got, total, free, want)
				}
			}
			n := 0
			for _, ev := range events {
				if ev.Kind == bgl.EventNoMemory {
					n++
					if !strings.Contains(ev.String(), "ENOMEM") {
						t.Errorf("event %q does not say ENOMEM", ev)
					}
				}
			}
			if n != 2 {
				t.Errorf("%d out-of-memory events, want one per rank", n)
			}
		})
	}
}

// TestHostPoolBoundsTheJob: eight ranks that each take their whole node's memory draw on
// the job's host pool beyond 16 MiB each; when it is spent, allocations fail instead of
// the host running out.
func TestHostPoolBoundsTheJob(t *testing.T) {
	const ranks, pool = 8, 64
	out, _ := runHostile(t, bgl.JobConfig{Nodes: ranks, PerIO: 8, MemoryMB: 96, HostPoolMB: pool}, "memory")
	sum := 0
	for r, o := range out {
		var got int
		if _, err := fmt.Sscanf(o, "malloc %d MiB", &got); err != nil {
			t.Fatalf("rank %d printed %q", r, o)
		}
		sum += got
	}
	// Each rank's image and stack (about 9 MiB) come out of its free 16 MiB too.
	if sum > ranks*16+pool || sum < pool {
		t.Errorf("the ranks obtained %d MiB together; pool %d MiB plus %d MiB free", sum, pool, ranks*16)
	}
}

func TestMemoryOptionIsChecked(t *testing.T) {
	_, err := bgl.Launch(bgl.JobConfig{Exe: hostileELF, MemoryMB: 5000})
	if err == nil || !strings.Contains(err.Error(), "memory of 5000 MiB") {
		t.Errorf("launch with 5000 MiB per node: %v", err)
	}
}

// TestDiskQuota: a rank that writes a file bigger than the job's quota is cut short at
// the quota and then gets EDQUOT; a byte written 1 TiB into a sparse file is refused.
func TestDiskQuota(t *testing.T) {
	dir := t.TempDir()
	out, _ := runHostile(t, bgl.JobConfig{Workdir: dir, DiskQuotaMB: 8}, "bigfile", "1024")
	if want := "write big.out after 8388608 bytes: Disk quota exceeded\n"; out[0] != want {
		t.Errorf("1 GiB file: %q, want %q", out[0], want)
	}
	if fi, err := os.Stat(filepath.Join(dir, "big.out")); err != nil || fi.Size() != 8<<20 {
		t.Errorf("big.out: %v, %v", fi, err)
	}
	out, _ = runHostile(t, bgl.JobConfig{Workdir: dir}, "sparse")
	if want := "write sparse.out after 0 bytes: Disk quota exceeded\n"; out[0] != want {
		t.Errorf("1 TiB sparse file: %q, want %q", out[0], want)
	}
	// Truncating big.out (O_TRUNC) gives its space back.
	out, _ = runHostile(t, bgl.JobConfig{Workdir: dir, DiskQuotaMB: 8}, "bigfile", "8")
	if want := "write big.out: 8388608 bytes\n"; out[0] != want {
		t.Errorf("rewrite within the quota: %q, want %q", out[0], want)
	}
}

// TestEveryRankGetsItsDescriptors: 64 ranks each open one file until their table is full;
// every rank gets the same 1,021 descriptors (1,024 less stdin, stdout and stderr), however
// few host descriptors the process has.
func TestEveryRankGetsItsDescriptors(t *testing.T) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	// A host limit well below 64 x 1,021: every rank must still see its full table.
	low := lim
	low.Cur = min(lim.Cur, 2048)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "files.in"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := runHostile(t, bgl.JobConfig{Workdir: dir, Nodes: 64, PerIO: 64}, "files")
	for r, o := range out {
		if o != "files: 1021 open, then Too many open files\n" {
			t.Fatalf("rank %d: %q", r, o)
		}
	}
}
