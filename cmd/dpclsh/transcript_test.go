package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata/*.txt transcripts")

// A transcript is a file under testdata/: optional "# comment" lines, an optional
// "$ dpclsh ARGS" line, the input given on stdin, a line "----", and the expected output
// (stdout and stderr together, in the order written), ending with "[exit N]" when the
// status is not 0. It runs in-process through the same path as the binary without a
// terminal. go test -run Transcript -rewrite refreshes the expected outputs.
type transcript struct {
	header []string // comment and command lines, kept when rewriting
	args   []string
	input  string
	want   string
}

func parseTranscript(data string) (transcript, error) {
	var tr transcript
	in, want, ok := strings.Cut(data, "----\n")
	if !ok {
		return tr, fmt.Errorf("no ---- line")
	}
	tr.want = want
	lines := strings.SplitAfter(in, "\n")
	for len(lines) > 0 && (strings.HasPrefix(lines[0], "#") || strings.HasPrefix(lines[0], "$ ")) {
		line := lines[0]
		tr.header = append(tr.header, line)
		if cmd, ok := strings.CutPrefix(line, "$ dpclsh"); ok {
			args, err := splitArgs(strings.TrimSpace(cmd))
			if err != nil {
				return tr, err
			}
			tr.args = args
		}
		lines = lines[1:]
	}
	tr.input = strings.Join(lines, "")
	return tr, nil
}

// splitArgs splits a command line at spaces, honouring single and double quotes.
func splitArgs(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inArg := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inArg = r, true
		case r == ' ' || r == '\t':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated quote in %q", s)
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args, nil
}

func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no transcripts under testdata/")
	}
	t.Setenv("DPCLSH_HISTORY", filepath.Join(t.TempDir(), "history"))
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := parseTranscript(string(data))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			var out bytes.Buffer
			status := run(tr.args, strings.NewReader(tr.input), &out, &out)
			if status != 0 {
				fmt.Fprintf(&out, "[exit %d]\n", status)
			}
			if *rewrite {
				text := strings.Join(tr.header, "") + tr.input + "----\n" + out.String()
				if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got := out.String(); got != tr.want {
				t.Errorf("%s: output differs (go test -run Transcripts -rewrite refreshes it)\ngot:\n%s\nwant:\n%s", file, got, tr.want)
			}
		})
	}
}

func TestSplitArgs(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"-e 'return 1'", []string{"-e", "return 1"}},
		{`-e "print('a b')"  x`, []string{"-e", "print('a b')", "x"}},
		{"a''b ''", []string{"ab", ""}},
	}
	for _, tc := range tests {
		got, err := splitArgs(tc.in)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) || len(got) != len(tc.want) {
			t.Errorf("splitArgs(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := splitArgs("'open"); err == nil {
		t.Error("splitArgs accepted an unterminated quote")
	}
}
