package netreduce

import (
	"reflect"
	"strings"
	"testing"
)

func TestPackConvertsToCanonicalTypes(t *testing.T) {
	f, err := ParseFormat("%c %uc %hd %uhd %d %ud %ld %uld %f %lf %s %ad %alf %as %auc")
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Pack(-3, 200, -30000, 60000, int64(-7), 4000000000.0, 1.0, uint64(1<<63), 0.1, 0.1, "x",
		[]any{1.0, 2.0}, []float64{0.5}, []string{"a"}, []int{255})
	if err != nil {
		t.Fatal(err)
	}
	want := []any{int64(-3), uint64(200), int64(-30000), uint64(60000), int64(-7), uint64(4000000000), int64(1),
		uint64(1 << 63), float64(float32(0.1)), 0.1, "x", []int64{1, 2}, []float64{0.5}, []string{"a"}, []uint64{255}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
}

func TestPackRangeErrors(t *testing.T) {
	tests := []struct {
		format string
		arg    any
		want   string
	}{
		{"%c", 128, "out of range for 8-bit signed"},
		{"%uhd", -1, "out of range for 16-bit unsigned"},
		{"%d", 1 << 31, "out of range for 32-bit signed"},
		{"%ud", 1.5, "not an integer"},
		{"%s", 1, "want a string"},
		{"%lf", "x", "want a number"},
		{"%ad", 3, "want an array"},
	}
	for _, tt := range tests {
		f, _ := ParseFormat(tt.format)
		_, err := f.Pack(tt.arg)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "argument 1 ("+tt.format+")") {
			t.Errorf("%s with %v: %v, want %q", tt.format, tt.arg, err, tt.want)
		}
	}
}

func FuzzParseFormat(f *testing.F) {
	for _, s := range []string{"%d %s", "%auc %alf", "%q", "%a", "d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fm, err := ParseFormat(s)
		if err != nil {
			return
		}
		args := make([]any, len(fm.elems))
		for i, e := range fm.elems {
			switch {
			case e.array && e.kind == kString:
				args[i] = []any{"a"}
			case e.array:
				args[i] = []any{1}
			case e.kind == kString:
				args[i] = "a"
			default:
				args[i] = 1
			}
		}
		vals, err := fm.Pack(args...)
		if err != nil {
			t.Fatalf("%q: packing valid arguments: %v", s, err)
		}
		if _, err := AppendBatch(nil, []Msg{{Kind: MsgData, Packet: &Packet{Values: vals}}}); err != nil {
			t.Fatalf("%q: packed values do not encode: %v", s, err)
		}
	})
}
