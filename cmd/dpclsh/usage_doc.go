package main

import (
	"fmt"
	"strings"
)

// The README's usage section lies between these two lines; usageDoc generates it and a
// test keeps the README equal to it (go test ./cmd/dpclsh -run TestREADMEUsage -rewrite
// refreshes it).
const (
	usageBegin = "<!-- usage: generated from dpclsh --help; go test ./cmd/dpclsh -run TestREADMEUsage -rewrite -->"
	usageEnd   = "<!-- end of usage -->"
)

// usageDoc is `dpclsh --help` followed by every subcommand's --help, as Markdown.
func usageDoc() string {
	var b strings.Builder
	b.WriteString("```\n$ dpclsh --help\n")
	writeHelp(&b)
	b.WriteString("```\n")
	for _, name := range subcommandNames() {
		fmt.Fprintf(&b, "\n```\n$ dpclsh %s --help\n", name)
		writeSubcommandHelp(&b, subcommands[name])
		b.WriteString("```\n")
	}
	return b.String()
}

// replaceUsage returns readme with the text between the markers replaced by doc.
func replaceUsage(readme, doc string) (string, error) {
	head, rest, ok := strings.Cut(readme, usageBegin+"\n")
	if !ok {
		return "", fmt.Errorf("README: no line %q", usageBegin)
	}
	_, tail, ok := strings.Cut(rest, usageEnd+"\n")
	if !ok {
		return "", fmt.Errorf("README: no line %q", usageEnd)
	}
	return head + usageBegin + "\n" + doc + usageEnd + "\n" + tail, nil
}
