package ppc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestDamagedHeadersNameTheField damages the headers of a real static executable in the
// ways a truncated copy or a bit flip does: every error must name the field and its
// offset, not only debug/elf's "EOF".
func TestDamagedHeadersNameTheField(t *testing.T) {
	good, err := os.ReadFile(execProg("hello"))
	if err != nil {
		t.Fatal(err)
	}
	be := binary.BigEndian
	shoff := int(be.Uint32(good[0x20:]))
	edit := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	tests := []struct {
		name string
		file []byte
		want string
		off  int64
	}{
		{"cut in e_ident", good[:10], "e_ident needs 16 bytes at offset 0x0", 0},
		{"cut in e_phoff", good[:30], "e_phoff needs 4 bytes at offset 0x1c", 0x1c},
		{"cut in e_shstrndx", good[:51], "e_shstrndx needs 2 bytes at offset 0x32", 0x32},
		{"e_phnum too big", edit(func(b []byte) []byte { be.PutUint16(b[0x2c:], 0xffff); return b }), "e_phnum (at offset 0x2c) = 65535", 0x1c},
		{"e_phoff past the end", edit(func(b []byte) []byte { be.PutUint32(b[0x1c:], 0x7fffff00); return b }), "e_phoff (at offset 0x1c) = 0x7fffff00", 0x1c},
		{"e_shoff past the end", edit(func(b []byte) []byte { be.PutUint32(b[0x20:], 0x7fffff00); return b }), "e_shoff (at offset 0x20) = 0x7fffff00", 0x20},
		{"section table cut off", good[:shoff+100], "e_shoff (at offset 0x20)", 0x20},
		{"e_shentsize too small", edit(func(b []byte) []byte { be.PutUint16(b[0x2e:], 8); return b }), "e_shentsize (at offset 0x2e) is 8, want 40", 0x2e},
		{"e_shstrndx", edit(func(b []byte) []byte { be.PutUint16(b[0x32:], 0xfff0); return b }), "e_shstrndx (at offset 0x32) is 65520", 0x32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadELF(bytes.NewReader(tt.file))
			var le *ELFError
			if !errors.As(err, &le) {
				t.Fatalf("error %T: %v", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) || le.Offset != tt.off {
				t.Errorf("error %q (offset %d) does not say %q at offset %d", err, le.Offset, tt.want, tt.off)
			}
		})
	}
}
