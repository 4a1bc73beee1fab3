package ppc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"
)

// Every entry of the instruction table has a place in each execution path: semantics
// (supervisor entries fault by design), and in the interpreters either a form of its own
// or an explicit place in the lists below. A new entry must be put in one.

// chainOnly are the entries the chained interpreter runs as micro-ops of their own while
// runBlock calls their semantics.
var chainOnly = []Op{
	opMulli, opAddic, opAddicDot, opBc, opB, opBclr, opBcctr, opRlwimi, opOris, opXori,
	opAndiDot, opLwzu, opLbz, opLbzu, opStb, opStbu, opLhz, opSth, opMfcr, opSlw, opCntlzw,
	opAndc, opNeg, opNor, opSrw, opSrawi, opExtsh, opExtsb, opLwzx, opStwx,
}

// generalOnly are the entries both interpreters run through their semantics, by class.
var generalOnly = []Op{
	// int
	opSubfic, opRlwnm, opXoris, opAndisDot, opSubfc, opAddc, opIsel, opDlmzb, opSubfe, opAdde,
	opSubfze, opAddze, opSubfme, opAddme, opEqv, opOrc, opNand, opSraw,
	// mul
	opMulhwu, opMulhw,
	// div
	opDivwu, opDivw,
	// cr
	opMcrf, opCrnor, opCrandc, opCrxor, opCrnand, opCrand, opCreqv, opCrorc, opCror, opMfocrf,
	opMtcrf, opMtocrf, opMcrxr,
	// load
	opLhzu, opLha, opLhau, opLwarx, opLwzux, opLbzx, opLbzux, opLhzx, opLhzux, opLhax,
	opLhaux, opEciwx, opLwbrx, opLhbrx,
	// store
	opSthu, opStwcxDot, opStwux, opStbx, opStbux, opEcowx, opSthx, opSthux, opStwbrx,
	opSthbrx,
	// string
	opLmw, opStmw, opLswx, opLswi, opStswx, opStswi,
	// syscall
	opSc,
	// trap
	opTwi, opTw,
	// sync
	opIsync, opSync, opMbar,
	// cache
	opIcbt, opDcbst, opDcbf, opDcbtst, opDcbt, opDcba, opIcbi, opDcbz,
	// fp
	opFsubs, opFadds, opFres, opFmuls, opFmsubs, opFmadds, opFnmsubs, opFnmadds, opFcmpu,
	opFrsp, opFctiw, opFctiwz, opFsub, opFadd, opFsel, opFmul, opFrsqrte, opFmsub, opFmadd,
	opFnmsub, opFnmadd, opFcmpo, opMtfsb1, opFneg, opMcrfs, opMtfsb0, opFmr, opMtfsfi,
	opFnabs, opFabs, opMffs, opMffscrn, opMffscrni, opMffsl, opMtfsf,
	// fpdiv
	opFdivs, opFsqrts, opFdiv, opFsqrt,
	// fpload
	opLfs, opLfsu, opLfd, opLfdu, opLfsx, opLfsux, opLfdx, opLfdux,
	// fpstore
	opStfs, opStfsu, opStfd, opStfdu, opStfsx, opStfsux, opStfdx, opStfdux, opStfiwx,
	// mac
	opMulhhwu, opMachhwu, opMulhhw, opMachhw, opNmachhw, opMachhwsu, opMachhws, opNmachhws,
	opMulchwu, opMacchwu, opMulchw, opMacchw, opNmacchw, opMacchwsu, opMacchws, opNmacchws,
	opMullhwu, opMaclhwu, opMullhw, opMaclhw, opNmaclhw, opMaclhwsu, opMaclhws, opNmaclhws,
	// priv
	opRfmci, opRfi, opRfci, opMfmsr, opMfapidi, opWrtee, opMtmsr, opWrteei, opMfdcrx,
	opMfdcrux, opMtdcrx, opMtdcrux, opMfdcr, opMtdcr, opTlbsx, opTlbre, opTlbwe, opDccci,
	opDcbi, opDcread, opIccci, opIcread,
}

