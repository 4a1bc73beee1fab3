package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

// Clock ids of clock_gettime(2).
const (
	clockRealtime       = 0
	clockBoottime       = 7
	clockRealtimeCoarse = 5
	timerAbstime        = 1
	clkTck              = 100
)

// clockNS returns the virtual time of clock id, or false for an unknown clock. Every clock
// is the node's virtual clock; CLOCK_REALTIME (and its coarse twin) add the job's epoch.
func (p *Proc) clockNS(id uint32) (uint64, bool) {
	if id > clockBoottime && id != 11 {
		return 0, false
	}
	ns := p.nowNS()
	if id == clockRealtime || id == clockRealtimeCoarse || id == 11 {
		ns += uint64(p.Epoch) * 1e9
	}
	return ns, true
}

func put32x2(a, b uint32) []byte {
	out := make([]byte, 8)
	be.PutUint32(out, a)
	be.PutUint32(out[4:], b)
	return out
}

func put64x2(a, b uint64) []byte {
	out := make([]byte, 16)
	be.PutUint64(out, a)
	be.PutUint64(out[8:], b)
	return out
}

func sysClockGettime(p *Proc, a Args) Result {
	ns, known := p.clockNS(a[0])
	if !known {
		return fail(abi.EINVAL)
	}
	return errOr(p.copyOut(a[1], put32x2(uint32(ns/1e9), uint32(ns%1e9))), 0)
}

func sysClockGettime64(p *Proc, a Args) Result {
	ns, known := p.clockNS(a[0])
	if !known {
		return fail(abi.EINVAL)
	}
	return errOr(p.copyOut(a[1], put64x2(ns/1e9, ns%1e9)), 0)
}

func sysClockGetres(p *Proc, a Args) Result {
	if _, known := p.clockNS(a[0]); !known {
		return fail(abi.EINVAL)
	}
	if a[1] == 0 {
		return ok(0)
	}
	return errOr(p.copyOut(a[1], put32x2(0, 1)), 0)
}

func sysClockGetres64(p *Proc, a Args) Result {
	if _, known := p.clockNS(a[0]); !known {
		return fail(abi.EINVAL)
	}
	if a[1] == 0 {
		return ok(0)
	}
	return errOr(p.copyOut(a[1], put64x2(0, 1)), 0)
}

func sysGettimeofday(p *Proc, a Args) Result {
	if a[0] != 0 {
		ns, _ := p.clockNS(clockRealtime)
		if e := p.copyOut(a[0], put32x2(uint32(ns/1e9), uint32(ns%1e9/1e3))); e != 0 {
			return fail(e)
		}
	}
	if a[1] != 0 {
		return errOr(p.copyOut(a[1], make([]byte, 8)), 0)
	}
	return ok(0)
}

func sysTime(p *Proc, a Args) Result {
	ns, _ := p.clockNS(clockRealtime)
	sec := uint32(ns / 1e9)
	if a[0] != 0 {
		if e := p.copyOut(a[0], put32x2(sec, 0)[:4]); e != 0 {
			return fail(e)
		}
	}
	return ok(sec)
}

func sysTimes(p *Proc, a Args) Result {
	ticks := uint32(p.nowNS() / (1e9 / clkTck))
	if a[0] != 0 {
		b := append(put32x2(ticks, 0), make([]byte, 8)...)
		if e := p.copyOut(a[0], b); e != 0 {
			return fail(e)
		}
	}
	return ok(ticks)
}

// sleepFor turns a relative or absolute request into the virtual ns to sleep.
func (p *Proc) sleepFor(id uint32, abs bool, sec, nsec uint64) (Result, bool) {
	if nsec >= 1e9 || int64(sec) < 0 {
		return fail(abi.EINVAL), false
	}
	want := sec*1e9 + nsec
	if abs {
		now, known := p.clockNS(id)
		if !known {
			return fail(abi.EINVAL), false
		}
		want = max(want, now) - now
	}
	return Result{Sleep: want}, true
}

func sysNanosleep(p *Proc, a Args) Result {
	b, e := p.copyIn(a[0], 8)
	if e != 0 {
		return fail(e)
	}
	r, _ := p.sleepFor(0, false, uint64(be.Uint32(b)), uint64(be.Uint32(b[4:])))
	return r
}

func sysClockNanosleep(p *Proc, a Args) Result {
	b, e := p.copyIn(a[2], 8)
	if e != 0 {
		return fail(e)
	}
	r, _ := p.sleepFor(a[0], a[1]&timerAbstime != 0, uint64(be.Uint32(b)), uint64(be.Uint32(b[4:])))
	return r
}

func sysClockNanosleep64(p *Proc, a Args) Result {
	b, e := p.copyIn(a[2], 16)
	if e != 0 {
		return fail(e)
	}
	r, _ := p.sleepFor(a[0], a[1]&timerAbstime != 0, be.Uint64(b), be.Uint64(b[8:]))
	return r
}
