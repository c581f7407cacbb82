package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestEndOfStream(t *testing.T) {
	boom := errors.New("read: broken")
	for _, tc := range []struct {
		err      error
		received bool
		want     error
	}{
		{nil, false, nil},
		{nil, true, nil}, // data, not an end: the signal is for the context to report
		{io.EOF, false, io.EOF},
		{io.EOF, true, errInterrupted},
		{boom, false, boom},
		{boom, true, errInterrupted},
	} {
		for _, cut := range []bool{false, true} {
			asked, waited := false, time.Duration(-1)
			got := endOfStream(tc.err, cut, func(w time.Duration) bool { asked, waited = true, w; return tc.received })
			if got != tc.want {
				t.Errorf("endOfStream(%v, cut=%v, received=%v) = %v, want %v", tc.err, cut, tc.received, got, tc.want)
			}
			if tc.err == nil && asked {
				t.Errorf("endOfStream(nil) asked about signals: only an end is")
			}
			if want := map[bool]time.Duration{false: 0, true: cutWait}[cut]; tc.err != nil && waited != want {
				t.Errorf("endOfStream(%v, cut=%v) waits %v, want %v", tc.err, cut, waited, want)
			}
		}
	}
}

// TestInterruptibleCut: the reader says whether the stream ended in the
// middle of a line (only then is a signal waited for).
func TestInterruptibleCut(t *testing.T) {
	for in, want := range map[string]bool{"{\"a\":1}\n": false, "{\"a\":1}\n{\"b\"": true, "{\"a\":1}": false, "": false} {
		cx, cancel := context.WithCancel(context.Background())
		var waited time.Duration = -1
		r := interruptible(cx, strings.NewReader(in), func(w time.Duration) bool { waited = w; return false })
		if _, err := io.ReadAll(r); err != nil {
			t.Fatal(err)
		}
		cancel()
		if got := waited == cutWait; got != want {
			t.Errorf("%q: waited %v, want a wait: %v", in, waited, want)
		}
	}
}

// TestInterruptibleEndWithSignal: a stream whose end comes with a signal
// that the context has not seen yet (Received says so) reads as
// interrupted, never as a complete short input; its data before the end
// is still read.
func TestInterruptibleEndWithSignal(t *testing.T) {
	for _, received := range []bool{false, true} {
		cx, cancel := context.WithCancel(context.Background())
		r := interruptible(cx, strings.NewReader("{\"role\":\"user\"}\n"), func(time.Duration) bool { return received })
		b, err := io.ReadAll(r)
		cancel()
		if string(b) != "{\"role\":\"user\"}\n" {
			t.Errorf("received=%v: read %q", received, b)
		}
		if received && !errors.Is(err, errInterrupted) {
			t.Errorf("received=%v: err = %v, want errInterrupted", received, err)
		}
		if !received && err != nil {
			t.Errorf("received=%v: err = %v, want a clean end", received, err)
		}
		// sticky
		if _, err2 := r.Read(make([]byte, 8)); received && !errors.Is(err2, errInterrupted) {
			t.Errorf("second read after an interrupted end: %v", err2)
		}
	}
}

// TestReceivedNoSignal: with no signal sent, Received is false (and stays
// so), so a pipe that ends is read as complete; a wait ends on time.
func TestReceivedNoSignal(t *testing.T) {
	ir := notifyInterrupts()
	defer ir.Stop()
	for i := 0; i < 3; i++ {
		if ir.Received(0) {
			t.Fatalf("Received(0) = true with no signal sent (call %d)", i)
		}
	}
	if ir.Received(time.Millisecond) {
		t.Fatal("Received(1ms) = true with no signal sent")
	}
	if ir.Err() != nil {
		t.Fatal("context done with no signal sent")
	}
}

// TestReceivedSettles: a SIGINT the runtime has caught is Received at once,
// before the context has been cancelled by os/signal's goroutines — the
// order of `cat | pruner` under Ctrl-C, where the pipe can end first.
// The test's own subscriber says when the runtime has caught the signal,
// so the order does not depend on the machine's load.
func TestReceivedSettles(t *testing.T) {
	for i := 0; i < 50; i++ {
		ir := notifyInterrupts()
		caught := make(chan os.Signal, 1)
		signal.Notify(caught, syscall.SIGINT)
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		<-caught
		got := ir.Received(0)
		signal.Stop(caught)
		<-ir.Done() // the context sees it too, later
		ir.Stop()
		if !got {
			t.Fatalf("run %d: Received(0) = false after the runtime caught a SIGINT", i)
		}
	}
}

// TestReceivedWaits: a signal that arrives while Received waits (one on
// its way to a thread when the input ended) is Received; the wait ends as
// soon as it comes.
func TestReceivedWaits(t *testing.T) {
	ir := notifyInterrupts()
	defer ir.Stop()
	go func() {
		time.Sleep(5 * time.Millisecond)
		syscall.Kill(os.Getpid(), syscall.SIGINT)
	}()
	start := time.Now()
	if !ir.Received(time.Minute) {
		t.Fatal("Received(1m) = false with a SIGINT sent while it waits")
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("Received waited %v: it should end when the signal comes", d)
	}
}
