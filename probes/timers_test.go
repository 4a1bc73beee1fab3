package probes

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/ppc"
)

// timerEvent is what the oracle saw at one probe firing: a push (region entry) or a pop
// into a function's or a marker's total, with the timebase the snippet read.
type timerEvent struct {
	pop  bool
	key  string // function name or "mark N"
	tick uint64
}

// timerRun is the timer-stack instrumentation of timers.c: entries of fib, outer and
// inner and timer_start push the timebase; their exits add timebase - pop to a total
// indexed by probe.func(); timer_stop(id) adds it to a total indexed by its argument.
type timerRun struct {
	in     *instrumenter
	stack  *Stack
	totals *Array // by function id
	marks  *Array // by marker id
	roles  map[uint32]timerRole
	region ppc.Region
}

// timerRole is what the probe at a point does.
type timerRole struct {
	fn   string
	pop  bool // an exit of a timed function, or timer_stop
	mark bool // timer_stop: the total is the marker's
}

func newTimerRun(t *testing.T, name string) *timerRun {
	p := startProcess(t, name)
	in := newInstrumenter(t, p, name)
	r := &timerRun{in: in, roles: map[uint32]timerRole{}, region: p.img.InstrRegion}
	var err error
	if r.stack, err = in.slots.AllocStack("timers", Int64, 64); err != nil {
		t.Fatal(err)
	}
	if r.totals, err = in.slots.AllocArray("totals", Int64, len(in.prog.Funcs)); err != nil {
		t.Fatal(err)
	}
	if r.marks, err = in.slots.AllocArray("marks", Int64, 4); err != nil {
		t.Fatal(err)
	}
	elapsed := Binary(KSub, Timebase(), Pop(r.stack))
	push := in.compile(Push(r.stack, Timebase()))
	fnStop := in.compile(SetIndex(r.totals, FuncIndex(), Binary(KAdd, Index(r.totals, FuncIndex()), elapsed)))
	mark := Arg(0, Int)
	markStop := in.compile(SetIndex(r.marks, mark, Binary(KAdd, Index(r.marks, mark), elapsed)))
	for _, fname := range []string{"fib", "outer", "inner", "timer_start", "timer_stop"} {
		fn, ok := in.prog.Lookup(fname)
		if !ok {
			t.Fatalf("%s: no function %s", name, fname)
		}
		id, _ := in.prog.FuncIndex(fn.Addr)
		entry := push
		if fname == "timer_stop" {
			entry = markStop
		}
		stop := fname == "timer_stop"
		r.place(t, fn, PointEntry, entry.ForPoint(0, int32(id)), timerRole{fname, stop, stop})
		if !strings.HasPrefix(fname, "timer_") {
			r.place(t, fn, PointExit, fnStop.ForPoint(0, int32(id)), timerRole{fname, true, false})
		}
	}
	return r
}

func (r *timerRun) place(t *testing.T, fn Func, kind PointKind, c *Code, role timerRole) {
	pts, err := r.in.prog.Points(fn, kind)
	if err != nil || len(pts) == 0 {
		t.Fatalf("%s %v points: %v", fn.Name, kind, err)
	}
	for _, pt := range pts {
		r.in.add(pt, c, true)
		r.in.p.cpu.SetBreakpoint(pt.Addr)
		r.roles[pt.Addr] = role
	}
}

var mfspr = build("mfspr", 0, sprTBL).Word

// run runs the program to its end; at every instrumented point it steps through the
// trampoline and notes the timebase at the snippet's read of TBL (the instruction reads
// the timebase as of its own start when stepped).
func (r *timerRun) run(t *testing.T) []timerEvent {
	p, c := r.in.p, r.in.p.cpu
	var events []timerEvent
	for !p.exited {
		st := c.Run(1 << 24)
		switch st.Kind {
		case ppc.StopBudget:
		case ppc.StopSyscall:
			p.syscall(t)
		case ppc.StopBreakpoint:
			role, arg := r.roles[c.PC], c.GPR[3]
			if ev, ok := r.stepToTimebase(t); ok {
				ev.pop, ev.key = role.pop, role.fn
				if role.mark {
					ev.key = fmt.Sprint("mark ", arg)
				}
				events = append(events, ev)
			}
		default:
			t.Fatalf("program stopped: %v %v", st.Kind, st.Fault)
		}
	}
	return events
}

