package probes

import (
	"bytes"
	"encoding/binary"
	"os"
	"testing"
)

// FuzzLoadProgram feeds mangled ELF files to the loader and the point scanner: errors are
// fine, panics are not.
func FuzzLoadProgram(f *testing.F) {
	for _, name := range []string{"points-O2.elf"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:4096])
	}
	f.Add([]byte("\x7fELF\x01\x02\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		prog, err := loadProgram(data)
		if err != nil {
			return
		}
		for _, fn := range prog.Funcs {
			for _, k := range []PointKind{PointEntry, PointExit, PointCall} {
				_, _ = prog.Points(fn, k)
			}
		}
		for _, name := range prog.Image().ObjectNames() {
			if g, err := prog.Global(name); err == nil && g.Shape != nil && g.Shape.Kind == CStruct && len(g.Shape.Fields) > 0 {
				_, _ = Member(g, g.Shape.Fields[0].Name)
			}
		}
	})
}

// FuzzGlobals mangles the DWARF of globals.elf (the bytes after its code) and reads every
// global: a type the reader cannot use is an error, never a panic.
func FuzzGlobals(f *testing.F) {
	data, err := os.ReadFile("testdata/globals.elf")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint32(len(data)-1), byte(0))
	f.Add(uint32(len(data)/2), byte(0xff))
	f.Fuzz(func(t *testing.T, at uint32, b byte) {
		mangled := bytes.Clone(data)
		mangled[int(at)%len(mangled)] ^= b
		prog, err := loadProgram(mangled)
		if err != nil {
			return
		}
		for _, name := range []string{"grid", "counter", "table", "matrix", "gp", "un", "bits"} {
			if g, err := prog.Global(name); err == nil {
				_, _ = Check(g)
			}
		}
	})
}

// FuzzDecodeSend checks that any byte string decodes or fails cleanly, and that decoded
// values re-encode to the same bytes.
func FuzzDecodeSend(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		tag, vals, err := DecodeSend(data)
		if err != nil {
			return
		}
		out := binary.BigEndian.AppendUint32(nil, tag)
		out = binary.BigEndian.AppendUint32(out, uint32(len(vals)))
		for _, v := range vals {
			out = binary.BigEndian.AppendUint32(out, sendKinds[v.T])
			out = binary.BigEndian.AppendUint32(out, 0)
			bits := v.Bits()
			if v.T == Int {
				bits = uint64(v.I)
			}
			out = binary.BigEndian.AppendUint64(out, bits)
		}
		for i := range out {
			// The pad word and the high half of an int record are not checked on decode.
			if rec := i - SendHeaderSize; rec >= 0 && (rec%SendRecordSize >= 4 && rec%SendRecordSize < 12) {
				continue
			}
			if out[i] != data[i] {
				t.Fatalf("byte %d: re-encoded %x, decoded from %x", i, out, data)
			}
		}
	})
}

// FuzzRelocate builds a trampoline around any word at a point and, when the word is one
// the 440 runs, checks the relocated code ends with a way back.
func FuzzRelocate(f *testing.F) {
	for _, w := range []uint32{0x4e800020, 0x4d820020, 0x48000011, 0x429f0005, 0x4e800421, 0x7c632214, 0x41820010} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w uint32) {
		tr, err := BuildTrampoline(Point{Kind: PointExit, Addr: 0x10000100, Word: w}, nil, nil, 0x0f000000, 0)
		if err != nil {
			return
		}
		if tr.Size() == 0 || tr.Patch>>26 != 18 {
			t.Fatalf("word %#x: trampoline %v", w, tr.Words)
		}
	})
}
