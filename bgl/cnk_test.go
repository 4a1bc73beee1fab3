package bgl

import (
	"bytes"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/ppc"
)

const scratch = 0x30000000 // a mapped page for handler arguments

// testProc is a process with no CPU: handlers only need memory and a clock.
func testProc(t *testing.T) *Proc {
	t.Helper()
	m := ppc.NewMemory()
	if err := m.Map(scratch, 0x10000, ppc.PermRW); err != nil {
		t.Fatal(err)
	}
	cycles := uint64(7000)
	return &Proc{Rank: 3, Size: 8, Pid: 103, Exe: "/jobs/a.out", Mem: m,
		Cycles: func() uint64 { return cycles }, brk: 0x10100000, brkStart: 0x10100000,
		layout: addrLayout{mmapTop: 0x40000000, reserved: []ppc.Region{
			{Start: 0x0f000000, Size: 0x1000000}, {Start: 0x10000000, Size: 0x100000},
			{Start: 0x20000000, Size: 0x10000}, {Start: 0x40001000, Size: 0x800000}}},
		rng: 42}
}

func TestTableIsADocument(t *testing.T) {
	prev := abi.Sysno(0)
	for i, s := range cnkSyscalls {
		if i > 0 && s.Num <= prev {
			t.Errorf("%s (%d) out of order after %d", s.Num.Name(), s.Num, prev)
		}
		prev = s.Num
		if (s.Fn == nil) != (s.Support == Refused) {
			t.Errorf("%s: handler %v with support %v", s.Num.Name(), s.Fn != nil, s.Support)
		}
		if !s.Num.IsLinux() {
			t.Errorf("%d is not a Linux call", s.Num)
		}
	}
}

func TestUnknownAndRefusedCalls(t *testing.T) {
	for _, tt := range []struct {
		num  abi.Sysno
		note string
	}{
		{abi.SysFork, "fork: " + oneProcess}, {abi.SysClone, "clone: " + oneProcess},
		{abi.SysExecve, "execve: " + oneProcess}, {abi.SysPtrace, "ptrace: not implemented by the CNK"},
		{9999, "sys_9999: not implemented by the CNK"},
	} {
		p := testProc(t)
		p.pc = 0x10000100
		r := p.syscall(tt.num, Args{})
		if r.Err != abi.ENOSYS || len(p.events) != 1 {
			t.Fatalf("%s: result %+v, events %v", tt.num.Name(), r, p.events)
		}
		ev := p.events[0]
		if ev.Kind != EventUnsupported || ev.Note != tt.note || ev.Rank != 3 || ev.PC != 0x10000100 {
			t.Errorf("%s: event %+v", tt.num.Name(), ev)
		}
	}
}

func TestBrk(t *testing.T) {
	p := testProc(t)
	steps := []struct{ arg, want uint32 }{
		{0, 0x10100000}, {0x10100800, 0x10100800}, {0x10180000, 0x10180000},
		{0x20000100, 0x10180000}, // would cover the reserved region
		{0x10100000, 0x10100000}, {0x10000000, 0x10100000},
	}
	for _, s := range steps {
		if r := p.syscall(abi.SysBrk, Args{s.arg}); r.R3 != s.want || r.Err != 0 {
			t.Fatalf("brk(0x%x) = 0x%x (%v), want 0x%x", s.arg, r.R3, r.Err, s.want)
		}
	}
	if err := p.Mem.Write(0x10100000, []byte{1}); err == nil {
		t.Error("memory above a shrunk break is still mapped")
	}
}

func TestMmap(t *testing.T) {
	p := testProc(t)
	anon := uint32(mapPrivate | mapAnonymous)
	a := p.syscall(abi.SysMmap2, Args{0, 0x21000, protRead | protWrite, anon, ^uint32(0), 0})
	b := p.syscall(abi.SysMmap2, Args{0, 0x1000, protRead | protWrite, anon, ^uint32(0), 0})
	if a.Err != 0 || b.Err != 0 || a.R3 != 0x40000000-0x21000 || b.R3 != a.R3-0x1000 {
		t.Fatalf("mmap: 0x%x %v, 0x%x %v", a.R3, a.Err, b.R3, b.Err)
	}
	if err := p.Mem.Write(a.R3+0x20ff0, []byte("0123456789abcdef")); err != nil {
		t.Fatalf("new mapping not writable: %v", err)
	}
	if r := p.syscall(abi.SysMunmap, Args{a.R3, 0x21000}); r.Err != 0 {
		t.Fatalf("munmap: %v", r.Err)
	}
	if err := p.Mem.Write(a.R3, []byte{1}); err == nil {
		t.Error("unmapped memory still writable")
	}
	c := p.syscall(abi.SysMmap2, Args{0, 0x8000, protRead, anon, ^uint32(0), 0})
	if c.R3 != 0x40000000-0x8000 {
		t.Errorf("freed space not reused: 0x%x", c.R3)
	}
	f := p.syscall(abi.SysMmap, Args{0, 0x1000, protRead, mapPrivate, 3, 0})
	if f.Err != abi.ENODEV || len(p.events) != 1 {
		t.Errorf("file mapping: %v, events %v", f.Err, p.events)
	}
	fixed := p.syscall(abi.SysMmap2, Args{0x20000000, 0x1000, protRead, anon | mapFixed, ^uint32(0), 0})
	if fixed.Err != abi.ENOMEM {
		t.Errorf("MAP_FIXED over the reserved region: %v", fixed.Err)
	}
	if r := p.syscall(abi.SysMprotect, Args{c.R3, 0x8000, protRead | protWrite}); r.Err != 0 {
		t.Errorf("mprotect: %v", r.Err)
	}
}

