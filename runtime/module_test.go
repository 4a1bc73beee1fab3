package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/probes/cobj"
)

const (
	ringELF    = "../examples/apps/bin/ring.elf"
	moduleDir  = "../probes/cobj/testdata/"
	ringRanks  = 64
	ringLaps   = 3
	ringLapArg = "3"
)

// counterState is the Go twin of testdata/counters.c's globals on one rank.
type counterState struct {
	calls, total, copied int64
	kinds                [8]int64
	last                 [8]byte
	rets                 []int64
}

var counterTags = [8]string{"zero", "one", "two", "three", "four", "five", "six", "seven"}

// record is counters.c's record(a, b): classify gives a+b's low three bits (each case of
// its switch is written to return that), memcpy copies k%5+1 bytes of the tag.
func (s *counterState) record(a, b int) {
	s.calls++
	k := (a + b) & 7
	s.kinds[k]++
	n := k%5 + 1
	copy(s.last[:n], append([]byte(counterTags[k]), 0)[:n])
	s.copied += int64(n)
	s.total += int64(3*k + 1)
	s.rets = append(s.rets, int64(k))
}

// expectedCounters: ring's shift phase calls MPI_Sendrecv(blk, n, MPI_INT, dest, tag, ...)
// once per lap with dest = rank+1 mod size and tag = 1000+lap; the probe passes both.
func expectedCounters() []counterState {
	out := make([]counterState, ringRanks)
	for r := range out {
		out[r].total = 7
		for lap := 1; lap <= ringLaps; lap++ {
			out[r].record((r+1)%ringRanks, 1000+lap)
		}
	}
	return out
}

