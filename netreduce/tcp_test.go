package netreduce

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
)

// commEnv makes the test binary act as a `dpclsh comm` process, so the TCP transport is
// tested with real processes without building the command.
const commEnv = "NETREDUCE_TEST_COMM"

func TestMain(m *testing.M) {
	if os.Getenv(commEnv) == "1" {
		if slices.Contains(os.Args, "--backend") {
			os.Exit(testBackend(os.Args[1:]))
		}
		os.Exit(testComm(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// testBackend is the test binary acting as `dpclsh comm --backend ADDR --rank R
// --behaviour NAME`.
func testBackend(args []string) int {
	opt := BackendOptions{}
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "--backend":
			opt.Parent = args[i+1]
		case "--rank":
			opt.Rank, _ = strconv.Atoi(args[i+1])
		case "--behaviour":
			opt.Handler = BackendBehaviours[args[i+1]]
		}
	}
	secret, err := hex.DecodeString(os.Getenv(SecretEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	opt.Secret = secret
	if err := RunBackend(context.Background(), opt); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// tcpWithBackendProcesses is tcpForTest with one process per back-end running behaviour.
func tcpWithBackendProcesses(behaviour string) Transport {
	t := tcpForTest(nil).(TCP)
	t.Backend = []string{os.Args[0], "-test.run=^$", "--behaviour", behaviour}
	return t
}

func testComm(args []string) int {
	opt := CommOptions{}
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "--fe":
			opt.FrontEnd = args[i+1]
		case "--rank":
			opt.Rank, _ = strconv.Atoi(args[i+1])
		}
	}
	secret, err := hex.DecodeString(os.Getenv(SecretEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	opt.Secret = secret
	if err := RunComm(context.Background(), opt); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func tcpForTest(*testing.T) Transport {
	return TCP{Command: []string{os.Args[0], "-test.run=^$"}, Env: []string{commEnv + "=1", "GOMAXPROCS=1"}}
}

func TestConformanceTCP(t *testing.T) {
	runConformance(t, transportCase{name: "tcp", make: tcpForTest, maxBack: 512, randRuns: 7})
}

// TestTCP512Backends runs sum and concat over b:8^3: 72 comm processes, 512 back-ends.
func TestTCP512Backends(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 72 processes")
	}
	tc := transportCase{name: "tcp", make: tcpForTest}
	n := newNet(t, tc, "b:8^3", func(rank int, p *Packet) ([]*Packet, error) {
		return []*Packet{{Values: []any{int64(rank)}}}, nil
	})
	sum, _ := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}})
	cat, _ := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "concat"}})
	sum.Send(100, "%d", 0)
	cat.Send(100, "%d", 0)
	if p := recvWithin(t, sum); p.Values[0] != int64(511*512/2) || p.Count != 512 {
		t.Fatalf("sum: %v count %d", p.Values, p.Count)
	}
	p := recvWithin(t, cat)
	for i, v := range p.Values {
		if v != int64(i) {
			t.Fatalf("concat value %d is %v", i, v)
		}
	}
	if len(p.Values) != 512 {
		t.Fatalf("concat: %d values", len(p.Values))
	}
}
