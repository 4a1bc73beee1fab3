package bgl_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/scripttest"
	_ "github.com/dpclsh/dpclsh/script/std" // ctx takes a partition
)

func TestBGLPartition(t *testing.T) {
	s, out := scripttest.New(t)
	src := `
local p = bgl.partition{nodes = 1024, per_io = 32}
print(p.nodes, p.per_io, p.ionodes, #p, table.concat(p.shape, "x"))
print(p:ionode(100), select(1, p:coord(100)), select(2, p:coord(100)), select(3, p:coord(100)))
local r = p:ranks(31)
print(#r, r[1], r[#r], p:hops(0, 1023))
print(#ctx.ionode(p, 3))
print(tostring(p))
local ok, err = pcall(bgl.partition, {nodes = 70000})
print(ok, err)
ok, err = pcall(bgl.partition, {nodes = 64, per_io = 4})
print(ok, err)
`
	if err := s.DoString(src, "part.lua"); err != nil {
		t.Fatal(err)
	}
	want := `1024	32	32	1024	16x8x8
3	4	6	0
32	992	1023	3
32
1024 compute nodes (16x8x8 torus), 32 I/O nodes at 32:1
false	part.lua:9: bgl.partition: 70000 compute nodes: want 1..65536
false	part.lua:11: bgl.partition: 4 compute nodes per I/O node: want 8..64
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestBGLRun(t *testing.T) {
	s, out := scripttest.New(t)
	src := `
local r = bgl.run("../../bgl/testdata/bin/ranks.elf", {nodes = 9, per_io = 8, workdir = "` + t.TempDir() + `"})
print(r.status, r.size, r.codes[0], r.codes[4], r.codes[8])
io.write(r.stdout[8], r.stderr[3])
print(#r.faults, r.time_ns > 0, r.instructions > 0, select(2, r.output:gsub("\n", "")))
local a = bgl.run("../../bgl/testdata/bin/argv.elf", {args = {"x", "y z"}, label = true})
io.write(a.output)
print(a.status)
local f = bgl.run("../../bgl/testdata/bin/segv.elf")
print(f.status, f.faults[1].rank, f.faults[1].signal, f.errors:match("uncaught signal 11") ~= nil)
print(pcall(bgl.run, "../../bgl/testdata/bin/none.elf"))
print(pcall(bgl.run, "../../bgl/testdata/bin/argv.elf", {args = 5}))
`
	if err := s.DoString(src, "run.lua"); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"4\t9\t0\t4\t3\n", "rank 8 of 9 on I/O node 1\nrank 3: a line on stderr\n",
		"0\ttrue\ttrue\t9\n", "0: argc=3\n0: argv[1]=\"x\" (1)\n0: argv[2]=\"y z\" (3)\n3\n",
		"139\t0\t11\ttrue\n", "false\trun.lua:11: bgl.run: launch: open ../../bgl/testdata/bin/none.elf: no such file or directory\n",
		"false\trun.lua:12: bgl.run: args must be a table of strings, got number 5\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestBGLRunIsInterruptible: Ctrl-C stops a bgl.run of a program that would run for a
// long time, and the session stays usable.
func TestBGLRunIsInterruptible(t *testing.T) {
	s, _ := scripttest.New(t)
	fn, err := s.Load(`bgl.run("../../runtime/testdata/bin/loop.elf", {args = {"2000000000"}})`, "long.lua")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		s.Interrupt()
	}()
	start := time.Now()
	if _, err := s.Call(fn); !errors.Is(err, script.ErrInterrupted) {
		t.Fatalf("err = %v, want interrupted", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("interrupt took %v", d)
	}
	if err := s.DoString(`assert(bgl.run("../../bgl/testdata/bin/hello.elf").status == 0)`, "after.lua"); err != nil {
		t.Errorf("session unusable after the interrupt: %v", err)
	}
}
