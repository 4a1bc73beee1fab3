package script

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dpclsh/dpclsh/script/luavm"

	lua "github.com/yuin/gopher-lua"
)

// FormatOptions bound what Format prints.
type FormatOptions struct {
	MaxDepth int // tables nested deeper print as {...}
	MaxItems int // entries after this many print as "... N more"
	Width    int // a table wider than this is printed one entry per line
}

// DefaultFormat is what the REPL echo and pp use.
var DefaultFormat = FormatOptions{MaxDepth: 6, MaxItems: 100, Width: 96}

// Format renders v in Lua syntax: strings quoted, tables with their array part first and
// then the other keys sorted (numbers, then strings, then the rest), nested tables
// indented when they do not fit the width, a table met again inside itself as <cycle>.
// Userdata print through their __tostring. L runs those metamethods; it may be nil, and
// then userdata print by type name only.
func Format(L *lua.LState, v lua.LValue, o FormatOptions) string {
	f := formatter{L: L, o: o, onPath: map[*lua.LTable]bool{}}
	return f.value(v, 0, 0)
}

type formatter struct {
	L      *lua.LState
	o      FormatOptions
	onPath map[*lua.LTable]bool
}

func (f *formatter) value(v lua.LValue, depth, indent int) string {
	switch x := v.(type) {
	case *lua.LNilType:
		return "nil"
	case lua.LBool:
		return strconv.FormatBool(bool(x))
	case lua.LNumber:
		return FormatNumber(float64(x))
	case lua.LString:
		return QuoteString(string(x))
	case *lua.LTable:
		return f.table(x, depth, indent)
	case *lua.LFunction:
		return FunctionName(x)
	case *lua.LUserData:
		return f.userdata(x)
	}
	return v.Type().String()
}

// FormatNumber prints integral numbers without a fraction and others as Lua's %.14g does.
func FormatNumber(n float64) string {
	switch {
	case math.IsInf(n, 1):
		return "math.huge"
	case math.IsInf(n, -1):
		return "-math.huge"
	case n != n:
		return "0/0"
	case n == math.Trunc(n) && math.Abs(n) <= 1<<53:
		return strconv.FormatInt(int64(n), 10)
	}
	return strconv.FormatFloat(n, 'g', 14, 64)
}

// QuoteString quotes s as a Lua string literal.
func QuoteString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError && size == 1, r < 0x20, r == 0x7f:
			fmt.Fprintf(&b, `\%d`, s[i])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// FunctionName describes a function by where it was defined: "function: lib.lua:12", or
// "function: builtin" for Go functions. Unlike an address, this is stable across runs.
func FunctionName(fn *lua.LFunction) string {
	if fn.IsG || fn.Proto == nil || luavm.IsVMFunction(fn) {
		return "function: builtin"
	}
	return fmt.Sprintf("function: %s:%d", fn.Proto.SourceName, fn.Proto.LineDefined)
}

func (f *formatter) userdata(ud *lua.LUserData) string {
	if f.L != nil {
		if s, ok := callToString(f.L, ud); ok {
			return s
		}
	}
	if mt, ok := ud.Metatable.(*lua.LTable); ok {
		if name, ok := mt.RawGetString("__name").(lua.LString); ok {
			return "<" + string(name) + ">"
		}
	}
	return "userdata"
}

// callToString runs v's __tostring, if it has one.
func callToString(L *lua.LState, v lua.LValue) (string, bool) {
	fn, ok := L.GetMetaField(v, "__tostring").(*lua.LFunction)
	if !ok {
		return "", false
	}
	out, err := luavm.ProtectedCallN(L, fn, 1, v)
	if err != nil {
		return "<__tostring failed: " + luavm.ErrorMessage(err) + ">", true
	}
	return lua.LVAsString(out[0]), true
}

type entry struct {
	key  lua.LValue // nil for the array part
	text string
}

func (f *formatter) table(t *lua.LTable, depth, indent int) string {
	if f.onPath[t] {
		return "<cycle>"
	}
	if depth >= f.o.MaxDepth {
		return "{...}"
	}
	f.onPath[t] = true
	defer delete(f.onPath, t)

	keys, n := sortedKeys(t)
	var items []string
	more := 0
	for i, k := range keys {
		if f.o.MaxItems > 0 && i >= f.o.MaxItems {
			more = len(keys) - i
			break
		}
		val := f.value(t.RawGet(k), depth+1, indent+2)
		if i < n {
			items = append(items, val)
		} else {
			items = append(items, keyText(f, k, depth)+" = "+val)
		}
	}
	if more > 0 {
		items = append(items, fmt.Sprintf("... %d more", more))
	}
	if len(items) == 0 {
		return "{}"
	}
	compact := "{" + strings.Join(items, ", ") + "}"
	if indent+len(compact) <= f.o.Width && !strings.Contains(compact, "\n") {
		return compact
	}
	pad := strings.Repeat(" ", indent+2)
	var b strings.Builder
	b.WriteString("{\n")
	for _, it := range items {
		b.WriteString(pad + it + ",\n")
	}
	b.WriteString(strings.Repeat(" ", indent) + "}")
	return b.String()
}

func keyText(f *formatter, k lua.LValue, depth int) string {
	if s, ok := k.(lua.LString); ok && isIdentifier(string(s)) {
		return string(s)
	}
	return "[" + f.value(k, depth+1, 0) + "]"
}

// sortedKeys returns the keys of t: first 1..n of the array part in order, then the rest
// sorted by kind (numbers, strings, booleans, others) and value.
func sortedKeys(t *lua.LTable) ([]lua.LValue, int) {
	var keys []lua.LValue
	n := 0
	for ; t.RawGetInt(n+1) != lua.LNil; n++ {
		keys = append(keys, lua.LNumber(n+1))
	}
	var rest []lua.LValue
	t.ForEach(func(k, _ lua.LValue) {
		if num, ok := k.(lua.LNumber); ok && num == lua.LNumber(math.Trunc(float64(num))) &&
			num >= 1 && int(num) <= n {
			return
		}
		rest = append(rest, k)
	})
	sort.Slice(rest, func(i, j int) bool { return keyLess(rest[i], rest[j]) })
	return append(keys, rest...), n
}

var keyRank = map[lua.LValueType]int{lua.LTNumber: 0, lua.LTString: 1, lua.LTBool: 2}

func keyLess(a, b lua.LValue) bool {
	ra, ok := keyRank[a.Type()]
	if !ok {
		ra = 3
	}
	rb, ok := keyRank[b.Type()]
	if !ok {
		rb = 3
	}
	if ra != rb {
		return ra < rb
	}
	switch x := a.(type) {
	case lua.LNumber:
		return x < b.(lua.LNumber)
	case lua.LString:
		return x < b.(lua.LString)
	case lua.LBool:
		return !bool(x) && bool(b.(lua.LBool))
	}
	return a.String() < b.String()
}

var luaKeywords = map[string]bool{
	"and": true, "break": true, "do": true, "else": true, "elseif": true, "end": true,
	"false": true, "for": true, "function": true, "if": true, "in": true, "local": true,
	"nil": true, "not": true, "or": true, "repeat": true, "return": true, "then": true,
	"true": true, "until": true, "while": true, "goto": true,
}

func isIdentifier(s string) bool {
	if s == "" || luaKeywords[s] {
		return false
	}
	for i, r := range s {
		if r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}
