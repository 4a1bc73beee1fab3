package bgl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// sandboxTree builds outer/{secret.txt, work/{a/b.txt, f, in -> a, out -> /etc,
// up -> .., upfile -> ../secret.txt, loop -> loop, abs_in -> <work>/a}} and returns work.
func sandboxTree(t *testing.T) (outer, work string) {
	t.Helper()
	outer = t.TempDir()
	work = filepath.Join(outer, "work")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(work, "a"), 0o755))
	must(os.WriteFile(filepath.Join(outer, "secret.txt"), []byte("secret"), 0o644))
	must(os.WriteFile(filepath.Join(work, "a", "b.txt"), []byte("b"), 0o644))
	must(os.WriteFile(filepath.Join(work, "f"), nil, 0o644))
	for name, target := range map[string]string{"in": "a", "out": "/etc", "up": "..",
		"upfile": "../secret.txt", "loop": "loop", "abs_in": filepath.Join(work, "a")} {
		must(os.Symlink(target, filepath.Join(work, name)))
	}
	return outer, work
}

func TestSandboxResolve(t *testing.T) {
	_, work := sandboxTree(t)
	sb, err := newSandbox(work)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.close()
	tests := []struct {
		base, path string
		follow     bool
		want       string
		err        abi.Errno
	}{
		{"", "a/b.txt", true, "a/b.txt", 0},
		{"", "./a//b.txt", true, "a/b.txt", 0},
		{"", "a/../a/b.txt", true, "a/b.txt", 0},
		{"", "new.txt", true, "new.txt", 0},
		{"", ".", true, ".", 0},
		{"a", "b.txt", true, "a/b.txt", 0},
		{"a", "../f", true, "f", 0},
		{"", "in/b.txt", true, "a/b.txt", 0},
		{"", "abs_in/b.txt", true, "a/b.txt", 0},
		{"", filepath.Join(work, "a/b.txt"), true, "a/b.txt", 0},
		{"", "in", false, "in", 0},
		{"", "out", false, "out", 0},
		{"", "/etc/passwd", true, "", abi.EACCES},
		{"", "/", true, "", abi.EACCES},
		{"", "../secret.txt", true, "", abi.EACCES},
		{"", "../../x", true, "", abi.EACCES},
		{"a", "../../x", true, "", abi.EACCES},
		{"", "out/passwd", true, "", abi.EACCES},
		{"", "out", true, "", abi.EACCES},
		{"", "up/secret.txt", true, "", abi.EACCES},
		{"", "upfile", true, "", abi.EACCES},
		{"", "loop", true, "", abi.ELOOP},
		{"", "f/x", true, "", abi.ENOTDIR},
		{"", "missing/x", true, "", abi.ENOENT},
		{"", "", true, "", abi.ENOENT},
	}
	for _, tt := range tests {
		got, e := sb.resolve(tt.base, tt.path, tt.follow)
		if got != tt.want || e != tt.err {
			t.Errorf("resolve(%q, %q, %v) = %q, %v; want %q, %v", tt.base, tt.path, tt.follow, got, e, tt.want, tt.err)
		}
	}
}

type consoleRec struct{ lines []string }

func (c *consoleRec) Write(rank, stream int, t uint64, b []byte) {
	c.lines = append(c.lines, string(b))
}

// TestCIODDescriptors drives the CIOD without a compute node: open, write, dup (shared
// offset), seek, read back, close.
func TestCIODDescriptors(t *testing.T) {
	work := t.TempDir()
	sb, err := newSandbox(work)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.close()
	con := &consoleRec{}
	io := newIONode(0, sb, con, nil)
	io.attach(5)
	call := func(num abi.Sysno, path string, data []byte, a ...uint32) shipReply {
		var args Args
		copy(args[:], a)
		rep, _ := io.serve(5, 0, &shipReq{num: num, args: args, path: path, data: data})
		return rep
	}
	cwd := uint32(atFDCWD & 0xffffffff)
	fd := call(abi.SysOpenat, "x.txt", nil, cwd, 0, 2|oCreat, 0o600)
	if fd.err != 0 || fd.val != 3 {
		t.Fatalf("openat: %+v", fd)
	}
	if r := call(abi.SysWrite, "", []byte("hello"), 3, 0, 5); r.val != 5 {
		t.Fatalf("write: %+v", r)
	}
	dup := call(abi.SysDup, "", nil, 3)
	if dup.val != 4 {
		t.Fatalf("dup: %+v", dup)
	}
	if r := call(abi.SysLlseek, "", nil, 4, 0, 1, 0, 0); r.val64 != 1 {
		t.Fatalf("_llseek: %+v", r)
	}
	if r := call(abi.SysRead, "", nil, 3, 0, 10); string(r.data) != "ello" {
		t.Fatalf("read through the dup'ed offset: %+v", r)
	}
	call(abi.SysClose, "", nil, 3)
	if r := call(abi.SysRead, "", nil, 4, 0, 10); r.err != 0 || r.val != 0 {
		t.Fatalf("descriptor 4 died with 3: %+v", r)
	}
	if r := call(abi.SysWrite, "", []byte("out\n"), 1, 0, 4); r.val != 4 || len(con.lines) != 1 {
		t.Fatalf("console write: %+v %v", r, con.lines)
	}
	if r := call(abi.SysIoctl, "", nil, 1, 0x402c7413); r.err != abi.ENOTTY {
		t.Errorf("TCGETS: %+v", r)
	}
	if r := call(abi.SysClose, "", nil, 9); r.err != abi.EBADF {
		t.Errorf("close(9): %+v", r)
	}
	if r := call(abi.SysStatx, "x.txt", nil, cwd, 0, 0, 0x7ff); r.err != 0 || be.Uint64(r.data[40:]) != 5 {
		t.Errorf("statx size: %+v", r)
	}
	if r := call(abi.SysUnlinkat, "x.txt", nil, cwd, 0); r.err != 0 {
		t.Errorf("unlinkat: %+v", r)
	}
	io.detach(5)
	if len(io.procs) != 0 {
		t.Error("detach kept the process")
	}
}

