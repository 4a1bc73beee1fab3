package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const execCorpus = "../../bgl/testdata/bin/"

func TestExecSubcommand(t *testing.T) {
	dir := t.TempDir()
	// one rank per I/O node in a 64-node block (4x4x4, 8 nodes per I/O node), then a rank
	// placed back on I/O node 0
	spread := filepath.Join(dir, "spread.map")
	if err := os.WriteFile(spread, []byte("0 0 0 0\n0 2 0 0\n0 0 1 0\n0 2 1 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	back := filepath.Join(dir, "back.map")
	if err := os.WriteFile(back, []byte("0 2 0 0\n1 0 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		args      []string
		status    int
		stdout    string // exact, when not empty
		stderrHas string
		stdoutHas string
	}{
		{"hello", []string{execCorpus + "hello.elf"}, 0, "Hello, world!\n", "", ""},
		{"argv", []string{"--workdir", dir, execCorpus + "argv.elf", "a", "--nodes"}, 3,
			"argc=3\nargv[1]=\"a\" (1)\nargv[2]=\"--nodes\" (7)\n", "", ""},
		{"label", []string{"--nodes", "12", "--per-io", "8", "--label", execCorpus + "ranks.elf"}, 4, "",
			" 9: rank 9: a line on stderr\n", "11: rank 11 of 12 on I/O node 1\n"},
		{"fault", []string{execCorpus + "segv.elf"}, 139, "before the fault\n",
			"dpclsh: rank 0: uncaught signal 11 (Segmentation fault) at pc 0x", ""},
		{"fault named by its code", []string{"--nodes", "4", execCorpus + "mpicrash.elf"}, 139, "",
			"dpclsh: rank 3: uncaught signal 11 (Segmentation fault) at pc 0x100004f8 in deref (src/mpicrash.c:8); " +
				"called from step (src/mpicrash.c:16) <- main (src/mpicrash.c:26) <- __libc_start_call_main+0x84 <- __libc_start_main+0x414\n" +
				"dpclsh: rank 3: killed by signal 11 (Segmentation fault) in deref (src/mpicrash.c:8): ending the job\n", ""},
		{"map file", []string{"--nodes", "4", "--per-io", "8", "--partition", "64", "--mapfile", spread, execCorpus + "ranks.elf"}, 3, "",
			"", "rank 3 of 4 on I/O node 3\n"},
		{"mapping order", []string{"--nodes", "4", "--per-io", "8", "--partition", "64", "--mapping", "TXYZ", execCorpus + "ranks.elf"}, 3, "",
			"", "rank 3 of 4 on I/O node 0\n"},
		{"map file out of order", []string{"--nodes", "2", "--per-io", "8", "--partition", "64", "--mapfile", back, execCorpus + "ranks.elf"}, 2, "",
			"rank 1 on I/O node 0 after rank 0 on I/O node 1", ""},
		{"stats", []string{"--stats", execCorpus + "hello.elf"}, 0, "Hello, world!\n", "1 ranks, status 0, ", ""},
		{"no program", nil, 2, "", "usage: dpclsh exec", ""},
		{"bad nodes", []string{"--nodes", "70000", execCorpus + "hello.elf"}, 2, "", "70000 compute nodes: want 1..65536", ""},
		{"bad per-io", []string{"--per-io", "4", execCorpus + "hello.elf"}, 2, "", "4 compute nodes per I/O node", ""},
		{"bad flag", []string{"--frobnicate", execCorpus + "hello.elf"}, 2, "", "unknown option --frobnicate", ""},
		{"missing file", []string{"nope.elf"}, 1, "", "dpclsh exec: bgl: launch: open nope.elf", ""},
		{"not an ELF", []string{"cmd_exec.go"}, 1, "", "the file is text, not an executable (C source?)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(append([]string{"exec"}, tt.args...), strings.NewReader(""), &out, &errb)
			if code != tt.status {
				t.Errorf("status %d, want %d (stderr %q)", code, tt.status, errb.String())
			}
			if tt.stdout != "" && out.String() != tt.stdout {
				t.Errorf("stdout %q, want %q", out.String(), tt.stdout)
			}
			if !strings.Contains(errb.String(), tt.stderrHas) {
				t.Errorf("stderr %q lacks %q", errb.String(), tt.stderrHas)
			}
			if !strings.Contains(out.String(), tt.stdoutHas) {
				t.Errorf("stdout %q lacks %q", out.String(), tt.stdoutHas)
			}
		})
	}
}

func TestExecInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := runExec(ctx, []string{execCorpus + "hello.elf"}, strings.NewReader(""), &out, &errb)
	if code != 130 || !strings.Contains(errb.String(), "context canceled") {
		t.Errorf("status %d, stderr %q", code, errb.String())
	}
}
