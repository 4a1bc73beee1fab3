//go:build linux

package shard

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// exchangeCheck is testdata/exchangecheck built once per test run with the mpi tag,
// against the system's MPICH (removed by TestMain).
var exchangeCheck struct {
	once     sync.Once
	dir, bin string
	err      error
}

func buildExchangeCheck(t *testing.T) (mpiexec, bin string) {
	t.Helper()
	mpiexec = oracletest.Require(t, oracletest.MPIExec)
	oracletest.Require(t, "pkg-config")
	x := &exchangeCheck
	x.once.Do(func() {
		if x.dir, x.err = os.MkdirTemp("", "exchangecheck"); x.err != nil {
			return
		}
		x.bin = filepath.Join(x.dir, "exchangecheck")
		out, err := exec.Command("go", "build", "-tags", "mpi", "-o", x.bin, "./testdata/exchangecheck").CombinedOutput()
		if err != nil {
			x.err = fmt.Errorf("go build -tags mpi: %v\n%s", err, out)
		}
	})
	if x.err != nil {
		t.Fatal(x.err)
	}
	return mpiexec, x.bin
}

// wantSummary is exchangecheck's line for size processes, counted here from the same
// payload rule: (k*from+to)%4 records, the i-th "rk:from>to.i;" repeated 1+(k+i)%7 times.
func wantSummary(size, rounds int) string {
	var crossed, sum, lo, hi int
	for k := 0; k < rounds; k++ {
		for from := 0; from < size; from++ {
			for to := 0; to < size; to++ {
				for i := 0; i < (k*from+to)%4 && from != to; i++ {
					crossed += len(fmt.Sprintf("r%d:%d>%d.%d;", k, from, to, i)) * (1 + (k+i)%7)
				}
			}
		}
		s := 0
		for p := 0; p < size; p++ {
			s += p*k + 1
		}
		sum, lo, hi = sum+s, lo+1, hi+(size-1)*k+1
	}
	return fmt.Sprintf("exchange ok: %d processes, %d rounds, %d record bytes crossed, sum %d min %d max %d\n",
		size, rounds, crossed, sum, lo, hi)
}

func TestMPIExchangeUnderMpiexec(t *testing.T) {
	mpiexec, bin := buildExchangeCheck(t)
	for _, n := range []int{1, 2, 4} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, mpiexec, "-n", fmt.Sprint(n), bin, "-rounds", "12")
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		if err != nil {
			t.Fatalf("mpiexec -n %d: %v\n%s", n, err, stderr.String())
		}
		if want := wantSummary(n, 12); stdout.String() != want {
			t.Errorf("mpiexec -n %d printed %q, want %q", n, stdout.String(), want)
		}
	}
}

func TestMPIKilledShardEndsTheRunNamingIt(t *testing.T) {
	mpiexec, bin := buildExchangeCheck(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, mpiexec, "-n", "4", bin, "-rounds", "1000000", "-die-shard", "2", "-die-round", "5")
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("the run hung after shard 2 was killed:\n%s", stderr.String())
	}
	if err == nil {
		t.Fatal("the run succeeded with shard 2 killed")
	}
	want := "dpclsh: shard 2 of 4 (holding round 5's records) died: killed by signal 9 (killed); ending the run\n"
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr.String())
	}
}

func TestMPIKilledSupervisorEndsTheRunNamingItsShard(t *testing.T) {
	mpiexec, bin := buildExchangeCheck(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, mpiexec, "-n", "2", bin, "-rounds", "1000000",
		"-die-shard", "1", "-die-round", "5", "-die-process", "supervisor")
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("the run hung after shard 1's supervisor was killed:\n%s", stderr.String())
	}
	if err == nil {
		t.Fatal("the run succeeded with shard 1's supervisor killed")
	}
	said := regexp.MustCompile(`(?m)^dpclsh: shard 1 of 2 \(holding round 5's records\) died: its supervisor \(pid [0-9]+\) was killed; ending the run$`)
	if !said.MatchString(stderr.String()) {
		t.Errorf("stderr does not match %q:\n%s", said, stderr.String())
	}
}
