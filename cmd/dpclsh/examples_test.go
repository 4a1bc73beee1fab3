package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestLuaExamples runs every examples/**/*_test.lua through the code `dpclsh test` uses,
// from the repository root (where example scripts expect to be run): each file is a
// subtest, each of its Test functions a subtest of that. Files run in parallel, each in
// its own session, as two `dpclsh test` commands would: a session is mostly one goroutine
// (the Lua state) and small jobs, which leave the other core idle.
func TestLuaExamples(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	files, err := findTestFiles([]string{defaultTestDir})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no examples/**/*_test.lua files")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.ToSlash(file), ".lua"), func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			res := runTestFile(file, &out, false)
			if res.err != nil {
				t.Fatalf("%v\noutput:\n%s", res.err, out.String())
			}
			if len(res.tests) == 0 {
				t.Fatalf("%s defines no Test functions", file)
			}
			for _, tc := range res.tests {
				t.Run(tc.name, func(t *testing.T) {
					for _, f := range tc.failures {
						t.Error(f)
					}
				})
			}
			if t.Failed() && out.Len() > 0 {
				t.Logf("output of %s:\n%s", file, out.String())
			}
		})
	}
}
