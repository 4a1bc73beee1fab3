package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// shardedTools are the subcommands that run a sharded Lua session, each writing files
// (report, CSV tables, Perfetto traces) under DIR: jacobi on 16 ranks, two psets.
var shardedTools = [][]string{
	{"profile", "--nodes", "16", "--per-io", "8", "--per-rank", "--report", "DIR/jacobi.txt", "--csv", "DIR",
		"--trace", "DIR/profile.json", "../../examples/apps/bin/jacobi.elf", "16", "2"},
	{"exec", "--nodes", "16", "--per-io", "8", "--trace", "DIR/exec.json", "../../examples/apps/bin/jacobi.elf", "16", "2"},
	{"trace", "-e", "MPI_*:entry { @calls[func] = count(); @bytes[rank] = sum(arg1) }", "--nodes", "16", "--per-io", "8",
		"../../examples/apps/bin/jacobi.elf", "16", "2"},
}

// TestShardedToolsAreByteIdentical runs profile (report, report file, CSV, trace),
// exec --trace and trace in one process and over 2 and 4 in-process shards: process 0's
// streams and status, and every file written, must be one process's bytes, and every
// process must have taken part in the exchanges (its share of the job ran there).
func TestShardedToolsAreByteIdentical(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range shardedTools {
		args := make([]string, len(tc))
		for i, a := range tc {
			args[i] = strings.ReplaceAll(a, "DIR", dir)
		}
		var wantOut, wantErr bytes.Buffer
		wantStatus := run(args, strings.NewReader(""), &wantOut, &wantErr)
		wantFiles := takeFiles(t, dir)
		if wantStatus != 0 || (tc[0] != "trace" && len(wantFiles) == 0) {
			t.Fatalf("%s in one process: status %d, %d files\n%s%s", tc[0], wantStatus, len(wantFiles), wantOut.String(), wantErr.String())
		}
		for _, p := range []int{2, 4} {
			out, errOut, status, stats := runShardedInProcessStats(t, p, args)
			if out != wantOut.String() || errOut != wantErr.String() || status != wantStatus {
				t.Errorf("%s over %d shards: status %d (want %d)\nstdout %q\nwant   %q\nstderr %q\nwant   %q",
					tc[0], p, status, wantStatus, out, wantOut.String(), errOut, wantErr.String())
			}
			for i, st := range stats {
				if st.Exchanges == 0 {
					t.Errorf("%s over %d shards: process %d made no exchange: the job was not spread over the processes", tc[0], p, i)
				}
			}
			files := takeFiles(t, dir)
			for name, want := range wantFiles {
				if got, ok := files[name]; !ok || !bytes.Equal(got, want) {
					t.Errorf("%s over %d shards: %s has %d bytes (written: %v), one process's %d", tc[0], p, name, len(got), ok, len(want))
				}
			}
			if len(files) != len(wantFiles) {
				t.Errorf("%s over %d shards wrote %d files, one process %d", tc[0], p, len(files), len(wantFiles))
			}
		}
	}
}

// takeFiles reads and removes every file in dir, by name.
func takeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range ents {
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// TestShardedToolsUnderMpiexecAreByteIdentical runs profile (its report, report file, CSV
// and Perfetto trace) and exec --trace at mpiexec -n 2 as shards of the mpi-tagged build:
// hello_mpi on 16 ranks, two psets. Streams, status and files must be one process's.
// Four processes are covered in-process (TestShardedToolsAreByteIdentical) and under
// mpiexec by TestShardsUnderMpiexecAreByteIdentical: with every daemon command an
// exchange, -n 4 of profile took a minute on a loaded two-core box.
func TestShardedToolsUnderMpiexecAreByteIdentical(t *testing.T) {
	mpiexec, tagged := mpiTagged(t)
	// Every daemon command is an exchange: four MPI processes polling on a loaded
	// two-core box take a minute for this small job.
	run := commandRunner(t, 5*time.Minute)
	dir := t.TempDir()
	for _, tc := range []struct {
		args   []string
		shards []int
	}{
		{[]string{"profile", "--nodes", "16", "--per-io", "8", "--report", "DIR/hello.txt", "--csv", "DIR", "--trace", "DIR/profile.json",
			"../../examples/apps/bin/hello_mpi.elf"}, []int{2}},
		{[]string{"exec", "--nodes", "16", "--per-io", "8", "--trace", "DIR/exec.json", "../../examples/apps/bin/hello_mpi.elf"}, []int{2}},
	} {
		args := make([]string, len(tc.args))
		for i, a := range tc.args {
			args[i] = strings.ReplaceAll(a, "DIR", dir)
		}
		wantOut, wantErr, wantStatus := run(binary, args...)
		wantFiles := takeFiles(t, dir)
		if wantStatus != 0 || len(wantFiles) == 0 {
			t.Fatalf("%s in one process: status %d, %d files\n%s%s", args[0], wantStatus, len(wantFiles), wantOut, wantErr)
		}
		for _, n := range tc.shards {
			out, errOut, status := run(mpiexec, append([]string{"-n", fmt.Sprint(n), tagged, "--shards"}, args...)...)
			if out != wantOut || errOut != wantErr || status != wantStatus {
				t.Errorf("mpiexec -n %d %s: status %d (want %d)\nstdout %q\nwant   %q\nstderr %q\nwant   %q",
					n, args[0], status, wantStatus, out, wantOut, errOut, wantErr)
			}
			files := takeFiles(t, dir)
			for name, want := range wantFiles {
				if got, ok := files[name]; !ok || !bytes.Equal(got, want) {
					t.Errorf("mpiexec -n %d %s: %s has %d bytes (written: %v), one process's %d", n, args[0], name, len(got), ok, len(want))
				}
			}
			if len(files) != len(wantFiles) {
				t.Errorf("mpiexec -n %d %s wrote %d files, one process %d", n, args[0], len(files), len(wantFiles))
			}
		}
	}
}
