package bgl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

func launch(t *testing.T, prog string, nodes int, out *bytes.Buffer) *Job {
	t.Helper()
	j, err := Launch(JobConfig{Exe: "testdata/bin/" + prog + ".elf", Nodes: nodes, PerIO: 8, Stopped: true,
		Workdir: t.TempDir(), Stdout: out, Stderr: out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

func symbol(t *testing.T, j *Job, name string) uint32 {
	t.Helper()
	s, ok := j.Image().Lookup(name)
	if !ok {
		t.Fatalf("no symbol %s", name)
	}
	return s.Addr
}

func TestStartStoppedRunUntilPause(t *testing.T) {
	var out bytes.Buffer
	j := launch(t, "hello", 16, &out)
	if r := j.Run(); r != StopIdle {
		t.Fatalf("held job: %v", r)
	}
	pt := j.Proctable()
	if len(pt) != 16 || pt[9] != (ProcEntry{Rank: 9, Node: 9, IONode: 1, Pid: pidBase + 9, Exe: j.exe}) {
		t.Fatalf("proctable: %+v", pt[9])
	}
	j.Start()
	if r := j.RunUntil(20_000); r != StopTime || j.Now() != 20_000 || out.Len() != 0 {
		t.Fatalf("RunUntil: %v at %d, output %q", r, j.Now(), out.String())
	}
	j.Pause()
	if r := j.Run(); r != StopPaused {
		t.Fatalf("after Pause: %v", r)
	}
	if r := j.Run(); r != StopDone || strings.Count(out.String(), "Hello") != 16 {
		t.Fatalf("finish: %v, %q", r, out.String())
	}
}

func TestBreakpointRegsStep(t *testing.T) {
	var out bytes.Buffer
	j := launch(t, "hello", 8, &out)
	main := symbol(t, j, "main")
	d := j.Debug(0)
	if err := d.SetBreakpoint(2, main); err != nil {
		t.Fatal(err)
	}
	var evs []Event
	j.OnEvent(func(e Event) { evs = append(evs, e) })
	j.Start()
	if r := j.Run(); r != StopIdle {
		t.Fatalf("run: %v", r)
	}
	var bp Event
	for _, e := range evs {
		if e.Kind == EventBreakpoint {
			bp = e
		}
	}
	if bp.Rank != 2 || bp.PC != main || len(evs) != 8 {
		t.Fatalf("events %v", evs)
	}
	regs, _ := d.Regs(2)
	word, _ := d.ReadMem(2, main, 4)
	other, _ := d.ReadMem(3, main, 4)
	if regs.PC != main || len(word) != 4 || !bytes.Equal(word, other) || bytes.Equal(word, make([]byte, 4)) {
		t.Fatalf("pc 0x%x, word % x", regs.PC, word)
	}
	if err := d.Step(2); err != nil {
		t.Fatal(err)
	}
	if r2, _ := d.Regs(2); r2.PC != main+4 {
		t.Fatalf("after step pc 0x%x", r2.PC)
	}
	if _, err := d.Regs(9); err == nil {
		t.Error("I/O node 0 reached rank 9")
	}
	d.ClearBreakpoint(2, main)
	if err := d.Continue(2); err != nil {
		t.Fatal(err)
	}
	if r := j.Run(); r != StopDone || strings.Count(out.String(), "Hello") != 8 {
		t.Fatalf("finish: %v %q", r, out.String())
	}
}

const twTrap = 0x7fe00008 // tw 31,0,0: always traps

// TestPatchIsPerNode writes a trap over main on rank 0 only: rank 0 faults (with the
// report), rank 1 runs the shared, unpatched text.
func TestPatchIsPerNode(t *testing.T) {
	var out bytes.Buffer
	j := launch(t, "hello", 2, &out)
	main := symbol(t, j, "main")
	trap := binary.BigEndian.AppendUint32(nil, twTrap)
	if err := j.Debug(0).WriteMem(0, main, trap); err != nil {
		t.Fatal(err)
	}
	var evs []Event
	j.OnEvent(func(e Event) { evs = append(evs, e) })
	j.Start()
	j.Run()
	if out.String() != "Hello, world!\n" || len(evs) != 2 {
		t.Fatalf("output %q, events %v", out.String(), evs)
	}
	f := evs[0]
	if f.Kind != EventFault || f.Rank != 0 || f.PC != main || f.Word != twTrap || f.Signal != 5 || f.Status != 133 {
		t.Errorf("fault event %+v", f)
	}
}

// TestTrapRedirect sends a trap at main to a trampoline in the instrumentation region that
// runs the displaced instruction and branches back: the program runs normally.
func TestTrapRedirect(t *testing.T) {
	var out bytes.Buffer
	j := launch(t, "hello", 1, &out)
	main := symbol(t, j, "main")
	d := j.Debug(0)
	orig, _ := d.ReadMem(0, main, 4)
	tramp := j.Image().InstrRegion.Start
	back := uint32(0x48000000) | (main+4-(tramp+4))&0x03fffffc
	code := append(append([]byte(nil), orig...), binary.BigEndian.AppendUint32(nil, back)...)
	if err := d.WriteMem(0, tramp, code); err != nil {
		t.Fatal(err)
	}
	d.WriteMem(0, main, binary.BigEndian.AppendUint32(nil, twTrap))
	if err := d.RedirectTrap(main, tramp); err != nil {
		t.Fatal(err)
	}
	j.Start()
	if r := j.Run(); r != StopDone || out.String() != "Hello, world!\n" {
		t.Fatalf("%v %q", r, out.String())
	}
}

type recDaemon struct {
	packets []Packet
	events  []Event
}

func (r *recDaemon) Packet(d *Debug, p Packet) { r.packets = append(r.packets, p) }
func (r *recDaemon) Event(d *Debug, ev Event)  { r.events = append(r.events, ev) }

// TestThinClient runs client.elf: ais_send packets reach the daemon of the sender's I/O
// node in order, counters count, the MPI range answers ENOSYS with an event.
func TestThinClient(t *testing.T) {
	var out bytes.Buffer
	j := launch(t, "client", 10, &out)
	daemons := []*recDaemon{{}, {}}
	j.SetDaemon(0, daemons[0])
	var all []Event
	j.OnEvent(func(e Event) { all = append(all, e) })
	j.Start()
	if r := j.Run(); r != StopDone {
		t.Fatal(r)
	}
	if got := strings.Count(out.String(), "send 0 0, counted 1, mpi -38, bad counter -22"); got != 8 {
		t.Errorf("ranks with a daemon: %d lines ok in\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "rank 9: send -107 -107") {
		t.Errorf("rank 9 has no daemon: %s", out.String())
	}
	p := daemons[0].packets
	if len(p) != 16 {
		t.Fatalf("%d packets", len(p))
	}
	for i, pk := range p {
		want := "hi from " + string(rune('0'+i%8))
		if i >= 8 {
			want = "hi f"
		}
		if pk.Rank != i%8 || string(pk.Data) != want || i > 0 && pk.Time < p[i-1].Time {
			t.Errorf("packet %d: %+v", i, pk)
		}
	}
	unsup := 0
	for _, e := range all {
		if e.Kind == EventUnsupported && e.Sysno == abi.MPILast {
			unsup++
		}
	}
	if unsup != 10 || len(daemons[0].events) != 16 {
		t.Errorf("%d MPI events, daemon 0 saw %d events", unsup, len(daemons[0].events))
	}
}

func TestExecRunsInEveryDaemonSlot(t *testing.T) {
	var out bytes.Buffer
	j := launch(t, "hello", 20, &out)
	seen := make([]int, 3)
	err := j.Exec(func(d *Debug) error {
		first, end := d.Ranks()
		for r := first; r < end; r++ {
			if err := d.Continue(r); err != nil {
				return err
			}
			seen[d.IONode()]++
		}
		return d.Stop(first - 1)
	})
	if err == nil || seen[0] != 8 || seen[2] != 4 {
		t.Fatalf("err %v seen %v", err, seen)
	}
	var de *DebugError
	if !strings.Contains(err.Error(), "not served by this I/O node") || !errors.As(err, &de) {
		t.Errorf("error %v", err)
	}
	if r := j.Run(); r != StopDone {
		t.Fatal(r)
	}
}

// TestRunUntilOddLimits steps through limits that are not whole multiples of 10 ns (7
// cycles at 700 MHz): each must return, at that limit, and the job must finish as usual.
func TestRunUntilOddLimits(t *testing.T) {
	var out bytes.Buffer
	j := launch(t, "hello", 4, &out)
	j.Start()
	for limit := uint64(1); limit < 400_000; limit = limit*3 + 1 {
		r := j.RunUntil(limit)
		if r == StopDone {
			break
		}
		if r != StopTime || j.Now() != limit {
			t.Fatalf("RunUntil(%d): %v at %d", limit, r, j.Now())
		}
	}
	if r := j.Run(); r != StopDone || strings.Count(out.String(), "Hello") != 4 {
		t.Fatalf("finish: %v, %q", r, out.String())
	}
}
