package ppc

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

func loadFile(t testing.TB, path string) *Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := LoadELF(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// stackView is the initial stack read back from a process's memory.
type stackView struct {
	args, env []string
	aux       []AuxEntry
	argv      uint32
}

func readCString(t *testing.T, m *Memory, a uint32) string {
	var b []byte
	for ; ; a++ {
		c, err := m.Read8(a)
		if err != nil {
			t.Fatalf("string at 0x%08x: %v", a, err)
		}
		if c == 0 {
			return string(b)
		}
		b = append(b, c)
	}
}

func readStack(t *testing.T, c *CPU) stackView {
	m, sp := c.Mem, c.GPR[1]
	argc, _ := m.Read32(sp)
	v := stackView{argv: sp + 4}
	a := sp + 4
	for i := uint32(0); i < argc; i++ {
		p, _ := m.Read32(a)
		v.args = append(v.args, readCString(t, m, p))
		a += 4
	}
	if p, _ := m.Read32(a); p != 0 {
		t.Fatalf("argv[argc] = 0x%08x, want NULL", p)
	}
	for a += 4; ; a += 4 {
		p, _ := m.Read32(a)
		if p == 0 {
			break
		}
		v.env = append(v.env, readCString(t, m, p))
	}
	aux, err := ReadAuxv(m, sp)
	if err != nil {
		t.Fatal(err)
	}
	v.aux = aux[:len(aux)-1]
	return v
}

// parseAuxvOutput reads what testdata/exec/auxv.c prints.
func parseAuxvOutput(t *testing.T, out []byte) stackView {
	var v stackView
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), " ", 3)
		switch f[0] {
		case "argv":
			v.args = append(v.args, f[2])
		case "env":
			v.env = append(v.env, strings.Join(f[1:], " "))
		case "auxv":
			tag, _ := strconv.ParseUint(f[1], 10, 32)
			val, _ := strconv.ParseUint(f[2], 0, 32)
			v.aux = append(v.aux, AuxEntry{uint32(tag), uint32(val)})
		case "argv@":
			a, _ := strconv.ParseUint(f[1], 0, 32)
			v.argv = uint32(a)
		}
	}
	return v
}

