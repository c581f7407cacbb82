package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
)

// TestSavingsPiMono measures, on the three real pi-mono sessions with the
// default settings (deterministic summaries), what the context costs before
// and after — chars and tokens as the model gets them (session.ModelChars)
// — under each strategy: masking alone (--no-flush), the flush without
// chain compression (chainCompression.enabled false), and the defaults
// (flush and chains). It checks the targets: with the defaults the context
// shrinks by at least 55% (pi-condense users measured about 60%); without
// chains, stubs plus summaries take at most 20% of the chars of the old
// results they replace, and the summaries stay under a tenth of the raw
// text they summarise. The table is in docs/performance.md.
func TestSavingsPiMono(t *testing.T) {
	d := defaults(t)
	noChains := d
	noChains.Chains.Enabled = false
	for _, name := range []string{"before-compaction", "compact", "large-session"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(testdata, "sessions", name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			r, out, _ := run(t, data, d)
			var in bytes.Buffer
			if _, err := prune.Render(&in, r.Ctx, nil); err != nil {
				t.Fatal(err)
			}
			before, after := modelChars(in.Bytes()), modelChars(out)
			masked := maskOnly(t, r.Ctx, d)
			rf, outF, _ := run(t, data, noChains)
			flushed := modelChars(outF)
			line := func(strategy string, n int) {
				t.Logf("%-28s %7d → %7d chars, ~%6d → ~%6d tokens: -%.1f%%", name+" "+strategy, before, n, (before+3)/4, (n+3)/4, pct(before-n, before))
			}
			line("masking", masked)
			line("flush", flushed)
			line("flush+chains", after)
			rep := r.Rendered.Report
			t.Logf("%s: %d chains compressed (%d fused, %d backfilled calls), %d messages dropped, %d summaries suppressed; %d summaries and %d stubs left",
				name, r.Flushed.Chains, r.Flushed.Fused, r.Flushed.Backfilled, rep.ChainDropped, rep.SummariesSuppressed+rep.AppendedSuppressed, r.Summaries, rep.Stubbed+rep.SpillStubbed)
			if p := pct(before-after, before); p < 55 {
				t.Errorf("the defaults save %.1f%% of the context, want ≥ 55%%", p)
			}
			if after >= flushed || flushed >= masked {
				t.Errorf("flush+chains (%d chars) ≥ flush (%d) or flush ≥ masking alone (%d)", after, flushed, masked)
			}

			// without chains: the old results the index replaced, and what
			// replaced them (a stub keeps its message's envelope — role,
			// ids, timestamp — so what it replaces is the content; a
			// summary is a whole new message)
			var replaced, stubs, summaries, replacedMsg, stubsMsg int
			for _, it := range rf.Rendered.Items {
				b, err := it.AppendJSON(nil, rf.Ctx)
				if err != nil {
					t.Fatal(err)
				}
				switch it.Change {
				case render.Stubbed, render.SpillStubbed:
					orig, err := rf.Ctx.AppendMessage(nil, rf.Ctx.Messages[it.Src])
					if err != nil {
						t.Fatal(err)
					}
					oc, _ := jsval.Get(orig, "content")
					sc, _ := jsval.Get(b, "content")
					replaced += session.RuneCount(oc)
					stubs += session.RuneCount(sc)
					replacedMsg += session.ModelChars(orig)
					stubsMsg += session.ModelChars(b)
				case render.Summary:
					summaries += session.ModelChars(b)
				}
			}
			f := rf.Flushed
			share := 100 * float64(stubs+summaries) / float64(replaced)
			t.Logf("%s without chains: %d results' content (%d chars) replaced by %d chars of stubs and %d of summary messages: %.1f%% (whole messages: %.1f%%); summary text %.1f%% of the raw text (%.1f%% without pi-condense's fixed refs footer)",
				name, f.Summarized+f.Spilled, replaced, stubs, summaries, share, pct(stubsMsg+summaries, replacedMsg),
				pct(f.SummaryChars, f.RawChars), pct(f.SummaryChars-footers(f), f.RawChars))
			if share > 20 {
				t.Errorf("stubs and summaries take %.1f%% of the results they replace, want ≤ 20%%", share)
			}
			if p := pct(f.SummaryChars-footers(f), f.RawChars); p > 10 {
				t.Errorf("summary text is %.1f%% of the raw text, want < 10%%", p)
			}
		})
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// footers is the size of pi-condense's refs footer in the flush's
// summaries.
func footers(f *index.Flushed) int {
	n := 0
	for _, s := range f.Summaries {
		if i := strings.LastIndex(s.Content, "\n\n---\n"); i >= 0 {
			n += jsval.UTF16Len(s.Content[i:])
		}
	}
	return n
}

func modelChars(b []byte) int {
	n := 0
	for _, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		n += session.ModelChars(l)
	}
	return n
}

// maskOnly is the context's size with rolling-window masking alone.
func maskOnly(t *testing.T, ctx *session.Context, o Options) int {
	var b bytes.Buffer
	if _, err := prune.Render(&b, ctx, prune.NewPlan(ctx, o.Prune)); err != nil {
		t.Fatal(err)
	}
	return modelChars(b.Bytes())
}
