package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/turns"
)

// reportVariants are the settings the report properties run under: the
// pipeline's variants, and masking off.
func reportVariants(t testing.TB) map[string]Options {
	vs := variants(t)
	noMask := vs["defaults"]
	noMask.Mask, noMask.ForceRender = false, true
	vs["no-mask"] = noMask
	// every render phase at its most eager
	eager := vs["tight"]
	eager.Render.PurgeErrors, eager.Render.PurgeCooldownTurns, eager.Render.PurgeMinArgChars = true, 0, 50
	eager.Render.MaxImages = 1
	vs["eager"] = eager
	return vs
}

func lines(b []byte) [][]byte {
	out := bytes.SplitAfter(b, []byte("\n"))
	if len(out) > 0 && len(out[len(out)-1]) == 0 {
		out = out[:len(out)-1]
	}
	for i := range out {
		out[i] = bytes.TrimSuffix(out[i], []byte("\n"))
	}
	return out
}

// unpruned is the context as `pruner context` prints it.
func unpruned(t testing.TB, ctx *session.Context) []byte {
	t.Helper()
	var in bytes.Buffer
	if _, err := prune.Render(&in, ctx, nil); err != nil {
		t.Fatal(err)
	}
	return in.Bytes()
}

// firstDiff is where two contexts (as lines) first differ: the index, the
// byte offset of that line in b, and the chars of b before it; -1 when
// they are equal.
func firstDiff(a, b [][]byte) (int, int64, int64) {
	var off, chars int64
	for i := 0; ; i++ {
		if i == len(a) && i == len(b) {
			return -1, -1, chars
		}
		if i == len(a) || i == len(b) || !bytes.Equal(a[i], b[i]) {
			return i, off, chars
		}
		off += int64(len(b[i])) + 1
		chars += int64(session.ModelChars(b[i]))
	}
}

func role(line []byte) string {
	v, _ := jsval.Get(line, "role")
	s, _ := jsval.String(v)
	return s
}

// TestReportAccountsEveryMessage checks a report against `now`'s own output
// on every session in testdata under every variant: the strategies
// partition both contexts (their after chars sum to the chars of the pruned
// context's messages, their before chars to the unpruned one's, and the
// same for messages and tool results), the tools partition the tool
// results, the counts agree with what render and masking report, and the
// unpruned cache break is the first line where `context` and `now` differ.
func TestReportAccountsEveryMessage(t *testing.T) {
	seen := map[Strategy]int{}
	defer func() {
		if t.Failed() {
			return
		}
		// the sessions exercise every strategy but pruning off, the image cap,
		// the orphan sweep and pairing hazards (TestReportImagesAndOrphans,
		// TestReportPairingHazard)
		for _, s := range Strategies() {
			if seen[s] == 0 && s != KeptOff && s != ImagesCapped && s != OrphanSwept && s != KeptHazard {
				t.Errorf("no session has a message under %s", s)
			}
		}
	}()
	for name, o := range reportVariants(t) {
		for _, path := range sessions(t) {
			t.Run(name+"/"+filepath.Base(path), func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				large := len(data) > 500<<10
				if large && name != "defaults" && name != "eager" {
					t.Skip("the large sessions run under defaults and eager only (time)")
				}
				r, out, _ := runVerify(t, data, o, false)
				in := unpruned(t, r.Ctx)
				rep, err := r.Report(ReportOptions{Options: o})
				if err != nil {
					t.Fatal(err)
				}
				checkReport(t, r, rep, lines(in), lines(out))
				for s, v := range rep.Strategies {
					seen[s] += v.MessagesBefore + v.MessagesAfter
				}

				// pruning the pruned context (a context input) changes nothing:
				// every result it pruned is kept as already pruned
				if len(out) == 0 || (large && name != "defaults") {
					return
				}
				r2, out2, _ := runVerify(t, out, o, false)
				rep2, err := r2.Report(ReportOptions{Options: o})
				if err != nil {
					t.Fatal(err)
				}
				checkReport(t, r2, rep2, lines(out), lines(out2))
				changed := rep.Strategies[Masked].Results + rep.Strategies[Stubbed].Results + rep.Strategies[Deduped].Results + rep.Strategies[Spilled].Results
				if rep2.Total.CharsAfter != rep2.Total.CharsBefore || rep2.Strategies[KeptAlready].Results < changed-rep2.Strategies[KeptRecent].Results {
					t.Fatalf("now of now: %+v; %d already pruned, %d pruned the first time", rep2.Total, rep2.Strategies[KeptAlready].Results, changed)
				}
				for s, v := range rep2.Strategies {
					seen[s] += v.MessagesBefore + v.MessagesAfter
				}
			})
		}
	}
}

