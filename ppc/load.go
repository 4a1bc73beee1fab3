package ppc

import (
	"encoding/binary"
	"fmt"
)

// ProcessConfig is what a new process gets on its initial stack.
type ProcessConfig struct {
	Args, Env []string
	// Seed makes the 16 AT_RANDOM bytes (glibc's stack protector and pointer guard).
	Seed uint64
	// ExecPath is AT_EXECFN; empty means Args[0].
	ExecPath string
}

// Auxiliary vector tags (Linux include/uapi/linux/auxvec.h and PowerPC's asm/auxvec.h).
const (
	AT_NULL        = 0
	AT_PHDR        = 3
	AT_PHENT       = 4
	AT_PHNUM       = 5
	AT_PAGESZ      = 6
	AT_BASE        = 7
	AT_FLAGS       = 8
	AT_ENTRY       = 9
	AT_UID         = 11
	AT_EUID        = 12
	AT_GID         = 13
	AT_EGID        = 14
	AT_HWCAP       = 16
	AT_CLKTCK      = 17
	AT_DCACHEBSIZE = 19
	AT_ICACHEBSIZE = 20
	AT_UCACHEBSIZE = 21
	AT_IGNOREPPC   = 22
	AT_SECURE      = 23
	AT_RANDOM      = 25
	AT_HWCAP2      = 26
	AT_EXECFN      = 31
	HWCAP440       = 0x08000000 | 0x02000000 | 0x00008000 // FPU | 4xxMAC | BookE
	// CacheLineSize is the PPC440's L1 line, data and instruction: the auxv's
	// AT_DCACHEBSIZE and AT_ICACHEBSIZE, and what dcbz zeroes.
	CacheLineSize    = 32
	maxStackStrings  = 128 << 10
	stackAlign       = 16
	clockTicksPerSec = 100
)

// AuxEntry is one auxv pair.
type AuxEntry struct{ Tag, Val uint32 }

// NewProcess makes a process of the image: a copy-on-write clone of the image's base Memory
// (text and data shared until written; the base maps the 8 MiB stack too, so only the pages
// written get allocated), and the PPC32 Linux
// initial stack (argc, argv, envp, auxv) laid out byte for byte as qemu-ppc -cpu 440epx lays
// it out, with r1 at argc and PC at the entry point. Every other register is zero.
// Unlike qemu, which reverses the environment it passes on, envp keeps cfg.Env's order, as
// Linux does.
func (img *Image) NewProcess(cfg ProcessConfig) (*CPU, error) {
	if len(cfg.Args) == 0 && cfg.ExecPath != "" {
		cfg.Args = []string{cfg.ExecPath}
	}
	if cfg.ExecPath == "" && len(cfg.Args) > 0 {
		cfg.ExecPath = cfg.Args[0]
	}
	mem := img.base.Clone()
	sp, err := img.buildStack(mem, cfg)
	if err != nil {
		return nil, err
	}
	c := NewCPU(mem)
	c.GPR[1] = sp
	c.PC = img.Entry
	return c, nil
}

// stackWriter fills the stack top-down into a local buffer that is written once. The
// buffer grows downward in place (the bytes are back[lo:]): prepending to a slice at each
// string and pad made a kilobyte of garbage per process, 64 MiB of a 65,536-rank launch.
type stackWriter struct {
	top  uint32
	back []byte // back[len(back)-1] is the byte at top-1; below lo, zeros not yet used
	lo   int
}

// stackWriterSize holds the initial stack of a few arguments without growing.
const stackWriterSize = 1024

func (w *stackWriter) bytes() []byte { return w.back[w.lo:] }

func (w *stackWriter) addr() uint32 { return w.top - uint32(len(w.back)-w.lo) }

func (w *stackWriter) pushString(s string) uint32 {
	w.reserve(uint32(len(s)) + 1)
	copy(w.back[w.lo:], s) // the terminating NUL is a reserved zero
	return w.addr()
}

// alignDown pads the stack down to a multiple of a.
func (w *stackWriter) alignDown(a uint32) {
	if pad := w.addr() % a; pad != 0 {
		w.reserve(pad)
	}
}

// reserve takes n zero bytes below what the stack holds.
func (w *stackWriter) reserve(n uint32) {
	if int(n) > w.lo {
		used := len(w.back) - w.lo
		back := make([]byte, max(2*len(w.back), used+int(n), stackWriterSize))
		copy(back[len(back)-used:], w.bytes())
		w.back, w.lo = back, len(back)-used
	}
	w.lo -= int(n)
}

