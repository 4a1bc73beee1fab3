package netreduce

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"testing"
)

// commEnv makes the test binary act as a `dpclsh comm` process, so the TCP transport is
// tested with real processes without building the command.
const commEnv = "NETREDUCE_TEST_COMM"

func TestMain(m *testing.M) {
	if os.Getenv(commEnv) == "1" {
		os.Exit(testComm(os.Args[1:]))
	}
	os.Exit(m.Run())
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
	return TCP{Command: []string{os.Args[0], "-test.run=^$"}, Env: []string{commEnv + "=1"}}
}

func TestConformanceTCP(t *testing.T) {
	runConformance(t, transportCase{name: "tcp", make: tcpForTest, maxBack: 512, randRuns: 7})
}
