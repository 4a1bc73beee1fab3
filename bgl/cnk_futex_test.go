package bgl

import (
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

const (
	futexWord  = scratch + 0x100 // holds 7
	futexWord2 = scratch + 0x104 // WAKE_OP's second word, holds 5
	futexTS    = scratch + 0x200 // a timespec: 2.5 ms
	futexTS64  = scratch + 0x300 // a 64-bit timespec: 1 s + 5 ns
	futexPriv  = 128             // FUTEX_PRIVATE_FLAG
)

func futexProc(t *testing.T) *Proc {
	t.Helper()
	p := testProc(t)
	p.pc = 0x10000200
	put := func(addr, v uint32) {
		var b [4]byte
		be.PutUint32(b[:], v)
		if err := p.Mem.Write(addr, b[:]); err != nil {
			t.Fatal(err)
		}
	}
	put(futexWord, 7)
	put(futexWord2, 5)
	put(futexTS, 0)         // 32-bit timespec: 0 s,
	put(futexTS+4, 2500000) // 2.5 ms
	put(futexTS64+4, 1)
	put(futexTS64+12, 5)
	return p
}

// TestFutexOneThread: the answers Linux gives a process with one thread.
func TestFutexOneThread(t *testing.T) {
	for _, tt := range []struct {
		name  string
		num   abi.Sysno
		args  Args
		want  Result
		event string // a substring of the one event expected, "" for none
	}{
		{"wake", abi.SysFutex, Args{futexWord, futexWake | futexPriv, 0x7fffffff}, ok(0), ""},
		{"wake bitset", abi.SysFutex, Args{futexWord, futexWakeBitset, 1, 0, 0, 0xffffffff}, ok(0), ""},
		{"wait on a changed value", abi.SysFutex, Args{futexWord, futexWait | futexPriv, 6}, fail(abi.EAGAIN), ""},
		{"wait bitset on a changed value", abi.SysFutex, Args{futexWord, futexWaitBitset, 0, 0, 0, 0xffffffff}, fail(abi.EAGAIN), ""},
		{"wait with a timeout", abi.SysFutex, Args{futexWord, futexWait, 7, futexTS}, Result{Err: abi.ETIMEDOUT, Sleep: 2500000}, ""},
		{"wait64 with a timeout", abi.SysFutexTime64, Args{futexWord, futexWait, 7, futexTS64}, Result{Err: abi.ETIMEDOUT, Sleep: 1e9 + 5}, ""},
		// testProc's clock reads 10 µs: an absolute 2.5 ms deadline is 2.49 ms away.
		{"absolute wait", abi.SysFutex, Args{futexWord, futexWaitBitset, 7, futexTS, 0, 1}, Result{Err: abi.ETIMEDOUT, Sleep: 2490000}, ""},
		{"bitset 0", abi.SysFutex, Args{futexWord, futexWaitBitset, 7, 0, 0, 0}, fail(abi.EINVAL), ""},
		{"unaligned", abi.SysFutex, Args{futexWord + 1, futexWake, 1}, fail(abi.EINVAL), ""},
		{"unmapped", abi.SysFutex, Args{0x100, futexWait, 0}, fail(abi.EFAULT), ""},
		{"bad timeout", abi.SysFutex, Args{futexWord, futexWait, 7, 0x100}, fail(abi.EFAULT), ""},
		{"cmp_requeue on a changed value", abi.SysFutex, Args{futexWord, futexCmpRequeue, 1, 1, futexWord2, 8}, fail(abi.EAGAIN), ""},
		{"cmp_requeue", abi.SysFutex, Args{futexWord, futexCmpRequeue, 1, 1, futexWord2, 7}, ok(0), ""},
		{"wait forever", abi.SysFutex, Args{futexWord, futexWait | futexPriv, 7},
			Result{Exit: true, Signal: 9, Status: 137}, "futex: wait on 0x30000100 (value 7) without a timeout: no other thread can wake it"},
		{"lock_pi", abi.SysFutex, Args{futexWord, 6}, fail(abi.ENOSYS), "futex: operation 6 needs another thread"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := futexProc(t)
			got := p.syscall(tt.num, tt.args)
			if got != tt.want {
				t.Errorf("result %+v, want %+v", got, tt.want)
			}
			switch {
			case tt.event == "" && len(p.events) != 0:
				t.Errorf("events %v, want none", p.events)
			case tt.event != "" && (len(p.events) != 1 || !strings.Contains(p.events[0].Note, tt.event) ||
				p.events[0].PC != 0x10000200 || p.events[0].Rank != 3):
				t.Errorf("events %v, want one at pc 0x10000200 with %q", p.events, tt.event)
			}
		})
	}
}

// TestFutexWakeOp: FUTEX_WAKE_OP applies its operation to the second word even though
// it wakes nobody (glibc's condition variables once relied on it).
func TestFutexWakeOp(t *testing.T) {
	for _, tt := range []struct {
		val3, want uint32
	}{
		{0<<28 | 9<<12, 9},              // SET 9
		{1<<28 | 3<<12, 8},              // ADD 3
		{2<<28 | 2<<12, 7},              // OR 2
		{3<<28 | 1<<12, 4},              // ANDN 1
		{4<<28 | 0xfff<<12, 0xfffffffa}, // XOR -1
		{8<<28 | 4<<12, 16},             // SET 1<<4 (OPARG_SHIFT)
	} {
		p := futexProc(t)
		if r := p.syscall(abi.SysFutex, Args{futexWord, futexWakeOp, 1, 1, futexWord2, tt.val3}); r != ok(0) {
			t.Errorf("val3 0x%08x: %+v", tt.val3, r)
		}
		b, _ := p.copyIn(futexWord2, 4)
		if got := be.Uint32(b); got != tt.want {
			t.Errorf("val3 0x%08x: word %d (0x%x), want %d", tt.val3, got, got, tt.want)
		}
	}
	p := futexProc(t)
	if r := p.syscall(abi.SysFutex, Args{futexWord, futexWakeOp, 1, 1, futexWord2, 6 << 28}); r.Err != abi.ENOSYS {
		t.Errorf("unknown operation: %+v, want ENOSYS", r)
	}
}
