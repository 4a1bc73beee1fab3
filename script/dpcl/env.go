package dpcl

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"os"
	"sort"
	"strings"

	"github.com/dpclsh/dpclsh/bgl"
	lua "github.com/yuin/gopher-lua"
)

// The job's environment: dpcl.launch(exe, {env = {NAME = "value"}, export = {"NAME"}})
// gives every rank the environment getenv reads (envp on the initial stack, as exec lays
// it out): the variables env sets, the host's value of each name export lists, and the
// session's own (Options.Env, what dpclsh ui --env/--export give), nothing else, sorted so
// that a launch does not depend on Lua's table order; app:env() reads it back.

const appEnvDoc = `app:env([name]) -> {NAME = "value", ...} | value | nil
The environment every rank of the job sees (dpcl.launch's env and export options): the
whole table, or one variable's value (nil when unset).`

// launchEnv builds the job's environment from the session's variables, then env =
// {NAME = value} (names in sorted order, so that the first error is the same on every
// run), then export = {"NAME", ...} in its order. A name given twice, a bad name or an
// exported name the host does not set is an error naming it.
func launchEnv(base []string, env, export lua.LValue) ([]string, error) {
	ex := bgl.Exporter{Lookup: os.LookupEnv}
	for _, kv := range base {
		k, v, _ := strings.Cut(kv, "=")
		if err := ex.Set(k, v); err != nil {
			return nil, fmt.Errorf("the session's environment: %w", err)
		}
	}
	if err := envOption(&ex, env); err != nil {
		return nil, err
	}
	if err := exportOption(&ex, export); err != nil {
		return nil, err
	}
	return ex.Env(), nil
}

// envOption reads env = {NAME = value}: names are C identifiers, values strings or numbers
// without NUL bytes.
func envOption(ex *bgl.Exporter, v lua.LValue) error {
	if v == lua.LNil {
		return nil
	}
	t, ok := v.(*lua.LTable)
	if !ok {
		return fmt.Errorf("env must be a table {NAME = \"value\"}, got %s", script.Describe(v))
	}
	var names []string
	var err error
	t.ForEach(func(k, _ lua.LValue) {
		if name, ok := k.(lua.LString); ok {
			names = append(names, string(name))
		} else if err == nil {
			err = fmt.Errorf("env keys must be variable names, got %s", script.Describe(k))
		}
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		val := t.RawGetString(name)
		switch val.(type) {
		case lua.LString, lua.LNumber:
		default:
			return fmt.Errorf("env.%s must be a string or a number, got %s", name, script.Describe(val))
		}
		if err := ex.Set(name, lua.LVAsString(val)); err != nil {
			return fmt.Errorf("env: %w", err)
		}
	}
	return nil
}

// exportOption reads export = {"NAME", ...}: each name's value is the host's.
func exportOption(ex *bgl.Exporter, v lua.LValue) error {
	if v == lua.LNil {
		return nil
	}
	t, ok := v.(*lua.LTable)
	if !ok {
		return fmt.Errorf("export must be an array of variable names {\"NAME\", ...}, got %s", script.Describe(v))
	}
	n := t.Len()
	var extra lua.LValue
	t.ForEach(func(k, _ lua.LValue) {
		if kn, ok := k.(lua.LNumber); !ok || float64(kn) != float64(int(kn)) || int(kn) < 1 || int(kn) > n {
			extra = k
		}
	})
	if extra != nil {
		return fmt.Errorf("export must be an array of variable names, but it has the key %s", script.Format(nil, extra, script.DefaultFormat))
	}
	for i := 1; i <= n; i++ {
		name, ok := t.RawGetInt(i).(lua.LString)
		if !ok {
			return fmt.Errorf("export[%d] must be a variable name, got %s", i, script.Describe(t.RawGetInt(i)))
		}
		if err := ex.Export(string(name)); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	return nil
}

func appEnv(L *lua.LState) int {
	a := checkApp1(L)
	env := a.Env()
	if L.GetTop() >= 2 {
		name := L.CheckString(2)
		for _, kv := range env {
			if k, v, _ := strings.Cut(kv, "="); k == name {
				L.Push(lua.LString(v))
				return 1
			}
		}
		L.Push(lua.LNil)
		return 1
	}
	t := L.CreateTable(0, len(env))
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.RawSetString(k, lua.LString(v))
	}
	L.Push(t)
	return 1
}
