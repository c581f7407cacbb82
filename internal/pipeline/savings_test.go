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
// — and checks the batch/index stage's targets: stubs plus summaries take
// at most 20% of the chars of the old results they replace, and the
// summaries stay near a tenth of the raw text they summarise.
func TestSavingsPiMono(t *testing.T) {
	o := defaults(t)
	for _, name := range []string{"before-compaction", "compact", "large-session"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(testdata, "sessions", name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			r, out, _ := run(t, data, o)
			var in bytes.Buffer
			if _, err := prune.Render(&in, r.Ctx, nil); err != nil {
				t.Fatal(err)
			}
			before, after := modelChars(in.Bytes()), modelChars(out)
			masked := maskOnly(t, r.Ctx, o)

			// the old results the index replaced, and what replaced them
			// (a stub keeps its message's envelope — role, ids, timestamp —
			// so what it replaces is the content; a summary is a whole new
			// message)
			var replaced, stubs, summaries, replacedMsg, stubsMsg int
			for _, it := range r.Rendered.Items {
				switch it.Change {
				case render.Stubbed, render.SpillStubbed:
					orig, err := r.Ctx.AppendMessage(nil, r.Ctx.Messages[it.Src])
					if err != nil {
						t.Fatal(err)
					}
					oc, _ := jsval.Get(orig, "content")
					sc, _ := jsval.Get(it.JSON, "content")
					replaced += session.RuneCount(oc)
					stubs += session.RuneCount(sc)
					replacedMsg += session.ModelChars(orig)
					stubsMsg += session.ModelChars(it.JSON)
				case render.Summary:
					summaries += session.ModelChars(it.JSON)
				}
			}
			f := r.Flushed
			share := 100 * float64(stubs+summaries) / float64(replaced)
			t.Logf("%s: %d → %d chars, ~%d → ~%d tokens (-%.1f%%; masking alone -%.1f%%); %d results' content (%d chars) replaced by %d chars of stubs and %d of summary messages: %.1f%% (whole messages: %.1f%%); summary text %.1f%% of the raw text (%.1f%% without pi-condense's fixed refs footer)",
				name, before, after, (before+3)/4, (after+3)/4, pct(before-after, before), pct(before-masked, before),
				f.Summarized+f.Spilled, replaced, stubs, summaries, share, pct(stubsMsg+summaries, replacedMsg),
				pct(f.SummaryChars, f.RawChars), pct(f.SummaryChars-footers(f), f.RawChars))
			if share > 20 {
				t.Errorf("stubs and summaries take %.1f%% of the results they replace, want ≤ 20%%", share)
			}
			if p := pct(f.SummaryChars-footers(f), f.RawChars); p > 10 {
				t.Errorf("summary text is %.1f%% of the raw text, want < 10%%", p)
			}
			if after >= masked {
				t.Errorf("flush and masking (%d chars) save no more than masking alone (%d)", after, masked)
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
