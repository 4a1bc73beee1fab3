package abi

import "fmt"

// Sysno is the number a program puts in r0 before `sc`: a Linux system call or a hypercall.
type Sysno uint32

// Name returns the kernel's name of a Linux call, the name of a hypercall, or "sys_N" when
// the number is neither.
func (n Sysno) Name() string {
	if s, ok := sysnames[n]; ok {
		return s
	}
	if h, ok := hypercallByNum[n]; ok {
		return h.Name
	}
	return fmt.Sprintf("sys_%d", uint32(n))
}

// IsHypercall reports whether n lies in the private hypercall range.
func (n Sysno) IsHypercall() bool { return n >= HypercallFirst && n <= HypercallLast }

// IsLinux reports whether n is a PPC32 Linux system call number the kernel header names.
func (n Sysno) IsLinux() bool {
	_, ok := sysnames[n]
	return ok
}

// LinuxSyscalls returns every Linux call number known to the package, ascending.
func LinuxSyscalls() []Sysno {
	out := make([]Sysno, 0, len(sysnames))
	for n := Sysno(0); len(out) < len(sysnames); n++ {
		if _, ok := sysnames[n]; ok {
			out = append(out, n)
		}
	}
	return out
}
