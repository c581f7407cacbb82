package index

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/benchgen"
	"github.com/pruner-dev/pruner/internal/session"
)

// TestFlushLeavesArgsInTheInput: on every shipped session, a flush whose
// records leave their arguments in the input (argsAt) writes the same
// entries, and its state gives every record the same arguments (Record,
// RecordsFor) as a flush that copies them (one onto a state rebuilt from
// another read of the file) — and most records do leave them there.
func TestFlushLeavesArgsInTheInput(t *testing.T) {
	var paths []string
	for _, dir := range []string{"sessions", "chains", "golden/now"} {
		ps, _ := filepath.Glob(filepath.Join("../../testdata", dir, "*.jsonl"))
		paths = append(paths, ps...)
	}
	if len(paths) < 10 {
		t.Fatalf("only %d sessions", len(paths))
	}
	located := 0
	for _, p := range paths {
		ctx := readSession(t, p)
		if ctx.Kind != session.KindSession {
			continue
		}
		other := readSession(t, p)
		flush := func(st *State) *Flushed {
			o := FlushOptions{Capture: CaptureOptions{RawFrom: -1}, Dedup: true, Chains: ChainOptions{Enabled: true}, Now: 1}
			f, err := Flush(t.Context(), ctx, st, o)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
		st, err := Rebuild(ctx)
		if err != nil {
			t.Fatal(err)
		}
		stOther, err := Rebuild(other)
		if err != nil {
			t.Fatal(err)
		}
		at, copied := flush(st), flush(stOther)
		if len(at.Entries) != len(copied.Entries) {
			t.Fatalf("%s: %d entries, copying %d", p, len(at.Entries), len(copied.Entries))
		}
		for i := range at.Entries {
			a, err := at.Entries[i].AppendLine(nil, ctx, "id", "parent", "ts")
			if err != nil {
				t.Fatal(err)
			}
			b, err := copied.Entries[i].AppendLine(nil, ctx, "id", "parent", "ts")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Fatalf("%s: entry %d differs:\n%s\ncopying:\n%s", p, i, a, b)
			}
		}
		for _, k := range at.State.Keys() {
			r, _ := at.State.Record(k)
			rc, _ := copied.State.Record(k)
			if r == nil || rc == nil {
				t.Fatalf("%s: %s: no record", p, k)
			}
			args, err := at.State.RecordArgs(r)
			if err != nil || !bytes.Equal(args, rc.Args) || len(args) == 0 {
				t.Fatalf("%s: %s: args %q (%v), copying %q", p, k, args, err, rc.Args)
			}
			if rc.argsAt.entry != 0 {
				t.Fatalf("%s: %s: a copying flush left the arguments in the input", p, k)
			}
			if at.State.record(k).argsAt.entry != 0 {
				located++
			}
			occ, occC := at.State.RecordsFor(k), copied.State.RecordsFor(k)
			if len(occ) != 1 || len(occC) != 1 || !bytes.Equal(occ[0].Record.Args, occC[0].Record.Args) || occ[0].Err != nil {
				t.Fatalf("%s: %s: RecordsFor %v, copying %v", p, k, occ, occC)
			}
		}
	}
	if located < 100 {
		t.Fatalf("only %d records left their arguments in the input", located)
	}
}

// A flushed record's arguments are read again from the input: a file
// truncated under pruner gives an error (RecordArgs, RecordsFor), never a
// crash.
func TestArgsAtOfATruncatedFile(t *testing.T) {
	data, err := os.ReadFile("../../testdata/sessions/compact.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := readSession(t, p)
	st, err := Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Flush(t.Context(), ctx, st, FlushOptions{Capture: CaptureOptions{RawFrom: -1}, Now: 1})
	if err != nil {
		t.Fatal(err)
	}
	keys := f.State.Keys()
	if len(keys) == 0 {
		t.Fatal("nothing flushed")
	}
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		r, ok := f.State.Record(k)
		if !ok {
			t.Fatalf("%s: no record", k)
		}
		if args, err := f.State.RecordArgs(r); r.argsAt.entry != 0 && (err == nil || args != nil) {
			t.Fatalf("%s: %q, %v after truncation", k, args, err)
		}
		if occ := f.State.RecordsFor(k); len(occ) != 1 || f.State.record(k).argsAt.entry != 0 && occ[0].Err == nil {
			t.Fatalf("%s: RecordsFor after truncation: %+v", k, occ)
		}
	}
}

