package abi

// The hypercall range: `sc` with r0 in [HypercallFirst, HypercallLast].
const (
	HypercallFirst Sysno = 0x7000
	HypercallLast  Sysno = 0x7fff

	// ToolFirst..ToolLast is the tool's thin client (probes and the runtime).
	ToolFirst Sysno = 0x7000
	ToolLast  Sysno = 0x70ff
	// MPIFirst..MPILast is reserved for the MPI engine.
	MPIFirst Sysno = 0x7100
	MPILast  Sysno = 0x71ff
)

// The tool's hypercalls.
const (
	// HcRank returns the calling process's rank (0-based) in r3.
	HcRank Sysno = 0x7000
	// HcSize returns the number of ranks in the job in r3.
	HcSize Sysno = 0x7001
	// HcIONode returns the index of the caller's I/O node in r3.
	HcIONode Sysno = 0x7002
	// HcCounter takes a Counter in r3 and returns its 64-bit value in r3 (high) and r4 (low);
	// for an unknown counter the C function's high word is -EINVAL.
	HcCounter Sysno = 0x7003
	// HcAisSend takes a buffer address in r3 and a length in r4 (at most MaxPacket bytes) and
	// hands the bytes to the caller's I/O-node tool daemon; r3 = 0 on success.
	HcAisSend Sysno = 0x7004
)

// MaxPacket is the largest payload HcAisSend accepts.
const MaxPacket = 64 << 10

// Counter selects a per-node hardware counter for HcCounter.
type Counter uint32

// The counters; their order is part of the ABI.
const (
	CounterInstructions Counter = iota
	CounterCycles
	CounterLoads
	CounterStores
	CounterBranches
	CounterFPOps
	// CounterBranchesNotTaken counts conditional branches that fell through; "branches"
	// counts the taken ones.
	CounterBranchesNotTaken
	NumCounters
)

var counterNames = [NumCounters]string{"instructions", "cycles", "loads", "stores", "branches", "fpops",
	"branches_not_taken"}

// Name returns the counter's name as probes spell it ("instructions", "cycles", ...).
func (c Counter) Name() string {
	if c < NumCounters {
		return counterNames[c]
	}
	return "counter?"
}

// CounterByName returns the counter with the given name.
func CounterByName(name string) (Counter, bool) {
	for i, n := range counterNames {
		if n == name {
			return Counter(i), true
		}
	}
	return 0, false
}

// Hypercall describes one hypercall for tables, documentation and the C header.
type Hypercall struct {
	Num  Sysno
	Name string // also the C function name in dpcl_bgl.h
	Args int    // number of argument registers used (r3...)
	Ret  string // C return type
	Doc  string
}

// Hypercalls lists the defined hypercalls in number order.
var Hypercalls = []Hypercall{
	{HcRank, "dpcl_rank", 0, "int", "rank of the calling process (0-based)"},
	{HcSize, "dpcl_size", 0, "int", "number of ranks in the job"},
	{HcIONode, "dpcl_ionode", 0, "int", "index of the caller's I/O node"},
	{HcCounter, "dpcl_counter", 1, "unsigned long long", "64-bit value of a DPCL_COUNTER_*"},
	{HcAisSend, "dpcl_ais_send", 2, "int", "send len bytes at buf to the tool daemon; 0 or -errno"},
}

var hypercallByNum = func() map[Sysno]Hypercall {
	m := make(map[Sysno]Hypercall, len(Hypercalls))
	for _, h := range Hypercalls {
		m[h.Num] = h
	}
	return m
}()
