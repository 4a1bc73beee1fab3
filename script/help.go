package script

import (
	"fmt"
	"io"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// docIndex maps the values of a session to the doc strings their bindings registered.
type docIndex struct {
	funcs  map[*lua.LFunction]docEntry
	tables map[*lua.LTable]docEntry
}

type docEntry struct{ name, doc string }

func (d *docIndex) addFunc(fn *lua.LFunction, name, doc string) {
	if d.funcs == nil {
		d.funcs = map[*lua.LFunction]docEntry{}
	}
	d.funcs[fn] = docEntry{name, doc}
}

func (d *docIndex) addTable(t *lua.LTable, name, doc string) {
	if d.tables == nil {
		d.tables = map[*lua.LTable]docEntry{}
	}
	d.tables[t] = docEntry{name, doc}
}

// firstLine is the call form of a doc string.
func firstLine(doc string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(doc), "\n")
	return line
}

// Help writes what help(v) shows: the doc of a module (and the call forms of its
// functions), of a function, or of an object's type (and its methods); a string names a
// global ("ctx", "ctx.all") or a type ("ctx.Context"); nil gives the overview.
func (s *Session) Help(w io.Writer, v lua.LValue) {
	if str, ok := v.(lua.LString); ok {
		if resolved := s.lookupName(string(str)); resolved != lua.LNil {
			v = resolved
		} else if t, ok := types[string(str)]; ok {
			writeTypeHelp(w, t)
			return
		} else {
			fmt.Fprintf(w, "no help for %q: no such global or type\n", string(str))
			return
		}
	}
	switch x := v.(type) {
	case *lua.LNilType:
		s.overview(w)
		return
	case *lua.LFunction:
		if e, ok := s.docs.funcs[x]; ok {
			fmt.Fprintln(w, strings.TrimSpace(e.doc))
			return
		}
	case *lua.LTable:
		if e, ok := s.docs.tables[x]; ok {
			s.writeTableHelp(w, x, e)
			return
		}
	case *lua.LUserData:
		if mt, ok := x.Metatable.(*lua.LTable); ok {
			if t, ok := types[lua.LVAsString(mt.RawGetString("__name"))]; ok {
				writeTypeHelp(w, t)
				return
			}
		}
	}
	name := s.nameOf(v)
	if fn, ok := v.(*lua.LFunction); ok && fn.IsG && isStandard(name) {
		fmt.Fprintf(w, "%s is in Lua 5.1's standard library: see the Lua 5.1 reference manual\n", name)
		return
	}
	if name == "" {
		name = Format(s.L, v, FormatOptions{MaxDepth: 1, MaxItems: 8, Width: 60})
	}
	fmt.Fprintf(w, "no help for %s\n", name)
}

func (s *Session) writeTableHelp(w io.Writer, t *lua.LTable, e docEntry) {
	fmt.Fprintln(w, strings.TrimSpace(e.doc))
	var lines []string
	t.ForEach(func(k, v lua.LValue) {
		if fn, ok := v.(*lua.LFunction); ok {
			if d, ok := s.docs.funcs[fn]; ok {
				lines = append(lines, "  "+firstLine(d.doc))
				return
			}
			lines = append(lines, fmt.Sprintf("  %s.%s(...)", e.name, lua.LVAsString(k)))
		}
	})
	if len(lines) > 0 {
		sort.Strings(lines)
		fmt.Fprintf(w, "\nfunctions:\n%s\n", strings.Join(lines, "\n"))
	}
}

func writeTypeHelp(w io.Writer, t Type) {
	fmt.Fprintln(w, strings.TrimSpace(t.Doc))
	var lines []string
	for _, m := range t.Methods {
		if m.Doc != "" {
			lines = append(lines, "  "+firstLine(m.Doc))
		} else {
			lines = append(lines, "  :"+m.Name+"(...)")
		}
	}
	if len(lines) > 0 {
		sort.Strings(lines)
		fmt.Fprintf(w, "\nmethods:\n%s\n", strings.Join(lines, "\n"))
	}
}

func (s *Session) overview(w io.Writer) {
	fmt.Fprintln(w, "dpclsh: a Lua 5.1 shell for dynamic instrumentation. Modules:")
	for _, name := range moduleNames() {
		fmt.Fprintf(w, "  %-10s %s\n", name, firstLine(modules[name].Doc))
	}
	// Libraries written in Lua (limpio) are documented tables held by a global.
	var libs []string
	s.L.G.Global.ForEach(func(k, v lua.LValue) {
		if t, ok := v.(*lua.LTable); ok {
			if _, isModule := modules[lua.LVAsString(k)]; isModule {
				return
			}
			if e, ok := s.docs.tables[t]; ok {
				libs = append(libs, fmt.Sprintf("  %-10s %s", lua.LVAsString(k), firstLine(e.doc)))
			}
		}
	})
	sort.Strings(libs)
	for _, l := range libs {
		fmt.Fprintln(w, l)
	}
	var globals []string
	s.L.G.Global.ForEach(func(k, v lua.LValue) {
		if fn, ok := v.(*lua.LFunction); ok {
			if _, ok := s.docs.funcs[fn]; ok {
				globals = append(globals, lua.LVAsString(k))
			}
		}
	})
	sort.Strings(globals)
	fmt.Fprintf(w, "Functions: %s\n", strings.Join(globals, " "))
	fmt.Fprintln(w, "help(x) describes a module, function or object (help(\"ctx.all\") works too);")
	fmt.Fprintln(w, "dump(x) shows the Go value behind an object; pp(x) prints any value.")
	fmt.Fprintln(w, UnitsDoc)
	fmt.Fprintln(w, "Addresses (functions, points, p:pc(), backtraces) print as 0x...; help(\"dpcl.Address\").")
}

// lookupName resolves a dotted global name without calling anything.
func (s *Session) lookupName(name string) lua.LValue {
	var cur lua.LValue = s.L.G.Global
	for _, part := range strings.Split(name, ".") {
		t, ok := cur.(*lua.LTable)
		if !ok {
			return lua.LNil
		}
		cur = t.RawGetString(part)
	}
	return cur
}

// nameOf finds the global name of v, looking one table deep ("string.format").
func (s *Session) nameOf(v lua.LValue) string {
	found := ""
	s.L.G.Global.ForEach(func(k, gv lua.LValue) {
		ks, ok := k.(lua.LString)
		if found != "" || !ok {
			return
		}
		if gv == v {
			found = string(ks)
			return
		}
		if t, ok := gv.(*lua.LTable); ok && ks != "_G" {
			t.ForEach(func(k2, tv lua.LValue) {
				if found == "" && tv == v {
					found = string(ks) + "." + lua.LVAsString(k2)
				}
			})
		}
	})
	return found
}

// standardTables are the Lua 5.1 libraries a session opens.
var standardTables = map[string]bool{
	"string": true, "table": true, "math": true, "io": true, "os": true,
	"coroutine": true, "package": true, "debug": true,
}

// isStandard reports whether a global name belongs to Lua's standard library.
func isStandard(name string) bool {
	lib, _, dotted := strings.Cut(name, ".")
	return !dotted || standardTables[lib]
}