func TestClocks(t *testing.T) {
	p := testProc(t) // 7000 cycles = 10 µs
	p.Epoch = 1_000_000_000
	p.syscall(abi.SysClockGettime64, Args{1, scratch})
	b := make([]byte, 16)
	p.Mem.Read(scratch, b)
	if !bytes.Equal(b, put64x2(0, 10000)) {
		t.Errorf("CLOCK_MONOTONIC = % x", b)
	}
	p.syscall(abi.SysClockGettime, Args{0, scratch})
	p.Mem.Read(scratch, b[:8])
	if !bytes.Equal(b[:8], put32x2(1_000_000_000, 10000)) {
		t.Errorf("CLOCK_REALTIME = % x", b[:8])
	}
	if r := p.syscall(abi.SysClockGettime64, Args{99, scratch}); r.Err != abi.EINVAL {
		t.Errorf("bad clock: %v", r.Err)
	}
	if r := p.syscall(abi.SysTime, Args{0}); r.R3 != 1_000_000_000 {
		t.Errorf("time() = %d", r.R3)
	}
	p.Mem.Write(scratch, put32x2(1, 500))
	if r := p.syscall(abi.SysNanosleep, Args{scratch, 0}); r.Sleep != 1_000_000_500 {
		t.Errorf("nanosleep sleeps %d ns", r.Sleep)
	}
	for _, c := range []uint64{0, 1, 6, 7, 700, 7e9 + 3} {
		if got := nsToCycles(cyclesToNS(c)); got > c || c-got > 1 {
			t.Errorf("cycles %d -> ns -> %d", c, got)
		}
	}
}

func TestGetrandomIsSeeded(t *testing.T) {
	read := func(seed uint64) []byte {
		p := testProc(t)
		p.rng = seed
		if r := p.syscall(abi.SysGetrandom, Args{scratch, 20, 0}); r.R3 != 20 {
			t.Fatalf("getrandom returned %d", r.R3)
		}
		b := make([]byte, 20)
		p.Mem.Read(scratch, b)
		return b
	}
	if !bytes.Equal(read(1), read(1)) || bytes.Equal(read(1), read(2)) {
		t.Error("getrandom is not a function of the seed")
	}
}

func TestSignalSelf(t *testing.T) {
	p := testProc(t)
	if r := p.syscall(abi.SysTgkill, Args{103, 103, 6}); !r.Exit || r.Signal != 6 || r.Status != 134 {
		t.Errorf("tgkill self SIGABRT: %+v", r)
	}
	if r := p.syscall(abi.SysKill, Args{55, 9}); r.Err != abi.ESRCH {
		t.Errorf("kill other: %+v", r)
	}
}

func TestShippedCallsCarryTheirData(t *testing.T) {
	p := testProc(t)
	p.Mem.Write(scratch, []byte("data.txt\x00"))
	r := p.syscall(abi.SysOpenat, Args{uint32(atFDCWD & 0xffffffff), scratch, 0, 0})
	if r.Ship == nil || r.Ship.path != "data.txt" || r.Ship.num != abi.SysOpenat {
		t.Fatalf("openat: %+v", r)
	}
	p.Mem.Write(scratch+0x100, []byte("hello"))
	p.Mem.Write(scratch+0x200, append(put32x2(scratch+0x100, 2), put32x2(scratch+0x103, 2)...))
	r = p.syscall(abi.SysWritev, Args{1, scratch + 0x200, 2})
	if r.Ship == nil || string(r.Ship.data) != "helo" || r.Ship.num != abi.SysWrite {
		t.Fatalf("writev: %+v", r.Ship)
	}
	r = p.syscall(abi.SysRead, Args{0, scratch + 0x300, 4})
	got := r.Ship.done(p, shipReply{val: 3, data: []byte("abc")})
	b := make([]byte, 3)
	p.Mem.Read(scratch+0x300, b)
	if got.R3 != 3 || string(b) != "abc" {
		t.Errorf("read completion: %+v %q", got, b)
	}
	if r := p.syscall(abi.SysReadlink, Args{0xdead0000, scratch, 10}); r.Err != abi.EFAULT {
		t.Errorf("bad path pointer: %+v", r)
	}
}

func TestReadlinkProcSelfExe(t *testing.T) {
	p := testProc(t)
	p.Mem.Write(scratch, []byte(procSelfExe+"\x00"))
	r := p.syscall(abi.SysReadlink, Args{scratch, scratch + 0x100, 4096})
	b := make([]byte, r.R3)
	p.Mem.Read(scratch+0x100, b)
	if string(b) != "/jobs/a.out" {
		t.Errorf("readlink(/proc/self/exe) = %q", b)
	}
}
