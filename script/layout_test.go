package script_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxScriptFileLines bounds every Go file of the Lua host (STYLE.md: files under ~500
// lines), so a module does not grow back into a catch-all file.
const maxScriptFileLines = 500

// maxKernelLines bounds the non-test Go of the kernel (package script, this directory):
// session, registry, state, error boundary, print, help, completion, run, units,
// addresses, progress. A Lua module is a package of its own under script/, not more
// lines here.
const maxKernelLines = 3000

// mapRegistrars may write a package-level map of script/...: the registry of modules and
// types, filled from init with code (functions and docs), never with a session's data.
var mapRegistrars = map[string]bool{"RegisterModule": true, "RegisterType": true}

// processWideCaches are the package-level sync.Maps of script/... that hold no session's
// data, by file and name, with why they may stay.
var processWideCaches = map[string]string{
	// Lua filters are compiled by netreduce's filter factory, which knows no session (a
	// `dpclsh comm` process has none). The key is the hash of origin and source, and an
	// entry, written once and read many times, holds only the compiled code and a pool of
	// states that keep nothing between calls (each node runs in an environment of its own).
	"script/filter/luafilter.go programs": "compiled filter code, shared by content",
}

// TestScriptHoldsNoProcessWideSessionState keeps a session's state on the Session (Key,
// Options): no sync.Map and no function hook at package level in script/..., and a
// package-level map there is a read-only table, written only where it is declared or by
// the registry.
func TestScriptHoldsNoProcessWideSessionState(t *testing.T) {
	t.Chdir("..")
	fset := token.NewFileSet()
	packages := map[string][]*ast.File{} // directory -> its non-test files
	for _, path := range goFiles(t, "script") {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		packages[filepath.Dir(path)] = append(packages[filepath.Dir(path)], f)
	}
	for _, files := range packages {
		maps := map[*ast.ValueSpec]string{} // the package-level maps, by declaration
		for _, f := range files {
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						kind := varKind(vs, i)
						if kind == "sync.Map" && processWideCaches[filepath.ToSlash(fset.Position(name.Pos()).Filename)+" "+name.Name] != "" {
							continue
						}
						switch kind {
						case "sync.Map", "func":
							t.Errorf("%s: package-level %s %s holds state of every session: keep it on the Session (script.Key, Options)",
								fset.Position(name.Pos()), kind, name.Name)
						case "map":
							maps[vs] = name.Name
						}
					}
				}
			}
		}
		names := map[string]bool{}
		for _, n := range maps {
			names[n] = true
		}
		for _, f := range files {
			for _, w := range mapWrites(f, names, maps) {
				t.Errorf("%s: %s writes the package-level map %s: keep a session's state on the Session (script.Key)",
					fset.Position(w.pos), w.fn, w.name)
			}
		}
	}
}

// varKind says whether the i-th name of vs is a sync.Map, a map or a function.
func varKind(vs *ast.ValueSpec, i int) string {
	typ := vs.Type
	if typ == nil && i < len(vs.Values) {
		switch v := vs.Values[i].(type) {
		case *ast.CompositeLit:
			typ = v.Type
		case *ast.FuncLit:
			return "func"
		}
	}
	switch t := typ.(type) {
	case *ast.MapType:
		return "map"
	case *ast.FuncType:
		return "func"
	case *ast.SelectorExpr:
		if x, ok := t.X.(*ast.Ident); ok && x.Name == "sync" && t.Sel.Name == "Map" {
			return "sync.Map"
		}
	}
	return ""
}

type mapWrite struct {
	pos      token.Pos
	fn, name string
}

// mapWrites finds, in the functions of f, assignments to the package-level maps (m[k] = v,
// m = v) and delete(m, k), except in the registrars. An identifier is the package-level
// map when it names one and resolves to its declaration or, declared in another file, to
// nothing.
func mapWrites(f *ast.File, names map[string]bool, maps map[*ast.ValueSpec]string) []mapWrite {
	var found []mapWrite
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || mapRegistrars[fd.Name.Name] {
			continue
		}
		target := func(e ast.Expr) string {
			if ix, ok := e.(*ast.IndexExpr); ok {
				e = ix.X
			}
			id, ok := e.(*ast.Ident)
			if !ok || !names[id.Name] {
				return ""
			}
			if id.Obj != nil {
				if vs, ok := id.Obj.Decl.(*ast.ValueSpec); !ok || maps[vs] == "" {
					return "" // a local of the same name
				}
			}
			return id.Name
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if name := target(l); name != "" {
						found = append(found, mapWrite{n.Pos(), fd.Name.Name, name})
					}
				}
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "delete" && len(n.Args) > 0 {
					if name := target(n.Args[0]); name != "" {
						found = append(found, mapWrite{n.Pos(), fd.Name.Name, name})
					}
				}
			}
			return true
		})
	}
	return found
}

// TestScriptFilesAreSmall keeps every Go file of script/... under maxScriptFileLines.
func TestScriptFilesAreSmall(t *testing.T) {
	t.Chdir("..")
	for _, path := range goFiles(t, "script") {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(src, []byte("\n")); n > maxScriptFileLines {
			t.Errorf("%s: %d lines, more than %d: split it by concept", path, n, maxScriptFileLines)
		}
	}
}

// TestKernelIsSmall keeps the kernel's non-test lines under maxKernelLines.
func TestKernelIsSmall(t *testing.T) {
	t.Chdir("..")
	paths, err := filepath.Glob("script/*.go")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		total += bytes.Count(src, []byte("\n"))
	}
	if total == 0 {
		t.Fatal("no kernel files found under script/")
	}
	if total > maxKernelLines {
		t.Errorf("the kernel (script/*.go) has %d non-test lines, more than %d: move module code into its package under script/", total, maxKernelLines)
	}
}

// TestNoErrorTextSurgery keeps Go errors reaching Lua through the one boundary
// (script.LuaMessage) instead of cutting package prefixes off their text.
func TestNoErrorTextSurgery(t *testing.T) {
	t.Chdir("..")
	surgery := []byte("TrimPrefix(" + "err.Error()")
	for _, path := range goFiles(t, ".") {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range bytes.Split(src, []byte("\n")) {
			if bytes.Contains(line, surgery) {
				t.Errorf("%s:%d: cuts a prefix off an error's text: return a typed error and let script's boundary convert it", path, i+1)
			}
		}
	}
}

// goFiles lists the .go files under dir, skipping testdata.
// goFiles lists the Go files below dir, a path from the repository root: the layout tests
// read the whole tree, so they run there.
func goFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(fmt.Errorf("listing %s: %w", dir, err))
	}
	return files
}
