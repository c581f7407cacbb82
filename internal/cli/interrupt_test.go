package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
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
		asked := false
		got := endOfStream(tc.err, func() bool { asked = true; return tc.received })
		if got != tc.want {
			t.Errorf("endOfStream(%v, received=%v) = %v, want %v", tc.err, tc.received, got, tc.want)
		}
		if tc.err == nil && asked {
			t.Errorf("endOfStream(nil) asked about signals: only an end is")
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
		r := interruptible(cx, strings.NewReader("{\"role\":\"user\"}\n"), func() bool { return received })
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
// so), so a pipe that ends is read as complete.
func TestReceivedNoSignal(t *testing.T) {
	ir := notifyInterrupts()
	defer ir.Stop()
	for i := 0; i < 3; i++ {
		if ir.Received() {
			t.Fatalf("Received() = true with no signal sent (call %d)", i)
		}
	}
	if ir.Err() != nil {
		t.Fatal("context done with no signal sent")
	}
}

// TestReceivedSettles: a SIGINT sent to the process is Received at once,
// before the context has been cancelled by os/signal's goroutines — the
// order of `cat | pruner` under Ctrl-C, where the pipe can end first.
func TestReceivedSettles(t *testing.T) {
	for i := 0; i < 50; i++ {
		ir := notifyInterrupts()
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		got := ir.Received()
		<-ir.Done() // the context sees it too, later
		ir.Stop()
		if !got {
			t.Fatalf("run %d: Received() = false right after a SIGINT", i)
		}
	}
}
