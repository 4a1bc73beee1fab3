package runtime

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/contexts"
	"github.com/dpclsh/dpclsh/probes"
)

// twin is a plain Machine: word-addressed memory per rank, registers, states.
type twin struct {
	mem   map[int]map[uint32]byte
	regs  map[int]bgl.Regs
	state map[int]string
	held  map[int]bool
	log   []string
}

func newTwin(ranks ...int) *twin {
	m := &twin{mem: map[int]map[uint32]byte{}, regs: map[int]bgl.Regs{}, state: map[int]string{}, held: map[int]bool{}}
	for _, r := range ranks {
		m.mem[r] = map[uint32]byte{}
		m.state[r] = "running"
		m.regs[r] = bgl.Regs{PC: 0x1000}
	}
	return m
}

func (m *twin) Stop(r int) error {
	m.held[r] = true
	m.log = append(m.log, fmt.Sprint("stop ", r))
	return nil
}
func (m *twin) Continue(r int) error {
	m.held[r] = false
	m.log = append(m.log, fmt.Sprint("cont ", r))
	return nil
}
func (m *twin) Status(r int) (bgl.NodeStatus, error) {
	if _, ok := m.state[r]; !ok {
		return bgl.NodeStatus{}, fmt.Errorf("rank %d not served", r)
	}
	return bgl.NodeStatus{Rank: r, State: m.state[r], Held: m.held[r], PC: m.regs[r].PC}, nil
}
func (m *twin) ReadMem(r int, addr, size uint32) ([]byte, error) {
	b := make([]byte, size)
	for i := range b {
		b[i] = m.mem[r][addr+uint32(i)]
	}
	return b, nil
}
func (m *twin) WriteMem(r int, addr uint32, b []byte) error {
	for i, x := range b {
		m.mem[r][addr+uint32(i)] = x
	}
	return nil
}
func (m *twin) word(r int, addr uint32) uint32 {
	b, _ := m.ReadMem(r, addr, 4)
	return binary.BigEndian.Uint32(b)
}
func (m *twin) Regs(r int) (bgl.Regs, error)          { return m.regs[r], nil }
func (m *twin) SetRegs(r int, g bgl.Regs) error       { m.regs[r] = g; return nil }
func (m *twin) SetBreakpoint(r int, a uint32) error   { return nil }
func (m *twin) ClearBreakpoint(r int, a uint32) error { return nil }
func (m *twin) MarkEntry(r int, a uint32) error {
	m.log = append(m.log, fmt.Sprintf("mark %d 0x%x", r, a))
	return nil
}
func (m *twin) ClearEntryMark(r int, a uint32) error {
	m.log = append(m.log, fmt.Sprintf("unmark %d 0x%x", r, a))
	return nil
}
func (m *twin) EntryReached(r int, a uint32) (bool, error) { return false, nil }

func send(t *testing.T, d *Daemon, m Machine, c *Command, seq uint64, ranks ...int) *Answer {
	t.Helper()
	c.Seq = seq
	if d.m != m {
		t.Fatal("the daemon works through another machine")
	}
	return d.Handle(c, ranks)
}

