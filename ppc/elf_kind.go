package ppc

import (
	"bytes"
	"debug/elf"
	"io"
	"unicode/utf8"
)

// buildHint is what a user who handed over something other than a Blue Gene/L program
// needs next.
const buildHint = "compile it for the Blue Gene/L first: dpclsh cc -g -o prog.elf prog.c"

// textFile returns an *ELFError when r is not ELF at all but text (C source, a script),
// and nil otherwise: debug/elf would call it a "bad magic number" and print its bytes.
func textFile(r io.ReaderAt) *ELFError {
	head := make([]byte, 512)
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	if n == 0 || bytes.HasPrefix(head, []byte(elf.ELFMAG)) || bytes.IndexByte(head, 0) >= 0 {
		return nil
	}
	// A cut multi-byte character at the end of the sample is still text.
	for i := 0; i < 3 && len(head) > 0 && !utf8.Valid(head); i++ {
		head = head[:len(head)-1]
	}
	if !utf8.Valid(head) {
		return nil
	}
	return &ELFError{Offset: -1, Reason: "the file is text, not an executable (C source?); " + buildHint}
}

// machineNames says what kind of computer a foreign executable is for.
var machineNames = map[elf.Machine]string{
	elf.EM_X86_64: "x86-64", elf.EM_386: "32-bit x86", elf.EM_AARCH64: "ARM64", elf.EM_ARM: "ARM",
	elf.EM_PPC64: "64-bit PowerPC", elf.EM_RISCV: "RISC-V", elf.EM_S390: "IBM Z", elf.EM_MIPS: "MIPS",
}

// foreignMachine returns an *ELFError naming the machine of an executable built for
// another computer (the host's /bin/ls), or nil for a PowerPC one.
func foreignMachine(f *elf.File) *ELFError {
	if f.Machine == elf.EM_PPC {
		return nil
	}
	name, ok := machineNames[f.Machine]
	if !ok {
		name = f.Machine.String()
	}
	return elfErr(18, "an %s program (%v, %v), not a 32-bit PowerPC one; %s", name, f.Class, f.Machine, buildHint)
}
