package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/summarize"
)

// scriptSession is FuzzChains' session of a script: each byte one message
// (a user message, a tool call, its result of some size, a protected call,
// a final reply, another extension's message, a result for no call).
func scriptSession(script []byte) *chainSession {
	b := newChainSession()
	var open []string
	calls := 0
	for i, op := range script {
		switch op % 7 {
		case 0:
			b.user(fmt.Sprintf("u%d", i))
		case 1, 5:
			calls++
			id, name := fmt.Sprintf("c%d", calls), "bash"
			if op%7 == 5 {
				name = "todo"
			}
			b.calls(tc(id, name, fmt.Sprintf(`{"command":"x %d"}`, i)))
			open = append(open, id)
		case 2:
			if len(open) > 0 {
				id := open[0]
				open = open[1:]
				b.result(id, "bash", strings.Repeat(fmt.Sprintf("r%d\n", i), int(op)*10))
			}
		case 3:
			b.reply(fmt.Sprintf("done %d", i))
		case 4:
			b.n++
			b.lines = append(b.lines, fmt.Sprintf(`{"type":"custom_message","customType":"other","content":"note","display":true,"id":"e%03d","parentId":"e%03d","timestamp":"2026-12-01T00:00:00.000Z"}`, b.n, b.n-1))
		case 6:
			b.result(fmt.Sprintf("c%d", calls), "bash", "again")
		}
	}
	return b
}

// deterministicFuse is ChainOptions.Fuse without a command.
func deterministicFuse(cx context.Context, summaries, refs []string) summarize.FuseResult {
	return summarize.Fuse(cx, summaries, refs, summarize.Options{})
}

// flushWritten flushes ctx with chains fused deterministically (lazy:
// FuseDeterministic) and returns what the flush writes: every entry's line,
// every chain's range summary and the counters.
func flushWritten(t *testing.T, ctx *session.Context, window int, lazy bool) (string, *Flushed) {
	t.Helper()
	st, err := Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// results of 4,000 chars or more spilled (records no summary covers;
	// the same text twice: a dedup alias)
	spill := func(key, _ string) (string, error) { return "blobs/" + BlobName(key), nil }
	o := FlushOptions{Capture: CaptureOptions{Protect: mustPredicate(t, []string{"todo"}, nil), RawFrom: -1}, MinBatchChars: 1000, Dedup: true,
		SpillThreshold: 4000, SpillPreviewBytes: 100, Spill: spill,
		Chains: ChainOptions{Enabled: true, RollingWindow: window, Fuse: deterministicFuse, FuseDeterministic: lazy, eager: !lazy}, Now: 1}
	fl, err := Flush(t.Context(), ctx, st, o)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for i, e := range fl.Entries {
		line, err := e.AppendLine(nil, ctx, fmt.Sprintf("n%d", i), "p", "T")
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	for _, c := range fl.State.Chains() {
		text, ok := c.RangeSummary()
		fmt.Fprintf(&b, "%s %v %q %q\n", c.BlockID, ok, text, fl.State.ChainBody(c))
	}
	fmt.Fprintf(&b, "chains %d fused %d backfilled %d calls %d warnings %q\n", fl.Chains, fl.Fused, fl.Backfilled, fl.CommandCalls, fl.Warnings)
	if err := fl.State.TextErr(); err != nil {
		t.Fatal(err)
	}
	return b.String(), fl
}

// FuzzLazyChainTexts: a flush whose fusions are known to be deterministic
// (FuseDeterministic: no fusion made, the backfilled calls' summary not
// held, both written when asked) writes what the flush that fuses and
// holds them writes — every entry, every chain's range summary and body.
func FuzzLazyChainTexts(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 0, 1, 2, 1, 2, 3, 0, 4, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 3}, uint8(1))
	f.Add([]byte{0, 1, 1, 2, 2, 3, 0, 5, 2, 1, 2, 3, 0, 1, 0, 1, 2, 3}, uint8(0))
	f.Add([]byte{0, 1, 6, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}, uint8(2))
	// covered chains with backfilled calls: a long result (summarised)
	// and short ones (trivial batches) in one chain
	// (9 to 44: trivial to summarised; 254: spilled)
	f.Add([]byte{0, 1, 37, 1, 2, 1, 9, 3, 0, 1, 1, 2, 30, 3, 0, 1, 2, 3, 0, 3}, uint8(0))
	f.Add([]byte{0, 1, 1, 1, 44, 2, 2, 3, 0, 1, 254, 3, 0, 1, 2, 1, 254, 1, 2, 3, 0, 1, 254, 3, 0, 3}, uint8(0))
	f.Fuzz(func(t *testing.T, script []byte, window uint8) {
		if len(script) > 200 {
			script = script[:200]
		}
		ctx := scriptSession(script).ctx(t)
		eager, _ := flushWritten(t, ctx, int(window%4), false)
		lazy, fl := flushWritten(t, ctx, int(window%4), true)
		if eager != lazy {
			t.Fatalf("written lazily:\n%s\nfused and held:\n%s", lazy, eager)
		}
		for _, c := range fl.State.Chains() {
			if c.backfill != nil && c.fused == nil {
				t.Fatalf("chain %s: backfilled calls without its summaries", c.BlockID)
			}
		}
	})
}

