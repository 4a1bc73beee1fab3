package probes

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// Type is the type of a probe expression's value.
type Type uint8

// The value types. Void is the type of expressions that produce no value (send, when
// without else, a sequence ending in one of those).
const (
	Void Type = iota
	Int
	Int64
	Double
)

var typeNames = [...]string{Void: "void", Int: "int", Int64: "int64", Double: "double"}

func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", t)
}

// ParseType maps "int", "int64" and "double" to their Type.
func ParseType(s string) (Type, error) {
	for t, n := range typeNames {
		if n == s && Type(t) != Void {
			return Type(t), nil
		}
	}
	return Void, errorf("unknown type %q (want \"int\", \"int64\" or \"double\")", s)
}

// size is the number of bytes a value of t occupies in a slot.
func (t Type) size() uint32 {
	if t == Int {
		return 4
	}
	return 8
}

// Kind is the operator of an expression node.
type Kind uint8

// Expression node kinds.
const (
	KConst Kind = iota
	KVar
	KArg
	KRetval
	KRank
	KTimebase
	KCounter
	KCall
	KSend
	KNeg
	KBNot
	KLNot
	KAdd
	KSub
	KMul
	KDiv
	KMod
	KBAnd
	KBOr
	KBXor
	KShl
	KShr
	KEq
	KNe
	KLt
	KLe
	KGt
	KGe
	KLAnd
	KLOr
	KAssign
	KSeq
	KWhen
	KIndex    // Arr[Kids[0]]
	KSetIndex // Arr[Kids[0]] = Kids[1]
	KWhole    // all of Arr, only as a send operand
	KPush     // push Kids[0] on Stk
	KPop      // pop Stk
	KDepth    // elements in use on Stk
	KPoint    // index of the point in the list the probe was installed on
	KFunc     // index of the point's function in Program.Funcs
	KLoad     // *(Mem *)(Kids[0] + Idx)
	KStore    // *(Mem *)(Kids[0] + Idx) = Kids[1]
	KReg      // register Idx at the point (RegLR: the link register), int
	KUstack   // Idx return addresses of the call chain, only as a send operand
	KSkip     // return from the function at once, with Kids[0] (if any) as its value
	KJump     // continue in the function Name (at Addr, or resolved) instead
	KSum      // the sum of Kids[1] for Kids[2] = 0 .. Kids[0]-1 (capped at MaxSum)
	KSumIndex // the index of the KSum whose Kids[2] this node is, int
	KCommInfo // communicator Kids[0]'s size, remote size or the rank in it (Idx), int
	kindCount
)

// kindInfo describes an operator: its name in messages and its C spelling.
type kindInfo struct {
	name string
	c    string // C operator for unary and binary kinds
}

var kinds = [kindCount]kindInfo{
	KConst: {"const", ""}, KVar: {"variable", ""}, KArg: {"arg", ""}, KRetval: {"retval", ""},
	KRank: {"rank", ""}, KTimebase: {"timebase", ""}, KCounter: {"counter", ""},
	KCall: {"call", ""}, KSend: {"send", ""},
	KNeg: {"neg", "-"}, KBNot: {"bnot", "~"}, KLNot: {"lnot", "!"},
	KAdd: {"add", "+"}, KSub: {"sub", "-"}, KMul: {"mul", "*"}, KDiv: {"div", "/"},
	KMod: {"mod", "%"}, KBAnd: {"band", "&"}, KBOr: {"bor", "|"}, KBXor: {"bxor", "^"},
	KShl: {"shl", "<<"}, KShr: {"shr", ">>"}, KEq: {"eq", "=="}, KNe: {"ne", "!="},
	KLt: {"lt", "<"}, KLe: {"le", "<="}, KGt: {"gt", ">"}, KGe: {"ge", ">="},
	KLAnd: {"land", "&&"}, KLOr: {"lor", "||"}, KAssign: {"assign", "="},
	KSeq: {"seq", ","}, KWhen: {"when", "?:"},
	KIndex: {"index", ""}, KSetIndex: {"set", ""}, KWhole: {"array", ""}, KPush: {"push", ""},
	KPop: {"pop", ""}, KDepth: {"depth", ""}, KPoint: {"point", ""}, KFunc: {"func", ""},
	KLoad: {"load", ""}, KStore: {"store", ""}, KReg: {"reg", ""}, KUstack: {"ustack", ""},
	KSkip: {"skip", ""}, KJump: {"jump", ""},
	KSum: {"sum", ""}, KSumIndex: {"index", ""}, KCommInfo: {"comm_info", ""},
}