func checkReport(t *testing.T, r *Result, rep *Report, in, out [][]byte) {
	t.Helper()
	var inChars, outChars, inResultChars, outResultChars int64
	inResults := 0
	for _, l := range in {
		inChars += int64(session.ModelChars(l))
		if role(l) == session.RoleToolResult {
			inResults++
			inResultChars += int64(session.ModelChars(l))
		}
	}
	for _, l := range out {
		outChars += int64(session.ModelChars(l))
		if role(l) == session.RoleToolResult {
			outResultChars += int64(session.ModelChars(l))
		}
	}
	var sum Tally
	for _, s := range Strategies() {
		sum.Add(*rep.Strategies[s])
	}
	want := Tally{Results: inResults, MessagesBefore: len(in), MessagesAfter: len(out), CharsBefore: inChars, CharsAfter: outChars}
	want.tokens()
	if sum != want || rep.Total != want {
		t.Fatalf("strategies sum to %+v, total %+v; the contexts have %+v", sum, rep.Total, want)
	}
	if len(rep.Strategies) != len(Strategies()) {
		t.Fatalf("%d strategies in the report, want every one of %d", len(rep.Strategies), len(Strategies()))
	}
	var tools Tally
	changed := 0
	for name, tt := range rep.Tools {
		tools.Add(tt.Tally)
		var split Tally
		for _, v := range tt.Strategies {
			split.Add(*v)
		}
		if split != tt.Tally {
			t.Fatalf("tool %s: strategies sum to %+v, tally %+v", name, split, tt.Tally)
		}
		changed += tt.Changed
	}
	if tools.Results != inResults || tools.CharsBefore != inResultChars || tools.CharsAfter != outResultChars || tools.MessagesBefore != inResults {
		t.Fatalf("tools sum to %+v; the contexts' tool results: %d, %d → %d chars", tools, inResults, inResultChars, outResultChars)
	}
	kept := 0
	for _, s := range Strategies() {
		if s.Kept() {
			kept += rep.Strategies[s].Results
		}
	}
	if changed != inResults-kept {
		t.Fatalf("%d results changed per tool, %d of %d not kept per strategy", changed, inResults-kept, inResults)
	}

	// the counts of the stages
	st := func(s Strategy) *Tally { return rep.Strategies[s] }
	if rd := r.Rendered; rd != nil {
		rp := rd.Report
		if got := st(Stubbed).Results + st(Deduped).Results + st(Spilled).Results; got != rp.Stubbed+rp.SpillStubbed {
			t.Errorf("stubbed+deduped+spilled %d, render stubbed %d + spill-stubbed %d", got, rp.Stubbed, rp.SpillStubbed)
		}
		if st(Superseded).Results != rp.Superseded {
			t.Errorf("superseded %d, render %d", st(Superseded).Results, rp.Superseded)
		}
		if st(OrphanSwept).Results != len(rp.Swept) {
			t.Errorf("orphan-swept %d, render swept %d", st(OrphanSwept).Results, len(rp.Swept))
		}
		inserted := 0
		for _, it := range rd.Items {
			if it.Src < 0 && it.Change == render.ChainMessage {
				inserted++
			}
		}
		if inserted != rp.Chains {
			t.Errorf("%d chain messages, render %d", inserted, rp.Chains)
		}
		dropped := st(ChainCompressed).MessagesBefore - (st(ChainCompressed).MessagesAfter - rp.Chains)
		if dropped != rp.ChainDropped+rp.SummariesSuppressed {
			t.Errorf("chains drop %d messages, render %d + %d summaries", dropped, rp.ChainDropped, rp.SummariesSuppressed)
		}
		if added := st(Summary).MessagesAfter - st(Summary).MessagesBefore; added != r.Summaries-rp.SummariesSuppressed && rp.SummariesSuppressed == 0 {
			t.Errorf("%d summaries added, the flush %d", added, r.Summaries)
		}
	} else if plan := r.Mask; plan != nil {
		// masking alone: the kept reasons are the plan's
		notShorter := 0
		for i, d := range plan.Decisions {
			if d.Kind != prune.Keep && bytes.Equal(in[i], out[i]) {
				notShorter++
			}
		}
		if st(KeptHazard).Results != plan.Hazards {
			t.Errorf("kept for a pairing hazard %d, plan %d", st(KeptHazard).Results, plan.Hazards)
		}
		if st(KeptRecent).Results != plan.Recent || st(KeptProtected).Results != plan.Protected ||
			st(KeptAlready).Results != plan.Already || st(KeptSmall).Results != plan.Small+notShorter {
			t.Errorf("kept recent %d protected %d already %d small %d; plan %d %d %d %d (+%d notices not shorter)",
				st(KeptRecent).Results, st(KeptProtected).Results, st(KeptAlready).Results, st(KeptSmall).Results,
				plan.Recent, plan.Protected, plan.Already, plan.Small, notShorter)
		}
		if st(Masked).Results != len(in)-countEqual(in, out) {
			t.Errorf("masked %d, %d lines differ", st(Masked).Results, len(in)-countEqual(in, out))
		}
	}

	// the cache break against the unpruned context
	k, off, cached := firstDiff(in, out)
	b := rep.Cache.Unpruned
	if b.FirstChanged != k || b.FirstChangedByte != off || b.CachedChars != cached || b.CachedTokens != tokens(cached) {
		t.Fatalf("unpruned break at %d (byte %d, %d chars before); context vs now differ first at line %d (byte %d, %d chars)",
			b.FirstChanged, b.FirstChangedByte, b.CachedChars, k, off, cached)
	}
	if b.ReferenceMessages != len(in) || b.ReferenceChars != inChars {
		t.Fatalf("unpruned reference %d messages %d chars, want %d %d", b.ReferenceMessages, b.ReferenceChars, len(in), inChars)
	}
	wantReused := b.CachedMessages == len(in)
	if b.Reused != wantReused || (k >= 0 && k < len(out)) != (b.At != nil) || (k >= 0 && k < len(in)) != (b.Was != nil) {
		t.Fatalf("unpruned break %+v (context %d lines, now %d)", b, len(in), len(out))
	}
}

