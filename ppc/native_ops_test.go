package ppc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// interpreterOnly are the entries the translator leaves to the interpreter: a block
// stops before them. Every other entry must be bound by its Op in a translator file.
var interpreterOnly = []Op{
	// the integer forms without a host equivalent, and the XER move
	opIsel, opDlmzb, opMcrxr,
	// CR logic and field moves: rare outside of setjmp and compares the translator
	// already ends blocks at
	opMcrf, opCrnor, opCrandc, opCrxor, opCrnand, opCrand, opCreqv, opCrorc, opCror,
	opMfocrf, opMtocrf,
	// byte-reversed, reserved, external and string accesses: rare, and each with its own
	// alignment and fault rules
	opLwarx, opStwcxDot, opEciwx, opEcowx, opLwbrx, opLhbrx, opStwbrx, opSthbrx,
	opLmw, opStmw, opLswx, opLswi, opStswx, opStswi,
	// system calls, traps, barriers and cache hints end a block in the interpreter
	opSc, opTwi, opTw, opIsync, opSync, opMbar,
	opIcbt, opDcbst, opDcbf, opDcbtst, opDcbt, opDcba, opIcbi, opDcbz,
	// FPSCR-field moves, and the POWER9 forms that run as mffs
	opMcrfs, opMffscrn, opMffscrni, opMffsl,
	// the 440's multiply-accumulate extension
	opMulhhwu, opMachhwu, opMulhhw, opMachhw, opNmachhw, opMachhwsu, opMachhws, opNmachhws,
	opMulchwu, opMacchwu, opMulchw, opMacchw, opNmacchw, opMacchwsu, opMacchws, opNmacchws,
	opMullhwu, opMaclhwu, opMullhw, opMaclhw, opNmaclhw, opMaclhwsu, opMaclhws, opNmaclhws,
	// supervisor instructions fault in user mode
	opRfmci, opRfi, opRfci, opMfmsr, opMfapidi, opWrtee, opMtmsr, opWrteei, opMfdcrx,
	opMfdcrux, opMtdcrx, opMtdcrux, opMfdcr, opMtdcr, opTlbsx, opTlbre, opTlbwe, opDccci,
	opDcbi, opDcread, opIccci, opIcread,
}

// TestEveryOpIsTranslatedOrListed checks that each entry of the instruction table is
// either bound by its Op constant in a translator file or listed in interpreterOnly,
// and not both: an entry added to the table, or a binding dropped, fails here instead of
// quietly running interpreted.
func TestEveryOpIsTranslatedOrListed(t *testing.T) {
	consts := opConstNames(t)
	bound := translatorOps(t, consts)
	listed := map[Op]bool{}
	for _, op := range interpreterOnly {
		if listed[op] {
			t.Errorf("%s is listed twice in interpreterOnly", op.Name())
		}
		listed[op] = true
	}
	for _, op := range Ops() {
		switch {
		case bound[op] && listed[op]:
			t.Errorf("%s is translated but listed in interpreterOnly", op.Name())
		case !bound[op] && !listed[op]:
			t.Errorf("%s is neither translated nor listed in interpreterOnly", op.Name())
		}
	}
}

// opConstNames maps the Op constants of isa_ops.go to their values.
func opConstNames(t *testing.T) map[string]Op {
	f, err := parser.ParseFile(token.NewFileSet(), "isa_ops.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]Op{}
	ast.Inspect(f, func(n ast.Node) bool {
		s, ok := n.(*ast.ValueSpec)
		if !ok || len(s.Values) != 1 || !strings.HasPrefix(s.Names[0].Name, "op") {
			return true
		}
		lit, ok := s.Values[0].(*ast.BasicLit)
		if !ok {
			return true
		}
		v, err := strconv.Atoi(lit.Value)
		if err != nil {
			t.Fatalf("isa_ops.go: %s = %s: %v", s.Names[0].Name, lit.Value, err)
		}
		consts[s.Names[0].Name] = Op(v)
		return true
	})
	if len(consts) != len(Ops()) {
		t.Fatalf("isa_ops.go declares %d Op constants for %d table entries", len(consts), len(Ops()))
	}
	return consts
}

// translatorOps gathers the Op constants the translator files (native*_amd64.go) name.
func translatorOps(t *testing.T, consts map[string]Op) map[Op]bool {
	files, err := filepath.Glob("native*_amd64.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no translator files: %v", err)
	}
	bound := map[Op]bool{}
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if op, isOp := consts[id.Name]; isOp {
					bound[op] = true
				}
			}
			return true
		})
	}
	return bound
}
