package shard

import (
	"encoding/binary"
	"fmt"
)

// The records a process sends another at a window end are packed in one buffer, each as a
// 4-byte big-endian length followed by its bytes, so that any number of them of any kind
// travel in one Exchange and the receiver takes them back in the order they were put.

// AppendRecord appends rec to buf as one length-prefixed record.
func AppendRecord(buf, rec []byte) []byte {
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(rec)))
	return append(buf, rec...)
}

// Records splits a buffer made by AppendRecord into its records (sub-slices of buf). A
// buffer cut short or with a length past its end is an error naming the offset, the
// sending process (from) and the lengths.
func Records(buf []byte, from int) ([][]byte, error) {
	var out [][]byte
	for off := 0; off < len(buf); {
		if len(buf)-off < 4 {
			return out, fmt.Errorf("shard: records from process %d: %d stray bytes at offset %d, shorter than a length", from, len(buf)-off, off)
		}
		n := int(binary.BigEndian.Uint32(buf[off:]))
		if n > len(buf)-off-4 {
			return out, fmt.Errorf("shard: records from process %d: record at offset %d claims %d bytes, %d remain", from, off, n, len(buf)-off-4)
		}
		out = append(out, buf[off+4:off+4+n:off+4+n])
		off += 4 + n
	}
	return out, nil
}
