package bgl_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
)

// TestMPIErrorHandlers: under MPI_ERRORS_RETURN a failing engine call (a bad rank, a bad
// communicator) returns its class to the program, which goes on; MPI_Error_class and
// MPI_Error_string answer for it; a duplicate inherits the handler; a user handler runs
// on MPI_Comm_call_errhandler with a code of MPI_Add_error_code; attributes' callbacks
// run on dup and free; info keeps its order. mpierrhan.c checks each result itself.
func TestMPIErrorHandlers(t *testing.T) {
	var out, errb bytes.Buffer
	res, err := bgl.Run(bgl.JobConfig{Exe: "testdata/bin/mpierrhan.elf", Nodes: 2, PerIO: 8,
		Stdout: &out, Stderr: &errb})
	if err != nil {
		t.Fatal(err)
	}
	if st := res.ExitStatus(); st != 0 || strings.Contains(out.String(), "BAD") {
		t.Fatalf("status %d\nstdout:\n%s\nstderr:\n%s", st, out.String(), errb.String())
	}
	for _, want := range []string{
		`rank 1: send to a bad rank: 6 class 6 "Invalid rank"`,
		"rank 0: barrier on a bad communicator: 5",
		`rank 0: user handler ran 1 time(s) with code 65 (class 64): "a code of the program's"`,
		`rank 1: attribute copies 1 deletes 2, name "dup of world"`,
		`rank 0: info keys 2, first "b", b="two"`,
	} {
		if !strings.Contains(out.String(), want+"\n") {
			t.Errorf("no line %q in\n%s", want, out.String())
		}
	}
}
