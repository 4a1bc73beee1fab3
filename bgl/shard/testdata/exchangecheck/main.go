// Command exchangecheck runs rounds of shard exchanges and reductions under mpiexec and
// checks every process received exactly what the others sent: the oracle of package
// shard's MPI build. Process 0 prints one summary line; -die-shard S -die-round R makes
// shard S's worker kill itself with SIGKILL at round R (with -die-process supervisor, its
// supervisor, the process the launcher started), to see the run end with the shard named.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/dpclsh/dpclsh/bgl/shard"
)

// payload is what process from sends process to in round k: some rounds send nothing,
// some several records.
func payload(k, from, to int) [][]byte {
	var recs [][]byte
	for i := 0; i < (k*from+to)%4; i++ {
		recs = append(recs, bytes.Repeat([]byte(fmt.Sprintf("r%d:%d>%d.%d;", k, from, to, i)), 1+(k+i)%7))
	}
	return recs
}

func main() {
	ex, err := shard.OpenMPI()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rounds := flag.Int("rounds", 20, "rounds of exchange")
	dieShard := flag.Int("die-shard", -1, "the shard that kills itself")
	dieRound := flag.Int("die-round", 0, "the round it does so in")
	dieProcess := flag.String("die-process", "worker", "the process killed: worker or supervisor")
	flag.Parse()
	me, size := ex.Rank(), ex.Size()
	var received, sum, lo, hi int64
	for k := 0; k < *rounds; k++ {
		ex.Hold(fmt.Sprintf("round %d's records", k))
		if me == *dieShard && k == *dieRound {
			if *dieProcess != "supervisor" {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
			syscall.Kill(os.Getppid(), syscall.SIGKILL)
			// still holding round k when the lifeline's end comes
			time.Sleep(time.Hour)
		}
		out := make([][]byte, size)
		for p := range out {
			for _, r := range payload(k, me, p) {
				out[p] = shard.AppendRecord(out[p], r)
			}
		}
		in, err := ex.Exchange(out)
		if err != nil {
			ex.Abort(1, err.Error())
		}
		for p, buf := range in {
			recs, err := shard.Records(buf, p)
			if err != nil {
				ex.Abort(1, err.Error())
			}
			want := payload(k, p, me)
			if len(recs) != len(want) {
				ex.Abort(1, fmt.Sprintf("round %d: %d records from process %d, want %d", k, len(recs), p, len(want)))
			}
			for i := range recs {
				if !bytes.Equal(recs[i], want[i]) {
					ex.Abort(1, fmt.Sprintf("round %d: record %d from process %d is %q, want %q", k, i, p, recs[i], want[i]))
				}
				if p != me {
					received += int64(len(recs[i]))
				}
			}
		}
		vals := []int64{int64(me*k + 1), int64(me*k + 1), int64(me*k + 1)}
		for i, op := range []shard.Op{shard.Sum, shard.Min, shard.Max} {
			if err := ex.Allreduce(op, vals[i:i+1]); err != nil {
				ex.Abort(1, err.Error())
			}
		}
		sum, lo, hi = sum+vals[0], lo+vals[1], hi+vals[2]
	}
	total := []int64{received}
	if err := ex.Allreduce(shard.Sum, total); err != nil {
		ex.Abort(1, err.Error())
	}
	if err := ex.Barrier(); err != nil {
		ex.Abort(1, err.Error())
	}
	if me == 0 {
		fmt.Printf("exchange ok: %d processes, %d rounds, %d record bytes crossed, sum %d min %d max %d\n",
			size, *rounds, total[0], sum, lo, hi)
	}
	if err := ex.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
