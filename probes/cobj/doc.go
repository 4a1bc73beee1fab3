// Package cobj loads a relocatable PowerPC ELF object (a C probe module, DPCL's
// ProbeModule: `powerpc-linux-gnu-gcc -mcpu=440fp -c mod.c`) for placement in a process's
// instrumentation region. It is pure code over bytes, like probes: Open reads and lays
// out the object with debug/elf, Link resolves its symbols and applies its relocations
// for one base address and returns the bytes to write (the same on every node: one
// layout, one address); writing them into the ranks is the runtime's job.
//
// Usage:
//
//	obj, _ := cobj.Open(f, "mymod.o")
//	if err := obj.Fit(avail); err != nil { ... }    // names the section that does not fit
//	img, _ := obj.Link(base, prog.Symbol)            // every error before any byte is written
//	// write img.Bytes at img.Base on every rank; img.Symbols["count"].Addr is a global
//
// # Layout
//
// Every SHF_ALLOC section is placed, in the order code (text), read-only data, writable
// data (.data, .sdata, .got2 ...), then zero-filled data (.bss, .sbss) and the object's
// common symbols, each at its alignment, from offset 0; Size is known before the base is.
// .eh_frame is placed like any read-only section (no unwinder reads it; placing it keeps
// its relocations honest). Sections a loader would have to run (.init_array, .ctors and
// their kin) and TLS sections are refused: nothing here runs constructors or sets up a
// thread pointer block.
//
// # Symbols
//
// A reference resolves to the module's own definition first (global, weak or local,
// sections and common symbols included), then to the program through the caller's
// resolver (functions and data of the static executable: libc's memcpy, the program's
// globals). An undefined weak symbol nobody defines is 0, as in a static link; any other
// undefined symbol is an Error naming it and its first reference.
//
// # Relocations
//
// What GCC emits for -mcpu=440fp objects, in both code models: absolute code (-fno-pic)
// uses R_PPC_ADDR16_HA/LO, REL24 and REL32 (jump tables); the default (PIE) and -fPIC use
// R_PPC_REL16_HA/LO (the .got2 pointer), ADDR32 (.got2 entries), PLTREL24 and LOCAL24PC
// (calls) and REL32. Also ADDR32/UADDR32, ADDR16, ADDR16_HI, REL14, REL16, REL16_HI and
// the small-data forms: R_PPC_SDAREL16 (-msdata=sysv: relative to the program's
// _SDA_BASE_, which r13 holds) and R_PPC_EMB_SDA21 (the base register, r13, r2 or r0, is
// chosen by the target's section as the EABI says). A module's small data lies in the
// instrumentation region, far from the program's small-data area, so an SDA relocation
// whose offset does not fit 16 bits (or a program without _SDA_BASE_) is refused: build
// modules with -msdata=none (-G 0). PLTREL24 always reaches its target directly (a static
// link needs no PLT): its addend is the .got2 offset a PLT stub would use, not part of the
// target, and is ignored as ld does. Any other type — GOT16 (-fpic), TLS, the absolute
// branch forms, which cannot reach the region — is an Error naming the relocation, its
// section and offset, and its symbol. A value that does not fit its field (a REL24 call
// farther than 32 MiB, a REL14 beyond 32 KiB) is refused the same way.
package cobj
