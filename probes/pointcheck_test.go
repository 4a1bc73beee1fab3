package probes

import (
	"strings"
	"testing"
)

// TestRetvalAtTailCallIsRefused: at an exit that leaves by a tail call (b or bctr out of
// the function) r3 still holds the callee's argument, so retval there is an error naming
// the callee; at returns (blr, beqlr) it is allowed, and expressions without retval go
// anywhere.
func TestRetvalAtTailCallIsRefused(t *testing.T) {
	p := openProgram(t, "points-O2.elf")
	ret := Retval(Int)
	for _, tt := range []struct {
		fn   string
		want string // "" for allowed
	}{
		{"tail", "retval at a tail call to twice"},
		{"apply", "retval at a tail call to the function in CTR"},
		{"gcd", ""},
		{"bump", ""},
	} {
		for _, pt := range points(t, p, tt.fn, PointExit) {
			err := CheckAt(ret, pt)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("%v: %v", pt, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("%v: error %v, want %q", pt, err, tt.want)
			}
			if err := CheckAt(IntConst(1), pt); err != nil {
				t.Errorf("%v: an expression without retval refused: %v", pt, err)
			}
		}
	}
}

// TestSuggestFindsTypos: transposed letters are one edit, so "mian" suggests main.
func TestSuggestFindsTypos(t *testing.T) {
	names := []string{"main", "MPI_Send", "MPI_Recv", "fib", "square"}
	for _, tt := range []struct{ word, want string }{
		{"mian", "main"}, {"MPI_Sned", "MPI_Send"}, {"fbi", "fib"}, {"squre", "square"}, {"Send", "MPI_Send"},
	} {
		got := Suggest(tt.word, names, 3)
		if len(got) == 0 || got[0] != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q first", tt.word, got, tt.want)
		}
	}
	if got := Suggest("zzzzzz", names, 3); len(got) != 0 {
		t.Errorf("Suggest(zzzzzz) = %q, want nothing", got)
	}
}