func (w *stackWriter) put32(addr, v uint32) {
	binary.BigEndian.PutUint32(w.bytes()[addr-w.addr():], v)
}

func (img *Image) buildStack(mem *Memory, cfg ProcessConfig) (uint32, error) {
	w := &stackWriter{top: img.Stack.Start + img.Stack.Size}
	w.reserve(8) // qemu-ppc leaves two words at the very top
	execfn := w.pushString(cfg.ExecPath)
	envp := pushStrings(w, cfg.Env)
	argv := pushStrings(w, cfg.Args)
	if n := len(w.bytes()); n > maxStackStrings {
		return 0, fmt.Errorf("ppc: new process: arguments and environment take %d bytes (limit %d)", n, maxStackStrings)
	}
	w.alignDown(stackAlign)
	w.reserve(16)
	random := w.addr()
	copy(w.bytes(), randomBytes(cfg.Seed))
	w.alignDown(stackAlign)
	aux := img.auxv(random, execfn)
	words := uint32(1 + len(argv) + 1 + len(envp) + 1 + 2*len(aux))
	w.reserve(words * 4)
	w.alignDown(stackAlign)
	sp := w.addr()
	a := sp
	put := func(v uint32) { w.put32(a, v); a += 4 }
	put(uint32(len(argv)))
	for _, list := range [][]uint32{argv, envp} {
		for _, p := range list {
			put(p)
		}
		put(0)
	}
	for _, e := range aux {
		put(e.Tag)
		put(e.Val)
	}
	if err := mem.Write(sp, w.bytes()); err != nil {
		return 0, fmt.Errorf("ppc: new process: initial stack: %w", err)
	}
	return sp, nil
}

// pushStrings places strings so they ascend in memory in list order, returning their
// addresses.
func pushStrings(w *stackWriter, list []string) []uint32 {
	addrs := make([]uint32, len(list))
	for i := len(list) - 1; i >= 0; i-- {
		addrs[i] = w.pushString(list[i])
	}
	return addrs
}

// auxv is the vector qemu-ppc -cpu 440epx gives a static binary, in its order, ending with
// AT_NULL. UIDs are 0 (CNK runs the job as one user).
func (img *Image) auxv(random, execfn uint32) []AuxEntry {
	return []AuxEntry{
		{AT_IGNOREPPC, AT_IGNOREPPC}, {AT_IGNOREPPC, AT_IGNOREPPC},
		{AT_DCACHEBSIZE, CacheLineSize}, {AT_ICACHEBSIZE, CacheLineSize}, {AT_UCACHEBSIZE, 0},
		{AT_PHDR, img.phdr}, {AT_PHENT, 32}, {AT_PHNUM, img.phnum},
		{AT_PAGESZ, PageSize}, {AT_BASE, 0}, {AT_FLAGS, 0}, {AT_ENTRY, img.Entry},
		{AT_UID, 0}, {AT_EUID, 0}, {AT_GID, 0}, {AT_EGID, 0},
		{AT_HWCAP, HWCAP440}, {AT_CLKTCK, clockTicksPerSec}, {AT_RANDOM, random},
		{AT_SECURE, 0}, {AT_EXECFN, execfn}, {AT_HWCAP2, 0}, {AT_NULL, 0},
	}
}

// randomBytes expands seed with splitmix64 into the 16 AT_RANDOM bytes.
func randomBytes(seed uint64) []byte {
	out := make([]byte, 0, 16)
	for range 2 {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		out = binary.BigEndian.AppendUint64(out, z^z>>31)
	}
	return out
}

// ReadAuxv reads the auxiliary vector of a process whose r1 still points at argc (as at
// entry), for tests and debuggers.
func ReadAuxv(mem *Memory, sp uint32) ([]AuxEntry, error) {
	argc, err := mem.Read32(sp)
	if err != nil {
		return nil, err
	}
	a := sp + 4 + 4*(argc+1)
	for {
		v, err := mem.Read32(a)
		if err != nil {
			return nil, err
		}
		a += 4
		if v == 0 {
			break
		}
	}
	var aux []AuxEntry
	for ; ; a += 8 {
		t, err1 := mem.Read32(a)
		v, err2 := mem.Read32(a + 4)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("ppc: read auxv at 0x%08x: unterminated", a)
		}
		aux = append(aux, AuxEntry{t, v})
		if t == AT_NULL {
			return aux, nil
		}
	}
}