func countEqual(a, b [][]byte) int {
	n := 0
	for i := range a {
		if bytes.Equal(a[i], b[i]) {
			n++
		}
	}
	return n
}

// TestReportPreviousTurn checks the previous-turn break against `now` run
// on a copy of the session cut before its newest user message: the first
// line where the two outputs differ, its byte, the chars before it, and
// whether the earlier output is a prefix of the later one.
func TestReportPreviousTurn(t *testing.T) {
	o := defaults(t)
	tested := 0
	for _, path := range sessions(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r, out, _ := runVerify(t, data, o, false)
			prev, line, err := PreviousTurn(context.Background(), r.Ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			// the newest user message, found in the file itself
			want := 0
			if st := turns.Of(r.Ctx).Starts; len(st) > 0 {
				want = r.Ctx.Messages[st[len(st)-1]].Line()
			}
			cut := data[:0]
			for i, n := 0, 1; n < want; n++ {
				i += bytes.IndexByte(data[i:], '\n') + 1
				cut = data[:i]
			}
			// a cut with no message before the turn has no previous request
			if pctx, err := session.Read(bytes.NewReader(cut), bytes.NewReader(cut), session.ReadOptions{Branch: true}); want == 0 || err != nil || len(pctx.Messages) == 0 {
				if prev != nil {
					t.Fatalf("no earlier context, but a previous context cut at line %d", line)
				}
				return
			}
			if line != want || prev == nil {
				t.Fatalf("previous turn cut at line %d (nil: %v), want %d", line, prev == nil, want)
			}
			_, prevOut, _ := runVerify(t, cut, o, false)
			fp, err := prev.Fingerprint(ReportOptions{Options: o})
			if err != nil {
				t.Fatal(err)
			}
			fp.TurnLine = line
			rep, err := r.Report(ReportOptions{Options: o, Previous: fp})
			if err != nil {
				t.Fatal(err)
			}
			pl, ol := lines(prevOut), lines(out)
			k, off, cached := firstDiff(pl, ol)
			b := rep.Cache.PreviousTurn
			if b == nil || b.FirstChanged != k || b.FirstChangedByte != off || b.CachedChars != cached || b.TurnLine != want {
				t.Fatalf("previous-turn break %+v; now of the cut session and of the session differ first at line %d (byte %d, %d chars)", b, k, off, cached)
			}
			if b.ReferenceMessages != len(pl) || b.Reused != (b.CachedMessages == len(pl)) {
				t.Fatalf("previous-turn break %+v; the previous context has %d messages", b, len(pl))
			}
			if b.Was != nil && k < len(pl) && b.Was.Role != role(pl[k]) {
				t.Fatalf("the previous context's message %d is a %s, the report says %s", k, role(pl[k]), b.Was.Role)
			}
			tested++
		})
	}
	if tested < 10 {
		t.Fatalf("only %d sessions have an earlier turn", tested)
	}
}