// TestCallTextAtIsTheParsedText: on every shipped session, a captured
// call's resultText read from where capture located it (one text block)
// is the text the parse of its result's line gives, decoded and as JSON;
// most calls are located.
func TestCallTextAtIsTheParsedText(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	more, _ := filepath.Glob("../../testdata/golden/now/*.jsonl")
	located, calls := 0, 0
	for _, p := range append(paths, more...) {
		ctx := readSession(t, p)
		if ctx.Kind != session.KindSession {
			continue
		}
		st, err := Rebuild(ctx)
		if err != nil {
			t.Fatal(err)
		}
		batches, err := Capture(ctx, st, CaptureOptions{RawFrom: -1})
		if err != nil {
			t.Fatal(err)
		}
		var lt lineTape
		for _, b := range batches {
			for _, c := range b.Calls {
				calls++
				got, err := c.appendText(nil, ctx, &lt)
				if err != nil {
					t.Fatal(err)
				}
				gotJSON, err := c.appendTextJSON(nil, ctx, &lt)
				if err != nil {
					t.Fatal(err)
				}
				parsed := *c
				parsed.text = textLoc{}
				want, _ := parsed.appendText(nil, ctx, &lt)
				wantJSON, _ := parsed.appendTextJSON(nil, ctx, &lt)
				if !bytes.Equal(got, want) || !bytes.Equal(gotJSON, wantJSON) {
					t.Fatalf("%s: %s: located text %.200q (%.200s), parsed %.200q (%.200s)", p, c.Key, got, gotJSON, want, wantJSON)
				}
				if textChars(got) != c.Chars {
					t.Fatalf("%s: %s: %d chars, captured %d", p, c.Key, textChars(got), c.Chars)
				}
				if c.text.at.entry != 0 {
					located++
				}
			}
		}
	}
	if located < calls/2 || located < 100 {
		t.Fatalf("%d of %d calls located", located, calls)
	}
}

// TestChainCallsParseWhatIsNeeded: on every shipped session, with chains
// compressed at every window, a flush that parses only the assistant lines
// whose calls a backfill needs writes the same entries as one that parses
// every assistant line of each chain.
func TestChainCallsParseWhatIsNeeded(t *testing.T) { checkParseWhatIsNeeded(t) }

// TestChainCallsTrivialDropped: with chunks of two trivial calls, let go
// of as the chains pass them, the entries are still those of parsing
// every call.
func TestChainCallsTrivialDropped(t *testing.T) {
	old := trivialChunk
	trivialChunk = 2
	defer func() { trivialChunk = old }()
	checkParseWhatIsNeeded(t)
}

func checkParseWhatIsNeeded(t *testing.T) {
	t.Helper()
	var paths []string
	for _, dir := range []string{"sessions", "chains", "golden/now"} {
		ps, _ := filepath.Glob(filepath.Join("../../testdata", dir, "*.jsonl"))
		paths = append(paths, ps...)
	}
	chains, backfilled := 0, 0
	for _, p := range paths {
		ctx := readSession(t, p)
		if ctx.Kind != session.KindSession {
			continue
		}
		for _, window := range []int{0, 1, 3} {
			for _, minChars := range []int{0, 5000} {
				lines := func(every bool) []string {
					st, err := Rebuild(ctx)
					if err != nil {
						t.Fatal(err)
					}
					o := FlushOptions{Capture: CaptureOptions{RawFrom: -1}, MinBatchChars: minChars, Dedup: true,
						Chains: ChainOptions{Enabled: true, RollingWindow: window}, Now: 1, parseEveryCall: every}
					f, err := Flush(t.Context(), ctx, st, o)
					if err != nil {
						t.Fatal(err)
					}
					chains += f.Chains
					backfilled += f.Backfilled
					var out []string
					for _, e := range f.Entries {
						b, err := e.AppendLine(nil, ctx, "id", "parent", "ts")
						if err != nil {
							t.Fatal(err)
						}
						out = append(out, string(b))
					}
					return out
				}
				got, want := lines(false), lines(true)
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("%s (window %d, minBatchChars %d): entries differ from parsing every call", p, window, minChars)
				}
			}
		}
	}
	if chains < 20 || backfilled < 20 {
		t.Fatalf("only %d chains compressed, %d calls backfilled", chains, backfilled)
	}
}

