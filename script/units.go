package script

import (
	"fmt"
	"math"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// The one rule for units in Lua: durations are seconds, virtual (simulated) unless the
// name says wall (app:wait(wall_s)); times carried by messages and events are virtual
// seconds as floats (m.time) with the exact nanoseconds beside them (m.time_ns);
// dpcl.timebase_hz converts probe.timebase() ticks. Old spellings in milliseconds
// (timeout_ms) keep working for one release and print one deprecation line.
const UnitsDoc = `Units: durations are seconds, virtual (simulated) unless the name says wall
(app:wait(wall_s)); m.time, ev.time and packet times are virtual seconds (float), m.time_ns the
exact nanoseconds; probe.timebase() counts dpcl.timebase_hz ticks per second.`

// deprecationsKey holds the old spellings a session already reported.
var deprecationsKey = NewKey[map[string]bool]("deprecations")

// Deprecated prints one line on the session's stderr the first time old is used.
func Deprecated(L *lua.LState, old, instead string) {
	s := SessionOf(L)
	seen := deprecationsKey.GetOrInit(s, func() map[string]bool { return map[string]bool{} })
	if seen[old] {
		return
	}
	seen[old] = true
	fmt.Fprintf(s.Stderr(), "dpclsh: %s is deprecated and goes away in the next release: use %s\n", old, instead)
}

// TimeoutOption reads a virtual timeout from t: timeout (seconds) or the deprecated
// timeout_ms. ok says whether either was given.
func TimeoutOption(L *lua.LState, t *lua.LTable) (d time.Duration, ok bool, err error) {
	if v := t.RawGetString("timeout"); v != lua.LNil {
		s, isNum := v.(lua.LNumber)
		if !isNum || !(s > 0) || math.IsInf(float64(s), 1) {
			return 0, true, fmt.Errorf("timeout must be a positive number of virtual seconds, got %s", Describe(v))
		}
		return time.Duration(float64(s) * float64(time.Second)), true, nil
	}
	v := t.RawGetString("timeout_ms")
	if v == lua.LNil {
		return 0, false, nil
	}
	Deprecated(L, "timeout_ms", "timeout (virtual seconds)")
	ms, isNum := v.(lua.LNumber)
	if !isNum || !(ms > 0) || math.IsInf(float64(ms), 1) {
		return 0, true, fmt.Errorf("timeout_ms must be a positive number of virtual milliseconds, got %s", Describe(v))
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), true, nil
}

// SetTime stores a virtual time in ns as t.time (seconds) and t.time_ns (exact).
func SetTime(t *lua.LTable, ns uint64) {
	t.RawSetString("time", lua.LNumber(float64(ns)/1e9))
	t.RawSetString("time_ns", lua.LNumber(ns))
}

// CheckKeys reports the first key of t not in allowed, naming the allowed ones.
func CheckKeys(t *lua.LTable, allowed []string) error {
	var bad error
	t.ForEach(func(k, _ lua.LValue) {
		if bad != nil {
			return
		}
		if ks, ok := k.(lua.LString); ok {
			for _, a := range allowed {
				if string(ks) == a {
					return
				}
			}
		}
		bad = fmt.Errorf("unknown option %s (allowed: %s)", Format(nil, k, DefaultFormat), JoinNames(allowed))
	})
	return bad
}

func JoinNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}
