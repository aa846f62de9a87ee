package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals are the signals that stop a run which writes a results
// file: each is caught, so that the temporary file beside --out is removed
// and nothing half-written is left, where the default action (death, and
// for SIGQUIT a dump of the goroutines) would leave it behind. SIGKILL and
// SIGSTOP cannot be caught.
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// stoppedBy is the cause of a context that a stop signal cancelled.
type stoppedBy struct{ sig syscall.Signal }

func (s *stoppedBy) Error() string { return s.sig.String() + " signal received" }

// notifyStop is signal.NotifyContext for stopSignals, with the signal
// kept as the context's cause (stopStatus reads it).
func notifyStop(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	go func() {
		select {
		case s := <-ch:
			if sig, ok := s.(syscall.Signal); ok {
				cancel(&stoppedBy{sig})
			} else {
				cancel(&stoppedBy{syscall.SIGINT})
			}
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}

// stopStatus is the exit status of a run a signal stopped: 128 and the
// signal's number, as a shell gives for a process the signal killed (130
// for SIGINT, 143 for SIGTERM); 130 when the cause is not known.
func stopStatus(ctx context.Context) int {
	var s *stoppedBy
	if errors.As(context.Cause(ctx), &s) {
		return 128 + int(s.sig)
	}
	return 130
}

// interruptedBy is what an interrupted run says, naming its signal.
func interruptedBy(ctx context.Context) string {
	var s *stoppedBy
	if errors.As(context.Cause(ctx), &s) {
		return interrupted + " (" + signalName(s.sig) + ")"
	}
	return interrupted
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return s.String()
}