// runsInline reports whether runBlock has a form for some word of op.
func runsInline(op Op) bool {
	for _, f := range inlineSPRForms {
		if f.op == op {
			return true
		}
	}
	return inlineForms[op].op != inlNone
}

// runsChained reports whether runChain has a form for some word of op.
func runsChained(op Op) bool {
	for _, f := range chainSPRForms {
		if f.op == op {
			return true
		}
	}
	return runsInline(op) || chainForms[op].op != inlNone || op == opOr
}

func TestEveryOpHasSemantics(t *testing.T) {
	for _, op := range Ops() {
		if op.Class() == ClassPriv {
			continue // supervisor instructions fault in user mode by design
		}
		if opSem[op].fn == nil {
			t.Errorf("%s has no semantics", op.Name())
		}
	}
	for op, fast := range fastSem {
		if reflect.ValueOf(opSem[op].fn).Pointer() != reflect.ValueOf(fast).Pointer() {
			t.Errorf("%s: its direct implementation in fastSem is not the one bound", op.Name())
		}
	}
}

func TestEveryOpHasAnInterpreterPath(t *testing.T) {
	listed := map[Op]string{}
	for list, ops := range map[string][]Op{"chainOnly": chainOnly, "generalOnly": generalOnly} {
		for _, op := range ops {
			if other, dup := listed[op]; dup {
				t.Errorf("%s is listed in %s and %s", op.Name(), other, list)
			}
			listed[op] = list
		}
	}
	for _, op := range Ops() {
		var want string
		switch inline, chained := runsInline(op), runsChained(op); {
		case inline:
		case chained:
			want = "chainOnly"
		default:
			want = "generalOnly"
		}
		if listed[op] != want {
			t.Errorf("%s runs as %q but is listed as %q", op.Name(), want, listed[op])
		}
	}
}

// TestInterpretersHandleEveryForm checks that runBlock has a case for every form it is
// given and runChain for every inlineOp: a form without one would quietly take the
// general path.
func TestInterpretersHandleEveryForm(t *testing.T) {
	fset := token.NewFileSet()
	var blockForms, allForms []string
	for _, file := range []string{"exec_fast.go", "exec_chain.go"} {
		for _, name := range inlineOpConsts(t, fset, file) {
			if file == "exec_fast.go" {
				blockForms = append(blockForms, name)
			}
			allForms = append(allForms, name)
		}
	}
	if len(blockForms) == 0 || len(allForms) == len(blockForms) {
		t.Fatalf("found %d inline forms and %d chained ones", len(blockForms), len(allForms))
	}
	for _, c := range []struct {
		file, fn string
		forms    []string
	}{{"block.go", "runBlock", blockForms}, {"exec_chain_run.go", "runChain", allForms}} {
		cases := switchCases(t, fset, c.file, c.fn)
		for _, form := range c.forms {
			if !cases[form] {
				t.Errorf("%s has no case for %s", c.fn, form)
			}
		}
	}
}

// inlineOpConsts lists the inlineOp constants a file declares (not the count numInline).
func inlineOpConsts(t *testing.T, fset *token.FileSet, file string) []string {
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST || len(g.Specs) == 0 {
			continue
		}
		if id, ok := g.Specs[0].(*ast.ValueSpec).Type.(*ast.Ident); !ok || id.Name != "inlineOp" {
			continue
		}
		for _, s := range g.Specs {
			for _, n := range s.(*ast.ValueSpec).Names {
				if !strings.HasPrefix(n.Name, "num") {
					names = append(names, n.Name)
				}
			}
		}
	}
	return names
}

// switchCases gathers the identifiers of every case of the switch statements in fn.
func switchCases(t *testing.T, fset *token.FileSet, file, fn string) map[string]bool {
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]bool{}
	for _, decl := range f.Decls {
		if d, ok := decl.(*ast.FuncDecl); !ok || d.Name.Name != fn {
			continue
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CaseClause); ok {
				for _, e := range cc.List {
					if id, ok := e.(*ast.Ident); ok {
						cases[id.Name] = true
					}
				}
			}
			return true
		})
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no switch cases in %s", file, fn)
	}
	return cases
}
