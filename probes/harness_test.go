package probes

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/ppc"
)

// The test machine's layout: code, the variable region, a stack, and a tiny program
// function for call().
const (
	hCode     = 0x10000000
	hFunc     = 0x10100000 // "sum2": r3 = r3 + r4
	hVars     = 0x20000000
	hStackTop = 0x30100000
	hFrameR1  = hStackTop - 0x1000

	hcDone = 0x7fff
)

var testTarget = Target{
	Tag:     42,
	Resolve: func(name string) (uint32, bool) { return hFunc, name == "sum2" },
}

// machine is a ppc interpreter set up to run snippets and trampolines.
type machine struct {
	cpu   *ppc.CPU
	sends [][]Value
	rank  int32
}

func newMachine(t testing.TB) *machine {
	mem := ppc.NewMemory()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(mem.Map(hCode, 0x100000, ppc.PermR|ppc.PermX))
	must(mem.Map(hFunc, 0x1000, ppc.PermR|ppc.PermX))
	must(mem.Map(hVars, 0x1000, ppc.PermR|ppc.PermW))
	must(mem.Map(hStackTop-0x10000, 0x10000, ppc.PermR|ppc.PermW))
	var a asm
	a.x31(xoAdd, 3, 3, 4)
	a.blr()
	must(mem.Poke(hFunc, wordsBytes(a.w)))
	return &machine{cpu: ppc.NewCPU(mem), rank: 7}
}

func wordsBytes(ws []uint32) []byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.BigEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// counterValue is what the test machine's counter hypercall returns.
func counterValue(id int) int64 { return int64(id+1)*0x100000001 + 5 }

// run executes from pc until the "done" hypercall, serving the probe hypercalls.
func (m *machine) run(t testing.TB, pc uint32) {
	c := m.cpu
	c.PC = pc
	for range 1000 {
		st := c.Run(1 << 20)
		if st.Kind != ppc.StopSyscall {
			t.Fatalf("stopped: %v %v at pc 0x%x", st.Kind, st.Fault, c.PC)
		}
		switch abi.Sysno(c.GPR[0]) {
		case hcDone:
			return
		case abi.HcRank:
			c.GPR[3] = uint32(m.rank)
		case abi.HcCounter:
			v := counterValue(int(c.GPR[3]))
			c.GPR[3], c.GPR[4] = uint32(v>>32), uint32(v)
		case abi.HcAisSend:
			m.sends = append(m.sends, m.readSend(t, c.GPR[3], c.GPR[4]))
			c.GPR[3] = 0
		default:
			t.Fatalf("unknown hypercall %d", c.GPR[0])
		}
	}
	t.Fatal("snippet did not finish")
}

func (m *machine) readSend(t testing.TB, addr, n uint32) []Value {
	buf := make([]byte, n)
	if err := m.cpu.Mem.Read(addr, buf); err != nil {
		t.Fatal(err)
	}
	tag, vals, err := DecodeSend(buf)
	if err != nil {
		t.Fatal(err)
	}
	if tag != testTarget.Tag {
		t.Fatalf("send tag %d, want %d", tag, testTarget.Tag)
	}
	return vals
}

func (m *machine) readVar(t testing.TB, v *Var) Value {
	bits, err := m.cpu.Mem.Read64(v.Addr)
	if v.T == Int {
		var w uint32
		w, err = m.cpu.Mem.Read32(v.Addr)
		bits = uint64(w)
	}
	if err != nil {
		t.Fatal(err)
	}
	return valueFromBits(v.T, bits)
}

func valueFromBits(t Type, bits uint64) Value {
	switch t {
	case Int:
		return IntValue(int32(bits))
	case Int64:
		return Int64Value(int64(bits))
	}
	return DoubleValue(math.Float64frombits(bits))
}

func (m *machine) writeVar(t testing.TB, v *Var, x Value) {
	var err error
	if v.T == Int {
		err = m.cpu.Mem.Write32(v.Addr, uint32(x.Bits()))
	} else {
		err = m.cpu.Mem.Write64(v.Addr, x.Bits())
	}
	if err != nil {
		t.Fatal(err)
	}
}

// sameValue compares values bit for bit, except that any NaN equals any NaN (payloads
// differ between the host and the PowerPC default NaN).
func sameValue(a, b Value) bool {
	if a.T != b.T {
		return false
	}
	if a.T == Double && math.IsNaN(a.F) && math.IsNaN(b.F) {
		return true
	}
	return a.Bits() == b.Bits()
}

// goEnv is the reference environment mirroring the machine's initial state.
type goEnv struct {
	vars  map[*Var]Value
	gprs  [32]uint32
	fprs  [32]float64
	rank  int32
	sends [][]Value
}

func (e *goEnv) Load(v *Var) Value     { return e.vars[v] }
func (e *goEnv) Store(v *Var, x Value) { e.vars[v] = x }
func (e *goEnv) Arg(t Type, i int) Value {
	switch t {
	case Int:
		return IntValue(int32(e.gprs[3+i]))
	case Int64:
		return Int64Value(int64(e.gprs[3+i])<<32 | int64(e.gprs[4+i]))
	}
	return DoubleValue(e.fprs[1+i])
}
func (e *goEnv) Retval(t Type) Value       { return e.Arg(t, 0) }
func (e *goEnv) Rank() int32               { return e.rank }
func (e *goEnv) Timebase() int64           { panic("timebase is not deterministic in tests") }
func (e *goEnv) Counter(name string) int64 { return counterValue(counterID(name)) }
func (e *goEnv) Send(vals []Value)         { e.sends = append(e.sends, vals) }
func (e *goEnv) Call(fn string, args []Value) int32 {
	if fn != "sum2" || len(args) != 2 {
		panic(fmt.Sprintf("unexpected call %s%v", fn, args))
	}
	return int32(args[0].I) + int32(args[1].I)
}
