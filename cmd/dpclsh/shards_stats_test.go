package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// statsChunk runs two jobs from Lua: hello_mpi, then jacobi with a counting probe on
// MPI_Allreduce (the tool's snippets count as the ranks' instructions).
const statsChunk = `
local a = dpcl.launch("../../examples/apps/bin/hello_mpi.elf", {nodes = 16, per_io = 8, quiet = true})
a:start() a:wait() a:close()
local b = dpcl.launch("../../examples/apps/bin/jacobi.elf", {nodes = 16, per_io = 8, args = {"16", "1"}, quiet = true})
local n = b:var("int")
b:install(b:points("MPI_Allreduce", "entry"), n:assign(n + 1)):activate()
b:start() b:wait()
print("done")
`

// TestShardedScriptStatsTotalsAreOneProcesss runs a Lua session with --stats in one
// process and over 2 and 4 in-process shards: each job's line (ranks, status,
// instructions, virtual time, memory, environment) must be one process's bytes, and a
// sharded run must add a line per process for each job, whose ranks and instructions
// sum to the job's and whose bytes sent are the job's own (both jobs' together no more
// than the process sent in the session).
func TestShardedScriptStatsTotalsAreOneProcesss(t *testing.T) {
	args := []string{"--quiet", "--stats", "-e", statsChunk}
	var wantOut, wantErr bytes.Buffer
	if st := run(args, strings.NewReader(""), &wantOut, &wantErr); st != 0 {
		t.Fatalf("one process: status %d\n%s", st, wantErr.String())
	}
	for _, job := range []string{"dpclsh: job 1 (hello_mpi.elf): 16 ranks, status 0, ", "dpclsh: job 2 (jacobi.elf): 16 ranks, status 0, "} {
		if !strings.Contains(wantErr.String(), job) {
			t.Fatalf("one process printed no %q:\n%s", job, wantErr.String())
		}
	}
	for _, p := range []int{2, 4} {
		out, errOut, status, stats := runShardedInProcessStats(t, p, args)
		totals, perProcess := splitShardLines(errOut)
		if out != wantOut.String() || totals != wantErr.String() || status != 0 {
			t.Errorf("%d shards: status %d\nstdout %q\nwant   %q\nstderr %q\nwant   %q", p, status, out, wantOut.String(), totals, wantErr.String())
		}
		sent := make([]uint64, p) // by process, over both jobs
		for job := 1; job <= 2; job++ {
			ranks, instructions := 0, uint64(0)
			for s := range p {
				prefix := fmt.Sprintf("dpclsh: job %d (%s): shard %d of %d: ", job, []string{"", "hello_mpi.elf", "jacobi.elf"}[job], s, p)
				line, ok := perProcess[prefix]
				if !ok {
					t.Errorf("%d shards: no line %q...:\n%s", p, prefix, errOut)
					continue
				}
				m := rankCounts.FindStringSubmatch(line)
				if m == nil {
					t.Errorf("%d shards: %q has no ranks and instructions", p, line)
					continue
				}
				r, _ := strconv.Atoi(m[1])
				n, _ := strconv.ParseUint(m[2], 10, 64)
				ranks, instructions = ranks+r, instructions+n
				b, _ := strconv.ParseUint(m[3], 10, 64)
				sent[s] += b
			}
			if ranks != 16 || !strings.Contains(totals, fmt.Sprintf("16 ranks, status 0, %d instructions", instructions)) {
				t.Errorf("%d shards, job %d: the processes' lines count %d ranks and %d instructions, the job's line says otherwise:\n%s", p, job, ranks, instructions, errOut)
			}
		}
		// Each job's lines count its own exchanges: together no more than the session's.
		for s, st := range stats {
			if sent[s] > st.BytesSent {
				t.Errorf("%d shards: process %d's lines say its jobs sent %d bytes, its exchanger sent %d in all", p, s, sent[s], st.BytesSent)
			}
		}
	}
}

var rankCounts = regexp.MustCompile(`, (\d+) ranks, (\d+) instructions, \d+ windows, (\d+) bytes sent`)

// splitShardLines separates the per-process lines of --stats from the rest of stderr,
// keyed by their prefix up to "of P: ".
func splitShardLines(stderr string) (rest string, perProcess map[string]string) {
	perProcess = map[string]string{}
	var keep []string
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if i := strings.Index(l, ": shard "); i >= 0 && strings.HasPrefix(l, "dpclsh: job ") {
			j := i + strings.Index(l[i:], " of ")
			k := j + strings.Index(l[j:], ": ") + 2
			perProcess[l[:k]] = l[k:]
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, ""), perProcess
}

// TestShardedScriptStatsUnderMpiexec runs the --stats session at mpiexec -n 2 as shards
// of the mpi-tagged build: stdout and every job's line must be one process's, with a
// line per process for each job.
func TestShardedScriptStatsUnderMpiexec(t *testing.T) {
	mpiexec, tagged := mpiTagged(t)
	run := commandRunner(t, 5*time.Minute)
	args := []string{"--quiet", "--stats", "-e", statsChunk}
	wantOut, wantErr, wantStatus := run(binary, args...)
	if wantStatus != 0 || !strings.Contains(wantErr, "dpclsh: job 2 (jacobi.elf): 16 ranks, status 0, ") {
		t.Fatalf("one process: status %d\n%s", wantStatus, wantErr)
	}
	out, errOut, status := run(mpiexec, append([]string{"-n", "2", tagged, "--shards"}, args...)...)
	totals, perProcess := splitShardLines(errOut)
	if out != wantOut || totals != wantErr || status != wantStatus || len(perProcess) != 4 {
		t.Errorf("mpiexec -n 2: status %d, %d per-process lines (want 4)\nstdout %q\nwant   %q\nstderr %q\nwant   %q",
			status, len(perProcess), out, wantOut, errOut, wantErr)
	}
}
