package dpcl

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"io"
	"sort"

	"github.com/dpclsh/dpclsh/runtime"
	lua "github.com/yuin/gopher-lua"
)

// costsOption reads dpcl.launch's costs option: a set's name ("default", "ubgl") or a
// table of parameters over a set (its "set" field, "default" when absent). An unknown
// key or a negative value is refused, naming the key.
func costsOption(o *runtime.Options, v lua.LValue) error {
	switch x := v.(type) {
	case lua.LString:
		c, err := runtime.NamedCosts(string(x))
		o.Costs = c
		return err
	case *lua.LTable:
		base := "default"
		if s, ok := x.RawGetString("set").(lua.LString); ok {
			base = string(s)
		}
		c, err := runtime.NamedCosts(base)
		if err != nil {
			return err
		}
		var keys []string
		x.ForEach(func(k, _ lua.LValue) { keys = append(keys, lua.LVAsString(k)) })
		sort.Strings(keys)
		for _, k := range keys {
			if k == "set" {
				continue
			}
			n, ok := x.RawGetString(k).(lua.LNumber)
			if !ok {
				return fmt.Errorf("costs: %s must be a number, got %s", k, script.Describe(x.RawGetString(k)))
			}
			if err := c.Set(k, float64(n)); err != nil {
				return err
			}
		}
		o.Costs = c
		return nil
	}
	return fmt.Errorf("costs must be a set name (\"default\", \"ubgl\") or a table of parameters, got %s", script.Describe(v))
}

// appCosts prints the application's cost model and returns it as {key = value}.
func appCosts(L *lua.LState) int {
	c := checkApp1(L).Costs()
	t := L.NewTable()
	w := script.SessionOf(L).Stdout()
	for _, r := range c.Rows() {
		t.RawSetString(r.Key, lua.LNumber(r.Value))
		printCostRow(w, r)
	}
	L.Push(t)
	return 1
}

func printCostRow(w io.Writer, r runtime.CostRow) {
	fmt.Fprintf(w, "%-24s %12g  %s (%s)\n", r.Key, r.Value, r.Doc, r.Source)
}

// appLastCommand returns the modeled timing of the last command sent to the daemons.
func appLastCommand(L *lua.LState) int {
	ct := checkApp1(L).LastCommand()
	t := L.NewTable()
	t.RawSetString("op", lua.LString(ct.Op.String()))
	t.RawSetString("daemons", lua.LNumber(ct.Daemons))
	t.RawSetString("down_ns", lua.LNumber(ct.Down))
	t.RawSetString("round_trip_ns", lua.LNumber(ct.RoundTrip))
	L.Push(t)
	return 1
}

// appInstantiation returns how the tool's processes were created.
func appInstantiation(L *lua.LState) int {
	in := checkApp1(L).Instantiation()
	out := L.NewTable()
	out.RawSetString("total_ns", lua.LNumber(in.TotalNS))
	procs := L.NewTable()
	for _, p := range in.Procs {
		t := L.NewTable()
		t.RawSetString("name", lua.LString(p.Name))
		t.RawSetString("parent", lua.LString(p.Parent))
		t.RawSetString("launch_ns", lua.LNumber(p.LaunchNS))
		t.RawSetString("connected_ns", lua.LNumber(p.ConnectedNS))
		t.RawSetString("ready_ns", lua.LNumber(p.ReadyNS))
		procs.Append(t)
	}
	out.RawSetString("processes", procs)
	L.Push(out)
	return 1
}

// appNow returns the machine's virtual time.
func appNow(L *lua.LState) int {
	L.Push(lua.LNumber(checkApp1(L).Now()))
	return 1
}

// clocksOption reads dpcl.launch's clocks option: {seed = n, max_skew_ns = ns}.
func clocksOption(o *runtime.Options, v lua.LValue) error {
	t, ok := v.(*lua.LTable)
	if !ok {
		return fmt.Errorf("clocks must be a table {seed =, max_skew_ns =}, got %s", script.Describe(v))
	}
	var err error
	t.ForEach(func(k, v lua.LValue) {
		n, isNum := v.(lua.LNumber)
		switch key := lua.LVAsString(k); {
		case err != nil:
		case !isNum || n < 0:
			err = fmt.Errorf("clocks: %s must be a non-negative number, got %s", key, script.Describe(v))
		case key == "seed":
			o.Clocks.Seed = uint64(n)
		case key == "max_skew_ns":
			o.Clocks.MaxNS = int64(n)
		default:
			err = fmt.Errorf("clocks: unknown key %q (seed, max_skew_ns)", key)
		}
	})
	return err
}

// appTree lists the tool's processes.
func appTree(L *lua.LState) int {
	out := L.NewTable()
	for _, n := range checkApp1(L).TreeNodes() {
		t := L.NewTable()
		t.RawSetString("name", lua.LString(n.Name))
		t.RawSetString("kind", lua.LString(n.Kind))
		t.RawSetString("index", lua.LNumber(n.Index))
		if n.Parent != "" {
			t.RawSetString("parent", lua.LString(n.Parent))
		}
		t.RawSetString("depth", lua.LNumber(n.Depth))
		t.RawSetString("offset_ns", lua.LNumber(n.OffsetNS))
		t.RawSetString("busy_ns", lua.LNumber(n.BusyNS))
		out.Append(t)
	}
	L.Push(out)
	return 1
}

// appMeasureClocks runs the tree's clock-skew detection: {[io] = offset_ns}.
func appMeasureClocks(L *lua.LState) int {
	clocks, err := checkApp1(L).MeasureClocks()
	appErr(L, "measure_clocks", err)
	out := L.NewTable()
	for io, off := range clocks {
		out.RawSetInt(io, lua.LNumber(off))
	}
	L.Push(out)
	return 1
}
