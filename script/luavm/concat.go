package luavm

import (
	"io"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// gopher-lua concatenates strings inside its VM, where no host code runs: `s = s .. s`
// forty times asks Go for a terabyte, and Go ends the process when the host cannot
// provide it. Code compiled with Compile (dpclsh's session chunks and filter files)
// therefore has every `a .. b` rewritten into a call of the global checkedConcatName,
// which measures first. The name cannot be written as a Lua identifier, so no script
// refers to it by accident. The load functions InstallCheckedLoaders installs compile
// through here too (load.go); require's Lua searcher does as well.

// checkedConcatName is the global the rewritten concatenations call.
const checkedConcatName = "(concat)"

// Compile parses and compiles a chunk with its concatenations size-checked.
func Compile(r io.Reader, name string) (*lua.FunctionProto, error) {
	chunk, err := parse.Parse(r, name)
	if err != nil {
		return nil, err
	}
	rewriteStmts(chunk)
	return lua.Compile(chunk, name)
}

// InstallCheckedConcat defines the concatenation checker in the table g.
func InstallCheckedConcat(L *lua.LState, g *lua.LTable) {
	g.RawSetString(checkedConcatName, L.NewFunction(checkedConcat))
}

// checkedConcat is a .. b with the result size checked against the state's limit; other
// operands go to their __concat metamethod, as in the VM.
func checkedConcat(L *lua.LState) int {
	a, b := L.Get(1), L.Get(2)
	if lua.LVCanConvToString(a) && lua.LVCanConvToString(b) {
		sa, sb := lua.LVAsString(a), lua.LVAsString(b)
		n := int64(len(sa)) + int64(len(sb))
		if limit := memoryLimitOf(L); n > limit {
			L.RaiseError("string concatenation: the result would be %s, over the limit of %s",
				ByteSize(float64(n)), ByteSize(float64(limit)))
		}
		chargeBytes(L, "string concatenation", n)
		L.Push(lua.LString(sa + sb))
		return 1
	}
	mm := L.GetMetaField(a, "__concat")
	if mm == lua.LNil {
		mm = L.GetMetaField(b, "__concat")
	}
	if mm.Type() != lua.LTFunction {
		L.RaiseError("cannot perform concat operation between %v and %v", a.Type().String(), b.Type().String())
	}
	L.Push(mm)
	L.Push(a)
	L.Push(b)
	L.Call(2, 1)
	return 1
}

func rewriteStmts(stmts []ast.Stmt) {
	for _, s := range stmts {
		rewriteStmt(s)
	}
}

func rewriteStmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		rewriteExprs(s.Lhs)
		rewriteExprs(s.Rhs)
	case *ast.LocalAssignStmt:
		rewriteExprs(s.Exprs)
	case *ast.FuncCallStmt:
		s.Expr = rewriteExpr(s.Expr)
	case *ast.DoBlockStmt:
		rewriteStmts(s.Stmts)
	case *ast.WhileStmt:
		s.Condition = rewriteExpr(s.Condition)
		rewriteStmts(s.Stmts)
	case *ast.RepeatStmt:
		s.Condition = rewriteExpr(s.Condition)
		rewriteStmts(s.Stmts)
	case *ast.IfStmt:
		s.Condition = rewriteExpr(s.Condition)
		rewriteStmts(s.Then)
		rewriteStmts(s.Else)
	case *ast.NumberForStmt:
		s.Init, s.Limit = rewriteExpr(s.Init), rewriteExpr(s.Limit)
		if s.Step != nil {
			s.Step = rewriteExpr(s.Step)
		}
		rewriteStmts(s.Stmts)
	case *ast.GenericForStmt:
		rewriteExprs(s.Exprs)
		rewriteStmts(s.Stmts)
	case *ast.FuncDefStmt:
		rewriteStmts(s.Func.Stmts)
	case *ast.ReturnStmt:
		rewriteExprs(s.Exprs)
		// `return a .. b` is not a tail call, which would hide the caller's line from an
		// error.
		if len(s.Exprs) == 1 {
			if call, ok := s.Exprs[0].(*ast.FuncCallExpr); ok && isConcatCall(call) {
				call.AdjustRet = true
			}
		}
	}
}

// isConcatCall reports whether call is a rewritten concatenation.
func isConcatCall(call *ast.FuncCallExpr) bool {
	id, ok := call.Func.(*ast.IdentExpr)
	return ok && id.Value == checkedConcatName
}

func rewriteExprs(es []ast.Expr) {
	for i, e := range es {
		es[i] = rewriteExpr(e)
	}
}

// rewriteExpr returns e with its concatenations replaced, bottom up.
func rewriteExpr(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.StringConcatOpExpr:
		call := &ast.FuncCallExpr{Func: &ast.IdentExpr{Value: checkedConcatName},
			Args: []ast.Expr{rewriteExpr(x.Lhs), rewriteExpr(x.Rhs)}}
		call.Func.SetLine(x.Line())
		call.Func.SetLastLine(x.LastLine())
		call.SetLine(x.Line())
		call.SetLastLine(x.LastLine())
		// Not in parentheses (AdjustRet): gopher-lua 1.1.2 then compiles `p = (f(p))`,
		// p a parameter, with the function loaded into p's register before the
		// arguments read it. The checker returns one value anyway; only a return of the
		// call is put in parentheses (rewriteStmt).
		return call
	case *ast.AttrGetExpr:
		x.Object, x.Key = rewriteExpr(x.Object), rewriteExpr(x.Key)
	case *ast.TableExpr:
		for _, f := range x.Fields {
			if f.Key != nil {
				f.Key = rewriteExpr(f.Key)
			}
			f.Value = rewriteExpr(f.Value)
		}
	case *ast.FuncCallExpr:
		if x.Func != nil {
			x.Func = rewriteExpr(x.Func)
		}
		if x.Receiver != nil {
			x.Receiver = rewriteExpr(x.Receiver)
		}
		rewriteExprs(x.Args)
	case *ast.LogicalOpExpr:
		x.Lhs, x.Rhs = rewriteExpr(x.Lhs), rewriteExpr(x.Rhs)
	case *ast.RelationalOpExpr:
		x.Lhs, x.Rhs = rewriteExpr(x.Lhs), rewriteExpr(x.Rhs)
	case *ast.ArithmeticOpExpr:
		x.Lhs, x.Rhs = rewriteExpr(x.Lhs), rewriteExpr(x.Rhs)
	case *ast.UnaryMinusOpExpr:
		x.Expr = rewriteExpr(x.Expr)
	case *ast.UnaryNotOpExpr:
		x.Expr = rewriteExpr(x.Expr)
	case *ast.UnaryLenOpExpr:
		x.Expr = rewriteExpr(x.Expr)
	case *ast.FunctionExpr:
		rewriteStmts(x.Stmts)
	}
	return e
}
