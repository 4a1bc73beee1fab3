package dpcl

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dpclsh/dpclsh/probes"
	lua "github.com/yuin/gopher-lua"
)

// launchAliases are option names users bring from mpirun and the exec subcommand.
var launchAliases = map[string]string{"ranks": "nodes", "np": "nodes", "procs": "nodes",
	"memory": "memory_mb", "disk_quota": "disk_quota_mb", "per-io": "per_io"}

// unknownLaunchOption names a key dpcl.launch does not take, the one most likely meant,
// and every option there is (read from launchFields, so a new option is never missing).
func unknownLaunchOption(name string) error {
	all := append(slices.Sorted(maps.Keys(launchFields)), "env", "export")
	slices.Sort(all)
	hint := ""
	if a, ok := launchAliases[name]; ok {
		hint = a
	} else if s := probes.Suggest(name, all, 1); len(s) > 0 {
		hint = s[0]
	}
	if hint != "" {
		return fmt.Errorf("unknown option %q (did you mean %s? options: %s)", name, hint, strings.Join(all, ", "))
	}
	return fmt.Errorf("unknown option %q (options: %s)", name, strings.Join(all, ", "))
}

// checkLaunchProgram is dpcl.launch's first argument: the program's path. A table there
// is the options written without it.
func checkLaunchProgram(L *lua.LState) string {
	if _, ok := L.Get(1).(*lua.LTable); ok {
		L.ArgError(1, `the program's path comes first: dpcl.launch("prog.elf", {nodes = 4})`)
	}
	return L.CheckString(1)
}
