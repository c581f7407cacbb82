package render_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/render"
)

func diagKinds(r *render.Result) string {
	var k []string
	for _, d := range r.Report.Diagnostics {
		k = append(k, d.Kind)
	}
	return strings.Join(k, ",")
}

// TestChainWithABrokenPairIsSkipped: another extension's message between
// a call and its result inside a chain's range: compressing it would drop
// both (deciding how pi-ai pairs them); the chain is skipped, reported.
func TestChainWithABrokenPairIsSkipped(t *testing.T) {
	b := newSession()
	b.user("task", 1000)
	b.assistant(1100, call("c1", "bash", `{"command":"make"}`))
	b.entry(`"type":"custom_message","customType":"other-ext","content":"note","display":true`)
	b.result("c1", "bash", "build log", false, 1200)
	b.reply("done", 1500)
	b.custom(index.TypeChain, `{"blockId":"b1","startUserTimestamp":1000,"droppedToolCallIds":["c1"],"finalAssistantTimestamp":1500,"toolRefs":[],"compressedAt":1600,"rangeSummaryText":"x","droppedOccurrenceKeys":["c1@1200"]}`)
	b.user("next", 2000)
	msgs, _, res := run(t, b.String(), defaults(t))
	if res.Report.Chains != 0 || !strings.HasPrefix(diagKinds(res), "pairing-hazard") {
		t.Fatalf("chains %d, diagnostics %v", res.Report.Chains, res.Report.Diagnostics)
	}
	for _, m := range msgs {
		if strings.HasPrefix(text(m), "<compressed-chain") {
			t.Fatal("the chain was compressed")
		}
	}
}

// TestChainMessageNeverInsideAPair: a call before the chain's user message
// answered after its final reply (a broken pair whose messages are all
// outside the range): the chain message would land between them, so the
// chain is skipped — the assertion on the output, not the range check.
func TestChainMessageNeverInsideAPair(t *testing.T) {
	b := newSession()
	b.user("start", 900)
	b.assistant(950, call("c0", "bash", `{"command":"sleep 100"}`))
	b.user("task", 1000)
	b.assistant(1100, call("c1", "bash", `{"command":"make"}`))
	b.result("c1", "bash", "build log", false, 1200)
	b.reply("done", 1500)
	b.result("c0", "bash", "late", false, 1550)
	b.custom(index.TypeChain, `{"blockId":"b1","startUserTimestamp":1000,"droppedToolCallIds":["c1"],"finalAssistantTimestamp":1500,"toolRefs":[],"compressedAt":1600,"rangeSummaryText":"x","droppedOccurrenceKeys":["c1@1200"]}`)
	b.user("next", 2000)
	_, _, res := run(t, b.String(), defaults(t))
	if res.Report.Chains != 0 || !strings.Contains(fmt.Sprint(res.Report.Diagnostics), "would fall between a tool call and its result") {
		t.Fatalf("chains %d, diagnostics %v", res.Report.Chains, res.Report.Diagnostics)
	}
}

// staleCompaction: c1 and c2 in one assistant message, an older compaction
// between their results, kept in the range of a later one. pi 1.6 pairs
// both; pi 0.80.6–0.86.x renders the older summary in between.
func staleCompaction(summarize bool) string {
	b := newSession()
	b.user("go", 1000)
	kept := b.next()
	b.assistant(1100, call("c1", "bash", `{"command":"a"}`), call("c2", "bash", `{"command":"b"}`))
	b.result("c1", "bash", "one", false, 1200)
	b.compaction(kept)
	b.result("c2", "bash", "two", false, 1300)
	if summarize {
		b.summarize(1, [3]string{"c1", "bash", "1200"}, [3]string{"c2", "bash", "1300"})
	}
	b.reply("ok", 1400)
	b.user("more", 2000)
	b.compaction(kept)
	return b.String()
}

