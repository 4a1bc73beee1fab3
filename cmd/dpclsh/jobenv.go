package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/dpclsh/dpclsh/bgl"
)

// envHelp is the help of --env and --export shared by exec, profile and ui, its
// descriptions starting at column col.
func envHelp(col int) string {
	pad := strings.Repeat(" ", col)
	return fmt.Sprintf("  %-*s%s\n", col-2, "--env NAME=VALUE", "a variable of every rank's environment (repeatable)") +
		fmt.Sprintf("  %-*s%s\n", col-2, "--export NAME", "pass the host's value of NAME to every rank (repeatable;") +
		pad + "it must be set there). Ranks see these variables and no other, as\n" +
		pad + "under BG/L's mpirun -env and -exp_env: never the caller's environment,\n" +
		pad + "so a run depends on its command line only. A bad name or a name\n" +
		pad + "given twice is a usage error.\n"
}

// envFlags collects --env NAME=VALUE and --export NAME in the order given, so that an
// error names the option that caused it.
type envFlags struct{ given []envFlag }

type envFlag struct {
	export bool
	arg    string // NAME=VALUE for --env, NAME for --export
}

func (e *envFlags) register(fs *flag.FlagSet) {
	fs.Func("env", "NAME=VALUE: a variable of every rank's environment (repeatable)", func(s string) error {
		if _, _, ok := strings.Cut(s, "="); !ok {
			return fmt.Errorf("want NAME=VALUE, got %q", s)
		}
		e.given = append(e.given, envFlag{arg: s})
		return nil
	})
	fs.Func("export", "NAME: pass the host's NAME to every rank (repeatable)", func(s string) error {
		e.given = append(e.given, envFlag{export: true, arg: s})
		return nil
	})
}

// env is the ranks' environment, sorted; the first bad option is the error.
func (e *envFlags) env() ([]string, error) {
	ex := bgl.Exporter{Lookup: os.LookupEnv}
	for _, f := range e.given {
		var err error
		if f.export {
			err = ex.Export(f.arg)
		} else {
			k, v, _ := strings.Cut(f.arg, "=")
			err = ex.Set(k, v)
		}
		if err != nil {
			opt := "--env"
			if f.export {
				opt = "--export"
			}
			return nil, fmt.Errorf("%s %s: %w", opt, f.arg, err)
		}
	}
	return ex.Env(), nil
}
