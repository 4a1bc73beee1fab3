package tracelang

// Pos is a place in the program text: 1-based line and column (in bytes).
type Pos struct{ Line, Col int }

// Program is a parsed trace program: its probe blocks in source order.
type Program struct {
	Name   string // "stdin" for -e, else the file's name; used in error positions
	Src    string
	Blocks []*Block
}

// Block is one `probe, probe /predicate/ { statements }`.
type Block struct {
	Pos    Pos
	Probes []*Probe
	Pred   *Expr // nil without a predicate
	Body   []*Stmt
}

// ProbeKind says what a probe spec names.
type ProbeKind string

const (
	ProbeBegin    ProbeKind = "BEGIN"
	ProbeEnd      ProbeKind = "END"
	ProbeEntry    ProbeKind = "entry"    // FUNC:entry, FUNC may hold * and ?
	ProbeExit     ProbeKind = "exit"     // FUNC:exit
	ProbeLine     ProbeKind = "line"     // file.c:LINE
	ProbeInterval ProbeKind = "interval" // interval:ms:N, interval:us:N
	ProbeProfile  ProbeKind = "profile"  // profile:hz:N
)

// Probe is one probe spec of a block.
type Probe struct {
	Pos  Pos
	Text string    // as written: "MPI_*:entry"
	Kind ProbeKind //
	Func string    // the function pattern (entry, exit) or the source file (line)
	Line int       // the source line (line)
	Unit string    // "ms", "us", "s" (interval) or "hz" (profile)
	N    int64     // the interval's length or the profile's rate
}

// StmtKind says what a statement does.
type StmtKind string

const (
	StmtAggregate StmtKind = "aggregate" // @m[keys] = count() / sum(x) / ...
	StmtMapStore  StmtKind = "store"     // @m = x: a per-rank variable
	StmtLocal     StmtKind = "local"     // $x = e
	StmtCall      StmtKind = "call"      // printf(...), print(@m), clear(@m), exit()
)

// Stmt is one statement of a block's body.
type Stmt struct {
	Pos  Pos
	Kind StmtKind
	Map  string  // the map's name without @ ("" for @); aggregate, store
	Keys []*Expr // aggregate
	Agg  *Expr   // aggregate: the call count(), sum(x), hist(x), lhist(x, lo, hi, step) ...
	Var  string  // local: the name without $
	X    *Expr   // store, local: the value; call: the call expression
}

// ExprKind says what an expression node is.
type ExprKind string

const (
	ExprInt     ExprKind = "int"     // Int
	ExprString  ExprKind = "string"  // Str
	ExprBuiltin ExprKind = "builtin" // Name: rank, func, arg0, nsecs, ...
	ExprLocal   ExprKind = "local"   // Name: $x without $
	ExprMap     ExprKind = "map"     // Name: @m read as a per-rank variable
	ExprCall    ExprKind = "call"    // Name(Args)
	ExprUnary   ExprKind = "unary"   // Op X
	ExprBinary  ExprKind = "binary"  // X Op Y
)

// Expr is an expression node.
type Expr struct {
	Pos  Pos
	Kind ExprKind
	Int  int64
	Str  string
	Name string
	Op   string
	X, Y *Expr
	Args []*Expr
}
