package shard

import (
	"bytes"
	"strings"
	"testing"
)

func TestSingleExchangeGivesBackWhatWasSent(t *testing.T) {
	s := Single()
	if s.Rank() != 0 || s.Size() != 1 {
		t.Fatalf("Single is process %d of %d, want 0 of 1", s.Rank(), s.Size())
	}
	out := AppendRecord(AppendRecord(nil, []byte("first")), []byte("second"))
	in, err := s.Exchange([][]byte{out})
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 1 || !bytes.Equal(in[0], out) {
		t.Fatalf("Exchange gave %q, want [%q]", in, out)
	}
	vals := []int64{3, -1}
	if err := s.Allreduce(Min, vals); err != nil || vals[0] != 3 || vals[1] != -1 {
		t.Fatalf("Allreduce of one process changed %v (err %v)", vals, err)
	}
	if err := s.Barrier(); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Exchanges != 1 || st.Reductions != 2 || st.BytesSent != 0 {
		t.Fatalf("stats %+v, want 1 exchange, 2 reductions, nothing sent", st)
	}
}

func TestExchangeWantsOneBufferPerProcess(t *testing.T) {
	_, err := Single().Exchange([][]byte{nil, nil})
	if err == nil || !strings.Contains(err.Error(), "2 buffers among 1 processes") {
		t.Fatalf("err = %v, want the counts named", err)
	}
	if err := Single().Allreduce(Op(9), []int64{1}); err == nil || !strings.Contains(err.Error(), "Op(9)") {
		t.Fatalf("err = %v, want the unknown operation named", err)
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	recs := [][]byte{[]byte("a"), nil, bytes.Repeat([]byte{0xff}, 300), []byte("end")}
	var buf []byte
	for _, r := range recs {
		buf = AppendRecord(buf, r)
	}
	got, err := Records(buf, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("%d records back, want %d", len(got), len(recs))
	}
	for i := range recs {
		if !bytes.Equal(got[i], recs[i]) {
			t.Errorf("record %d = %q, want %q", i, got[i], recs[i])
		}
	}
	// A record's slice must not let an append overwrite the next one.
	before := bytes.Clone(buf)
	_ = append(got[0], 'X')
	if !bytes.Equal(buf, before) {
		t.Fatalf("appending to a record changed the buffer: %q", buf)
	}
}

func TestRecordsNameWhatIsBroken(t *testing.T) {
	good := AppendRecord(nil, []byte("hello"))
	for _, tc := range []struct {
		name string
		buf  []byte
		want string
	}{
		{"stray bytes", append(append([]byte{}, good...), 0, 0), "records from process 3: 2 stray bytes at offset 9"},
		{"length past the end", good[:len(good)-1], "record at offset 0 claims 5 bytes, 4 remain"},
	} {
		_, err := Records(tc.buf, 3)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}