func launchRing(t *testing.T, nodes int) *App {
	t.Helper()
	var out strings.Builder
	a, err := Launch(Options{Exe: ringELF, Args: []string{"16", ringLapArg}, Nodes: nodes, PerIO: 16, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// TestModuleCountersOn64Ranks loads the counters module, built at -O0 and -O2 in both
// code models, into ring on 64 ranks; a probe at MPI_Sendrecv's entry calls its record
// and sends the value it returns. Every rank's module globals and every returned value
// must equal the twin's.
func TestModuleCountersOn64Ranks(t *testing.T) {
	for _, obj := range []string{"counters-O0.o", "counters-O2.o", "counters-O0-nopic.o", "counters-O2-nopic.o"} {
		t.Run(obj, func(t *testing.T) {
			a := launchRing(t, ringRanks)
			m, err := a.LoadModule(moduleDir + obj)
			if err != nil {
				t.Fatal(err)
			}
			call, err := m.Call("record", probes.Arg(3, probes.Int), probes.Arg(4, probes.Int))
			if err != nil {
				t.Fatal(err)
			}
			h, err := a.Install(points(t, a, "MPI_Sendrecv", probes.PointEntry), probes.Send(call), InstallOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Activate(); err != nil {
				t.Fatal(err)
			}
			a.Start()
			msgs := run(t, a)
			checkExits(t, a)
			want := expectedCounters()
			got := make([][]int64, ringRanks)
			for _, msg := range msgs {
				got[msg.Rank] = append(got[msg.Rank], msg.Values[0].(int64))
			}
			for r := range ringRanks {
				w := want[r]
				if fmt.Sprint(got[r]) != fmt.Sprint(w.rets) {
					t.Errorf("rank %d: record returned %v, want %v", r, got[r], w.rets)
				}
				checkGlobal(t, m, r, "calls", w.calls)
				checkGlobal(t, m, r, "total", w.total)
				checkGlobal(t, m, r, "copied", w.copied)
				checkArray(t, m, r, "kinds", w.kinds[:])
				lastVals, err := m.Read("last", r)
				if err != nil {
					t.Fatal(err)
				}
				var last []byte
				for _, v := range lastVals {
					last = append(last, byte(v.I))
				}
				if !bytes.Equal(last, w.last[:]) {
					t.Errorf("rank %d: last = %q, want %q", r, last, w.last[:])
				}
			}
		})
	}
}

func checkExits(t *testing.T, a *App) {
	t.Helper()
	for r := range a.Size() {
		if ev, ok := a.Ended(r); !ok || ev.Status != 0 || ev.Signal != 0 {
			t.Fatalf("rank %d ended %+v, want exit 0", r, ev)
		}
	}
}

func checkGlobal(t *testing.T, m *Module, rank int, name string, want int64) {
	t.Helper()
	v, err := m.Read(name, rank)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != 1 || v[0].I != want {
		t.Errorf("rank %d: %s = %v, want %d", rank, name, v, want)
	}
}

func checkArray(t *testing.T, m *Module, rank int, name string, want []int64) {
	t.Helper()
	v, err := m.Read(name, rank)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, x := range v {
		got = append(got, x.I)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rank %d: %s = %v, want %v", rank, name, got, want)
	}
}

// TestModuleRefusedBeforeWriting: each bad object is refused with an error naming what
// was wrong, and no rank's region memory changed; the same module twice is refused; a
// good module loads afterwards.
func TestModuleRefusedBeforeWriting(t *testing.T) {
	a := launchRing(t, 4)
	start := a.next
	tests := []struct{ obj, want string }{
		{"counters-fpic.o", "R_PPC_GOT16"},
		{"undefined.o", "no_such_function_anywhere: undefined symbol"},
		{"toobig.o", ".bss: 33554432 bytes at module offset"},
		{"counters-sdata.o", "R_PPC_SDAREL16"},
	}
	for _, tc := range tests {
		_, err := a.LoadModule(moduleDir + tc.obj)
		var ce *cobj.Error
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want a cobj.Error containing %q", tc.obj, err, tc.want)
		}
	}
	for r := range a.Size() {
		p, err := a.Process(r)
		if err != nil {
			t.Fatal(err)
		}
		b, err := p.Read(start, 4096)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, make([]byte, 4096)) {
			t.Errorf("rank %d: region memory at 0x%x changed by a refused module", r, start)
		}
	}
	var freed uint32
	for _, f := range a.free {
		freed += f.size
	}
	if freed != a.next-start {
		t.Errorf("refused modules took 0x%x bytes of the region and gave back 0x%x", a.next-start, freed)
	}
	m, err := a.LoadModule(moduleDir + "counters-O2.o")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.LoadModule(moduleDir + "counters-O2.o"); err == nil || !strings.Contains(err.Error(), "already loaded") {
		t.Errorf("loading twice: %v", err)
	}
	if _, err := m.Call("nosuch"); err == nil || !strings.Contains(err.Error(), "record") {
		t.Errorf("unknown function: %v, want the list of the module's functions", err)
	}
}

// TestModuleAgainstQemu runs counters.c's record natively under qemu-ppc (the committed
// objects linked with a driver that replays each rank's calls) and compares every rank's
// returned values and module globals with what the simulated ranks computed.
func TestModuleAgainstQemu(t *testing.T) {
	gcc := oracletest.Require(t, oracletest.GCC)
	qemu := oracletest.Require(t, oracletest.QEMU)
	for _, obj := range []string{"counters-O0.o", "counters-O2-nopic.o"} {
		t.Run(obj, func(t *testing.T) {
			exe := filepath.Join(t.TempDir(), "driver")
			if out, err := exec.Command(gcc, "-mcpu=440fp", "-static", "-o", exe,
				moduleDir+"counters_driver.c", moduleDir+obj).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", gcc, err, out)
			}
			want, err := exec.Command(qemu, "-cpu", "440epx", exe, fmt.Sprint(ringRanks), ringLapArg).Output()
			if err != nil {
				t.Fatalf("%s: %v", qemu, err)
			}
			got := simulatedCounters(t, obj)
			if string(want) != got {
				t.Errorf("simulated module state differs from qemu's:\n--- qemu\n%s--- simulated\n%s", want, got)
			}
		})
	}
}

// simulatedCounters runs ring on 64 ranks with the module and prints each rank's state
// the way counters_driver.c does.
func simulatedCounters(t *testing.T, obj string) string {
	a := launchRing(t, ringRanks)
	m, err := a.LoadModule(moduleDir + obj)
	if err != nil {
		t.Fatal(err)
	}
	call, err := m.Call("record", probes.Arg(3, probes.Int), probes.Arg(4, probes.Int))
	if err != nil {
		t.Fatal(err)
	}
	h, err := a.Install(points(t, a, "MPI_Sendrecv", probes.PointEntry), probes.Send(call), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Activate(); err != nil {
		t.Fatal(err)
	}
	a.Start()
	rets := make([][]int64, ringRanks)
	for _, msg := range run(t, a) {
		rets[msg.Rank] = append(rets[msg.Rank], msg.Values[0].(int64))
	}
	var b strings.Builder
	read := func(r int, name string) []probes.Value {
		v, err := m.Read(name, r)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for r := range ringRanks {
		fmt.Fprintf(&b, "%d:", r)
		for _, v := range rets[r] {
			fmt.Fprintf(&b, " %d", v)
		}
		fmt.Fprintf(&b, " | %d %d %d |", read(r, "calls")[0].I, read(r, "total")[0].I, read(r, "copied")[0].I)
		for _, v := range read(r, "kinds") {
			fmt.Fprintf(&b, " %d", v.I)
		}
		b.WriteString(" |")
		for _, v := range read(r, "last") {
			fmt.Fprintf(&b, " %02x", byte(v.I))
		}
		b.WriteString("\n")
	}
	return b.String()
}
