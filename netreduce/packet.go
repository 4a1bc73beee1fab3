package netreduce

import (
	"fmt"
	"math"
	"strings"
)

// FirstAppTag is the first tag an application may use: 0-99 are reserved for control, as
// in MRNet.
const FirstAppTag = 100

// Packet is one typed data packet. Packets travel through a node by reference: a packet
// sent to several children is the same object in every batch, so filters never modify
// their inputs.
//
// Values hold canonical Go types: int64 (%c %hd %d %ld), uint64 (%uc %uhd %ud %uld),
// float64 (%f %lf), string (%s), and the slices []int64, []uint64, []float64, []string
// for the array forms %a...
type Packet struct {
	Stream  uint32
	Tag     int32
	Src     int32 // back-end rank that sent it; -1 once aggregated
	Count   int32 // ranks merged into it
	Time    int64 // virtual ns
	Reduced bool  // produced by a transformation filter (a partial result, not raw data)
	Values  []any
	// SentFirst and SentLast are when the earliest and the latest of the back-end packets
	// merged into this one were sent (virtual ns; both 0 when the sender did not say):
	// a front-end compares them with Time to see how long data spent in the tree.
	SentFirst, SentLast int64
}

// Scalar kinds of the MRNet format string.
type elemKind uint8

const (
	kInt elemKind = iota
	kUint
	kFloat
	kString
)

type fmtElem struct {
	spec  string // "%d", "%auc", ...
	kind  elemKind
	bits  int // 8, 16, 32, 64 for integers; 32 or 64 for floats
	array bool
}

// Format is a parsed MRNet format string such as "%d %lf %as".
type Format struct {
	src   string
	elems []fmtElem
}

var fmtScalars = map[string]fmtElem{
	"c": {kind: kInt, bits: 8}, "uc": {kind: kUint, bits: 8},
	"hd": {kind: kInt, bits: 16}, "uhd": {kind: kUint, bits: 16},
	"d": {kind: kInt, bits: 32}, "ud": {kind: kUint, bits: 32},
	"ld": {kind: kInt, bits: 64}, "uld": {kind: kUint, bits: 64},
	"f": {kind: kFloat, bits: 32}, "lf": {kind: kFloat, bits: 64},
	"s": {kind: kString},
}

// ParseFormat parses a format string: space-separated %c %uc %hd %uhd %d %ud %ld %uld %f
// %lf %s and their array forms %ac %auc ... %as.
func ParseFormat(s string) (*Format, error) {
	f := &Format{src: s}
	for _, tok := range strings.Fields(s) {
		if !strings.HasPrefix(tok, "%") {
			return nil, errorf("format %q: %q does not start with %%", s, tok)
		}
		name := tok[1:]
		array := false
		if e, ok := fmtScalars[name]; ok {
			e.spec = tok
			f.elems = append(f.elems, e)
			continue
		}
		if strings.HasPrefix(name, "a") {
			name, array = name[1:], true
		}
		e, ok := fmtScalars[name]
		if !ok || !array {
			return nil, errorf("format %q: unknown conversion %q", s, tok)
		}
		e.spec, e.array = tok, true
		f.elems = append(f.elems, e)
	}
	return f, nil
}

// ArgError names the argument of a send that does not match its format.
type ArgError struct {
	Index int // 1-based
	Spec  string
	Msg   string
}

// Unprefixed is the error's text without "netreduce: "; Error adds it.
func (e *ArgError) Unprefixed() string {
	return fmt.Sprintf("send: argument %d (%s): %s", e.Index, e.Spec, e.Msg)
}

