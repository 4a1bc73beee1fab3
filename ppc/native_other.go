//go:build !linux || !amd64

package ppc

// Other hosts run the interpreter only.

const nativeSupported = false

func translate(b *block) *nativeCode {
	b.native.Store(noNative)
	return noNative
}

func nativeEnter(entry uintptr, c *CPU) uint64 { panic("ppc: no translated code on this host") }