func (k Kind) String() string {
	if k < kindCount {
		return kinds[k].name
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Exp is a node of a probe expression tree. Nodes are immutable once built and may be
// shared between trees. Build them with the constructors; Check reports type errors.
type Exp struct {
	Kind Kind
	Kids []*Exp
	Var  *Var    // KVar, and the target of KAssign (Kids[0] is then the value)
	Name string  // KCall: function; KCounter: counter name; KLoad, KStore: lvalue name or ""
	Idx  int     // KArg: register index within its class; KLoad, KStore: byte offset; KReg: register; KUstack: depth
	Arr  *Array  // KIndex, KSetIndex, KWhole
	Stk  *Stack  // KPush, KPop, KDepth
	Mem  MemType // KLoad, KStore
	// Shape is the C type of a program global's lvalue (KLoad); a struct or array is an
	// aggregate (Mem is MemNone) to take a Member or an Element of, not a value.
	Shape *CType
	Val   Value // KConst
	T     Type  // declared type for KConst, KArg, KRetval, KCall
	// Addr is a KCall's callee when known when the expression is built (a function of a
	// loaded C module, see CallAt); 0: Target.Resolve finds Name in the program.
	Addr uint32

	// checked is the node's type plus one once Check accepted it (0: not checked yet).
	// Atomic: a tree may be checked from several goroutines (compiling for a disassembly
	// while the runtime installs it).
	checked atomic.Uint32
}

func (e *Exp) checkedType() (Type, bool) {
	c := e.checked.Load()
	return Type(c - 1), c != 0
}

func (e *Exp) setChecked(t Type) { e.checked.Store(uint32(t) + 1) }

// Value is a typed scalar: the result of evaluating an expression.
type Value struct {
	T Type
	I int64   // Int (sign-extended) and Int64
	F float64 // Double
}

// IntValue, Int64Value and DoubleValue build Values.
func IntValue(v int32) Value      { return Value{T: Int, I: int64(v)} }
func Int64Value(v int64) Value    { return Value{T: Int64, I: v} }
func DoubleValue(v float64) Value { return Value{T: Double, F: v} }

// Bits returns the value as the 64-bit pattern a slot holds (int: low 32 bits).
func (v Value) Bits() uint64 {
	switch v.T {
	case Double:
		return math.Float64bits(v.F)
	case Int:
		return uint64(uint32(v.I))
	}
	return uint64(v.I)
}

func (v Value) String() string {
	switch v.T {
	case Int, Int64:
		return fmt.Sprint(v.I)
	case Double:
		return formatDouble(v.F)
	}
	return "void"
}

// Var is a probe variable: a slot at a fixed address in the instrumentation region, the same
// on every node. Allocate Vars with a Slots allocator.
type Var struct {
	Name string
	T    Type
	Addr uint32
}

// Const builders.

// IntConst is a 32-bit integer constant.
func IntConst(v int32) *Exp { return &Exp{Kind: KConst, T: Int, Val: IntValue(v)} }

// Int64Const is a 64-bit integer constant.
func Int64Const(v int64) *Exp { return &Exp{Kind: KConst, T: Int64, Val: Int64Value(v)} }

// DoubleConst is a double constant.
func DoubleConst(v float64) *Exp { return &Exp{Kind: KConst, T: Double, Val: DoubleValue(v)} }

// Number converts a script number: int when integral and within 32 bits, else double.
func Number(f float64) *Exp {
	if f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 && !(f == 0 && math.Signbit(f)) {
		return IntConst(int32(f))
	}
	return DoubleConst(f)
}

// Ref reads a probe variable.
func Ref(v *Var) *Exp { return &Exp{Kind: KVar, Var: v} }

// Arg reads argument register i of class t at a function entry: GPR r(3+i) for int
// (i in 0..7), the pair r(3+i):r(4+i) for int64 (i even, as the ABI aligns pairs), FPR
// f(1+i) for double (i in 0..7).
func Arg(i int, t Type) *Exp { return &Exp{Kind: KArg, Idx: i, T: t} }

// Retval reads the return value at a function exit: r3, r3:r4 or f1.
func Retval(t Type) *Exp { return &Exp{Kind: KRetval, T: t} }

// Rank is the node's MPI rank (int).
func Rank() *Exp { return &Exp{Kind: KRank} }

// Timebase is the node's time base register (int64, virtual cycles).
func Timebase() *Exp { return &Exp{Kind: KTimebase} }

// PointTimebase is the time base as the trampoline read it when the point was reached,
// before it saved the registers its snippets use (int64): two snippets timing one interval
// with it measure the same cycles whatever else each computes. Idx 1 marks it.
func PointTimebase() *Exp { return &Exp{Kind: KTimebase, Idx: 1} }

// Counter reads one of the CPU's event counters (int64); see CounterNames.
func Counter(name string) *Exp { return &Exp{Kind: KCounter, Name: name} }

// Call calls a function of the program with up to 8 integer-class and 8 double arguments;
// its value is the int the function returns in r3.
func Call(fn string, args ...*Exp) *Exp { return &Exp{Kind: KCall, Name: fn, Kids: args, T: Int} }

// CallAt calls the function at addr (a C module's function, loaded at a known address),
// named name in messages and listings; otherwise as Call.
func CallAt(name string, addr uint32, args ...*Exp) *Exp {
	return &Exp{Kind: KCall, Name: name, Kids: args, T: Int, Addr: addr}
}

// Send hands the values to the tool through the ais_send hypercall.
func Send(vals ...*Exp) *Exp { return &Exp{Kind: KSend, Kids: vals} }

// Unary builds -x, ~x or !x (k is KNeg, KBNot or KLNot).
func Unary(k Kind, x *Exp) *Exp { return &Exp{Kind: k, Kids: []*Exp{x}} }

// Binary builds a binary operation (arithmetic, bitwise, comparison or logical kind).
func Binary(k Kind, a, b *Exp) *Exp { return &Exp{Kind: k, Kids: []*Exp{a, b}} }

// Assign stores x into v; its value is the stored value.
func Assign(v *Var, x *Exp) *Exp { return &Exp{Kind: KAssign, Var: v, Kids: []*Exp{x}} }

// Seq evaluates its elements in order; its value is the last one's.
func Seq(es ...*Exp) *Exp { return &Exp{Kind: KSeq, Kids: es} }

// When evaluates then when cond is non-zero, else els (which may be nil).
func When(cond, then, els *Exp) *Exp {
	if els == nil {
		return &Exp{Kind: KWhen, Kids: []*Exp{cond, then}}
	}
	return &Exp{Kind: KWhen, Kids: []*Exp{cond, then, els}}
}

// CounterNames lists the counters counter() accepts, in the order of bgl/abi's Counter.
var CounterNames = func() []string {
	names := make([]string, abi.NumCounters)
	for c := range abi.NumCounters {
		names[c] = c.Name()
	}
	return names
}()

func counterID(name string) int {
	if c, ok := abi.CounterByName(name); ok {
		return int(c)
	}
	return -1
}
