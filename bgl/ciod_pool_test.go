package bgl

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// TestHostFilePoolKeepsEveryDescription opens more files than the host pool holds and
// reads, writes, seeks, unlinks and renames them in random order: every description reads
// what a host with unlimited descriptors would read, with at most the pool's bound open.
func TestHostFilePoolKeepsEveryDescription(t *testing.T) {
	dir := t.TempDir()
	sb, err := newSandbox(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.close()
	sb.files.max = 3
	io := newIONode(0, sb, &consoleRec{}, nil)
	io.attach(0)
	cp := io.procs[0]
	call := func(num abi.Sysno, path string, data []byte, args ...uint32) shipReply {
		var a Args
		copy(a[:], args)
		return ciodTable[num](cp, &shipReq{num: num, args: a, path: path, data: data}, 0)
	}
	const n = 10
	fds := make([]uint32, n)
	want := make([][]byte, n) // each file's contents as the model sees them
	pos := make([]int, n)
	for i := range n {
		want[i] = []byte(fmt.Sprintf("file %d: %s", i, "abcdefghijklmnopqrstuvwxyz"))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(i)), want[i], 0o644); err != nil {
			t.Fatal(err)
		}
		rep := call(abi.SysOpenat, fmt.Sprint(i), nil, uint32(atFDCWD&0xffffffff), 0, 2) // O_RDWR
		if rep.err != 0 {
			t.Fatal(rep.err)
		}
		fds[i] = rep.val
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for step := range 2000 {
		i := rng.IntN(n)
		switch op := rng.IntN(10); {
		case op < 6:
			rep := call(abi.SysRead, "", nil, fds[i], 0, 3)
			end := min(pos[i]+3, len(want[i]))
			if rep.err != 0 || string(rep.data) != string(want[i][pos[i]:end]) {
				t.Fatalf("step %d: read fd %d at %d: %q (%v), want %q", step, fds[i], pos[i], rep.data, rep.err, want[i][pos[i]:end])
			}
			pos[i] = end
		case op < 8:
			b := []byte{byte('A' + rng.IntN(26))}
			if rep := call(abi.SysWrite, "", b, fds[i], 0, 1); rep.err != 0 || rep.val != 1 {
				t.Fatalf("step %d: write: %v", step, rep.err)
			}
			if pos[i] == len(want[i]) {
				want[i] = append(want[i], b[0])
			} else {
				want[i][pos[i]] = b[0]
			}
			pos[i]++
		case op == 8:
			off := rng.IntN(len(want[i]) + 1)
			if rep := call(abi.SysLseek, "", nil, fds[i], uint32(off), 0); rep.err != 0 {
				t.Fatalf("step %d: lseek: %v", step, rep.err)
			}
			pos[i] = off
		default:
			// Rename or unlink the path: the open description must still reach its file.
			name := fmt.Sprint(i)
			if rep := call(abi.SysRename, name, nil); rep.err == 0 {
				t.Fatal("rename without a second path succeeded")
			}
			if rep := ciodTable[abi.SysRename](cp, &shipReq{num: abi.SysRename, path: name, path2: name + ".old"}, 0); rep.err != 0 && rep.err != abi.ENOENT {
				t.Fatalf("step %d: rename: %v", step, rep.err)
			}
			call(abi.SysUnlink, name+".old", nil)
		}
		if open := sb.files.lru.Len(); open > sb.files.max+pinnedCount(sb) {
			t.Fatalf("step %d: %d host files open, bound %d", step, open, sb.files.max)
		}
	}
}

func pinnedCount(sb *sandbox) int {
	n := 0
	for of := range sb.files.open {
		if of.pinned {
			n++
		}
	}
	return n
}