// TestReportPreviousTurnPrefix: with pruning off, a session that only grew
// since its previous turn gives back the previous request whole (the
// cache holds all of it); with the default pruning, the flush's summaries
// sit at the end of the context and the next turn's context moves past
// them, so the cache breaks where the previous request's first summary
// was.
func TestReportPreviousTurnPrefix(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testdata, "sessions", "before-compaction.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	off := Options{}
	for _, c := range []struct {
		name   string
		o      Options
		reused bool
	}{{"off", off, true}, {"defaults", defaults(t), false}} {
		t.Run(c.name, func(t *testing.T) {
			r, _, _ := runVerify(t, data, c.o, false)
			prev, line, err := PreviousTurn(context.Background(), r.Ctx, c.o)
			if err != nil || prev == nil {
				t.Fatal(err, prev)
			}
			fp, err := prev.Fingerprint(ReportOptions{Options: c.o, Off: c.o.Mask == false && c.o.Flush == false})
			if err != nil {
				t.Fatal(err)
			}
			fp.TurnLine = line
			rep, err := r.Report(ReportOptions{Options: c.o, Previous: fp})
			if err != nil {
				t.Fatal(err)
			}
			b := rep.Cache.PreviousTurn
			if b.Reused != c.reused {
				t.Fatalf("reused %v, want %v: %+v", b.Reused, c.reused, b)
			}
			if c.reused {
				if b.FirstChanged != fp.Messages() || b.At == nil || b.At.Role != session.RoleUser || b.At.Line != line || b.Was != nil {
					t.Fatalf("the break is not the newest user message at line %d: %+v", line, b)
				}
				return
			}
			if b.Was == nil || b.Was.Strategy != Summary || b.Was.Line != 0 {
				t.Fatalf("the break is not the previous request's first summary: %+v", b.Was)
			}
		})
	}
}

// TestReportImagesAndOrphans: a context with three images in its recent
// turns, under maxImagesPerRequest 1, and a result that answers no call.
func TestReportImagesAndOrphans(t *testing.T) {
	img := `{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}`
	ctxt := []byte(`{"role":"user","content":[{"type":"text","text":"look"},` + img + `,` + img + `],"timestamp":1}
{"role":"assistant","content":[{"type":"toolCall","id":"A","name":"read","arguments":{"path":"a.png"}}],"timestamp":2}
{"role":"toolResult","toolCallId":"A","toolName":"read","content":[` + img + `],"isError":false,"timestamp":3}
{"role":"toolResult","toolCallId":"B","toolName":"bash","content":[{"type":"text","text":"stray"}],"isError":false,"timestamp":4}
{"role":"assistant","content":[{"type":"text","text":"done"}],"timestamp":5}
`)
	o := defaults(t)
	o.Render.MaxImages = 1
	r, out, _ := runVerify(t, ctxt, o, false)
	rep, err := r.Report(ReportOptions{Options: o})
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, r, rep, lines(unpruned(t, r.Ctx)), lines(out))
	// one image over the cap omitted per step of ⌈1/2⌉: the two oldest
	// images go, the user message's both — and the orphan is dropped
	capped, swept := rep.Strategies[ImagesCapped], rep.Strategies[OrphanSwept]
	if capped.MessagesBefore != 1 || capped.MessagesAfter != 1 || capped.CharsAfter >= capped.CharsBefore {
		t.Errorf("images-capped %+v", capped)
	}
	if swept.Results != 1 || swept.MessagesAfter != 0 || swept.CharsAfter != 0 || rep.Tools["bash"].Strategies[OrphanSwept].Results != 1 {
		t.Errorf("orphan-swept %+v, bash %+v", swept, rep.Tools["bash"])
	}
	if rep.Strategies[KeptRecent].Results != 1 {
		t.Errorf("kept-recent %+v", rep.Strategies[KeptRecent])
	}
}

