package luavm

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// MaxString is the largest string a wrapped library function builds outside a budgeted
// call (in a session's state); budgeted calls are bounded by their memory budget instead. Go cannot recover from an
// allocation the host cannot satisfy, so `string.rep("x", 2^40)` must fail before it
// allocates, as a Lua error pcall can catch.
var MaxString int64 = 1 << 30

// sizeChecks wrap the library functions whose result size the caller controls: each
// computes the size first and raises an error when it is over the limit.
var sizeChecks = []struct {
	lib, name string
	size      func(L *lua.LState) float64
}{
	{lua.StringLibName, "rep", repSize},
	{lua.StringLibName, "format", formatSize},
	{lua.TabLibName, "concat", concatSize},
}

// InstallSizeChecks wraps string.rep, string.format and table.concat of L's libraries and
// replaces its pattern functions (strmatch.go). String methods ("x"):rep(n) use the same
// table, so they are covered too. Each wrapper charges the size to the memory budget.
func InstallSizeChecks(L *lua.LState) {
	defer installPatternFunctions(L)
	for _, c := range sizeChecks {
		lib, ok := L.GetGlobal(c.lib).(*lua.LTable)
		if !ok {
			continue
		}
		orig, ok := lib.RawGetString(c.name).(*lua.LFunction)
		if !ok || !orig.IsG {
			continue
		}
		inner, size, name := orig.GFunction, c.size, c.lib+"."+c.name
		lib.RawSetString(c.name, L.NewFunction(func(L *lua.LState) int {
			limit := memoryLimitOf(L)
			n := size(L)
			if n > float64(limit) {
				L.RaiseError("%s: the result would be %s, over the limit of %s", name, ByteSize(n), ByteSize(float64(limit)))
			}
			chargeBytes(L, name, int64(n))
			return inner(L)
		}))
	}
}

func repSize(L *lua.LState) float64 {
	s := L.CheckString(1)
	n := float64(L.CheckNumber(2))
	if n <= 0 || math.IsNaN(n) {
		return 0
	}
	return float64(len(s)) * n
}

// formatSize bounds string.format's result by the format, the lengths of its string
// arguments and the widths and precisions it asks for.
func formatSize(L *lua.LState) float64 {
	f := L.CheckString(1)
	checkFormatArgs(L, f)
	total := float64(len(f))
	for i := 2; i <= L.GetTop(); i++ {
		if s, ok := L.Get(i).(lua.LString); ok {
			total += float64(len(s))
		} else {
			total += 32
		}
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		n := 0.0
		for i++; i < len(f) && (f[i] == '.' || f[i] >= '0' && f[i] <= '9' || f[i] == '-' || f[i] == '+' || f[i] == ' ' || f[i] == '#'); i++ {
			if f[i] >= '0' && f[i] <= '9' {
				n = n*10 + float64(f[i]-'0')
			} else {
				total += n
				n = 0
			}
		}
		total += n
	}
	return total
}

// checkFormatArgs raises Lua 5.1's argument error when a numeric conversion (%d, %x,
// %f, ...) meets a value that is not a number or a numeric string, or has no value at all:
// gopher-lua would print Go's rendering of the value ("&{}" for nil) instead. Numeric
// strings are replaced by their numbers, which gopher-lua does not convert itself.
func checkFormatArgs(L *lua.LState, f string) {
	arg := 1
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		for i < len(f) && strings.IndexByte("-+ #0123456789.", f[i]) >= 0 {
			i++
		}
		if i >= len(f) || f[i] == '%' {
			continue
		}
		arg++
		if strings.IndexByte("diouxXceEfgG", f[i]) < 0 {
			continue
		}
		if arg > L.GetTop() {
			L.RaiseError("bad argument #%d to 'format' (number expected, got no value)", arg)
		}
		n, ok := luaNumber(L.Get(arg))
		if !ok {
			L.RaiseError("bad argument #%d to 'format' (number expected, got %s)", arg, L.Get(arg).Type())
		}
		L.Replace(arg, n)
	}
}

// luaNumber converts v as Lua does: a number, or a string holding a decimal or hex number.
func luaNumber(v lua.LValue) (lua.LNumber, bool) {
	switch v := v.(type) {
	case lua.LNumber:
		return v, true
	case lua.LString:
		t := strings.TrimSpace(string(v))
		if f, err := strconv.ParseFloat(t, 64); err == nil {
			return lua.LNumber(f), true
		}
		if n, err := strconv.ParseInt(t, 0, 64); err == nil {
			return lua.LNumber(n), true
		}
	}
	return 0, false
}

func concatSize(L *lua.LState) float64 {
	t := L.CheckTable(1)
	sep := float64(len(L.OptString(2, "")))
	i := L.OptInt(3, 1)
	j := L.OptInt(4, t.Len())
	total := 0.0
	// Past the border the values are nil, which table.concat refuses anyway.
	for k := i; k <= min(j, t.Len()); k++ {
		switch v := t.RawGetInt(k).(type) {
		case lua.LString:
			total += float64(len(v))
		case lua.LNumber:
			total += 24
		}
		if k < j {
			total += sep
		}
	}
	return total
}

// ByteSize prints a size in the largest binary unit that keeps it at least 1.
func ByteSize(n float64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := 0
	for n >= 1024 && u < len(units)-1 {
		n /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%.0f bytes", n)
	}
	return fmt.Sprintf("%.4g %s", n, units[u])
}
