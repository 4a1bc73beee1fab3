package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestSubcommandHelp: `dpclsh NAME --help` (and -h) exits 0 on stdout with the usage
// line, every option the usage line names, and an example.
func TestSubcommandHelp(t *testing.T) {
	option := regexp.MustCompile(`--?[a-z][a-z-]*`)
	for _, name := range subcommandNames() {
		for _, flag := range []string{"--help", "-h"} {
			var out, errb bytes.Buffer
			if st := run([]string{name, flag}, strings.NewReader(""), &out, &errb); st != 0 || errb.Len() > 0 {
				t.Errorf("dpclsh %s %s: status %d, stderr %q", name, flag, st, errb.String())
			}
			help := out.String()
			if !strings.HasPrefix(help, "usage: dpclsh "+subcommands[name].usage+"\n") || !strings.Contains(help, "example") {
				t.Errorf("dpclsh %s %s printed:\n%s", name, flag, help)
			}
			for _, o := range option.FindAllString(subcommands[name].usage, -1) {
				if !strings.Contains(help, "\n  "+o+" ") {
					t.Errorf("dpclsh %s --help does not explain %s", name, o)
				}
			}
		}
	}
}

// TestREADMEUsageIsTheHelp: the README's usage block is `dpclsh --help`, byte for byte,
// so a new subcommand or option cannot leave it behind.
func TestREADMEUsageIsTheHelp(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var help bytes.Buffer
	writeHelp(&help)
	if !bytes.Contains(readme, []byte("```\n"+help.String()+"```\n")) {
		t.Errorf("README.md's usage block is not `dpclsh --help`; replace it with:\n%s", help.String())
	}
}
