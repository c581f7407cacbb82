package main

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestInterruptThenEndOfInput is `cat | pruner now -` under Ctrl-C: the
// signal reaches pruner and its writer, and the writer's death closes the
// pipe, in the middle of a line as a killed writer leaves it. The order is
// made the racy one on purpose — SIGINT first, then the end of stdin at
// once — and every run must exit 130 saying "interrupted", with nothing
// on stdout (never a short context and 0).
func TestInterruptThenEndOfInput(t *testing.T) {
	if testing.Short() {
		t.Skip("starts pruner 40 times")
	}
	bin, err := exec.LookPath("pruner") // this test binary, as testscript.Main set it up
	if err != nil {
		t.Fatal(err)
	}
	// more than a pipe holds (64 KiB): once it is all written, pruner has
	// read from stdin, so its signal watch is on
	var input bytes.Buffer
	for i := 0; input.Len() < 256<<10; i++ {
		fmt.Fprintf(&input, `{"role":"user","content":[{"type":"text","text":"question %d %s"}],"timestamp":%d}`+"\n", i, strings.Repeat("x", 200), 1778547747671+i)
	}
	input.WriteString(`{"role":"user","content":[{"type":"te`) // cut by the signal
	for _, args := range [][]string{{"now", "-"}, {"now", "-q", "-"}, {"query", "--entry", "zz", "-"}, {"stats", "-"}} {
		for run := 0; run < 10; run++ {
			cmd := exec.Command(bin, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			w, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(input.Bytes()); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			w.Close()
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Fatalf("pruner %s, run %d: SIGINT then end of stdin: %v, want exit status 130\nstderr: %s", strings.Join(args, " "), run, err, stderr.String())
			}
			if !strings.Contains(stderr.String(), "interrupted") {
				t.Fatalf("pruner %s, run %d: stderr does not say interrupted: %q", strings.Join(args, " "), run, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Fatalf("pruner %s, run %d: %d bytes on stdout after an interrupt", strings.Join(args, " "), run, stdout.Len())
			}
		}
	}
}