func (r *timerRun) stepToTimebase(t *testing.T) (timerEvent, bool) {
	c := r.in.p.cpu
	c.Step() // the patched branch (or the original word of a point not taken)
	for r.region.Contains(c.PC) {
		w, err := c.Mem.Read32(c.PC)
		if err != nil {
			t.Fatal(err)
		}
		if w&^(31<<21) == mfspr {
			return timerEvent{tick: c.Timebase()}, true
		}
		if st := c.Step(); st.Kind != ppc.StopBudget {
			t.Fatalf("stepping the trampoline: %v at 0x%x", st.Kind, c.PC)
		}
	}
	return timerEvent{}, false
}

// inclusive computes each region's inclusive time from the oracle's events with a stack of
// its own: what the probes should have added up.
func inclusive(t *testing.T, events []timerEvent) (map[string]int64, map[string]int) {
	totals, calls := map[string]int64{}, map[string]int{}
	var stack []uint64
	for _, ev := range events {
		if !ev.pop {
			stack = append(stack, ev.tick)
			continue
		}
		if len(stack) == 0 {
			t.Fatalf("%s returns with nothing on the stack", ev.key)
		}
		totals[ev.key] += int64(ev.tick - stack[len(stack)-1])
		calls[ev.key]++
		stack = stack[:len(stack)-1]
	}
	if len(stack) != 0 {
		t.Fatalf("%d regions still open at the end", len(stack))
	}
	return totals, calls
}

func (r *timerRun) read(t *testing.T, addr uint32, m MemType) Value {
	b := make([]byte, m.Size())
	if err := r.in.p.cpu.Mem.Read(addr, b); err != nil {
		t.Fatal(err)
	}
	return DecodeMem(m, b)
}

// TestTimerStackInclusiveTimes: a timer stack (push the timebase at region entry, pop and
// add at exit) gives, for every region of timers.c, the inclusive time an independent
// computation finds from the cycle counter at the same entries and exits, through fib's
// recursion and the nested markers, at -O0 and -O2.
func TestTimerStackInclusiveTimes(t *testing.T) {
	for _, name := range []string{"timers-O0.elf", "timers-O2.elf"} {
		t.Run(name, func(t *testing.T) {
			r := newTimerRun(t, name)
			events := r.run(t)
			if p := r.in.p; p.status != 0 || !strings.HasPrefix(p.out.String(), "timers: 4 reps, total 5393835") {
				t.Fatalf("program: status %d, output %q", p.status, p.out.String())
			}
			want, calls := inclusive(t, events)
			if calls["fib"] < 50 || calls["inner"] != 8 || calls["outer"] != 4 || calls["mark 1"] != 4 || calls["mark 3"] != 8 {
				t.Fatalf("unexpected region counts %v", calls)
			}
			for key, w := range want {
				var got Value
				if strings.HasPrefix(key, "mark ") {
					var id int
					fmt.Sscan(strings.TrimPrefix(key, "mark "), &id)
					got = r.read(t, r.marks.ElemAddr(id), MemI64)
				} else {
					fn, _ := r.in.prog.Lookup(key)
					id, _ := r.in.prog.FuncIndex(fn.Addr)
					got = r.read(t, r.totals.ElemAddr(id), MemI64)
				}
				if got.I != w || w <= 0 {
					t.Errorf("%s: inclusive time %d cycles by the timer stack, %d by the cycle counter (%d calls)", key, got.I, w, calls[key])
				}
			}
			for _, c := range []struct {
				what string
				addr uint32
			}{{"depth", r.stack.TopAddr()}, {"overflows", r.stack.OverAddr()}, {"underflows", r.stack.UnderAddr()}} {
				if v := r.read(t, c.addr, MemI32); v.I != 0 {
					t.Errorf("stack %s = %d at the end, want 0", c.what, v.I)
				}
			}
			t.Logf("%d calls of fib, inclusive times %v", calls["fib"], want)
		})
	}
}