// TestReportPairingHazard: a result another extension's message cuts off
// from its call stays as it is (pi-ai would not pair it), counted apart
// from the intact pair, which masking prunes.
func TestReportPairingHazard(t *testing.T) {
	big := strings.Repeat("line of build output ", 20)
	data := []byte(`{"type":"session","version":3,"id":"s1","timestamp":"2026-12-01T09:00:00.000Z","cwd":"/p"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-12-01T09:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"build both"}],"timestamp":1000}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-12-01T09:00:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"make c1"}},{"type":"toolCall","id":"c2","name":"bash","arguments":{"command":"make c2"}}],"stopReason":"toolUse","timestamp":1100}}
{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-12-01T09:00:00.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"c1 ` + big + `"}],"isError":false,"timestamp":1200}}
{"type":"custom_message","customType":"other-ext","content":"a note from another extension","display":true,"id":"x1","parentId":"r1","timestamp":"2026-12-01T09:00:00.000Z"}
{"type":"message","id":"r2","parentId":"x1","timestamp":"2026-12-01T09:00:00.000Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"bash","content":[{"type":"text","text":"c2 ` + big + `"}],"isError":false,"timestamp":1300}}
{"type":"message","id":"a2","parentId":"r2","timestamp":"2026-12-01T09:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"stopReason":"stop","timestamp":1400}}
{"type":"message","id":"u2","parentId":"a2","timestamp":"2026-12-01T09:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"two"}],"timestamp":2000}}
{"type":"message","id":"a3","parentId":"u2","timestamp":"2026-12-01T09:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"stopReason":"stop","timestamp":2100}}
`)
	o := defaults(t)
	o.Flush, o.Prune.RecentTurns, o.Prune.MaxChars = false, 1, 100
	r, out, _ := runVerify(t, data, o, false)
	rep, err := r.Report(ReportOptions{Options: o})
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, r, rep, lines(unpruned(t, r.Ctx)), lines(out))
	if h, m := rep.Strategies[KeptHazard], rep.Strategies[Masked]; h.Results != 1 || m.Results != 1 || rep.Tools["bash"].Changed != 1 {
		t.Fatalf("kept for a hazard %+v, masked %+v, bash %+v", h, m, rep.Tools["bash"])
	}
}

// BenchmarkStats is `pruner stats` on one session (the benchmark input of
// BenchmarkNow): `now`'s pipeline, the same for the session before its
// newest turn, the fingerprint of that and the report. MB/s of input.
func BenchmarkStats(b *testing.B) {
	in, err := benchInput()
	if err != nil {
		b.Fatal(err)
	}
	o := defaults(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		ctx, err := session.Read(bytes.NewReader(in), bytes.NewReader(in), session.ReadOptions{Branch: true})
		if err != nil {
			b.Fatal(err)
		}
		r, err := Run(context.Background(), ctx, o)
		if err != nil {
			b.Fatal(err)
		}
		ro := ReportOptions{Options: o}
		prev, line, err := PreviousTurn(context.Background(), ctx, o)
		if err != nil {
			b.Fatal(err)
		}
		if prev != nil {
			if ro.Previous, err = prev.Fingerprint(ro); err != nil {
				b.Fatal(err)
			}
			ro.Previous.TurnLine = line
		}
		if _, err := r.Report(ro); err != nil {
			b.Fatal(err)
		}
	}
}
