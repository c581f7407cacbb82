package render_test

import (
	"testing"

	"github.com/pruner-dev/pruner/internal/render"
)

// graceSession: a context_tree_query result in turn "one", then the
// messages after adds; compact cuts turn "one" after its user message.
func graceSession(compact bool, after func(b *sb)) string {
	b := newSession()
	b.user("one", 1000)
	kept := b.next()
	b.assistant(1100, call("q1", render.QueryToolName, `{"toolCallIds":["t1"]}`))
	b.result("q1", render.QueryToolName, "RECOVERED", false, 1200)
	b.summarize(1, [3]string{"q1", render.QueryToolName, "1200"})
	b.reply("ok", 1300)
	if compact {
		b.compaction(kept) // kept: from the assistant on, mid-turn
	}
	after(b)
	return b.String()
}

// TestRecoveryGraceAfterCompaction: the query result is in turn "one"; a
// compaction that cut turn "one" (its user message summarised) puts the
// result before every turn of the context: outside the grace as soon as a
// turn starts, where pi-condense (counting user messages after it) kept it
// verbatim for three more turns.
func TestRecoveryGraceAfterCompaction(t *testing.T) {
	o := defaults(t) // grace 3
	twoMore := func(b *sb) { b.user("two", 2000); b.reply("ok", 2100) }
	cases := []struct {
		name     string
		in       string
		verbatim bool
	}{
		{"no compaction, one turn later", graceSession(false, twoMore), true},
		{"compacted mid-turn, one turn later", graceSession(true, twoMore), false},
		{"compacted mid-turn, no turn since", graceSession(true, func(*sb) {}), true},
	}
	for _, c := range cases {
		msgs, _, _ := run(t, c.in, o)
		if got := text(results(msgs, "q1")[0]) == "RECOVERED"; got != c.verbatim {
			t.Errorf("%s: verbatim %v, want %v", c.name, got, c.verbatim)
		}
	}
}

// TestRecoveryGraceCountsTurns: subagent notices are user messages no
// person typed; pi-condense counted them, so four of them after the query
// ended its grace of 3 turns. They start no turn: the result stays.
func TestRecoveryGraceCountsTurns(t *testing.T) {
	in := graceSession(false, func(b *sb) {
		for i := 0; i < 4; i++ {
			b.notice(2000 + i)
		}
		b.user("two", 3000)
	})
	msgs, _, _ := run(t, in, defaults(t))
	if text(results(msgs, "q1")[0]) != "RECOVERED" {
		t.Fatal("the result was stubbed after one turn (notices counted as turns)")
	}
}

// TestPurgeCooldownAfterCompaction: the error purge's cooldown counts
// assistant turns (pi-condense's turnIndex), not user turns, and every
// assistant message after the errored call is in the context (a compaction
// drops only a prefix), so a compaction that cuts the call's turn changes
// nothing: purged at the same age with or without it.
func TestPurgeCooldownAfterCompaction(t *testing.T) {
	o := defaults(t) // cooldown 2
	for later := 0; later <= 3; later++ {
		plain := erroredWrite(later, nil)
		compacted := erroredWrite(later, func(b *sb) { b.compaction("e002") }) // kept from the errored call on
		_, _, a := run(t, plain, o)
		_, _, c := run(t, compacted, o)
		if a.Report.Purged != c.Report.Purged || (later >= 2) != (c.Report.Purged == 1) {
			t.Errorf("%d assistant turns later: purged %d without, %d with the compaction", later, a.Report.Purged, c.Report.Purged)
		}
	}
}
