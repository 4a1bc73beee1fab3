package script

import (
	"fmt"
	"math"

	lua "github.com/yuin/gopher-lua"
)

// Addresses. Every address dpclsh hands to Lua (function and point addresses, p:pc(),
// backtrace frames, event pcs) is one type, dpcl.Address, printed as 0x%08x everywhere.
// gopher-lua numbers cannot carry a tag, so it is a userdata that still works as a number
// where Lua lets a userdata do so:
//   - a + 4, a - 4 are addresses; a - b is a number (the distance); a % 16 a number;
//   - a == b, a < b, a <= b between addresses; the same value is the same object within
//     a session, so addresses work as table keys and with rawequal;
//   - tostring(a) and a .. "" give "0x0001b2c4"; string.format("%x", a) and tonumber(a)
//     see the number; a:num() returns it;
//   - every binding that takes an address (p:read, ppc.disasm's pc, probe constants)
//     accepts either an address or a number (CheckAddress).
// What Lua 5.1 forbids stays forbidden: a == 0x1000 compares a userdata with a number and
// is false (write a:num() == 0x1000), and a < 5 raises an error.

const addressTypeName = "dpcl.Address"

// Address is the Go value behind a dpcl.Address userdata.
type Address uint32

func (a Address) String() string { return fmt.Sprintf("0x%08x", uint32(a)) }

// addressesKey interns a session's address userdata: one object per value.
var addressesKey = NewKey[map[uint32]*lua.LUserData]("addresses")

// PushAddress returns the address object for a (the same object for the same value).
func PushAddress(L *lua.LState, a uint32) lua.LValue {
	cache := addressesKey.GetOrInit(SessionOf(L), func() map[uint32]*lua.LUserData {
		return map[uint32]*lua.LUserData{}
	})
	if ud, ok := cache[a]; ok {
		return ud
	}
	ud := NewObject(L, addressTypeName, Address(a))
	cache[a] = ud
	return ud
}

// AddressOf reads v as an address: an Address, or an integral number in 0..2^32-1
// (negative 32-bit values wrap, as PowerPC registers do).
func AddressOf(v lua.LValue) (uint32, bool) {
	switch x := v.(type) {
	case *lua.LUserData:
		a, ok := x.Value.(Address)
		return uint32(a), ok
	case lua.LNumber:
		f := float64(x)
		if f != math.Trunc(f) || f < -(1<<31) || f >= 1<<32 {
			return 0, false
		}
		return uint32(int64(f)), true
	}
	return 0, false
}

// CheckAddress reads argument n as an address (an Address or an integral number).
func CheckAddress(L *lua.LState, n int) uint32 {
	a, ok := AddressOf(L.Get(n))
	if !ok {
		L.ArgError(n, "address expected (a dpcl.Address or a 32-bit integer), got "+Describe(L.Get(n)))
	}
	return a
}

// AddressNumber is v as a plain number when it is an Address, else v.
func AddressNumber(v lua.LValue) lua.LValue {
	if ud, ok := v.(*lua.LUserData); ok {
		if a, ok := ud.Value.(Address); ok {
			return lua.LNumber(a)
		}
	}
	return v
}

func init() {
	RegisterType(Type{
		Name: addressTypeName,
		Doc: `An address in the program (functions, points, p:pc(), backtraces), printed as 0x%08x.
a + n and a - n are addresses, a - b a number; a == b, a < b between addresses; a:num(),
tonumber(a) and string.format("%x", a) give the number. a == 0x1000 is false in Lua 5.1
(a userdata is never equal to a number): compare a:num() == 0x1000.`,
		Methods: []Function{
			{"num", "a:num() -> number\nThe address as a plain Lua number.", func(L *lua.LState) int {
				L.Push(lua.LNumber(CheckObject[Address](L, 1, addressTypeName)))
				return 1
			}},
		},
		Meta: []Function{
			{"__tostring", "", func(L *lua.LState) int {
				L.Push(lua.LString(CheckObject[Address](L, 1, addressTypeName).String()))
				return 1
			}},
			{"__concat", "", addressConcat},
			{"__add", "", addressArith(func(a, b float64) float64 { return a + b }, true)},
			{"__sub", "", addressSub},
			{"__mod", "", addressArith(func(a, b float64) float64 { return math.Mod(a, b) }, false)},
			{"__eq", "", addressCompare(func(a, b uint32) bool { return a == b })},
			{"__lt", "", addressCompare(func(a, b uint32) bool { return a < b })},
			{"__le", "", addressCompare(func(a, b uint32) bool { return a <= b })},
		},
	})
}

