package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/netreduce"
)

func TestCommUsage(t *testing.T) {
	tests := []struct {
		args []string
		env  string
		want string
	}{
		{nil, "", "--fe and --rank are required"},
		{[]string{"--fe", "127.0.0.1:1", "--rank", "3"}, "", "no shared secret"},
		{[]string{"--fe", "127.0.0.1:1", "--rank", "3"}, "zz", "at least 16 bytes of hex"},
		{[]string{"--fe", "127.0.0.1:1", "--backend", "127.0.0.1:1", "--rank", "3"}, "", "--fe and --rank are required"},
		{[]string{"--backend", "127.0.0.1:1", "--rank", "0", "--behaviour", "nope"}, "", `"nope": want one of burst, pid, rank`},
	}
	for _, tt := range tests {
		cmd := exec.Command(binary, append([]string{"comm"}, tt.args...)...)
		cmd.Env = append(os.Environ(), netreduce.SecretEnv+"="+tt.env)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitUsage || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("comm %v: %v, stderr %q; want status 2 and %q", tt.args, err, stderr.String(), tt.want)
		}
	}
}

// TestTCPTreeRunsLuaFilters runs a script over `dpclsh comm` processes: the Lua filter's
// source travels with the stream and every comm process compiles it.
func TestTCPTreeRunsLuaFilters(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	script := filepath.Join(t.TempDir(), "tcp.lua")
	os.WriteFile(script, []byte(`
local net = netreduce.new{topology = "b:4^3", transport = "tcp"}
net:on_backend(function(rank, x) return (rank * 37) % 101 end)
local s = net:stream(net:broadcast(), {up = filter.load("examples/filters/topk.lua"), params = {k = 2}})
s:send("%d", 0)
print(s:recv())
local bad = net:stream(net:broadcast(), {up = filter.load("examples/netreduce/testdata/error_filter.lua")})
net:on_backend(function(rank, x) return rank end)
bad:send("%d", 0)
print(bad:recv())
local sum = net:stream(net:broadcast(), {up = "sum"})
sum:send("%d", 0)
print(sum:recv())
net:close()
`), 0o644)
	cmd := exec.Command(binary, script)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 3 || lines[0] != "100\t30\t99\t60" || lines[2] != "2016" ||
		!strings.Contains(lines[1], "error_filter.lua:6:") || !strings.Contains(lines[1], "at tree node") {
		t.Fatalf("output:\n%s", out)
	}
}

// TestTCPBackendProcesses: backend_processes starts one `dpclsh comm --backend` process
// per back-end of a flat tree: eight distinct process ids, none of them the front-end's,
// and burst's {n} request answered with n reduction waves.
func TestTCPBackendProcesses(t *testing.T) {
	script := filepath.Join(t.TempDir(), "backends.lua")
	os.WriteFile(script, []byte(`
-- the in-process handler, which back-end processes do not run, would answer {1} once
local net = netreduce.new{topology = "flat:8", transport = "tcp", backend_processes = "pid"}
net:on_backend(function(rank, x) return 1 end)
local s = net:stream(net:broadcast(), {up = "concat"})
s:send("%d", 0)
print(s:recv(1))
local burst = netreduce.new{topology = "flat:8", transport = "tcp", backend_processes = "burst"}
burst:on_backend(function(rank, x) return 1 end)
local sum = burst:stream(burst:broadcast(), {up = "sum"})
sum:send("%ld", 3)
print(sum:recv(1), sum:recv(1), sum:recv(1))
`), 0o644)
	cmd := exec.Command(binary, script)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || lines[1] != "8\t8\t8" {
		t.Fatalf("output:\n%s", out)
	}
	pids := map[string]bool{}
	for _, f := range strings.Split(lines[0], "\t") {
		pids[f] = true
	}
	if len(pids) != 8 || pids[strconv.Itoa(cmd.Process.Pid)] {
		t.Fatalf("back-end process ids %q, the front-end's %d: want 8 others", lines[0], cmd.Process.Pid)
	}
}

// TestCommStartedByHand is MRNet's second instantiation mode: the front-end starts no
// process and waits; comm processes started elsewhere join with the shared secret. A
// process with the wrong secret is turned away.
func TestCommStartedByHand(t *testing.T) {
	topo, err := netreduce.Generate("b:2^2")
	if err != nil {
		t.Fatal(err)
	}
	listening := make(chan [2]string, 1)
	tr := netreduce.TCP{Manual: true, StartTimeout: 20 * time.Second,
		OnListen: func(addr, secret string) { listening <- [2]string{addr, secret} }}
	type result struct {
		n   *netreduce.Network
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := netreduce.New(topo, netreduce.Options{Transport: tr,
			Backend: func(rank int, p *netreduce.Packet) ([]*netreduce.Packet, error) {
				return []*netreduce.Packet{{Values: []any{int64(rank)}}}, nil
			}})
		done <- result{n, err}
	}()
	info := <-listening
	start := func(rank int, secret string) *exec.Cmd {
		cmd := exec.Command(binary, "comm", "--fe", info[0], "--rank", strconv.Itoa(rank))
		cmd.Env = append(os.Environ(), netreduce.SecretEnv+"="+secret)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	intruder := start(topo.Internal()[0], strings.Repeat("ab", 32))
	if err := intruder.Wait(); err == nil {
		t.Fatal("a comm process with the wrong secret was accepted")
	}
	var procs []*exec.Cmd
	for _, r := range topo.Internal() {
		procs = append(procs, start(r, info[1]))
	}
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	s, _ := res.n.NewStream(res.n.Broadcast(), netreduce.StreamConfig{Up: &netreduce.FilterSpec{Name: "sum"}})
	s.Send(netreduce.FirstAppTag, "%d", 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, err := s.Recv(ctx)
	if err != nil || p.Values[0] != int64(6) {
		t.Fatalf("sum over hand-started comms: %v %v", p, err)
	}
	res.n.Close()
	for _, c := range procs {
		if err := c.Wait(); err != nil {
			t.Errorf("comm process after close: %v", err)
		}
	}
}
