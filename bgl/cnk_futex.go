package bgl

import (
	"fmt"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// futex(2) for a process that has exactly one thread, which is every process on a CNK
// node. libstdc++ and glibc call it even in single-threaded programs (std::call_once
// behind <iostream>'s locale set-up wakes a futex nobody waits on), so the answers must
// be Linux's own for the one-thread case:
//
//   - WAKE and WAKE_BITSET wake nobody and return 0; REQUEUE and CMP_REQUEUE move nobody
//     (CMP_REQUEUE still compares and answers EAGAIN on a changed value); WAKE_OP
//     performs its operation on the second word, as Linux does, and wakes nobody.
//   - WAIT and WAIT_BITSET on a word whose value changed return EAGAIN.
//   - WAIT on an unchanged word with a timeout sleeps the timeout in virtual time and
//     returns ETIMEDOUT: no other thread exists to wake it sooner.
//   - WAIT on an unchanged word without a timeout would block forever under Linux (a
//     self-deadlock: a normal mutex locked twice, a recursive static initialisation).
//     Rather than let the rank hang the job, the CNK ends it with status 128+9 (SIGKILL),
//     as the MPI engine ends deadlocked ranks, after an event that names the address and
//     value it waited on.
//   - Priority-inheritance operations (LOCK_PI and friends) need a second thread to mean
//     anything; they get ENOSYS and an event, as an unknown call does.
//
// futex_time64 is the same call with a 64-bit timespec; glibc 2.36 tries it first.

// Futex operations (linux/futex.h); the low 7 bits of op, after the flags.
const (
	futexWait          = 0
	futexWake          = 1
	futexRequeue       = 3
	futexCmpRequeue    = 4
	futexWakeOp        = 5
	futexWaitBitset    = 9
	futexWakeBitset    = 10
	futexCmdMask       = 0x7f
	futexClockRealtime = 256

	clockMonotonic = 1
	sigKill        = 9
)

// futexTimespec reads a timeout: 8 bytes (two 32-bit words) or 16 (two 64-bit ones).
type futexTimespec func(p *Proc, addr uint32) (sec, nsec uint64, e abi.Errno)

func timespec32(p *Proc, addr uint32) (uint64, uint64, abi.Errno) {
	b, e := p.copyIn(addr, 8)
	if e != 0 {
		return 0, 0, e
	}
	return uint64(be.Uint32(b)), uint64(be.Uint32(b[4:])), 0
}

func timespec64(p *Proc, addr uint32) (uint64, uint64, abi.Errno) {
	b, e := p.copyIn(addr, 16)
	if e != 0 {
		return 0, 0, e
	}
	return be.Uint64(b), be.Uint64(b[8:]), 0
}

func sysFutex(p *Proc, a Args) Result       { return p.futex(a, timespec32) }
func sysFutexTime64(p *Proc, a Args) Result { return p.futex(a, timespec64) }

// futex serves futex(uaddr, op, val, timeout|val2, uaddr2, val3).
func (p *Proc) futex(a Args, ts futexTimespec) Result {
	uaddr, op, val := a[0], a[1], a[2]
	switch op & futexCmdMask {
	case futexWait:
		return p.futexWait(uaddr, val, a[3], false, op, ts)
	case futexWaitBitset:
		if a[5] == 0 {
			return fail(abi.EINVAL)
		}
		return p.futexWait(uaddr, val, a[3], true, op, ts)
	case futexWake, futexWakeBitset, futexRequeue:
		return p.futexWord(uaddr, func(uint32) Result { return ok(0) })
	case futexCmpRequeue:
		return p.futexWord(uaddr, func(v uint32) Result {
			if v != a[5] {
				return fail(abi.EAGAIN)
			}
			return ok(0)
		})
	case futexWakeOp:
		return p.futexWakeOp(uaddr, a[4], a[5])
	}
	return p.missing(p.curCall, fmt.Sprintf("operation %d needs another thread (CNK runs one)", op&futexCmdMask))
}

// futexWord reads the aligned word at uaddr and passes it to then.
func (p *Proc) futexWord(uaddr uint32, then func(v uint32) Result) Result {
	if uaddr%4 != 0 {
		return fail(abi.EINVAL)
	}
	b, e := p.copyIn(uaddr, 4)
	if e != 0 {
		return fail(e)
	}
	return then(be.Uint32(b))
}

// futexWait: EAGAIN on a changed value, the timeout as a virtual sleep, else the end of a
// process that nothing can wake.
func (p *Proc) futexWait(uaddr, val, timeout uint32, abs bool, op uint32, ts futexTimespec) Result {
	return p.futexWord(uaddr, func(v uint32) Result {
		if v != val {
			return fail(abi.EAGAIN)
		}
		if timeout == 0 {
			p.events = append(p.events, Event{Kind: EventUnsupported, Rank: p.Rank, PC: p.pc, Sysno: p.curCall,
				Note: fmt.Sprintf("%s: wait on 0x%08x (value %d) without a timeout: no other thread can wake it "+
					"(CNK runs one thread); the rank is ended as deadlocked", p.curCall.Name(), uaddr, val)})
			return Result{Exit: true, Signal: sigKill, Status: 128 + sigKill}
		}
		sec, nsec, e := ts(p, timeout)
		if e != 0 {
			return fail(e)
		}
		clock := uint32(clockMonotonic)
		if op&futexClockRealtime != 0 {
			clock = clockRealtime
		}
		r, valid := p.sleepFor(clock, abs, sec, nsec)
		if !valid {
			return r
		}
		r.Err = abi.ETIMEDOUT
		return r
	})
}

// futexOps are FUTEX_WAKE_OP's operations on the second word (linux/futex.h: SET, ADD,
// OR, ANDN, XOR).
var futexOps = [...]func(old, arg uint32) uint32{
	func(_, arg uint32) uint32 { return arg },
	func(old, arg uint32) uint32 { return old + arg },
	func(old, arg uint32) uint32 { return old | arg },
	func(old, arg uint32) uint32 { return old &^ arg },
	func(old, arg uint32) uint32 { return old ^ arg },
}

// futexWakeOp applies val3's encoded operation to the word at uaddr2; its comparison
// only decides whom to wake at uaddr2, and there is nobody.
func (p *Proc) futexWakeOp(uaddr, uaddr2, val3 uint32) Result {
	kind, cmp := val3>>28&7, val3>>24&0xf
	arg := uint32(int32(val3<<8) >> 20) // the 12-bit operand, sign-extended
	if val3>>31 != 0 {                  // FUTEX_OP_OPARG_SHIFT
		arg = 1 << (arg & 31)
	}
	if uaddr%4 != 0 {
		return fail(abi.EINVAL)
	}
	if int(kind) >= len(futexOps) || cmp > 5 {
		return fail(abi.ENOSYS)
	}
	return p.futexWord(uaddr2, func(old uint32) Result {
		var w [4]byte
		be.PutUint32(w[:], futexOps[kind](old, arg))
		return errOr(p.copyOut(uaddr2, w[:]), 0)
	})
}
