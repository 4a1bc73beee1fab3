package netreduce

import (
	"encoding/binary"
	"math"
	"sort"
)

// The binary encoding of messages for the TCP transport: varints for integers, IEEE
// doubles little-endian, length-prefixed strings, and one type byte before each value.
// A packet shared by reference in a node is encoded once per link.

type valueType uint8

const (
	vtInt64 valueType = iota + 1
	vtUint64
	vtFloat64
	vtString
	vtInt64s
	vtUint64s
	vtFloat64s
	vtStrings
	vtBool
	vtList
	vtMap
)

// maxNest bounds nested parameter tables in a decoded message.
const maxNest = 16

type encoder struct{ b []byte }

func (e *encoder) uvarint(x uint64) { e.b = binary.AppendUvarint(e.b, x) }
func (e *encoder) varint(x int64)   { e.b = binary.AppendVarint(e.b, x) }
func (e *encoder) byte1(x byte)     { e.b = append(e.b, x) }
func (e *encoder) str(s string)     { e.uvarint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *encoder) bytes(s []byte)   { e.uvarint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *encoder) f64(x float64)    { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(x)) }

// AppendBatch appends the encoding of a batch of messages to b.
func AppendBatch(b []byte, batch []Msg) ([]byte, error) {
	e := &encoder{b: b}
	e.uvarint(uint64(len(batch)))
	for i := range batch {
		if err := e.msg(&batch[i]); err != nil {
			return nil, err
		}
	}
	return e.b, nil
}

func (e *encoder) msg(m *Msg) error {
	e.byte1(byte(m.Kind))
	e.varint(int64(m.From))
	e.varint(int64(m.To))
	e.uvarint(uint64(m.Stream))
	e.varint(int64(m.Origin))
	e.uvarint(m.Seq)
	e.varint(m.Time)
	e.str(m.Text)
	e.uvarint(uint64(len(m.Ranks)))
	for _, r := range m.Ranks {
		e.varint(int64(r))
	}
	if m.Packet == nil {
		e.byte1(0)
	} else {
		e.byte1(1)
		if err := e.packet(m.Packet); err != nil {
			return err
		}
	}
	if m.Spec == nil {
		e.byte1(0)
		return nil
	}
	e.byte1(1)
	return e.spec(m.Spec)
}

func (e *encoder) packet(p *Packet) error {
	e.uvarint(uint64(p.Stream))
	e.varint(int64(p.Tag))
	e.varint(int64(p.Src))
	e.varint(int64(p.Count))
	e.varint(p.Time)
	e.varint(p.SentFirst)
	e.varint(p.SentLast)
	if p.Reduced {
		e.byte1(1)
	} else {
		e.byte1(0)
	}
	e.uvarint(uint64(len(p.Values)))
	for _, v := range p.Values {
		if err := e.value(v, 0); err != nil {
			return err
		}
	}
	return nil
}

func (e *encoder) value(v any, depth int) error {
	if depth > maxNest {
		return errorf("encode: values nested too deeply")
	}
	switch x := v.(type) {
	case int64:
		e.byte1(byte(vtInt64))
		e.varint(x)
	case uint64:
		e.byte1(byte(vtUint64))
		e.uvarint(x)
	case float64:
		e.byte1(byte(vtFloat64))
		e.f64(x)
	case string:
		e.byte1(byte(vtString))
		e.str(x)
	case bool:
		e.byte1(byte(vtBool))
		if x {
			e.byte1(1)
		} else {
			e.byte1(0)
		}
	case []any:
		e.byte1(byte(vtList))
		e.uvarint(uint64(len(x)))
		for _, y := range x {
			if err := e.value(y, depth+1); err != nil {
				return err
			}
		}
	case map[string]any:
		e.byte1(byte(vtMap))
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		e.uvarint(uint64(len(keys)))
		for _, k := range keys {
			e.str(k)
			if err := e.value(x[k], depth+1); err != nil {
				return err
			}
		}
	default:
		if !e.slice(v) {
			return errorf("encode: a %T cannot travel in a packet", v)
		}
	}
	return nil
}

// slice encodes the typed arrays; false when v is none of them.
func (e *encoder) slice(v any) bool {
	switch x := v.(type) {
	case []int64:
		e.byte1(byte(vtInt64s))
		e.uvarint(uint64(len(x)))
		for _, y := range x {
			e.varint(y)
		}
	case []uint64:
		e.byte1(byte(vtUint64s))
		e.uvarint(uint64(len(x)))
		for _, y := range x {
			e.uvarint(y)
		}
	case []float64:
		e.byte1(byte(vtFloat64s))
		e.uvarint(uint64(len(x)))
		for _, y := range x {
			e.f64(y)
		}
	case []string:
		e.byte1(byte(vtStrings))
		e.uvarint(uint64(len(x)))
		for _, y := range x {
			e.str(y)
		}
	default:
		return false
	}
	return true
}

func (e *encoder) spec(s *StreamSpec) error {
	e.uvarint(uint64(s.ID))
	if s.Backends == nil {
		e.varint(-1)
	} else {
		e.varint(int64(s.Backends.Size()))
		runs := s.Backends.runs()
		e.uvarint(uint64(len(runs)))
		for _, run := range runs {
			e.uvarint(uint64(run[0]))
			e.uvarint(uint64(run[1] - run[0]))
		}
	}
	for _, f := range []*FilterSpec{s.Up, s.Down} {
		if f == nil {
			e.byte1(0)
			continue
		}
		e.byte1(1)
		e.str(f.Name)
		e.str(f.Kind)
		e.bytes(f.Source)
		e.str(f.Origin)
		e.varint(f.Deadline)
		params := map[string]any{}
		if f.Params != nil {
			params = f.Params
		}
		if err := e.value(params, 0); err != nil {
			return err
		}
	}
	e.byte1(byte(s.Sync))
	e.varint(s.Timeout)
	return nil
}

