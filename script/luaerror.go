package script

import (
	"errors"
	"fmt"

	"github.com/dpclsh/dpclsh/ppc"
)

// This file is the one place where Go errors of the packages below the host become the
// text of Lua errors. Those packages return typed errors whose text starts with their
// name ("runtime: launch ...: ..."); a Lua error names the Lua function instead
// ("dpcl.launch: launch ...: ..."), so the boundary shows the error without its package.

// packageError is the typed error of a package below the host (bgl, probes, runtime,
// netreduce, contexts, ranks): its text is Package() + ": " + Unprefixed().
type packageError interface {
	error
	Package() string
	Unprefixed() string
}

// operationError is a package error that also names the operation that failed (bgl's
// "partition", ppc's "assemble"): Reason is its text without the package and the
// operation, for Lua functions whose own name says the operation (bgl.partition).
type operationError interface {
	packageError
	Reason() string
}

// asmError gives ppc's assembler errors the package error's methods: ppc keeps its own
// error type, "ppc: assemble TEXT: reason".
type asmError struct{ *ppc.AsmError }

func (e asmError) Package() string    { return "ppc" }
func (e asmError) Unprefixed() string { return "assemble " + e.Reason() }
func (e asmError) Reason() string     { return fmt.Sprintf("%q: %s", e.Text, e.AsmError.Reason) }

// packageErrorOf finds the package error that err is: the first in its chain, when the
// wrappers above it add nothing to its text (a wrapper that does is the message, and it
// keeps every word).
func packageErrorOf(err error) (packageError, bool) {
	var asm *ppc.AsmError
	if errors.As(err, &asm) && asm.Error() == err.Error() {
		return asmError{asm}, true
	}
	var pe packageError
	if errors.As(err, &pe) && pe.Error() == err.Error() {
		return pe, true
	}
	return nil, false
}

// ErrorText is what a Lua error shows for err, returned by a Go API of the packages pkgs
// name (in the order one wraps the other: "runtime", "probes"): the message without those
// packages' names. An error of any other package keeps its name, which says where it
// came from ("dpcl.launch: bgl: launch nope.elf: ...").
func ErrorText(err error, pkgs ...string) string {
	text := err.Error()
	for _, pkg := range pkgs {
		pe, ok := packageErrorOf(err)
		if !ok || pe.Package() != pkg {
			continue
		}
		text = pe.Unprefixed()
		// Go on with the cause only when it is the whole rest of the message.
		if err = errors.Unwrap(pe); err == nil || err.Error() != text {
			break
		}
	}
	return text
}

// ErrorReason is ErrorText for Lua functions that name the operation themselves: an error
// of pkg naming its operation shows without it.
func ErrorReason(err error, pkg string) string {
	if pe, ok := packageErrorOf(err); ok && pe.Package() == pkg {
		if oe, ok := pe.(operationError); ok {
			return oe.Reason()
		}
	}
	return ErrorText(err, pkg)
}