// FuzzResolve: whatever the path, a resolved name stays inside the working directory and
// never spells a way out.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"a/b.txt", "../x", "/etc/passwd", "in/../up/x", "out/x", "loop", "a/./../f", "//a//b"} {
		f.Add("", s)
		f.Add("a", s)
	}
	outer := f.TempDir()
	work := filepath.Join(outer, "work")
	os.MkdirAll(filepath.Join(work, "a"), 0o755)
	os.Symlink("/etc", filepath.Join(work, "out"))
	os.Symlink("..", filepath.Join(work, "up"))
	os.Symlink("a", filepath.Join(work, "in"))
	os.Symlink("loop", filepath.Join(work, "loop"))
	sb, err := newSandbox(work)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { sb.close() })
	f.Fuzz(func(t *testing.T, base, path string) {
		if base != "" && base != "a" {
			return
		}
		rel, e := sb.resolve(base, path, true)
		if e != 0 {
			return
		}
		if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") || strings.Contains(rel, "/../") {
			t.Fatalf("resolve(%q, %q) = %q escapes", base, path, rel)
		}
		host := filepath.Join(sb.dir, rel)
		if host != sb.dir && !strings.HasPrefix(host, sb.dir+"/") {
			t.Fatalf("resolve(%q, %q) = %q lands at %s", base, path, rel, host)
		}
	})
}

func TestGetdents64(t *testing.T) {
	work := t.TempDir()
	for _, n := range []string{"b", "a", "c"} {
		os.WriteFile(filepath.Join(work, n), nil, 0o644)
	}
	sb, _ := newSandbox(work)
	defer sb.close()
	io := newIONode(0, sb, &consoleRec{}, nil)
	io.attach(0)
	call := func(num abi.Sysno, path string, a ...uint32) shipReply {
		var args Args
		copy(args[:], a)
		rep, _ := io.serve(0, 0, &shipReq{num: num, args: args, path: path})
		return rep
	}
	fd := call(abi.SysOpenat, ".", uint32(atFDCWD&0xffffffff), 0, oDirectory)
	names := func(b []byte) (out []string) {
		for len(b) > 0 {
			reclen := be.Uint16(b[16:])
			name := b[19:reclen]
			out = append(out, string(name[:strings.IndexByte(string(name), 0)]))
			b = b[reclen:]
		}
		return out
	}
	first := call(abi.SysGetdents64, "", fd.val, 0, 48)
	rest := call(abi.SysGetdents64, "", fd.val, 0, 4096)
	end := call(abi.SysGetdents64, "", fd.val, 0, 4096)
	got := append(names(first.data), names(rest.data)...)
	if len(got) != 5 || got[0] != "." || got[1] != ".." || end.val != 0 {
		t.Fatalf("entries %v, end %+v", got, end)
	}
	call(abi.SysLseek, "", fd.val, 0, 0)
	if again := call(abi.SysGetdents64, "", fd.val, 0, 4096); len(names(again.data)) != 5 {
		t.Errorf("rewind: %v", names(again.data))
	}
	if r := call(abi.SysGetdents64, "", 1, 0, 4096); r.err != abi.ENOTDIR {
		t.Errorf("getdents64 on the console: %+v", r)
	}
	call(abi.SysLseek, "", fd.val, 0, 0)
	if r := call(abi.SysGetdents64, "", fd.val, 0, 8); r.err != abi.EINVAL {
		t.Errorf("tiny buffer: %+v", r)
	}
}
