package dpcl

import (
	_ "embed"
	"errors"
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dpclsh/dpclsh/probes"
	lua "github.com/yuin/gopher-lua"
)

// The module system (DynTG's probe/collector modules) is Lua: modules.lua, loaded into a
// session the first time one of the names below is used. Go only lists module files, reads
// the program's line table and hands the per-application state to the Lua functions.
//
//go:embed modules.lua
var modulesLua string

// modulesSourceLua adds app:source and app:source_data to the library.
//
//go:embed modules_source.lua
var modulesSourceLua string

const modLibKey = "dpclsh.modules"

const dpclModulesDoc = `dpcl.modules([dir]) -> {{name=, description=, ok=, reason=, path=}, ...}
Scans a module library (default dpcl.module_dir, "examples/modules"): every NAME.lua and
every NAME/init.lua. Each module's query() is run and its requirements (probe counters,
features) checked against the machine; ok = false and reason say why a module is excluded
(unmet requirement, or query raised). Loads nothing: dpcl.load_modules does.`

const dpclLoadModulesDoc = `dpcl.load_modules{"counter", "timer", dir = "examples/modules", params = {hwcounters = {events = {...}}}} -> {{name=, ok=, reason=}, ...}
Selects modules for every application: init(app, params) runs for each application already
launched and for each one dpcl.launch starts later. A module that is unknown, excluded by
its query, already loaded, or whose init raises is refused with the reason (also printed on
stderr); the others load. dpclsh --modules counter,timer does the same at start-up.`

var dpclModuleFuncs = []script.Function{
	{Name: "modules", Doc: dpclModulesDoc, Fn: modDelegate("modules", false)},
	{Name: "load_modules", Doc: dpclLoadModulesDoc, Fn: modDelegate("load_modules", false)},
}

var appModuleMethods = []script.Function{
	{Name: "modules", Doc: `app:modules() -> {{name=, description=, actions = {{name=, doc=}, ...}, sources = {{name=, unit=, agg=}, ...}}, ...}
The modules loaded for this application (dpcl.load_modules), with their actions (for
app:act) and data sources (the columns of app:source).`, Fn: modDelegate("app_modules", true)},
	{Name: "act", Doc: `app:act(action, points [, {context = c}]) -> Act
Inserts a module action ("counter.count", "timer.start", ...) at every point (a table of
points, one point, or a string for app:points, e.g. "cg.c:57"), active at once, before the
start or while the job runs. The Act has name, points, file, line, func and :remove(). An
unknown action name is an error listing the actions that exist.`, Fn: modDelegate("act", true)},
	{Name: "acts", Doc: `app:acts() -> {Act, ...}
The live actions of this application (each with name, file, line, func, points).`, Fn: modDelegate("acts", true)},
	{Name: "source", Doc: `app:source(file [, {context = c, follow = false, interval = 0.01, from =, to =, out = fn}])
Prints file with one column per data source of the loaded modules, per line, aggregated
over the context's ranks (each column's agg: sum, min, max or avg), and the totals of the
program, the file and each function. follow = true reprints whenever the data changes,
every interval virtual seconds, until the job ends. from/to limit the lines printed.`, Fn: modDelegate("source", true)},
	{Name: "source_data", Doc: `app:source_data(file [, {context = c}]) -> {file=, path=, columns = {{name=, unit=, agg=}, ...}, lines = {{line=, text=, instrumentable=, values = {[column] = v}}, ...}, functions = {{name=, first=, last=, values=}, ...}, file_totals=, program_totals=}
What app:source prints, as data. values hold only the columns with a site on that line.`, Fn: modDelegate("source_data", true)},
	{Name: "source_files", Doc: `app:source_files() -> {path, ...}
The program's source files, from its DWARF line table.`, Fn: appSourceFiles},
	{Name: "source_info", Doc: `app:source_info(file) -> {file=, path=, lines = {n, ...}, functions = {{name=, first=, last=}, ...}}
The line table's view of file: its name there, the path of its text on the host (nil when
not found), the lines with code and each function's line span.`, Fn: appSourceInfo},
}

// modLib returns the session's module library table, loading modules.lua on first use.
func modLib(L *lua.LState) *lua.LTable {
	if t, ok := L.G.Registry.RawGetString(modLibKey).(*lua.LTable); ok {
		return t
	}
	script.SessionOf(L).MarkInternal("modules.lua", "modules_source.lua")
	fn, err := L.Load(strings.NewReader(modulesLua), "modules.lua")
	if err != nil {
		panic("script: modules.lua does not compile: " + err.Error())
	}
	L.Push(fn)
	L.Push(modHost(L))
	L.Call(1, 1)
	t, ok := L.Get(-1).(*lua.LTable)
	L.Pop(1)
	if !ok {
		panic("script: modules.lua did not return its table")
	}
	src, err := L.Load(strings.NewReader(modulesSourceLua), "modules_source.lua")
	if err != nil {
		panic("script: modules_source.lua does not compile: " + err.Error())
	}
	L.Push(src)
	L.Push(t)
	L.Call(1, 0)
	L.G.Registry.RawSetString(modLibKey, t)
	return t
}

