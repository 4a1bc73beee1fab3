package dpclsh

import (
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/dpclsh/dpclsh"

// layers is DESIGN.md section 1's table: which project packages each package may import
// (directly or through others) in non-test code. A package not named here follows the
// nearest enclosing one ("bgl/target/x" follows "bgl") and may also import the other
// packages of that part ("netreduce/tcp" may import "netreduce"). Packages under cmd/ may import anything.
var layers = map[string][]string{
	"ppc": nil,
	// contexts/ranks is the leaf vocabulary of rank sets and rank specs, shared by the
	// contexts and the layers above; the tree keeps its own bitmap of back-ends.
	"contexts/ranks": nil,
	"contexts":       {"contexts/ranks"},
	"netreduce":      nil,
	"bgl/abi":        nil,
	"bgl":            {"ppc", "bgl/abi"},
	"probes":         {"ppc", "bgl/abi"},
	"runtime":        {"bgl", "bgl/abi", "probes", "probes/cobj", "contexts", "contexts/ranks", "netreduce", "ppc"},
	// script is the Lua host's kernel: session, registry, state, the error boundary.
	"script": kernel,
	// The Lua modules sit on the kernel, each in script/<module>, and import each other
	// only downwards in moduleOrder; script/std imports them all and is what cmd/dpclsh uses.
	"script/plot":      moduleDeps("script/plot"),
	"script/ppc":       moduleDeps("script/ppc"),
	"script/bgl":       moduleDeps("script/bgl"),
	"script/filter":    moduleDeps("script/filter"),
	"script/netreduce": moduleDeps("script/netreduce"),
	"script/ctx":       moduleDeps("script/ctx"),
	"script/dpcl":      moduleDeps("script/dpcl"),
	// script/packetvalue converts netreduce packet values to Lua and back, for the kernel
	// and the modules: it knows no other part of the host.
	"script/packetvalue": {"netreduce", "contexts/ranks"},
	// script/scripttest makes sessions for the tests of the kernel and the modules.
	"script/scripttest": append([]string{"script"}, kernel...),
	"script/std":        std,
	"":                  nil, // the root package: lib.go
	// probes/cobj loads C probe modules (relocatable objects): standard library only.
	"probes/cobj": nil,
	// script/ui is the web page of app:serve: an HTTP server that hands Lua to the session
	// through an interface, so it knows nothing of gopher-lua or the runtime.
	"script/ui": nil,
	// script/fileout writes the files dpclsh produces whole or not at all: standard library only.
	"script/fileout": nil,
	// script/tracelang parses and checks `dpclsh trace` programs: standard library only;
	// script/dpcl compiles them.
	"script/tracelang": nil,
	// script/luavm is the hardened gopher-lua under the kernel: it knows no project package,
	// so the kernel and the modules import it and it never imports them back.
	"script/luavm": nil,
	// Test helpers: only tests may import them, and they import no project package.
	"internal": nil,
}

// thirdParty says which packages may use modules outside the standard library: the Lua
// host, its VM and the command. Everything below them is standard library only, so
// netreduce (for instance) can never pull in gopher-lua.
var thirdParty = map[string]bool{"script": true, "script/luavm": true, "script/std": true, "script/scripttest": true, "script/packetvalue": true}

// kernel is what the kernel (package script) may import: everything below the Lua host.
var kernel = []string{"ppc", "contexts", "contexts/ranks", "netreduce", "bgl/abi", "bgl", "probes", "probes/cobj", "runtime", "script/luavm", "script/ui", "script/fileout", "script/packetvalue", "script/tracelang"}

// moduleOrder lists the Lua modules from the bottom up: a module may import the kernel
// and the modules before it, never one after it.
var moduleOrder = []string{"script/plot", "script/ppc", "script/bgl", "script/filter", "script/netreduce", "script/ctx", "script/dpcl"}

// moduleDeps is what the Lua module m may import: the kernel, what is below it, and the
// modules before m in moduleOrder. It marks m as one that may use gopher-lua.
func moduleDeps(m string) []string {
	thirdParty[m] = true
	allowed := append([]string{"script"}, kernel...)
	for _, below := range moduleOrder {
		if below == m {
			return allowed
		}
		allowed = append(allowed, below)
	}
	panic("deps_test: module " + m + " is not in moduleOrder")
}

// std imports every module.
var std = append(append([]string{"script"}, kernel...), moduleOrder...)

type listedPackage struct {
	path string   // relative to the module: "", "ppc", "cmd/dpclsh"
	deps []string // transitive non-test imports, full import paths
}

func listPackages(t *testing.T) []listedPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-e", "-f",
		`{{.ImportPath}}|{{join .Deps ","}}`, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var pkgs []listedPackage
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, deps, _ := strings.Cut(line, "|")
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		p := listedPackage{path: rel}
		if deps != "" {
			p.deps = strings.Split(deps, ",")
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// rule finds the table entry governing rel: itself or its nearest listed ancestor.
func rule(rel string) (string, bool) {
	for p := rel; ; {
		if _, ok := layers[p]; ok {
			return p, true
		}
		if p == "" {
			return "", false
		}
		if i := strings.LastIndex(p, "/"); i >= 0 {
			p = p[:i]
		} else {
			p = ""
		}
	}
}

func isStandard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// TestImportDirection fails when non-test code breaks DESIGN.md section 1's table.
func TestImportDirection(t *testing.T) {
	for _, v := range violations(listPackages(t)) {
		t.Error(v)
	}
}

// violations lists the packages whose dependencies break the table, one message each.
func violations(pkgs []listedPackage) []string {
	var out []string
	for _, p := range pkgs {
		if strings.HasPrefix(p.path, "cmd/") {
			continue
		}
		layer, ok := rule(p.path)
		// A package below script/ is a module or a part of the host; it is named in the
		// table itself, so that the kernel cannot count it as its own layer.
		underKernel := layer == "script" && p.path != "script"
		if !ok || (layer == "" && p.path != "") || underKernel {
			out = append(out, fmt.Sprintf("package %q is not covered by DESIGN.md section 1's table", p.path))
			continue
		}
		if bad := badDeps(p, layer); len(bad) > 0 {
			name := p.path
			if name == "" {
				name = "the root package"
			}
			out = append(out, fmt.Sprintf("%s may import only %v (DESIGN.md section 1) but depends on %s",
				name, layers[layer], strings.Join(bad, ", ")))
		}
	}
	return out
}

func badDeps(p listedPackage, layer string) []string {
	allowed := map[string]bool{}
	for _, a := range layers[layer] {
		allowed[a] = true
	}
	var bad []string
	for _, dep := range p.deps {
		if !strings.HasPrefix(dep, module) {
			if !isStandard(dep) && !thirdParty[layer] {
				bad = append(bad, dep+" (outside the standard library)")
			}
			continue
		}
		d := strings.TrimPrefix(strings.TrimPrefix(dep, module), "/")
		dl, _ := rule(d)
		sameLayer := d != "" && dl == layer
		if !allowed[dl] && !sameLayer {
			bad = append(bad, d)
		}
	}
	sort.Strings(bad)
	return bad
}

func TestViolations(t *testing.T) {
	m := func(rel string) string { return module + "/" + rel }
	tests := []struct {
		pkg  listedPackage
		want string // substring of the one violation; "" for none
	}{
		{listedPackage{"runtime", []string{m("bgl"), m("ppc"), "fmt"}}, ""},
		{listedPackage{"script", []string{m("runtime"), "github.com/yuin/gopher-lua"}}, ""},
		{listedPackage{"netreduce/tcp", []string{m("netreduce"), "net"}}, ""},
		{listedPackage{"cmd/dpclsh", []string{m("script"), m("internal/oracletest")}}, ""},
		{listedPackage{"ppc", []string{m("bgl")}}, "ppc may import only [] (DESIGN.md section 1) but depends on bgl"},
		{listedPackage{"bgl", []string{m("probes"), m("ppc")}}, "depends on probes"},
		{listedPackage{"netreduce", []string{"github.com/yuin/gopher-lua"}}, "gopher-lua (outside the standard library)"},
		{listedPackage{"runtime", []string{m("script")}}, "depends on script"},
		{listedPackage{"probes", []string{m("internal/oracletest")}}, "depends on internal/oracletest"},
		{listedPackage{"", []string{m("ppc")}}, "the root package may import only"},
		{listedPackage{"tools/gen", nil}, `"tools/gen" is not covered`},
		// The kernel imports the VM, never the reverse; the VM may use gopher-lua.
		{listedPackage{"script", []string{m("script/luavm"), "github.com/yuin/gopher-lua"}}, ""},
		{listedPackage{"script/luavm", []string{"github.com/yuin/gopher-lua", "context"}}, ""},
		{listedPackage{"script/luavm", []string{m("script")}}, "script/luavm may import only [] (DESIGN.md section 1) but depends on script"},
		{listedPackage{"script/luavm", []string{m("runtime")}}, "depends on runtime"},
		{listedPackage{"script/luavm/x", []string{m("script/luavm"), m("script/ui")}}, "depends on script/ui"},
		// Modules sit on the kernel; the kernel never imports a module, nor a module cmd.
		{listedPackage{"script/plot", []string{m("script"), m("script/fileout"), "gonum.org/v1/plot"}}, ""},
		{listedPackage{"script", []string{m("script/plot")}}, "script may import only"},
		{listedPackage{"script/plot", []string{m("cmd/dpclsh")}}, "depends on cmd/dpclsh"},
		{listedPackage{"script/std", []string{m("script/plot"), m("script")}}, ""},
		// A module imports only the modules below it in moduleOrder.
		{listedPackage{"script/dpcl", []string{m("script/ctx"), m("script")}}, ""},
		{listedPackage{"script/ctx", []string{m("script/dpcl"), m("script")}}, "depends on script/dpcl"},
		{listedPackage{"script/newmod", []string{m("script")}}, `"script/newmod" is not covered`},
	}
	for _, tc := range tests {
		got := violations([]listedPackage{tc.pkg})
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%s: unexpected %v", tc.pkg.path, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
			t.Errorf("%s: got %v, want one containing %q", tc.pkg.path, got, tc.want)
		}
	}
}

func TestRuleLookup(t *testing.T) {
	tests := map[string]string{
		"ppc": "ppc", "bgl/abi": "bgl/abi", "bgl/target/x": "bgl", "netreduce/tcp": "netreduce",
		"": "", "internal/oracletest": "internal", "script": "script",
		"script/luavm": "script/luavm", "script/luavm/x": "script/luavm",
	}
	for in, want := range tests {
		if got, ok := rule(in); !ok || got != want {
			t.Errorf("rule(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
