package cli

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// interrupts is a command's watch for SIGINT and SIGTERM: a context that is
// done once one arrives, and Received, the question asked when a stream
// input ends.
//
// Ctrl-C in a terminal signals the whole foreground process group, so in
// `cat | pruner now -` cat gets the SIGINT as pruner does; cat dies, the
// pipe closes, and pruner can see the end of its input before the Go
// runtime has handed its own signal on to the context (a signal goes from
// the handler through os/signal's goroutine to NotifyContext's, which
// cancels). That short input is no context: Received settles the signals
// that reached the process before it says none came.
type interrupts struct {
	context.Context
	stop func()
	// c is a second subscriber: os/signal hands every caught signal to
	// its channels in one step, and signal.Stop(c) returns only once that
	// step is done for every signal already caught
	c chan os.Signal

	once sync.Once
	got  bool
}

// notifyInterrupts starts watching for SIGINT and SIGTERM; Stop ends it.
func notifyInterrupts() *interrupts {
	ir := &interrupts{c: make(chan os.Signal, 1)}
	signal.Notify(ir.c, os.Interrupt, syscall.SIGTERM)
	ir.Context, ir.stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	return ir
}

// Stop stops the watch (a later SIGINT has its default effect).
func (ir *interrupts) Stop() {
	ir.stop()
	signal.Stop(ir.c)
}

// Received reports whether a SIGINT or SIGTERM reached the process, one
// the runtime has caught but not yet handed on included. It is asked
// when an input ends; after its first call only signals that cancel the
// context count. With wait > 0 it then waits up to wait for a signal to
// cancel the context: a signal the kernel has handed to a thread whose
// handler has not run yet (it may wait for a CPU on a loaded machine) is
// seen by no settling, only by waiting.
func (ir *interrupts) Received(wait time.Duration) bool {
	if ir.Err() != nil {
		return true
	}
	if signalPending() {
		return true // raised, not yet taken by any thread
	}
	ir.once.Do(func() {
		// Stop waits until os/signal is idle: every signal caught
		// before this call has been sent to c (c stays open)
		signal.Stop(ir.c)
		select {
		case <-ir.c:
			ir.got = true
		default:
		}
	})
	if !ir.got && wait > 0 && ir.Err() == nil {
		t := time.NewTimer(wait)
		select {
		case <-ir.Done():
		case <-t.C:
		}
		t.Stop()
	}
	return ir.got || ir.Err() != nil
}

// cutWait is how long a stream input that ends in the middle of a line
// waits for a signal before its end is taken as the input's: a writer
// killed by Ctrl-C (cat in `cat | pruner now -`) usually stops mid-line.
// A complete input ends with a newline, or with the `}` of its last line
// when the newline is missing: neither waits.
const cutWait = 100 * time.Millisecond

// endOfStream is what a read of a stream input returns when the stream
// ends with err (io.EOF, or another error): errInterrupted when received
// reports a signal — an end that comes with a Ctrl-C is the writer
// stopped by it, not the end of the input — else err as it is. cut says
// the stream ended in the middle of a line: received then waits cutWait
// for a signal on its way.
func endOfStream(err error, cut bool, received func(wait time.Duration) bool) error {
	if err == nil || received == nil {
		return err
	}
	wait := time.Duration(0)
	if cut {
		wait = cutWait
	}
	if received(wait) {
		return errInterrupted
	}
	return err
}
