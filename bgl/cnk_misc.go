package bgl

import (
	"encoding/binary"
	"fmt"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

var be = binary.BigEndian

const procSelfExe = "/proc/self/exe"

func sysExit(p *Proc, a Args) Result { return exitWith(int(a[0])) }

func sysZero(p *Proc, a Args) Result { return ok(0) }

func sysGetpid(p *Proc, a Args) Result { return ok(uint32(p.Pid)) }

func sysGetppid(p *Proc, a Args) Result { return ok(1) }

func sysNoRobust(p *Proc, a Args) Result { return fail(abi.ENOSYS) }

func sysNoRseq(p *Proc, a Args) Result { return fail(abi.ENOSYS) }

// signalSelf ends the process with sig when target names it; signal 0 only probes.
func (p *Proc) signalSelf(target uint32, sig uint32) Result {
	if target != uint32(p.Pid) && target != 0 {
		return fail(abi.ESRCH)
	}
	if sig == 0 {
		return ok(0)
	}
	if sig > 64 {
		return fail(abi.EINVAL)
	}
	return Result{Exit: true, Signal: int(sig), Status: 128 + int(sig)}
}

func sysKill(p *Proc, a Args) Result   { return p.signalSelf(a[0], a[1]) }
func sysTkill(p *Proc, a Args) Result  { return p.signalSelf(a[0], a[1]) }
func sysTgkill(p *Proc, a Args) Result { return p.signalSelf(a[1], a[2]) }

// sysSigaction accepts handlers (they are never called: CNK sends no asynchronous
// signals; faults end the process) and reports the default action as the old one.
func sysSigaction(p *Proc, a Args) Result {
	if a[2] != 0 {
		if e := p.copyOut(a[2], make([]byte, 20)); e != 0 {
			return fail(e)
		}
	}
	return ok(0)
}

func sysSigprocmask(p *Proc, a Args) Result {
	if a[2] != 0 && a[3] <= 128 {
		if e := p.copyOut(a[2], make([]byte, a[3])); e != 0 {
			return fail(e)
		}
	}
	return ok(0)
}

const (
	rlimitStack    = 3
	rlimInfinity32 = 0xffffffff
	stackLimit     = 8 << 20
)

func rlimitOf(res uint32) (cur, max uint64) {
	if res == rlimitStack {
		return stackLimit, 1<<64 - 1
	}
	return 1<<64 - 1, 1<<64 - 1
}

func sysUgetrlimit(p *Proc, a Args) Result {
	if a[0] >= 16 {
		return fail(abi.EINVAL)
	}
	cur, max := rlimitOf(a[0])
	b := make([]byte, 8)
	be.PutUint32(b, uint32(min(cur, rlimInfinity32)))
	be.PutUint32(b[4:], uint32(min(max, rlimInfinity32)))
	return errOr(p.copyOut(a[1], b), 0)
}

func sysPrlimit64(p *Proc, a Args) Result {
	if a[0] != 0 && a[0] != uint32(p.Pid) {
		return fail(abi.ESRCH)
	}
	if a[1] >= 16 {
		return fail(abi.EINVAL)
	}
	if a[2] != 0 {
		return fail(abi.EPERM)
	}
	if a[3] != 0 {
		cur, max := rlimitOf(a[1])
		b := make([]byte, 16)
		be.PutUint64(b, cur)
		be.PutUint64(b[8:], max)
		return errOr(p.copyOut(a[3], b), 0)
	}
	return ok(0)
}

func errOr(e abi.Errno, v uint32) Result {
	if e != 0 {
		return fail(e)
	}
	return ok(v)
}

// sysUname fills struct utsname (six 65-byte fields).
func sysUname(p *Proc, a Args) Result {
	fields := []string{"Linux", fmt.Sprintf("bgl-cn%05d", p.Rank), "6.1.0-cnk", "#1 SMP", "ppc", "(none)"}
	b := make([]byte, 6*65)
	for i, f := range fields {
		copy(b[i*65:i*65+64], f)
	}
	return errOr(p.copyOut(a[0], b), 0)
}

// readlinkSelf answers readlink("/proc/self/exe"); other paths go to the I/O node.
func (p *Proc) readlinkSelf(buf, size uint32) Result {
	if int32(size) <= 0 {
		return fail(abi.EINVAL)
	}
	b := []byte(p.Exe)
	if uint32(len(b)) > size {
		b = b[:size]
	}
	return errOr(p.copyOut(buf, b), uint32(len(b)))
}

func sysReadlink(p *Proc, a Args) Result {
	path, e := p.readString(a[0], pathMax)
	if e != 0 {
		return fail(e)
	}
	if path == procSelfExe {
		return p.readlinkSelf(a[1], a[2])
	}
	return p.shipPaths(abi.SysReadlink, a, path, "", readlinkDone(a[1], a[2]))
}

func sysReadlinkat(p *Proc, a Args) Result {
	path, e := p.readString(a[1], pathMax)
	if e != 0 {
		return fail(e)
	}
	if path == procSelfExe {
		return p.readlinkSelf(a[2], a[3])
	}
	return p.shipPaths(abi.SysReadlinkat, a, path, "", readlinkDone(a[2], a[3]))
}

// sysGetrandom fills the buffer from the node's seeded generator: runs are reproducible.
func sysGetrandom(p *Proc, a Args) Result {
	n := min(a[1], 1<<20)
	b := make([]byte, n)
	for i := 0; i < len(b); i += 8 {
		var w [8]byte
		be.PutUint64(w[:], p.nextRandom())
		copy(b[i:], w[:])
	}
	return errOr(p.copyOut(a[0], b), n)
}

// nextRandom is splitmix64: tiny state per node, good statistical quality, seedable.
func (p *Proc) nextRandom() uint64 {
	p.rng += 0x9e3779b97f4a7c15
	z := p.rng
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// sysSysinfo fills struct sysinfo (64 bytes on PPC32); glibc's qsort asks for the
// physical memory size. totalram is the node's memory, freeram what brk and mmap can
// still commit.
func sysSysinfo(p *Proc, a Args) Result {
	b := make([]byte, 64)
	total := p.memLimitBytes()
	be.PutUint32(b[0:], uint32(p.nowNS()/1e9))
	be.PutUint32(b[16:], uint32(total))
	be.PutUint32(b[20:], uint32(total-min(total, p.committed())))
	be.PutUint16(b[40:], 1)
	be.PutUint32(b[52:], 1)
	return errOr(p.copyOut(a[0], b), 0)
}
