package bgl

import "fmt"

// Error is an error of package bgl: the operation that failed (Op, e.g. "partition"; empty
// when the message says it) and why, wrapping the cause. Its text is "bgl: [Op: ]why"; the
// Lua host shows Unprefixed, or Reason where the Lua function's name says the operation.
type Error struct {
	Op  string
	Err error
}

// errorf returns fmt.Errorf(format, args...) as an error of this package.
func errorf(format string, args ...any) error { return &Error{Err: fmt.Errorf(format, args...)} }

// opErrorf returns fmt.Errorf(format, args...) as an error of operation op.
func opErrorf(op, format string, args ...any) error {
	return &Error{Op: op, Err: fmt.Errorf(format, args...)}
}

func (e *Error) Error() string { return "bgl: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *Error) Package() string { return "bgl" }

// Unprefixed is the error's text without "bgl: ".
func (e *Error) Unprefixed() string {
	if e.Op == "" {
		return e.Err.Error()
	}
	return e.Op + ": " + e.Err.Error()
}

// Reason is the error's text without "bgl: " and the operation.
func (e *Error) Reason() string { return e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }
