package script

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dpclsh/dpclsh/runtime"
	lua "github.com/yuin/gopher-lua"
)

// The job's environment: dpcl.launch(exe, {env = {NAME = "value"}}) gives every rank the
// environment getenv reads (envp on the initial stack, as exec lays it out), sorted by
// name so that a launch does not depend on Lua's table order; app:env() reads it back.

const appEnvDoc = `app:env([name]) -> {NAME = "value", ...} | value | nil
The environment every rank of the job sees (dpcl.launch's env option): the whole table, or
one variable's value (nil when unset).`

func init() {
	launchFields["env"] = envOption
}

// envOption reads env = {NAME = value}: names are C identifiers, values strings or numbers
// without NUL bytes.
func envOption(o *runtime.Options, v lua.LValue) error {
	t, ok := v.(*lua.LTable)
	if !ok {
		return fmt.Errorf("env must be a table {NAME = \"value\"}, got %s", describe(v))
	}
	var env []string
	var err error
	t.ForEach(func(k, val lua.LValue) {
		if err != nil {
			return
		}
		name, ok := k.(lua.LString)
		if !ok {
			err = fmt.Errorf("env keys must be variable names, got %s", describe(k))
			return
		}
		if !envName(string(name)) {
			err = fmt.Errorf("env name %q is not a variable name (letters, digits and _, not starting with a digit)", string(name))
			return
		}
		switch val.(type) {
		case lua.LString, lua.LNumber:
		default:
			err = fmt.Errorf("env.%s must be a string or a number, got %s", name, describe(val))
			return
		}
		s := lua.LVAsString(val)
		if strings.IndexByte(s, 0) >= 0 {
			err = fmt.Errorf("env.%s contains a NUL byte, which C strings cannot hold", name)
			return
		}
		env = append(env, string(name)+"="+s)
	})
	sort.Strings(env)
	o.Env = env
	return err
}

func envName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, c := range []byte(s) {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
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