// errShort is returned for truncated or malformed input.
var errShort = errorf("decode: truncated or malformed message")

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errShort
	}
}

func (d *decoder) uvarint() uint64 {
	x, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return x
}

func (d *decoder) varint() int64 {
	x, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return x
}

func (d *decoder) int32() int32 {
	x := d.varint()
	if x < math.MinInt32 || x > math.MaxInt32 {
		d.fail()
	}
	return int32(x)
}

func (d *decoder) byte1() byte {
	if len(d.b) < 1 {
		d.fail()
		return 0
	}
	x := d.b[0]
	d.b = d.b[1:]
	return x
}

// count reads a length and checks that at least min bytes per item remain.
func (d *decoder) count(min int) int {
	n := d.uvarint()
	if n > uint64(len(d.b)/min) {
		d.fail()
		d.b = nil
		return 0
	}
	return int(n)
}

func (d *decoder) raw() []byte {
	n := d.count(1)
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

func (d *decoder) str() string { return string(d.raw()) }

func (d *decoder) f64() float64 {
	if len(d.b) < 8 {
		d.fail()
		d.b = nil
		return 0
	}
	x := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return x
}

// DecodeBatch decodes a batch encoded by AppendBatch.
func DecodeBatch(b []byte) ([]Msg, error) {
	d := &decoder{b: b}
	n := d.count(10)
	out := make([]Msg, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		out = append(out, d.msg())
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errorf("decode: %d trailing bytes", len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}

func (d *decoder) msg() Msg {
	m := Msg{Kind: MsgKind(d.byte1())}
	if m.Kind == 0 || m.Kind >= msgKinds {
		d.fail()
	}
	m.From, m.To = d.int32(), d.int32()
	m.Stream = uint32(d.uvarint())
	m.Origin = d.int32()
	m.Seq = d.uvarint()
	m.Time = d.varint()
	m.Text = d.str()
	if n := d.count(1); n > 0 {
		m.Ranks = make([]int32, n)
		for i := range m.Ranks {
			m.Ranks[i] = d.int32()
		}
	}
	if d.byte1() == 1 {
		m.Packet = d.packet()
	}
	if d.byte1() == 1 {
		m.Spec = d.spec()
	}
	return m
}

func (d *decoder) packet() *Packet {
	p := &Packet{Stream: uint32(d.uvarint()), Tag: d.int32(), Src: d.int32(), Count: d.int32(), Time: d.varint()}
	p.SentFirst, p.SentLast = d.varint(), d.varint()
	p.Reduced = d.byte1() == 1
	n := d.count(2)
	p.Values = make([]any, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		p.Values = append(p.Values, d.value(0))
	}
	return p
}

func (d *decoder) value(depth int) any {
	if depth > maxNest {
		d.fail()
		return nil
	}
	switch valueType(d.byte1()) {
	case vtInt64:
		return d.varint()
	case vtUint64:
		return d.uvarint()
	case vtFloat64:
		return d.f64()
	case vtString:
		return d.str()
	case vtBool:
		return d.byte1() == 1
	case vtInt64s:
		return decodeSlice(d, 1, (*decoder).varint)
	case vtUint64s:
		return decodeSlice(d, 1, (*decoder).uvarint)
	case vtFloat64s:
		return decodeSlice(d, 8, (*decoder).f64)
	case vtStrings:
		return decodeSlice(d, 1, (*decoder).str)
	case vtList:
		return decodeSlice(d, 1, func(d *decoder) any { return d.value(depth + 1) })
	case vtMap:
		n := d.count(2)
		m := make(map[string]any, n)
		for i := 0; i < n && d.err == nil; i++ {
			k := d.str()
			m[k] = d.value(depth + 1)
		}
		return m
	}
	d.fail()
	return nil
}

func decodeSlice[T any](d *decoder, min int, item func(*decoder) T) []T {
	n := d.count(min)
	out := make([]T, n)
	for i := 0; i < n && d.err == nil; i++ {
		out[i] = item(d)
	}
	return out
}

func (d *decoder) spec() *StreamSpec {
	s := &StreamSpec{ID: uint32(d.uvarint())}
	if u := d.varint(); u >= 0 {
		if u > 1<<24 {
			d.fail()
			return s
		}
		s.Backends = d.rankSet(int(u))
	}
	s.Up, s.Down = d.filterSpec(), d.filterSpec()
	s.Sync = SyncMode(d.byte1())
	if s.Sync > DontWait {
		d.fail()
	}
	s.Timeout = d.varint()
	return s
}

func (d *decoder) filterSpec() *FilterSpec {
	if d.byte1() != 1 {
		return nil
	}
	f := &FilterSpec{Name: d.str(), Kind: d.str()}
	if src := d.raw(); len(src) > 0 {
		f.Source = append([]byte(nil), src...)
	}
	f.Origin = d.str()
	f.Deadline = d.varint()
	if p, ok := d.value(0).(map[string]any); ok {
		f.Params = p
	} else {
		d.fail()
	}
	return f
}

// rankSet reads a back-end set over [0, n) as ascending [start, start+length) runs; runs
// out of order or past n fail the batch.
func (d *decoder) rankSet(n int) *RankSet {
	set, next := NewRankSet(n), 0
	count := d.uvarint()
	for i := uint64(0); i < count && d.err == nil; i++ {
		start, length := d.uvarint(), d.uvarint()
		if start < uint64(next) || length == 0 || length > uint64(n) || start > uint64(n)-length {
			d.fail()
			return set
		}
		for r := int(start); r < int(start+length); r++ {
			set.Add(r)
		}
		next = int(start + length)
	}
	return set
}
