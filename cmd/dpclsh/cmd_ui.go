package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/dpcl"
)

func init() {
	registerSubcommand(subcommand{
		name:  "ui",
		usage: "ui [--addr HOST:PORT] [--env NAME=VALUE]... [--export NAME]... SCRIPT.lua [ARGS...]",
		brief: "run a script that launches a job, then serve the job's source browser page until Ctrl-C",
		help: `The script launches the job (and may load modules, insert actions, start it); its
last open application gets a page unless the script called app:serve itself. The URL,
with its token, is printed once. The machine then runs while the page is served, and
every action taken on the page is printed as the Lua line it runs.

options:
  --addr HOST:PORT   where to listen (default 127.0.0.1:0, a free loopback port)
` + envHelp(21) + `                     These go to every job the script launches, beside its
                     dpcl.launch env and export options.

example:
  dpclsh ui examples/ui/cg_counter.lua
`,
		run: runUI,
	})
}

// runUI is `dpclsh ui`: the script, then the page, with the session idle as the REPL is.
func runUI(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dpclsh ui", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "", "where to listen (default 127.0.0.1:0)")
	var envs envFlags
	envs.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dpclsh "+subcommands["ui"].usage)
		fmt.Fprintln(stderr, subcommands["ui"].brief)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() < 1 {
		fs.Usage()
		return exitUsage
	}
	env, err := envs.env()
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh ui: %v\n", err)
		fs.Usage()
		return exitUsage
	}
	if err := notLuaScript("dpclsh ui", fs.Arg(0)); err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	s, err := newSessionEnv(false, 0, env, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh ui: %v\n", err)
		return exitError
	}
	defer s.Close()
	stop := context.AfterFunc(ctx, s.Interrupt)
	defer stop()
	if err := s.DoFile(fs.Arg(0), fs.Args()[1:]); err != nil {
		fmt.Fprint(stderr, script.FormatError(err, false))
		return exitError
	}
	if _, err := dpcl.ServePages(s, *addr); err != nil {
		fmt.Fprintf(stderr, "dpclsh ui: %v\n", err)
		return exitError
	}
	serveUntil(ctx, s)
	return exitOK
}

// serveUntil keeps the session idle, as the REPL's prompt does, until ctx ends: the
// machine advances and the page's calls run on this goroutine.
func serveUntil(ctx context.Context, s *script.Session) {
	stopIdle := s.StartIdle()
	defer stopIdle()
	for {
		select {
		case <-ctx.Done():
			return
		case fn := <-s.Events():
			fn()
		}
	}
}
