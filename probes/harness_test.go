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
	hVarsSize = 0x4000
	hData     = 0x20100000 // read-write data for load and store
	hRO       = 0x20200000 // read-only data
	hDataSize = 0x1000
	hUnmapped = 0x20300000
	hFaults   = hVars + hVarsSize - 4 // the fault counter of testTarget
	hStackTop = 0x30100000
	hFrameR1  = hStackTop - 0x1000

	hcDone = 0x7fff
)

var testTarget = Target{
	Tag:          42,
	Resolve:      func(name string) (uint32, bool) { return hFunc, name == "sum2" },
	FaultCounter: hFaults,
}

// machine is a ppc interpreter set up to run snippets and trampolines.
type machine struct {
	cpu     *ppc.CPU
	sends   [][]Value
	rank    int32
	fixups  map[uint32]uint32 // faulting access -> fixup, as the runtime registers them
	faulted int               // faults recovered through fixups
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
	must(mem.Map(hVars, hVarsSize, ppc.PermR|ppc.PermW))
	must(mem.Map(hData, hDataSize, ppc.PermR|ppc.PermW))
	must(mem.Map(hRO, hDataSize, ppc.PermR))
	must(mem.Map(hStackTop-0x10000, 0x10000, ppc.PermR|ppc.PermW))
	var a asm
	a.x31(xoAdd, 3, 3, 4)
	a.blr()
	must(mem.Poke(hFunc, wordsBytes(a.w)))
	return &machine{cpu: ppc.NewCPU(mem), rank: 7}
}

// blr returns to the caller (the harness's function; generated code never emits it).
func (a *asm) blr() { a.ins("bclr", boAlways, 0, 0) }

func wordsBytes(ws []uint32) []byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.BigEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// counterValue is what the test machine's counter hypercall returns.
func counterValue(id int) int64 { return int64(id+1)*0x100000001 + 5 }

// commInfoValue is what the test machine's communicator-size hypercall returns: a value
// made of both arguments, so a test sees each reached the engine.
func commInfoValue(comm, remote uint32) uint32 { return comm*10 + remote }

// run executes from pc until the "done" hypercall, serving the probe hypercalls.
func (m *machine) run(t testing.TB, pc uint32) {
	c := m.cpu
	c.PC = pc
	for range 1000 {
		st := c.Run(1 << 20)
		if st.Kind == ppc.StopBudget { // a long loop (a sum of MaxSum terms)
			continue
		}
		if st.Kind == ppc.StopFault && st.Fault.Kind == ppc.FaultAccess {
			if to, ok := m.fixups[st.Fault.PC]; ok {
				m.faulted++
				c.PC = to
				continue
			}
		}
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
		case abi.HcCommInfo:
			c.GPR[3] = commInfoValue(c.GPR[3], c.GPR[4])
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

// goEnv is the reference environment mirroring the machine's initial state: its memory
// is a copy of the machine's variable, data and read-only regions.
type goEnv struct {
	regions []envRegion
	gprs    [32]uint32
	fprs    [32]float64
	rank    int32
	sends   [][]Value
	faults  int
}

type envRegion struct {
	base     uint32
	data     []byte
	writable bool
}

// snapshot copies the machine's memory regions into the environment.
func (e *goEnv) snapshot(t testing.TB, m *machine) {
	e.regions = nil
	for _, r := range []struct {
		base, size uint32
		w          bool
	}{{hVars, hVarsSize, true}, {hData, hDataSize, true}, {hRO, hDataSize, false}} {
		b := make([]byte, r.size)
		if err := m.cpu.Mem.Read(r.base, b); err != nil {
			t.Fatal(err)
		}
		e.regions = append(e.regions, envRegion{r.base, b, r.w})
	}
}

func (e *goEnv) span(addr uint32, n uint32, write bool) []byte {
	for _, r := range e.regions {
		if addr >= r.base && uint64(addr-r.base)+uint64(n) <= uint64(len(r.data)) {
			if write && !r.writable {
				return nil
			}
			return r.data[addr-r.base : addr-r.base+n]
		}
	}
	return nil
}

func (e *goEnv) fault() {
	e.faults++
	b := e.span(hFaults, 4, true)
	binary.BigEndian.PutUint32(b, binary.BigEndian.Uint32(b)+1)
}

func (e *goEnv) LoadMem(addr uint32, m MemType) (Value, bool) {
	b := e.span(addr, m.Size(), false)
	if b == nil {
		e.fault()
		return Value{}, false
	}
	return DecodeMem(m, b), true
}

func (e *goEnv) StoreMem(addr uint32, m MemType, x Value) bool {
	b := e.span(addr, m.Size(), true)
	if b == nil {
		e.fault()
		return false
	}
	copy(b, EncodeMem(m, x))
	return true
}

func (e *goEnv) Load(v *Var) Value {
	x, _ := e.LoadMem(v.Addr, ElemMem(v.T))
	return x
}
func (e *goEnv) Store(v *Var, x Value) { e.StoreMem(v.Addr, ElemMem(v.T), x) }
func (e *goEnv) Point() int32          { return hPoint }
func (e *goEnv) Func() int32           { return hFuncID }

// The point identity the test snippets are placed with.
const (
	hPoint  = 3
	hFuncID = 70000
)

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