// TestDaemonProtocol drives one daemon through install, activate, a second probe at the
// same point, deactivate and removal, checking the words every node holds.
func TestDaemonProtocol(t *testing.T) {
	const point, orig, base1, base2 = 0x1000, 0x7c0802a6, 0x20000, 0x20100
	m := newTwin(0, 1)
	d := NewDaemon(0, 8, m, func(a uint32) bool { return a >= 0x20000 && a < 0x30000 }, nil)
	m.WriteMem(0, point, wordBytes(orig))
	m.WriteMem(1, point, wordBytes(orig))
	h1 := HandleRanks{Handle: 1, Stream: 7, Ranks: ranks(t, "0-1")}
	plan1 := PointPlan{Addr: point, Orig: orig, Patch: 0x4801f000, Base: base1, Words: []uint32{1, 2, 3},
		Toggles: []ToggleWord{{Handle: 1, Addr: base1 + 4, On: 0x60000000, Off: 0x48000008}}}
	a := send(t, d, m, &Command{Op: OpPatch, Points: []PointPlan{plan1}, Handles: []HandleRanks{h1}}, 1, 0, 1)
	if a.Done != 2 || len(a.Failed) != 0 {
		t.Fatalf("install answer %+v", a)
	}
	for r := range 2 {
		if m.word(r, point) != 0x4801f000 || m.word(r, base1+4) != 0x48000008 || m.held[r] {
			t.Fatalf("rank %d after install: point %#x toggle %#x held %v", r, m.word(r, point), m.word(r, base1+4), m.held[r])
		}
	}
	h1.Active = true
	send(t, d, m, &Command{Op: OpToggle, Handle: 1, Active: true, Handles: []HandleRanks{h1}, Toggles: plan1.Toggles}, 2, 0, 1)
	if m.word(1, base1+4) != 0x60000000 {
		t.Fatalf("toggle not on: %#x", m.word(1, base1+4))
	}
	// A second probe on rank 1 only: a new trampoline; rank 0 keeps handle 1 alone.
	h2 := HandleRanks{Handle: 2, Stream: 8, Ranks: ranks(t, "1")}
	plan2 := PointPlan{Addr: point, Orig: orig, Patch: 0x4801f100, Base: base2, Words: []uint32{9, 9, 9, 9},
		Toggles: []ToggleWord{{1, base2 + 4, 0x60000000, 0x48000008}, {2, base2 + 8, 0x60000000, 0x4800000c}}}
	a = send(t, d, m, &Command{Op: OpPatch, Points: []PointPlan{plan2}, Handles: []HandleRanks{h1, h2}}, 3, 0, 1)
	if a.Done != 2 {
		t.Fatalf("answer %+v", a)
	}
	if m.word(1, base2+4) != 0x60000000 || m.word(1, base2+8) != 0x4800000c || m.word(0, base2+8) != 0x4800000c {
		t.Fatal("toggles of the rebuilt trampoline are wrong")
	}
	if a.FreedCount() != 2 || d.Unlinked(0) != 0 || m.word(0, base1) != 0 {
		t.Fatalf("the replaced trampoline should be freed on both ranks: %+v, unlinked %d", a, d.Unlinked(0))
	}
	// Rank 1 is executing inside the trampoline: removal must keep it.
	m.regs[1] = bgl.Regs{PC: base2 + 8}
	a = send(t, d, m, &Command{Op: OpPatch, Points: []PointPlan{{Addr: point, Orig: orig}}, Handles: []HandleRanks{h1, h2}}, 4, 0, 1)
	if m.word(0, point) != orig || m.word(1, point) != orig {
		t.Fatal("removal did not restore the original word")
	}
	if a.FreedCount() != 1 || d.Unlinked(1) != 1 || m.word(1, base2) != 9 {
		t.Fatalf("busy trampoline freed or idle one kept: %+v unlinked(1)=%d", a, d.Unlinked(1))
	}
	m.regs[1] = bgl.Regs{PC: 0x1004}
	if a = send(t, d, m, &Command{Op: OpPatch}, 5, 1); a.FreedCount() != 1 || m.word(1, base2) != 0 {
		t.Fatalf("the trampoline is not freed once the node left it: %+v", a)
	}
}

func TestDaemonFailuresAndReads(t *testing.T) {
	m := newTwin(0, 1, 2)
	m.state[2] = "exited"
	m.WriteMem(1, 0x500, []byte("abcd"))
	d := NewDaemon(0, 4, m, func(uint32) bool { return false }, nil)
	a := send(t, d, m, &Command{Op: OpRead, Addr: 0x500, Size: 4}, 1, 1, 3)
	if a.Done != 1 || string(a.Data[1]) != "abcd" || !strings.Contains(a.Failed[3], "not served") {
		t.Fatalf("read answer %+v", a)
	}
	a = send(t, d, m, &Command{Op: OpWrite, Addr: 0x500, Data: []byte("xy")}, 2, 0, 2)
	if a.Done != 1 || a.Failed[2] != "process has exited" || string(m.mem[0][0x500]) != "x" {
		t.Fatalf("write answer %+v", a)
	}
	if err := a.Err("write"); err == nil || !strings.Contains(err.Error(), "1 of 2 ranks failed: rank 2: process has exited") {
		t.Fatalf("summary %v", err)
	}
	if !strings.Contains(d.Handle(&Command{Op: 99}, []int{0}).Failed[0], "unknown command op 99") {
		t.Fatal("a bad command must fail the rank")
	}
}

