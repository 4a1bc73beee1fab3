package dpcl

import (
	"fmt"

	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// notePoints tells the user what app:points chose for what: how many sites of a source
// line in which functions, or that a probed function also runs as inlined copies its
// entry and exit never see. Notes go to the session's stderr so that scripts' own output
// and the returned table stay as they were.
func notePoints(L *lua.LState, what string, prog *probes.Program, pts []probes.Point, kind string) {
	w := script.SessionOf(L).Stderr()
	if _, _, ok := probes.ParseLineSpec(what); ok {
		fmt.Fprintf(w, "dpcl: %s: %s\n", what, probes.SitesNote(pts))
		return
	}
	if kind != "entry" && kind != "exit" {
		return
	}
	seen := map[string]bool{}
	for _, p := range pts {
		if seen[p.Func] {
			continue
		}
		seen[p.Func] = true
		if note := prog.InlinedNote(p.Func); note != "" {
			fmt.Fprintf(w, "dpcl: %s\n", note)
		}
	}
}

// inlinedPoints is app:points(name, "inlined"): the starts of name's inlined copies.
func inlinedPoints(L *lua.LState, prog *probes.Program, name string) []probes.Point {
	pts, err := prog.InlinedPoints(name)
	if err != nil {
		appErr(L, "points", err)
	}
	return pts
}

// inlinedOnly adds to a failed function lookup that the name exists only as inlined
// copies, which app:points(name, "inlined") gives.
func inlinedOnly(prog *probes.Program, what lua.LValue, err error) error {
	name, ok := what.(lua.LString)
	if !ok || prog.InlinedNote(string(name)) == "" {
		return err
	}
	pts, perr := prog.InlinedPoints(string(name))
	if perr != nil {
		return err
	}
	return fmt.Errorf("%s; %s has no code of its own: the compiler inlined it (%s; app:points(%q, \"inlined\"))",
		script.ErrorText(err, "probes"), name, probes.SitesNote(pts), string(name))
}