// TestLazyChainTextsSomeBackfilled: the seeds hold chains whose fusion
// includes backfilled calls written when asked (else FuzzLazyChainTexts
// would test nothing of them).
func TestLazyChainTextsSomeBackfilled(t *testing.T) {
	ctx := scriptSession([]byte{0, 1, 37, 1, 2, 1, 9, 3, 0, 1, 1, 2, 30, 3, 0, 1, 2, 3, 0, 3}).ctx(t)
	_, fl := flushWritten(t, ctx, 0, true)
	n := 0
	for _, c := range fl.State.Chains() {
		if c.backfill != nil {
			n++
		}
	}
	if n == 0 || fl.Backfilled == 0 {
		t.Fatalf("%d chains with backfilled calls written when asked (%d backfilled), want some", n, fl.Backfilled)
	}
}

// failingAt is an input whose reads fail once fail is set.
type failingAt struct {
	r    *bytes.Reader
	fail bool
}

func (f *failingAt) ReadAt(p []byte, off int64) (int, error) {
	if f.fail {
		return 0, errors.New("input gone")
	}
	return f.r.ReadAt(p, off)
}

// TestLazyChainTextsReadError: a chain text re-read from an input that
// fails is an error where it is written (the chain entry), and State.TextErr
// says so (the render's chain messages check it).
func TestLazyChainTextsReadError(t *testing.T) {
	b := scriptSession([]byte{0, 1, 37, 1, 2, 1, 9, 3, 0, 1, 1, 2, 30, 3, 0, 1, 2, 3, 0, 3})
	data := []byte(strings.Join(b.lines, "\n") + "\n")
	in := &failingAt{r: bytes.NewReader(data)}
	ctx, err := session.Read(bytes.NewReader(data), in, session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	_, fl := flushWritten(t, ctx, 0, true)
	in.fail = true
	bodies := 0
	for _, c := range fl.State.Chains() {
		if c.body != nil {
			if _, err := appendChainData(nil, c); err == nil {
				t.Fatalf("chain %s: its body written from an input that fails", c.BlockID)
			}
			bodies++
		}
	}
	if bodies == 0 {
		t.Fatal("no deterministic body written when asked")
	}
	for _, c := range fl.State.Chains() {
		if c.backfill == nil {
			continue
		}
		if _, err := appendChainData(nil, c); err == nil {
			t.Fatalf("chain %s written from an input that fails", c.BlockID)
		}
		if text, _ := c.RangeSummary(); text != "" {
			t.Errorf("chain %s: range summary %q from an input that fails", c.BlockID, text)
		}
		if err := fl.State.TextErr(); err == nil || !strings.Contains(err.Error(), "input gone") {
			t.Fatalf("TextErr %v, want the read's error", err)
		}
		if err := fl.State.Clone().TextErr(); err == nil {
			t.Fatal("a clone of the state lost its TextErr")
		}
		return
	}
	t.Fatal("no chain with backfilled calls written when asked")
}

var _ io.ReaderAt = (*failingAt)(nil)

// TestLazyChainBodies: the seeds hold deterministic bodies written when
// asked, of backfilled calls and of calls a record covered.
func TestLazyChainBodies(t *testing.T) {
	// a result the flush summarises, then the same text again in later
	// chains (dedup aliases: records no summary covers), beside short ones
	dup := newChainSession()
	big := strings.Repeat("the same output\n", 400)
	for i, n := range []int{1, 2, 2, 1} {
		dup.user(fmt.Sprintf("u%d", i))
		for k := range n {
			id := fmt.Sprintf("c%d_%d", i, k)
			dup.calls(tc(id, "bash", fmt.Sprintf(`{"command":"cat %d"}`, k)))
			text := big
			if k > 0 {
				text = "short"
			}
			dup.result(id, "bash", text)
		}
		dup.reply(fmt.Sprintf("done %d", i))
	}
	dup.user("last")
	bodies, known := 0, 0
	for _, b := range []*chainSession{
		scriptSession([]byte{0, 1, 2, 3, 0, 1, 2, 1, 2, 3, 0, 4, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 3}),
		dup,
	} {
		ctx := b.ctx(t)
		eager, _ := flushWritten(t, ctx, 0, false)
		lazy, fl := flushWritten(t, ctx, 0, true)
		if eager != lazy {
			t.Fatalf("written lazily:\n%s\nheld:\n%s", lazy, eager)
		}
		for _, c := range fl.State.Chains() {
			if c.body != nil {
				bodies++
				known += len(c.body.known)
			}
		}
	}
	if bodies == 0 || known == 0 {
		t.Fatalf("%d deterministic bodies written when asked (%d calls a record covered), want some of each", bodies, known)
	}
}