// TestDedupAsItReads: on every shipped session (and the sessions a flush
// of them leaves, flushed again with dedup), a flush that hashes each
// result as it reads it for the summariser, a chunk of batches at a time,
// writes the same entries and counts as one that deduplicates every batch
// before the first summary.
func TestDedupAsItReads(t *testing.T) {
	var paths []string
	for _, dir := range []string{"sessions", "chains", "golden/now"} {
		ps, _ := filepath.Glob(filepath.Join("../../testdata", dir, "*.jsonl"))
		paths = append(paths, ps...)
	}
	deduped, summarized := 0, 0
	for _, p := range paths {
		ctx := readSession(t, p)
		if ctx.Kind != session.KindSession {
			continue
		}
		for _, minChars := range []int{0, 5000} {
			for _, raw := range []int{-1, len(ctx.Messages) / 2} {
				lines := func(first bool) string {
					st, err := Rebuild(ctx)
					if err != nil {
						t.Fatal(err)
					}
					o := FlushOptions{Capture: CaptureOptions{RawFrom: raw}, MinBatchChars: minChars, Dedup: true,
						Chains: ChainOptions{Enabled: true, RollingWindow: 1}, Now: 1, dedupFirst: first}
					f, err := Flush(t.Context(), ctx, st, o)
					if err != nil {
						t.Fatal(err)
					}
					if !first {
						deduped += f.Deduped
						summarized += f.Summarized
					}
					out := []string{fmt.Sprint(f.Captured, f.Processed, f.Outcome, f.Calls, f.Summarized, f.Deduped, f.Trivial, f.Oversized, f.RawChars, f.SummaryChars, f.Chains, f.Backfilled, f.Warnings)}
					for _, e := range f.Entries {
						b, err := e.AppendLine(nil, ctx, "id", "parent", "ts")
						if err != nil {
							t.Fatal(err)
						}
						out = append(out, string(b))
					}
					out = append(out, fmt.Sprint(f.State.Keys(), f.State.NextRef))
					return strings.Join(out, "\n")
				}
				if got, want := lines(false), lines(true); got != want {
					t.Fatalf("%s (minBatchChars %d, raw from %d): entries differ from deduplicating first:\n%.2000s\nwant\n%.2000s", p, minChars, raw, got, want)
				}
			}
		}
	}
	if summarized < 100 {
		t.Fatalf("only %d calls summarised, %d deduped", summarized, deduped)
	}
	t.Logf("%d calls summarised, %d deduped", summarized, deduped)
}

// TestDedupAsItReadsGenerated is TestDedupAsItReads on a generated session
// (repeated results across many chunks of batches), flushed in two halves:
// the second flush finds duplicates of the first's records, and must not
// find them among the records it makes itself.
func TestDedupAsItReadsGenerated(t *testing.T) {
	seeds, err := benchgen.ReadSeeds("../../testdata/sessions/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := benchgen.Generate(&buf, seeds, 3<<20, 7); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	ctx, err := session.Read(bytes.NewReader(data), bytes.NewReader(data), session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	deduped, summarized := 0, 0
	for _, minChars := range []int{0, 2000} {
		run := func(first bool) string {
			st, err := Rebuild(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, raw := range []int{len(ctx.Messages) / 2, -1} {
				o := FlushOptions{Capture: CaptureOptions{RawFrom: raw}, MinBatchChars: minChars, Dedup: true,
					Chains: ChainOptions{Enabled: true, RollingWindow: 1}, Now: 1, dedupFirst: first}
				f, err := Flush(t.Context(), ctx, st, o)
				if err != nil {
					t.Fatal(err)
				}
				if !first {
					deduped += f.Deduped
					summarized += f.Summarized
				}
				out = append(out, fmt.Sprint(f.Captured, f.Processed, f.Outcome, f.Calls, f.Summarized, f.Deduped, f.Trivial, f.Oversized, f.RawChars, f.SummaryChars, f.Chains, f.Backfilled, f.Warnings))
				for _, e := range f.Entries {
					b, err := e.AppendLine(nil, ctx, "id", "parent", "ts")
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, string(b))
				}
				st = f.State
				out = append(out, fmt.Sprint(st.Keys(), st.NextRef))
			}
			return strings.Join(out, "\n")
		}
		if got, want := run(false), run(true); got != want {
			t.Fatalf("minBatchChars %d: entries differ from deduplicating first", minChars)
		}
	}
	if summarized < 300 || deduped < 50 {
		t.Fatalf("only %d calls summarised, %d deduped", summarized, deduped)
	}
	t.Logf("%d calls summarised, %d deduped", summarized, deduped)
}