func addressConcat(L *lua.LState) int {
	str := func(v lua.LValue) string {
		if ud, ok := v.(*lua.LUserData); ok {
			if a, ok := ud.Value.(Address); ok {
				return a.String()
			}
		}
		if s, ok := v.(lua.LString); ok {
			return string(s)
		}
		if n, ok := v.(lua.LNumber); ok {
			return n.String()
		}
		L.RaiseError("attempt to concatenate a %s value", v.Type())
		return ""
	}
	L.Push(lua.LString(str(L.Get(1)) + str(L.Get(2))))
	return 1
}

// addressArith applies op to the operands as numbers; the result is an address when
// keep is set and it is still a 32-bit address.
func addressArith(op func(a, b float64) float64, keep bool) lua.LGFunction {
	return func(L *lua.LState) int {
		x, ok1 := AddressNumber(L.Get(1)).(lua.LNumber)
		y, ok2 := AddressNumber(L.Get(2)).(lua.LNumber)
		if !ok1 || !ok2 {
			L.RaiseError("address arithmetic needs numbers or addresses, got %s and %s", L.Get(1).Type(), L.Get(2).Type())
		}
		r := op(float64(x), float64(y))
		if a, ok := AddressOf(lua.LNumber(r)); keep && ok && r >= 0 {
			L.Push(PushAddress(L, a))
			return 1
		}
		L.Push(lua.LNumber(r))
		return 1
	}
}

// addressSub: address - address is a distance (a number); address - n an address.
func addressSub(L *lua.LState) int {
	_, aIsAddr := L.Get(1).(*lua.LUserData)
	_, bIsAddr := L.Get(2).(*lua.LUserData)
	if aIsAddr && bIsAddr {
		x, _ := AddressNumber(L.Get(1)).(lua.LNumber)
		y, _ := AddressNumber(L.Get(2)).(lua.LNumber)
		L.Push(x - y)
		return 1
	}
	return addressArith(func(a, b float64) float64 { return a - b }, aIsAddr)(L)
}

func addressCompare(cmp func(a, b uint32) bool) lua.LGFunction {
	return func(L *lua.LState) int {
		a, ok1 := L.Get(1).(*lua.LUserData)
		b, ok2 := L.Get(2).(*lua.LUserData)
		var x, y Address
		if ok1 && ok2 {
			x, ok1 = a.Value.(Address)
			y, ok2 = b.Value.(Address)
		}
		if !ok1 || !ok2 {
			L.RaiseError("attempt to compare an address with a %s (use a:num())", L.Get(2).Type())
		}
		L.Push(lua.LBool(cmp(uint32(x), uint32(y))))
		return 1
	}
}

// installAddressConversions lets tonumber and string.format see an address's number, so
// tonumber(a) and string.format("0x%x", a) work as they did when addresses were numbers;
// %s shows it as tostring does.
func installAddressConversions(L *lua.LState) {
	if orig, ok := L.GetGlobal("tonumber").(*lua.LFunction); ok {
		L.SetGlobal("tonumber", L.NewFunction(func(L *lua.LState) int {
			if L.GetTop() >= 1 {
				L.Replace(1, AddressNumber(L.Get(1)))
			}
			return callThrough(L, orig)
		}))
	}
	str, ok := L.GetGlobal("string").(*lua.LTable)
	if !ok {
		return
	}
	if orig, ok := str.RawGetString("format").(*lua.LFunction); ok {
		str.RawSetString("format", L.NewFunction(func(L *lua.LState) int {
			numeric := formatNumericArgs(L.OptString(1, ""))
			for i := 2; i <= L.GetTop() && i-2 < len(numeric); i++ {
				if n := AddressNumber(L.Get(i)); n != L.Get(i) {
					if numeric[i-2] {
						L.Replace(i, n)
					} else {
						L.Replace(i, lua.LString(Address(n.(lua.LNumber)).String()))
					}
				}
			}
			return callThrough(L, orig)
		}))
	}
}

// callThrough calls fn with the current arguments and returns all its results.
func callThrough(L *lua.LState, fn *lua.LFunction) int {
	top := L.GetTop()
	L.Insert(fn, 1)
	L.Call(top, lua.MultRet)
	return L.GetTop()
}

// formatNumericArgs says, for each argument of a string.format format, whether its
// directive takes a number (%d %i %u %c %x %X %o %e %E %f %g %G).
func formatNumericArgs(format string) []bool {
	var out []bool
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && (format[i] == '-' || format[i] == '+' || format[i] == ' ' ||
			format[i] == '#' || format[i] == '.' || format[i] >= '0' && format[i] <= '9') {
			i++
		}
		if i >= len(format) || format[i] == '%' {
			continue
		}
		switch format[i] {
		case 'd', 'i', 'u', 'c', 'x', 'X', 'o', 'e', 'E', 'f', 'g', 'G':
			out = append(out, true)
		default:
			out = append(out, false)
		}
	}
	return out
}
