package probes

import "fmt"

// Error is an error of package probes: what failed and why, wrapping the cause. Its text is
// "probes: " and the message; the Lua host shows Unprefixed, the message alone.
type Error struct {
	Err error
}

// errorf returns fmt.Errorf(format, args...) as an error of this package.
func errorf(format string, args ...any) error { return &Error{Err: fmt.Errorf(format, args...)} }

func (e *Error) Error() string { return "probes: " + e.Err.Error() }

// Package is the name the error's text starts with.
func (e *Error) Package() string { return "probes" }

// Unprefixed is the error's text without "probes: ".
func (e *Error) Unprefixed() string { return e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }
