package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/dpclsh/dpclsh/probes"
)

// optionAliases are names users bring from mpirun, srun and friends, mapped to the option
// dpclsh spells differently.
var optionAliases = map[string]string{
	"ranks": "nodes", "np": "nodes", "n": "nodes", "procs": "nodes", "nprocs": "nodes",
	"ntasks": "nodes", "mem": "memory",
}

// optionError rewrites the flag package's errors in the words of dpclsh's usage lines:
// options with two dashes, "unknown option --ranks (did you mean --nodes?)" rather than
// "flag provided but not defined: -ranks".
func optionError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "flag provided but not defined: -")
	if !ok {
		if rest, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
			return "option --" + rest + " needs a value"
		}
		return strings.ReplaceAll(strings.ReplaceAll(msg, " -", " --"), "for flag", "for option")
	}
	name = strings.TrimPrefix(name, "-")
	var known []string
	fs.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
	var hints []string
	if alias, ok := optionAliases[name]; ok && fs.Lookup(alias) != nil {
		hints = []string{alias}
	} else {
		hints = probes.Suggest(name, known, 2)
	}
	if len(hints) == 0 {
		return fmt.Sprintf("unknown option --%s", name)
	}
	return fmt.Sprintf("unknown option --%s (did you mean --%s?)", name, strings.Join(hints, " or --"))
}
