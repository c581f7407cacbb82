package index

import (
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/summarize"
)

// withoutFacts is b with no call's text facts known: its summary reads
// every text again (what it did before the facts were kept).
func withoutFacts(b *chainBackfill) *chainBackfill {
	c := *b
	c.calls = append([]backfillCall(nil), b.calls...)
	for i := range c.calls {
		c.calls[i].facts = textFacts{}
	}
	return &c
}

// backfillFactsAgree checks, for every chain of fl with backfilled calls,
// that their summary written from the facts the flush kept is the one
// written from the texts, and returns how many calls had facts.
func backfillFactsAgree(t *testing.T, fl *Flushed) int {
	t.Helper()
	n := 0
	for _, c := range fl.State.Chains() {
		if c.backfill == nil {
			continue
		}
		for _, bc := range c.backfill.calls {
			if bc.facts != (textFacts{}) {
				n++
			}
		}
		got, err := c.backfill.summary()
		if err != nil {
			t.Fatal(err)
		}
		want, err := withoutFacts(c.backfill).summary()
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("chain %s, from the facts:\n%s\nfrom the texts:\n%s", c.BlockID, got, want)
		}
	}
	return n
}

// exitSession is a session of covered chains whose trivial batches end
// with exit-status lines (and one whose code packFacts cannot pack).
func exitSession() *chainSession {
	b := newChainSession()
	for i, tail := range []string{"Command exited with code 2", "\n\nCommand aborted\n", "exit code: 0099", "Exit status -5.", "(command cancelled)", "ok\n\n\n\n"} {
		id := func(k int) string { return "c" + string(rune('a'+i)) + string(rune('0'+k)) }
		b.user("do " + id(0))
		b.calls(tc(id(0), "bash", `{"command":"make"}`))
		b.result(id(0), "bash", strings.Repeat("building\n", 200)) // summarised
		b.calls(tc(id(1), "bash", `{"command":"make test"}`))
		b.result(id(1), "bash", "a\nb\n"+tail) // trivial: its facts kept
		b.calls(tc(id(2), "bash", `{"command":"true"}`), tc(id(3), "read", `{"path":"/p/x"}`))
		b.result(id(2), "bash", tail)
		b.result(id(3), "read", strings.Repeat("line é\n", 30)) // trivial, not header-only
		b.reply("done")
	}
	b.user("next")
	return b
}

// TestBackfillFacts: the backfilled calls' summaries written from the
// facts the flush kept are those written from their texts, read again
// (exit codes, an abort, a code not kept); some calls had facts.
func TestBackfillFacts(t *testing.T) {
	ctx := exitSession().ctx(t)
	_, fl := flushWritten(t, ctx, 0, true)
	if n := backfillFactsAgree(t, fl); n == 0 {
		t.Fatal("no backfilled call had facts: nothing was tested")
	}
	// with every fusion made and held at flush: the same entries and texts
	eager, _ := flushWritten(t, ctx, 0, false)
	if lazy, _ := flushWritten(t, ctx, 0, true); lazy != eager {
		t.Fatalf("written lazily:\n%s\nfused and held:\n%s", lazy, eager)
	}
}

// FuzzBackfillFacts: FuzzLazyChainTexts' sessions, their backfilled calls'
// summaries from the facts and from the texts.
func FuzzBackfillFacts(f *testing.F) {
	f.Add([]byte{0, 1, 37, 1, 2, 1, 9, 3, 0, 1, 1, 2, 30, 3, 0, 1, 2, 3, 0, 3}, uint8(0))
	f.Add([]byte{0, 1, 1, 1, 44, 2, 2, 3, 0, 1, 254, 3, 0, 1, 2, 1, 254, 1, 2, 3, 0, 1, 254, 3, 0, 3}, uint8(0))
	f.Add([]byte{0, 1, 6, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}, uint8(2))
	f.Fuzz(func(t *testing.T, script []byte, window uint8) {
		if len(script) > 200 {
			script = script[:200]
		}
		ctx := scriptSession(script).ctx(t)
		_, fl := flushWritten(t, ctx, int(window%4), true)
		backfillFactsAgree(t, fl)
	})
}

// TestPackFacts: packed facts unpack to what was packed; what cannot be
// packed is refused.
func TestPackFacts(t *testing.T) {
	for _, text := range []string{"x", "a\nb", "Command exited with code 2", "x\nCommand exited with code -2147483648", "Command aborted\n\n", "exit code: 0", "Exit status 7."} {
		f := factsOf(text)
		p, ok := packFacts(f)
		if !ok {
			t.Fatalf("%q: not packed", text)
		}
		if got, ok := p.unpack(); !ok || got != f {
			t.Fatalf("%q: unpacked %+v, want %+v", text, got, f)
		}
	}
	for _, text := range []string{"exit code: 007", "exit code: 2147483648", "exit code: -0"} {
		if p, ok := packFacts(factsOf(text)); ok {
			t.Fatalf("%q: packed as %+v", text, p)
		}
	}
}

func factsOf(text string) summarize.TextFacts { return summarize.FactsOf(text) }
