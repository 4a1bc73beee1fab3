package ppc

import (
	"bytes"
	"testing"
)

// TestPrograms runs the freestanding programs under testdata/exec and compares stdout
// and exit status byte for byte with qemu-ppc -cpu 440epx.
func TestPrograms(t *testing.T) {
	progs := []struct {
		name string
		args []string
	}{
		{"hello", []string{"a", "bb"}},
		{"fib", []string{"24"}},
		{"loop", []string{"100000"}},
		{"intops", nil},
		{"strops", nil},
		{"fpops", nil},
		{"faults", []string{"illegal"}},
		{"faults", []string{"segv"}},
		{"faults", []string{"trap"}},
		{"faults", []string{"priv"}},
		{"faults", []string{"wx"}},
		{"faults", []string{"align"}},
		{"faults", []string{"nx"}},
		{"faults", []string{"none"}},
	}
	for _, p := range progs {
		t.Run(p.name+"/"+join(p.args), func(t *testing.T) {
			path := execProg(p.name)
			want := runQEMU(t, path, p.args...)
			got := runELF(t, path, p.args...)
			if got.status != want.status {
				t.Errorf("exit status %d, qemu-ppc %d", got.status, want.status)
			}
			if line, g, w := firstDiff(got.stdout, want.stdout); line > 0 {
				t.Errorf("stdout differs at line %d:\n got %q\nqemu %q", line, g, w)
			}
		})
	}
}

func join(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(x)
	}
	return b.String()
}

// firstDiff returns the first line (1-based) where a and b differ, with both lines; 0 when
// they are equal.
func firstDiff(a, b []byte) (int, string, string) {
	if bytes.Equal(a, b) {
		return 0, "", ""
	}
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; ; i++ {
		var x, y []byte
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if !bytes.Equal(x, y) || i >= len(la) || i >= len(lb) {
			return i + 1, string(x), string(y)
		}
	}
}
