package mpioracle

import "testing"

func TestEndedOutputAgrees(t *testing.T) {
	full := "exit 7\n[0] a\n[0] b\n[1] a\n"
	for _, tt := range []struct {
		partial string
		ok      bool
	}{
		{"exit 7\n", true},
		{"exit 7\n[0] a\n[1] a\n", true},
		{full, true},
		{"exit 3\n[0] a\n", false},
		{"exit 7\n[0] b\n[0] a\n", false},
		{"exit 7\n[2] c\n", false},
	} {
		if err := EndedOutputAgrees(full, tt.partial); (err == nil) != tt.ok {
			t.Errorf("%q: %v, want ok=%v", tt.partial, err, tt.ok)
		}
	}
}