func TestSuccessors(t *testing.T) {
	const pc, lr, ctr = 0x1000, 0x2000, 0x3000
	tests := []struct {
		name string
		w    uint32
		want []uint32
	}{
		{"add", 0x7c632214, []uint32{pc + 4}},
		{"b +0x40", 0x48000040, []uint32{pc + 0x40}},
		{"b -8", 0x4bfffff8, []uint32{pc - 8}},
		{"ba 0x100", 0x48000102, []uint32{0x100}},
		{"beq +0x10", 0x41820010, []uint32{pc + 0x10, pc + 4}},
		{"bdnz -4", 0x4200fffc, []uint32{pc - 4, pc + 4}},
		{"blr", 0x4e800020, []uint32{lr}},
		{"beqlr", 0x4d820020, []uint32{lr, pc + 4}},
		{"bctr", 0x4e800420, []uint32{ctr}},
		{"isync", 0x4c00012c, []uint32{pc + 4}},
	}
	for _, tc := range tests {
		if got := successors(tc.w, pc, lr, ctr); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s (%#x): %#x, want %#x", tc.name, tc.w, got, tc.want)
		}
	}
}

// sendBytes encodes what a probe's send of one int carries: tag, count, one record.
func sendBytes(tag uint32, v int32) []byte {
	b := make([]byte, probes.SendHeaderSize+probes.SendRecordSize)
	binary.BigEndian.PutUint32(b, tag)
	binary.BigEndian.PutUint32(b[4:], 1)
	rec := b[probes.SendHeaderSize:]
	binary.BigEndian.PutUint32(rec, probes.SendInt)
	binary.BigEndian.PutUint64(rec[8:], uint64(uint32(v)))
	return b
}

// TestDaemonDropsForgedPackets: only a handle's own trampoline may send on its stream;
// the program calling ais_send itself, a packet for a probe the rank does not carry,
// and a malformed packet are dropped and reported.
func TestDaemonDropsForgedPackets(t *testing.T) {
	const point, orig, base = 0x1000, 0x7c0802a6, 0x20000
	m := newTwin(0, 1)
	d := NewDaemon(0, 8, m, func(a uint32) bool { return a >= 0x20000 && a < 0x30000 }, nil)
	m.WriteMem(0, point, wordBytes(orig))
	h1 := HandleRanks{Handle: 1, Stream: 7, Ranks: ranks(t, "0")}
	plan := PointPlan{Addr: point, Orig: orig, Patch: 0x4801f000, Base: base, Words: []uint32{1, 2, 3},
		Toggles: []ToggleWord{{Handle: 1, Addr: base + 4, On: 0x60000000, Off: 0x48000008}}}
	h2 := HandleRanks{Handle: 2, Stream: 8, Ranks: ranks(t, "1")}
	send(t, d, m, &Command{Op: OpPatch, Points: []PointPlan{plan}, Handles: []HandleRanks{h1, h2}}, 1, 0)
	var out []Outgoing
	var rej []Rejected
	for _, p := range []bgl.Packet{
		{Rank: 0, PC: base + 8, Data: sendBytes(1, 5)},
		{Rank: 0, PC: 0x1800, Data: sendBytes(1, 6)},   // the program itself
		{Rank: 0, PC: base + 8, Data: sendBytes(2, 7)}, // probe 2 has no code here
		{Rank: 0, PC: base + 8, Data: []byte{1, 2, 3}},
	} {
		rd := d.Packet(p)
		out, rej = append(out, rd.Up...), append(rej, rd.Rejected...)
	}
	if len(out) != 1 || out[0].Handle != 1 || out[0].Values[0] != int64(5) {
		t.Fatalf("forwarded %+v", out)
	}
	want := []string{"sent from outside its code", "probe 2 sent from outside", "malformed packet"}
	if len(rej) != len(want) {
		t.Fatalf("rejected %+v", rej)
	}
	for i, w := range want {
		if !strings.Contains(rej[i].Reason, w) || rej[i].Rank != 0 {
			t.Errorf("rejection %d: %+v, want %q", i, rej[i], w)
		}
	}
}

func ranks(t *testing.T, spec string) *contexts.Set {
	t.Helper()
	s, err := contexts.Parse(8, spec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