// TestInitialStackMatchesQEMU loads a static glibc binary and compares the stack the
// loader builds with the one qemu-ppc -cpu 440epx builds (printed by the program itself).
// Everything is equal, addresses included, except: the AT_RANDOM bytes (seeded here,
// random in qemu; their address is the same), and the order of envp, which qemu reverses
// (its environment list is built by prepending) while Linux and this loader keep it.
func TestInitialStackMatchesQEMU(t *testing.T) {
	qemu := oracletest.Require(t, oracletest.QEMU)
	path := execProg("auxv")
	args := []string{"one", "two words", ""}
	env := []string{"A=1", "B=two", "PATH=/bin"}
	cmd := exec.Command(qemu, append([]string{"-cpu", "440epx", path}, args...)...)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("qemu-ppc: %v", err)
	}
	want := parseAuxvOutput(t, out)
	slices.Reverse(want.env)

	img := loadFile(t, path)
	c, err := img.NewProcess(ProcessConfig{Args: append([]string{path}, args...), Env: env, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	got := readStack(t, c)
	if !slices.Equal(got.args, want.args) {
		t.Errorf("argv %q, qemu %q", got.args, want.args)
	}
	if !slices.Equal(got.env, want.env) {
		t.Errorf("envp %q, qemu (reversed back) %q", got.env, want.env)
	}
	if got.argv != want.argv {
		t.Errorf("argv at 0x%08x, qemu 0x%08x", got.argv, want.argv)
	}
	if !slices.Equal(got.aux, want.aux) {
		t.Errorf("auxv differs:\n got %v\nqemu %v", got.aux, want.aux)
	}
	if c.PC != img.Entry {
		t.Errorf("PC 0x%08x, entry 0x%08x", c.PC, img.Entry)
	}
}

func TestAuxvContents(t *testing.T) {
	img := loadFile(t, execProg("auxv"))
	c, err := img.NewProcess(ProcessConfig{Args: []string{"prog"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	aux, err := ReadAuxv(c.Mem, c.GPR[1])
	if err != nil {
		t.Fatal(err)
	}
	vals := map[uint32]uint32{}
	for _, e := range aux {
		vals[e.Tag] = e.Val
	}
	for tag, want := range map[uint32]uint32{
		AT_HWCAP: 0x0a008000, AT_DCACHEBSIZE: 32, AT_ICACHEBSIZE: 32, AT_PAGESZ: 4096,
		AT_PHENT: 32, AT_ENTRY: img.Entry, AT_HWCAP2: 0,
	} {
		if vals[tag] != want {
			t.Errorf("auxv[%d] = 0x%x, want 0x%x", tag, vals[tag], want)
		}
	}
	r1 := make([]byte, 16)
	if err := c.Mem.Read(vals[AT_RANDOM], r1); err != nil {
		t.Fatal(err)
	}
	c2, _ := img.NewProcess(ProcessConfig{Args: []string{"prog"}, Seed: 2})
	r2 := make([]byte, 16)
	c2.Mem.Read(vals[AT_RANDOM], r2)
	if bytes.Equal(r1, r2) || !bytes.Equal(r1, randomBytes(1)) {
		t.Errorf("AT_RANDOM bytes do not follow the seed: %x, %x", r1, r2)
	}
	if execfn := readCString(t, c.Mem, vals[AT_EXECFN]); execfn != "prog" {
		t.Errorf("AT_EXECFN %q", execfn)
	}
}

func TestImageLayout(t *testing.T) {
	img := loadFile(t, execProg("auxv"))
	if !img.Text.Contains(img.Entry) {
		t.Errorf("entry outside text %v", img.Text)
	}
	r := img.InstrRegion
	if uint64(img.Text.Start)-uint64(r.Start) > branchReach || img.Text.End()-uint64(r.Start) > branchReach {
		t.Errorf("instrumentation region %x+%x out of branch reach of text %x+%x", r.Start, r.Size, img.Text.Start, img.Text.Size)
	}
	for _, s := range img.Segments {
		if (Region{s.Vaddr, s.Memsz}).overlaps(r) {
			t.Errorf("region overlaps segment at 0x%x", s.Vaddr)
		}
	}
	if img.Brk() < uint32(pageRegion(img.Segments[len(img.Segments)-1].Vaddr, img.Segments[len(img.Segments)-1].Memsz).End()) {
		t.Errorf("brk 0x%x inside the image", img.Brk())
	}
	if r.Contains(img.Brk()) || img.Stack.Contains(img.Brk()) {
		t.Errorf("brk 0x%x inside a reserved region", img.Brk())
	}
	if s, ok := img.Lookup("main"); !ok || s.Kind != SymFunc || !img.Text.Contains(s.Addr) {
		t.Errorf("symbol main: %+v %v", s, ok)
	}
	if _, err := img.NewProcess(ProcessConfig{Args: []string{string(make([]byte, maxStackStrings))}}); err == nil {
		t.Error("oversized argv accepted")
	}
	c, _ := img.NewProcess(ProcessConfig{Args: []string{"x"}})
	if c.Mem.Perm(r.Start) != PermRWX {
		t.Errorf("region perm %v", c.Mem.Perm(r.Start))
	}
}

// elfHeader builds a minimal ELF32 file: header, n program headers, and payload.
func elfHeader(class, data byte, machine, typ uint16, progs []elf.Prog32, payload []byte) []byte {
	var b bytes.Buffer
	ident := [16]byte{0x7f, 'E', 'L', 'F', class, data, 1}
	b.Write(ident[:])
	var bo binary.ByteOrder = binary.BigEndian
	if data == byte(elf.ELFDATA2LSB) {
		bo = binary.LittleEndian
	}
	h := elf.Header32{Type: typ, Machine: machine, Version: 1, Entry: 0x10000000, Phoff: 52,
		Ehsize: 52, Phentsize: 32, Phnum: uint16(len(progs)), Shentsize: 40}
	binary.Write(&b, bo, struct {
		Type, Machine       uint16
		Version, Entry      uint32
		Phoff, Shoff, Flags uint32
		Ehsize, Phentsize   uint16
		Phnum, Shentsize    uint16
		Shnum, Shstrndx     uint16
	}{h.Type, h.Machine, h.Version, h.Entry, h.Phoff, 0, 0, h.Ehsize, h.Phentsize, h.Phnum, h.Shentsize, 0, 0})
	for _, p := range progs {
		binary.Write(&b, bo, p)
	}
	b.Write(payload)
	return b.Bytes()
}

// elf64Header is the header of a 64-bit little-endian executable for machine, with no
// segments: what the first bytes of the host's /bin/ls say.
func elf64Header(machine elf.Machine) []byte {
	var b bytes.Buffer
	ident := [16]byte{0x7f, 'E', 'L', 'F', byte(elf.ELFCLASS64), byte(elf.ELFDATA2LSB), 1}
	b.Write(ident[:])
	binary.Write(&b, binary.LittleEndian, struct {
		Type, Machine              uint16
		Version                    uint32
		Entry, Phoff, Shoff        uint64
		Flags                      uint32
		Ehsize, Phentsize, Phnum   uint16
		Shentsize, Shnum, Shstrndx uint16
	}{Type: uint16(elf.ET_EXEC), Machine: uint16(machine), Version: 1, Entry: 0x401000, Ehsize: 64, Phentsize: 56, Shentsize: 64})
	return b.Bytes()
}

func loadProg(vaddr, off, filesz, memsz uint32, flags elf.ProgFlag) elf.Prog32 {
	return elf.Prog32{Type: uint32(elf.PT_LOAD), Off: off, Vaddr: vaddr, Paddr: vaddr, Filesz: filesz, Memsz: memsz, Flags: uint32(flags), Align: 4096}
}

func TestLoadErrors(t *testing.T) {
	code := loadProg(0x10000000, 0, 200, 200, elf.PF_R|elf.PF_X)
	be, ppc, exe := byte(elf.ELFDATA2MSB), uint16(elf.EM_PPC), uint16(elf.ET_EXEC)
	c32 := byte(elf.ELFCLASS32)
	pad := make([]byte, 200)
	tests := []struct {
		name string
		file []byte
		want string
		is   error
	}{
		{"good", elfHeader(c32, be, ppc, exe, []elf.Prog32{code}, pad), "", nil},
		{"not elf", []byte("\x00\x01binary\xff"), "not a readable ELF file", nil},
		{"script", []byte("#!/bin/sh\n"), "the file is text, not an executable", nil},
		{"C source", []byte("#include <stdio.h>\nint main(void) { puts(\"héllo\"); }\n"), "(C source?); compile it for the Blue Gene/L first: dpclsh cc -g", nil},
		{"machine", elfHeader(c32, be, uint16(elf.EM_X86_64), exe, []elf.Prog32{code}, pad), "an x86-64 program (ELFCLASS32, EM_X86_64), not a 32-bit PowerPC one; compile it", nil},
		{"other machine", elfHeader(c32, be, uint16(elf.EM_SPARC), exe, []elf.Prog32{code}, pad), "an EM_SPARC program", nil},
		{"class", elfHeader(byte(elf.ELFCLASS64), be, ppc, exe, nil, pad), "", nil},
		// /bin/ls on the host: named for what it is, not as debug/elf's wrong class.
		{"host program", elf64Header(elf.EM_X86_64),
			"an x86-64 program (ELFCLASS64, EM_X86_64), not a 32-bit PowerPC one; compile it for the Blue Gene/L first: dpclsh cc -g", nil},
		{"endian", elfHeader(c32, byte(elf.ELFDATA2LSB), ppc, exe, []elf.Prog32{code}, pad), "wrong byte order", nil},
		{"dynamic", elfHeader(c32, be, ppc, exe, []elf.Prog32{code, {Type: uint32(elf.PT_INTERP), Off: 0, Filesz: 10}}, pad), "has PT_INTERP", ErrNotStatic},
		{"pie", elfHeader(c32, be, ppc, uint16(elf.ET_DYN), []elf.Prog32{code}, pad), "ET_DYN", ErrNotStatic},
		{"truncated", elfHeader(c32, be, ppc, exe, []elf.Prog32{loadProg(0x10000000, 0, 5000, 5000, elf.PF_R|elf.PF_X)}, pad), "truncated", nil},
		{"overlap", elfHeader(c32, be, ppc, exe, []elf.Prog32{code, loadProg(0x10000080, 0, 16, 16, elf.PF_R|elf.PF_W)}, pad), "overlaps", nil},
		{"filesz", elfHeader(c32, be, ppc, exe, []elf.Prog32{loadProg(0x10000000, 0, 200, 100, elf.PF_R|elf.PF_X)}, pad), "exceeds memory size", nil},
		{"wrap", elfHeader(c32, be, ppc, exe, []elf.Prog32{code, loadProg(0xfffff000, 0, 16, 0x2000, elf.PF_R)}, pad), "wraps", nil},
		{"no text", elfHeader(c32, be, ppc, exe, []elf.Prog32{loadProg(0x10000000, 0, 200, 200, elf.PF_R|elf.PF_W)}, pad), "no executable segment", nil},
		{"stack", elfHeader(c32, be, ppc, exe, []elf.Prog32{code, loadProg(0x40000000, 0, 16, 0x10000, elf.PF_R|elf.PF_W)}, pad), "collides with the stack", nil},
		{"entry", elfHeader(c32, be, ppc, exe, []elf.Prog32{loadProg(0x10001000, 0, 200, 200, elf.PF_R|elf.PF_X)}, pad), "entry point", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadELF(bytes.NewReader(tt.file))
			if tt.name == "good" {
				if err != nil {
					t.Fatalf("good file: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("loaded a bad file")
			}
			var le *ELFError
			if !errors.As(err, &le) {
				t.Errorf("error %T is not *ELFError: %v", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "ppc: load ELF: ") {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
		})
	}
}

func FuzzLoadELF(f *testing.F) {
	for _, name := range []string{"hello", "faults"} {
		b, err := os.ReadFile(execProg(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:4096])
	}
	code := loadProg(0x10000000, 0, 200, 200, elf.PF_R|elf.PF_X)
	f.Add(elfHeader(byte(elf.ELFCLASS32), byte(elf.ELFDATA2MSB), uint16(elf.EM_PPC), uint16(elf.ET_EXEC), []elf.Prog32{code}, make([]byte, 200)))
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := LoadELF(bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "ppc: ") {
				t.Fatalf("error without package prefix: %v", err)
			}
			return
		}
		c, err := img.NewProcess(ProcessConfig{Args: []string{"fuzz"}})
		if err != nil {
			return
		}
		// Whatever was loaded must run without a Go panic.
		c.Run(1000)
		_ = fmt.Sprint(c.PC)
	})
}