func (e *ArgError) Error() string { return "netreduce: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *ArgError) Package() string { return "netreduce" }

// Pack checks args against the format and returns them as canonical values.
func (f *Format) Pack(args ...any) ([]any, error) {
	if len(args) != len(f.elems) {
		return nil, errorf("send: format %q wants %d values, got %d", f.src, len(f.elems), len(args))
	}
	out := make([]any, len(args))
	for i, a := range args {
		v, err := f.elems[i].convert(a)
		if err != nil {
			return nil, &ArgError{Index: i + 1, Spec: f.elems[i].spec, Msg: err.Error()}
		}
		out[i] = v
	}
	return out, nil
}

func (e fmtElem) convert(a any) (any, error) {
	if !e.array {
		return e.scalar(a)
	}
	items, ok := toSlice(a)
	if !ok {
		return nil, fmt.Errorf("want an array, got %T", a)
	}
	switch e.kind {
	case kInt:
		return convertAll[int64](e, items)
	case kUint:
		return convertAll[uint64](e, items)
	case kFloat:
		return convertAll[float64](e, items)
	default:
		return convertAll[string](e, items)
	}
}

func convertAll[T any](e fmtElem, items []any) ([]T, error) {
	out := make([]T, len(items))
	for i, it := range items {
		v, err := e.scalar(it)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i+1, err)
		}
		out[i] = v.(T)
	}
	return out, nil
}

// toSlice accepts the canonical slices and []any.
func toSlice(a any) ([]any, bool) {
	switch s := a.(type) {
	case []any:
		return s, true
	case []int64:
		return boxAll(s), true
	case []uint64:
		return boxAll(s), true
	case []float64:
		return boxAll(s), true
	case []string:
		return boxAll(s), true
	case []int:
		return boxAll(s), true
	}
	return nil, false
}

func boxAll[T any](s []T) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func (e fmtElem) scalar(a any) (any, error) {
	switch e.kind {
	case kString:
		s, ok := a.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %T", a)
		}
		return s, nil
	case kFloat:
		x, ok := asFloat(a)
		if !ok {
			return nil, fmt.Errorf("want a number, got %T", a)
		}
		if e.bits == 32 {
			x = float64(float32(x))
		}
		return x, nil
	}
	x, ok := asFloat(a)
	if !ok {
		return nil, fmt.Errorf("want an integer, got %T", a)
	}
	if i, isInt := a.(int64); isInt {
		return checkInt(e, i, float64(i))
	}
	if u, isUint := a.(uint64); isUint {
		if e.kind == kUint && (e.bits == 64 || u < 1<<e.bits) {
			return u, nil
		}
		return nil, fmt.Errorf("%d out of range", u)
	}
	if x != math.Trunc(x) || math.IsInf(x, 0) {
		return nil, fmt.Errorf("%v is not an integer", x)
	}
	if x >= 9.3e18 || x < -9.3e18 {
		return nil, fmt.Errorf("%v out of range", x)
	}
	return checkInt(e, int64(x), x)
}

func checkInt(e fmtElem, i int64, x float64) (any, error) {
	if e.kind == kUint {
		if i < 0 || (e.bits < 64 && i >= 1<<e.bits) {
			return nil, fmt.Errorf("%v out of range for %d-bit unsigned", x, e.bits)
		}
		return uint64(i), nil
	}
	if e.bits < 64 && (i < -(1<<(e.bits-1)) || i >= 1<<(e.bits-1)) {
		return nil, fmt.Errorf("%v out of range for %d-bit signed", x, e.bits)
	}
	return i, nil
}

// asFloat reads any Go number.
func asFloat(a any) (float64, bool) {
	switch v := a.(type) {
	case int:
		return float64(v), true
	case int32:
		return float64(v), true
	case int64:
		return float64(v), true
	case uint64:
		return float64(v), true
	case uint32:
		return float64(v), true
	case float64:
		return v, true
	case float32:
		return float64(v), true
	}
	return 0, false
}

// NewPacket builds a raw packet after checking args against format.
func NewPacket(tag int, format string, args ...any) (*Packet, error) {
	f, err := ParseFormat(format)
	if err != nil {
		return nil, err
	}
	vals, err := f.Pack(args...)
	if err != nil {
		return nil, err
	}
	return &Packet{Tag: int32(tag), Src: -1, Count: 1, Values: vals}, nil
}
