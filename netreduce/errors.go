package netreduce

import "fmt"

// Error is an error of package netreduce: what failed and why, wrapping the cause. Its text is
// "netreduce: " and the message; the Lua host shows Unprefixed, the message alone.
type Error struct {
	Err error
}

// errorf returns fmt.Errorf(format, args...) as an error of this package.
func errorf(format string, args ...any) error { return &Error{Err: fmt.Errorf(format, args...)} }

func (e *Error) Error() string { return "netreduce: " + e.Err.Error() }

// Package is the name the error's text starts with.
func (e *Error) Package() string { return "netreduce" }

// Unprefixed is the error's text without "netreduce: ".
func (e *Error) Unprefixed() string { return e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }
