package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// signalCause is why a subcommand's context was cancelled: the signal that arrived.
type signalCause struct{ sig syscall.Signal }

func (c signalCause) Error() string { return fmt.Sprintf("interrupted by %v", c.sig) }

// signalContext is cancelled when SIGINT or SIGTERM arrives, with a signalCause, so the
// exit status can say which one (130 or 143, as a shell reports them).
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			if sig, ok := s.(syscall.Signal); ok {
				cancel(signalCause{sig})
			} else {
				cancel(signalCause{syscall.SIGINT})
			}
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// interruptedStatus is 128 + the signal that cancelled ctx (SIGINT when none is known).
func interruptedStatus(ctx context.Context) int {
	var c signalCause
	if errors.As(context.Cause(ctx), &c) {
		return 128 + int(c.sig)
	}
	return 128 + int(syscall.SIGINT)
}