// TestWarningPairIsLeftAsItIs: a pair only older pi versions break is
// left verbatim (not stubbed), the other result is stubbed as usual.
func TestWarningPairIsLeftAsItIs(t *testing.T) {
	msgs, _, res := run(t, staleCompaction(true), defaults(t))
	if got := text(results(msgs, "c2")[0]); got != "two" {
		t.Fatalf("c2: %q", got)
	}
	if got := text(results(msgs, "c1")[0]); !strings.HasPrefix(got, "[Summarized in pruner summary") {
		t.Fatalf("c1: %q", got)
	}
	if res.Report.Hazards != 1 || res.Report.Stubbed != 1 {
		t.Fatalf("report %+v", res.Report)
	}
}

// TestPurgeLeavesABrokenPair: an errored call answered twice keeps its
// arguments (the first result pairs, the second is a duplicate).
func TestPurgeLeavesABrokenPair(t *testing.T) {
	o := defaults(t)
	_, _, plain := run(t, erroredWrite(3, nil), o)
	b := newSession()
	b.user("go", 1000)
	b.assistant(1100, call("w1", "write", bigArgs()))
	b.result("w1", "write", "Error: EACCES", true, 1200)
	b.result("w1", "write", "Error: EACCES", true, 1250)
	for i := 0; i < 3; i++ {
		b.assistant(1300+i*100, call(fmt.Sprintf("b%d", i), "bash", `{"command":"true"}`))
		b.result(fmt.Sprintf("b%d", i), "bash", "", false, 1350+i*100)
	}
	msgs, _, res := run(t, b.String(), o)
	if plain.Report.Purged != 1 || res.Report.Purged != 0 || argsOf(t, msgs, "w1")["content"] != strings.Repeat("x", 600) {
		t.Fatalf("purged %d (without the duplicate %d)", res.Report.Purged, plain.Report.Purged)
	}
}

// TestChainDropsLegacySummaries: a summary whose refs carry no
// resultTimestamp (written before occurrence keys) is dropped with the
// chain when a ref's bare id — as written, or read off an occurrence
// key — is a call or result the chain drops; one that refs only calls
// outside stays.
func TestChainDropsLegacySummaries(t *testing.T) {
	for _, tc := range []struct {
		ref  string
		drop bool
	}{{"c1", true}, {"c2", true}, {"c2@1250", true}, {"c9", false}, {"c9@1200", false}} {
		b := newSession()
		b.user("task", 1000)
		b.assistant(1100, call("c1", "bash", `{"command":"make"}`))
		b.result("c1", "bash", "build log", false, 1200)
		b.assistant(1210, call("c2", "bash", `{"command":"make test"}`))
		b.result("c2", "bash", "test log", false, 1250)
		b.reply("done", 1500)
		b.entry(`"type":"custom_message","customType":"context-prune-summary","content":"legacy","display":false,"details":{"toolCallRefs":[{"shortId":"t1","toolCallId":"` + tc.ref + `"}],"toolNames":[],"turnIndex":0,"timestamp":1}`)
		b.custom(index.TypeChain, `{"blockId":"b1","startUserTimestamp":1000,"droppedToolCallIds":["c1","c2"],"finalAssistantTimestamp":1500,"toolRefs":[],"compressedAt":1600,"rangeSummaryText":"x","droppedOccurrenceKeys":["c1@1200","c2@1250"]}`)
		b.user("next", 2000)
		msgs, _, res := run(t, b.String(), defaults(t))
		if res.Report.Chains != 1 {
			t.Fatalf("%s: chains %d, diagnostics %v", tc.ref, res.Report.Chains, res.Report.Diagnostics)
		}
		kept := false
		for _, m := range msgs {
			if m["customType"] == index.TypeSummary {
				kept = true
			}
		}
		if kept == tc.drop || res.Report.SummariesSuppressed != map[bool]int{true: 1}[tc.drop] {
			t.Errorf("ref %s: summary kept %v, suppressed %d", tc.ref, kept, res.Report.SummariesSuppressed)
		}
	}
}