// modDelegate calls the library function name with the caller's arguments; for an app
// method the application's module state is passed after the application. Errors the
// library raises at level 0 get the caller's position here.
func modDelegate(name string, appMethod bool) lua.LGFunction {
	return func(L *lua.LState) int {
		top := L.GetTop()
		args := make([]lua.LValue, 0, top+1)
		for i := 1; i <= top; i++ {
			args = append(args, L.Get(i))
			if i == 1 && appMethod {
				args = append(args, appModState(L))
			}
		}
		if appMethod && top == 0 {
			L.ArgError(1, "application expected (call it as app:"+strings.TrimPrefix(name, "app_")+"(...))")
		}
		base := L.GetTop()
		L.Push(modLib(L).RawGetString(name))
		for _, a := range args {
			L.Push(a)
		}
		if err := L.PCall(len(args), lua.MultRet, nil); err != nil {
			var ae *lua.ApiError
			if errors.As(err, &ae) {
				if _, ok := ae.Object.(lua.LString); !ok {
					L.Error(ae.Object, 0)
				}
				L.RaiseError("%s", lua.LVAsString(ae.Object))
			}
			L.RaiseError("%s", err.Error())
		}
		return L.GetTop() - base
	}
}

// appModState is the per-application table the module library keeps its state in.
func appModState(L *lua.LState) *lua.LTable {
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	if a.modstate == nil {
		a.modstate = L.NewTable()
	}
	return a.modstate
}

// moduleLaunched runs the selected modules' init for a new application, if the session
// selected any; what fails is reported by the library, never raised into dpcl.launch.
func moduleLaunched(L *lua.LState, la *luaApp, ud *lua.LUserData) {
	lib, ok := L.G.Registry.RawGetString(modLibKey).(*lua.LTable)
	if !ok {
		return
	}
	if la.modstate == nil {
		la.modstate = L.NewTable()
	}
	L.Push(lib.RawGetString("launched"))
	L.Push(ud)
	L.Push(la.modstate)
	if err := L.PCall(2, 0, nil); err != nil {
		fmt.Fprintf(script.SessionOf(L).Stderr(), "dpcl: modules: %v\n", err)
	}
}

// modHost is what modules.lua gets from Go.
func modHost(L *lua.LState) *lua.LTable {
	h := L.NewTable()
	set := func(name string, fn lua.LGFunction) { h.RawSetString(name, L.NewFunction(fn)) }
	set("scan", modScan)
	set("warn", func(L *lua.LState) int {
		fmt.Fprintln(script.SessionOf(L).Stderr(), L.CheckString(1))
		return 0
	})
	set("apps", func(L *lua.LState) int {
		out := L.NewTable()
		for _, a := range dpclOf(L).apps {
			if a.closed() || a.ud == nil {
				continue
			}
			if a.modstate == nil {
				a.modstate = L.NewTable()
			}
			e := L.NewTable()
			e.RawSetString("app", a.ud)
			e.RawSetString("state", a.modstate)
			out.Append(e)
		}
		L.Push(out)
		return 1
	})
	counters := L.NewTable()
	for _, n := range probes.CounterNames {
		counters.Append(lua.LString(n))
	}
	h.RawSetString("counters", counters)
	return h
}

// modScan lists the modules of a library directory: NAME.lua (not *_test.lua) and
// NAME/init.lua, sorted by name.
func modScan(L *lua.LState) int {
	dir := L.CheckString(1)
	ents, err := os.ReadDir(dir)
	if err != nil {
		L.RaiseError("dpcl.modules: cannot read the module library %s: %v", dir, errors.Unwrap(err))
	}
	type found struct{ name, path, kind string }
	var fs []found
	for _, e := range ents {
		n := e.Name()
		switch {
		case e.IsDir():
			p := filepath.Join(dir, n, "init.lua")
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				fs = append(fs, found{n, p, "directory"})
			}
		case strings.HasSuffix(n, ".lua") && !strings.HasSuffix(n, "_test.lua"):
			fs = append(fs, found{strings.TrimSuffix(n, ".lua"), filepath.Join(dir, n), "file"})
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].name < fs[j].name })
	out := L.NewTable()
	for _, f := range fs {
		e := L.NewTable()
		e.RawSetString("name", lua.LString(f.name))
		e.RawSetString("path", lua.LString(f.path))
		e.RawSetString("kind", lua.LString(f.kind))
		out.Append(e)
	}
	L.Push(out)
	return 1
}

func appSourceFiles(L *lua.LState) int {
	app := checkApp1(L)
	out := L.NewTable()
	for _, f := range app.Prog.SourceFiles() {
		out.Append(lua.LString(f))
	}
	L.Push(out)
	return 1
}

func appSourceInfo(L *lua.LState) int {
	app := checkApp1(L)
	file := L.CheckString(2)
	name, funcs, err := app.Prog.SourceFuncs(file)
	if err != nil {
		return appErr(L, "source_info", err)
	}
	lines, err := app.Prog.Lines(name)
	if err != nil {
		return appErr(L, "source_info", err)
	}
	t := L.NewTable()
	t.RawSetString("file", lua.LString(name))
	if p := sourcePath(name, app.Exe()); p != "" {
		t.RawSetString("path", lua.LString(p))
	}
	lt := L.NewTable()
	for _, n := range lines {
		lt.Append(lua.LNumber(n))
	}
	t.RawSetString("lines", lt)
	ft := L.NewTable()
	for _, f := range funcs {
		e := L.NewTable()
		e.RawSetString("name", lua.LString(f.Name))
		e.RawSetString("first", lua.LNumber(f.First))
		e.RawSetString("last", lua.LNumber(f.Last))
		ft.Append(e)
	}
	t.RawSetString("functions", ft)
	L.Push(t)
	return 1
}

// sourcePath finds the text of a line-table file on the host: as named (absolute, or
// relative to the working directory), or beside the executable or one directory up (the
// examples keep their ELF files in bin/ under the sources; they are built with
// -ffile-prefix-map, so their names are relative).
func sourcePath(name, exe string) string {
	cands := []string{name}
	if !filepath.IsAbs(name) {
		d := filepath.Dir(exe)
		cands = append(cands, filepath.Join(d, name), filepath.Join(d, "..", name))
	}
	for _, c := range cands {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c
		}
	}
	return ""
}
