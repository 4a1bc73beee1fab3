package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEUsage keeps the README's usage section equal to what --help prints.
func TestREADMEUsage(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := replaceUsage(string(data), usageDoc())
	if err != nil {
		t.Fatal(err)
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != string(data) {
		t.Errorf("README.md's usage section differs from --help; run go test ./cmd/dpclsh -run TestREADMEUsage -rewrite")
	}
}

// TestSubcommandHelp runs `dpclsh SUB --help` (and -h) for every subcommand: status 0,
// the usage line, the flags, an example, nothing on stderr.
func TestSubcommandHelp(t *testing.T) {
	for _, name := range subcommandNames() {
		for _, flag := range []string{"--help", "-h"} {
			t.Run(name+flag, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				cmd := exec.Command(binary, name, flag)
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("%v; stderr: %s", err, stderr.String())
				}
				out := stdout.String()
				for _, want := range []string{"usage: dpclsh " + name, "example:\n  "} {
					if !strings.Contains(out, want) {
						t.Errorf("--help lacks %q:\n%s", want, out)
					}
				}
				if subcommands[name].flags != nil && !strings.Contains(out, "flags:\n") {
					t.Errorf("--help lists no flags:\n%s", out)
				}
				if stderr.Len() > 0 {
					t.Errorf("stderr: %s", stderr.String())
				}
			})
		}
	}
}

// TestSubcommandUsageErrors: a bad flag is status 2 with the usage line and a pointer to
// --help.
func TestSubcommandUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"exec", "--bogus"}, {"exec"}, {"test", "--bogus"}, {"disasm"}, {"comm", "--bogus"}} {
		var stdout, stderr bytes.Buffer
		if got := run(args, strings.NewReader(""), &stdout, &stderr); got != exitUsage {
			t.Errorf("%v: status %d, want %d", args, got, exitUsage)
		}
		if !strings.Contains(stderr.String(), "usage: dpclsh "+args[0]) || !strings.Contains(stderr.String(), "--help") {
			t.Errorf("%v: stderr %q", args, stderr.String())
		}
	}
}
