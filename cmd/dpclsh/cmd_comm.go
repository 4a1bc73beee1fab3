package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dpclsh/dpclsh/netreduce"
)

func init() {
	registerSubcommand(subcommand{
		name:  "comm",
		usage: "comm --fe HOST:PORT --rank R [--listen HOST:PORT] [--secret-file FILE] | comm --backend HOST:PORT --rank R [--behaviour NAME]",
		brief: "an internal node or a back-end of a reduction tree over TCP (started by the front-end, or by hand/ssh/srun)",
		help: `options:
  --fe HOST:PORT        the front-end's address (an internal node)
  --backend HOST:PORT   the parent's address: run as back-end R instead (MRNet's CreateNetworkBE)
  --behaviour NAME      what a back-end answers each packet with: ` + netreduce.BackendBehaviourNames() + ` (default burst)
  --rank R              this node's rank in the topology
  --listen HOST:PORT    address children connect to (default 127.0.0.1, any port)
  --secret-file FILE    file holding the tree's shared secret (hex)

The front-end starts these itself for netreduce.new{transport = "tcp"}, and one back-end
process per back-end with backend_processes = NAME. A back-end connects to
its parent, answers its challenge, and answers packets: burst answers {n} with n packets
{1} (MRNet's micro-benchmark back-end), rank with {R}, pid with {its process id}.
example (by hand):
  dpclsh comm --fe 127.0.0.1:7000 --rank 3 --secret-file tree.secret
  dpclsh comm --backend 127.0.0.1:7000 --rank 0 --behaviour burst --secret-file tree.secret
`,
		run: runComm,
	})
}

// runComm is one internal tree node. The shared secret comes from --secret-file or the
// DPCLSH_COMM_SECRET environment variable (hex), never from the command line, where other
// users could read it.
func runComm(ctx context.Context, args []string, _ io.Reader, _, stderr io.Writer) int {
	fs := flag.NewFlagSet("dpclsh comm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opt netreduce.CommOptions
	var secretFile string
	fs.StringVar(&opt.FrontEnd, "fe", "", "the front-end's address")
	fs.IntVar(&opt.Rank, "rank", -1, "this node's rank in the topology")
	fs.StringVar(&opt.Listen, "listen", "", "address children connect to (default 127.0.0.1, any port)")
	fs.StringVar(&secretFile, "secret-file", "", "file holding the tree's shared secret (hex)")
	var parent, behaviour string
	fs.StringVar(&parent, "backend", "", "the parent's address: run as a back-end")
	fs.StringVar(&behaviour, "behaviour", "burst", "what a back-end answers with: "+netreduce.BackendBehaviourNames())
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if (opt.FrontEnd == "") == (parent == "") || opt.Rank < 0 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "dpclsh comm: --fe and --rank are required (--backend and --rank for a back-end)")
		return exitUsage
	}
	handler := netreduce.BackendBehaviours[behaviour]
	if handler == nil {
		fmt.Fprintf(stderr, "dpclsh comm: --behaviour %q: want one of %s\n", behaviour, netreduce.BackendBehaviourNames())
		return exitUsage
	}
	secret, err := netreduce.LoadSecret(secretFile)
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh comm: %v\n", err)
		return exitUsage
	}
	opt.Secret = secret
	if parent != "" {
		err = netreduce.RunBackend(ctx, netreduce.BackendOptions{Parent: parent, Rank: opt.Rank, Secret: secret, Handler: handler, Errors: stderr})
	} else {
		err = netreduce.RunComm(ctx, opt)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "dpclsh comm: %v\n", err)
		return exitError
	}
	return exitOK
}

// tcpTransport serves netreduce.new{transport = "tcp", listen =, manual =, timeout_s =,
// liveness_s =, backend_processes =}: comm processes are this executable's `comm`
// subcommand, and so are the back-end processes backend_processes = NAME starts, one per
// back-end, each running behaviour NAME (netreduce.BackendBehaviours). liveness_s is
// how long (wall clock) a comm process's link may make no progress before its subtree
// counts as lost (default 10 s). With manual = true no process is
// started; the front-end prints how to start each one and waits.
func tcpTransport(opts map[string]any) (netreduce.Transport, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find this program to start comm processes: %w", err)
	}
	// One comm process runs one node's state machine and its links: a single scheduler
	// thread each keeps many comm processes on one host from contending for the cores.
	t := netreduce.TCP{Command: []string{exe, "comm"}, Env: []string{"GOMAXPROCS=1"}}
	if s, ok := opts["listen"].(string); ok {
		t.Listen = s
	}
	if m, ok := opts["manual"].(bool); ok && m {
		t.Manual = true
		t.OnListen = func(addr, secretHex string) {
			fmt.Fprintf(os.Stderr, "netreduce: waiting for comm processes; start each internal rank R with\n  %s=%s %s comm --fe %s --rank R\n",
				netreduce.SecretEnv, secretHex, exe, addr)
		}
	}
	if s, ok := opts["timeout_s"].(float64); ok && s > 0 {
		t.StartTimeout = time.Duration(s * float64(time.Second))
	}
	if s, ok := opts["liveness_s"].(float64); ok && s > 0 {
		t.Liveness = time.Duration(s * float64(time.Second))
	}
	if b, ok := opts["backend_processes"]; ok {
		name, _ := b.(string)
		if netreduce.BackendBehaviours[name] == nil {
			return nil, fmt.Errorf("backend_processes must name a back-end behaviour (%s), got %v", netreduce.BackendBehaviourNames(), b)
		}
		t.Backend = []string{exe, "comm", "--behaviour", name}
	}
	return t, nil
}
