package index

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

const oracleDir = "../../testdata/condense-oracle"

func readSession(t testing.TB, path string) *session.Context {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	ctx, err := session.Read(f, f, session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	return ctx
}

func finalSession(t testing.TB, scenario string) *session.Context {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(oracleDir, scenario, "final", "*.jsonl"))
	if len(m) != 1 {
		t.Fatalf("%s: want one final session, got %v", scenario, m)
	}
	return readSession(t, m[0])
}

func rebuild(t testing.TB, ctx *session.Context) *State {
	t.Helper()
	s, err := Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func wantKey(t *testing.T, s *State, input, key string) {
	t.Helper()
	got, ok := s.Resolve(input)
	if !ok || got != key {
		t.Errorf("Resolve(%q) = %q, %v; want %q", input, got, ok, key)
	}
}

func TestRebuildPlain(t *testing.T) {
	s := rebuild(t, finalSession(t, "a-plain"))
	if len(s.Warnings) > 0 {
		t.Fatalf("warnings: %v", s.Warnings)
	}
	if s.Len() != 10 || s.NextRef != 11 || s.NextBlock != 1 {
		t.Fatalf("records %d, NextRef %d, NextBlock %d; want 10, 11, 1", s.Len(), s.NextRef, s.NextBlock)
	}
	wantKey(t, s, "t1", "call_turn1_step1_0@1796116303987")
	wantKey(t, s, "t3", "call_turn2_step1_0@1796116304479")
	wantKey(t, s, "t10", "call_turn4_step2_0@1796116305537")
	wantKey(t, s, "call_turn2_step1_0", "call_turn2_step1_0@1796116304479") // bare id, one occurrence
	if ref, _ := s.ShortRef("call_turn3_step1_2@1796116305022"); ref != "t8" {
		t.Errorf("ShortRef = %q, want t8", ref)
	}
	if s.Frontier == nil || s.Frontier.LastAttemptedToolCallID != "call_turn4_step2_0" || s.Frontier.LastAttemptedTurnIndex != 8 || s.Frontier.Outcome != "summarized" {
		t.Errorf("frontier %+v", s.Frontier)
	}
	if s.Stats == nil || s.Stats.CallCount != 6 || s.Stats.TotalInputTokens != 7186 {
		t.Errorf("stats %+v", s.Stats)
	}
	if n := len(s.Summaries()); n != 6 {
		t.Errorf("%d summaries, want 6", n)
	}
	r := mustRecord(t, s, "t2")
	if r.ToolName != "read" || string(r.Args) != `{"path":"data/alpha.txt"}` || r.TurnIndex != 0 || r.IsError || !strings.HasPrefix(r.ResultText, "alpha 001") {
		t.Errorf("t2 record %+v", r)
	}
	if s.HasLegacyBareRecord("call_turn1_step1_0") {
		t.Error("an occurrence-keyed record counted as legacy")
	}
}

func TestRebuildDedup(t *testing.T) {
	s := rebuild(t, finalSession(t, "c-dedup"))
	if len(s.Warnings) > 0 {
		t.Fatalf("warnings: %v", s.Warnings)
	}
	al := s.Aliases()
	if len(al) != 2 {
		t.Fatalf("aliases %v, want 2", al)
	}
	orig := "call_turn1_step1_0@1796116309461"
	for dup, o := range al {
		if o != orig {
			t.Errorf("alias %s → %s, want %s", dup, o, orig)
		}
		if !s.IsSummarized(dup) {
			t.Errorf("alias %s not summarized", dup)
		}
		if ref, _ := s.ShortRef(dup); ref != "t1" {
			t.Errorf("alias %s ref %q, want the original's t1", dup, ref)
		}
		wantKey(t, s, dup, orig)
	}
	if occ := s.RecordsFor("call_turn3_step1_0"); len(occ) != 1 || occ[0].Key != "call_turn3_step1_0@1796116310457" || *occ[0].Record.ResultTimestamp != 1796116310457 {
		t.Errorf("RecordsFor(alias id) = %+v", occ)
	}
	if k, ok := s.LookupByContent("read", mustRecord(t, s, "t1").ResultText+"\n  \n"); !ok || k != orig {
		t.Errorf("LookupByContent (trailing whitespace normalised) = %q, %v", k, ok)
	}
	if s.Frontier.Outcome != "skipped-deduped" {
		t.Errorf("frontier outcome %q", s.Frontier.Outcome)
	}
}

func mustRecord(t *testing.T, s *State, in string) *Record {
	t.Helper()
	r, ok := s.Record(in)
	if !ok {
		t.Fatalf("no record for %s", in)
	}
	rc, err := s.withText(*r) // the text as State.ResultText reads it
	if err != nil {
		t.Fatal(err)
	}
	return &rc
}

func TestRebuildSpill(t *testing.T) {
	s := rebuild(t, finalSession(t, "d-spill"))
	r := mustRecord(t, s, "call_turn1_step1_0")
	if r.SpillPath == nil || r.SpillBytes == nil || *r.SpillBytes != 80000 || r.ResultText != "" || r.ResultPreview == nil || r.ContentHash == nil {
		t.Fatalf("spill record %+v", r)
	}
	if _, ok := s.ShortRef("call_turn1_step1_0@1796116312147"); ok {
		t.Error("an eagerly spilled record got a short ref")
	}
	blob, err := os.ReadFile(filepath.Join(oracleDir, "d-spill", "final", "01a230df-ecf2-7785-9920-0bd046832694-blobs", "call_turn1_step1_0_1796116312147.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := ContentHash(r.ToolName, string(blob)); got != *r.ContentHash {
		t.Errorf("ContentHash(blob) = %s, record says %s", got, *r.ContentHash)
	}
}

func TestRebuildChains(t *testing.T) {
	s := rebuild(t, finalSession(t, "f-chain"))
	if len(s.Warnings) > 0 {
		t.Fatalf("warnings: %v", s.Warnings)
	}
	cs := s.Chains()
	if len(cs) != 3 || s.NextBlock != 4 {
		t.Fatalf("%d chains, NextBlock %d; want 3, 4", len(cs), s.NextBlock)
	}
	for i, id := range []string{"b1", "b2", "b3"} {
		if cs[i].BlockID != id {
			t.Errorf("chain %d is %s, want %s", i, cs[i].BlockID, id)
		}
	}
	if cs[1].BodySource != "deterministic" || cs[1].RangeSummaryText == nil || cs[0].RangeSummaryText == nil || cs[2].RangeSummaryText != nil {
		t.Errorf("chain bodies: %+v %+v %+v", cs[0], cs[1], cs[2])
	}
	if c, ok := s.ChainByBlock("b3"); !ok || strings.Join(c.ToolRefs, ",") != "t3,t4" || c.FinalAssistantTimestamp == nil {
		t.Errorf("b3 = %+v", c)
	}
	// the uncovered chain's backfill: refs t8, t9 with turnIndex -1
	for _, ref := range []string{"t8", "t9"} {
		k, ok := s.Resolve(ref)
		if !ok || !s.Backfilled(k) || mustRecord(t, s, ref).TurnIndex != -1 {
			t.Errorf("%s: key %q backfilled %v", ref, k, s.Backfilled(k))
		}
		if _, dedup := s.LookupByContent("bash", mustRecord(t, s, ref).ResultText); dedup {
			t.Errorf("%s: a backfilled record seeds dedup", ref)
		}
	}
	if s.NextRef != 11 {
		t.Errorf("NextRef %d, want 11", s.NextRef)
	}
	kinds := map[string]int{}
	last := 0
	for _, p := range s.RewritePoints {
		kinds[p.Kind]++
		if p.Line <= last {
			t.Errorf("rewrite points out of branch order: %+v", s.RewritePoints)
		}
		last = p.Line
		if p.Kind == TypeChain {
			if c, ok := s.chains[p.Floor]; !ok || c.StartUserTimestamp != p.Floor {
				t.Errorf("chain point %+v has no chain starting at its floor", p)
			}
		}
	}
	// 8 index entries (7 summarized batches and the b2 backfill), 3 chains
	if kinds[TypeChain] != 3 || kinds[TypeIndex] != 8 {
		t.Errorf("rewrite points by kind: %v", kinds)
	}
	texts := s.SummaryTexts([]string{"call_turn1_step1_0@1796116316809", "call_turn1_step2_0@1796116316822"})
	if len(texts) != 2 {
		t.Errorf("SummaryTexts of chain b1: %q", texts)
	}
}

// Every request snapshot of every scenario: no warnings, every ref of every
// summary resolves to its occurrence, NextRef is max+1.
func TestRebuildEveryOracleSnapshot(t *testing.T) {
	snaps, _ := filepath.Glob(filepath.Join(oracleDir, "*", "requests", "*.session.jsonl"))
	finals, _ := filepath.Glob(filepath.Join(oracleDir, "*", "final", "*.jsonl"))
	if len(snaps) < 30 {
		t.Fatalf("only %d snapshots", len(snaps))
	}
	for _, p := range append(snaps, finals...) {
		ctx := readSession(t, p)
		s := rebuild(t, ctx)
		if len(s.Warnings) > 0 {
			t.Errorf("%s: %v", p, s.Warnings)
		}
		maxRef := 0
		for _, sm := range s.Summaries() {
			for _, k := range sm.Keys {
				ref, ok := s.ShortRef(k)
				if !ok {
					t.Errorf("%s: summary key %s has no ref", p, k)
					continue
				}
				n, _ := refNumber(ref, 't')
				maxRef = max(maxRef, n)
				if got, _ := s.Resolve(ref); got != k {
					t.Errorf("%s: %s resolves to %s, want %s", p, ref, got, k)
				}
			}
		}
		for _, k := range s.Keys() {
			if !s.IsSummarized(k) {
				t.Errorf("%s: record %s not summarized", p, k)
			}
			if ref, ok := s.ShortRef(k); ok {
				n, _ := refNumber(ref, 't')
				maxRef = max(maxRef, n)
			}
		}
		if s.NextRef != maxRef+1 {
			t.Errorf("%s: NextRef %d, max ref %d", p, s.NextRef, maxRef)
		}
	}
}

func entry(line int, typ, ctype, body string) Entry {
	return Entry{Type: typ, CustomType: ctype, Line: line, Raw: []byte(`{"type":"` + typ + `","customType":"` + ctype + `",` + body + `,"id":"e` + string(rune('a'+line)) + `","parentId":null}`)}
}

func TestRebuildReportsAndSkipsCorruptEntries(t *testing.T) {
	good := `{"toolCallId":"c1","toolName":"bash","args":{},"resultText":"x","isError":false,"turnIndex":0,"timestamp":5,"resultTimestamp":7}`
	ents := []Entry{
		entry(2, "custom", TypeIndex, `"data":null`),
		entry(3, "custom", TypeIndex, `"data":{"toolCalls":"nope"}`),
		entry(4, "custom", TypeIndex, `"data":{"toolCalls":[null,{"toolName":"x"},{"ToolCallId":"c9"},{"toolCallId":"c2","resultTimestamp":"7"},{"toolCallId":"c3","resultTimestamp":1.5},`+good+`]}`),
		entry(5, "custom_message", TypeIndex, `"data":{"toolCalls":[]}`),
		entry(6, "custom", TypeChain, `"data":{"blockId":"b2","startUserTimestamp":"1"}`),
		entry(7, "custom", TypeDedupAlias, `"data":{"newToolCallId":"d1"}`),
		entry(8, "custom_message", TypeSummary, `"content":"s","display":false,"details":{"toolCallRefs":[null,{"shortId":"t4","toolCallId":"c1","resultTimestamp":7},{"shortId":5,"toolCallId":"c1"}]}`),
		entry(9, "custom", TypeFrontier, `"data":{"outcome":"summarized"}`),
	}
	s := RebuildEntries(ents)
	lines := map[int]int{}
	for _, w := range s.Warnings {
		lines[w.Line]++
	}
	for _, l := range []int{2, 3, 4, 5, 6, 7, 8, 9} {
		if lines[l] == 0 {
			t.Errorf("no warning for line %d (warnings: %v)", l, s.Warnings)
		}
	}
	if lines[4] != 5 {
		t.Errorf("line 4: %d warnings, want 5 (one per bad record): %v", lines[4], s.Warnings)
	}
	if s.Len() != 1 || !s.IsSummarized("c1@7") {
		t.Fatalf("records %v", s.Keys())
	}
	if ref, _ := s.ShortRef("c1@7"); ref != "t4" || s.NextRef != 5 {
		t.Errorf("ref %q NextRef %d", ref, s.NextRef)
	}
	if s.Frontier != nil || len(s.Chains()) != 0 || len(s.Aliases()) != 0 {
		t.Errorf("frontier %v chains %v aliases %v", s.Frontier, s.Chains(), s.Aliases())
	}
}

func TestLegacyBareRecords(t *testing.T) {
	legacy := `{"toolCallId":"bash_1","toolName":"bash","args":{},"resultText":"old","isError":false,"turnIndex":0,"timestamp":5}`
	modern := `{"toolCallId":"bash_1","toolName":"bash","args":{},"resultText":"new","isError":false,"turnIndex":3,"timestamp":9,"resultTimestamp":8}`
	pure := RebuildEntries([]Entry{
		entry(1, "custom", TypeIndex, `"data":{"toolCalls":[`+legacy+`]}`),
		entry(2, "custom_message", TypeSummary, `"content":"s","details":{"toolCallIds":["bash_1"]}`),
	})
	if !pure.HasLegacyBareRecord("bash_1") || !pure.IsSummarized("bash_1") {
		t.Fatal("pure legacy record not found by bare id")
	}
	if _, ok := pure.ShortRef("bash_1"); ok {
		t.Error("a legacy ref (shortId == id) registered as an alias")
	}
	mixed := RebuildEntries([]Entry{
		entry(1, "custom", TypeIndex, `"data":{"toolCalls":[`+legacy+`]}`),
		entry(2, "custom", TypeIndex, `"data":{"toolCalls":[`+modern+`]}`),
	})
	if mixed.HasLegacyBareRecord("bash_1") {
		t.Error("mixed legacy and occurrence records must fail closed")
	}
	if mixed.IsSummarized("bash_1@9150") {
		t.Error("a live reuse of the id counted as summarized")
	}
	if k, _ := mixed.Resolve("bash_1"); k != "bash_1" {
		t.Errorf("Resolve(bare) = %q: the legacy record's own key is a direct hit", k)
	}
	occ := mixed.RecordsFor("bash_1")
	if len(occ) != 2 || occ[0].Record.ResultText != "old" || occ[1].Key != "bash_1@8" {
		t.Errorf("RecordsFor = %+v", occ)
	}
}

func TestAliasBeforeSummaryStillSharesRef(t *testing.T) {
	rec := `{"toolCallId":"a","toolName":"read","args":{},"resultText":"x","isError":false,"turnIndex":0,"timestamp":5,"resultTimestamp":6}`
	s := RebuildEntries([]Entry{
		entry(1, "custom", TypeDedupAlias, `"data":{"newToolCallId":"b","originalToolCallId":"a","newResultTimestamp":9,"originalResultTimestamp":6}`),
		entry(2, "custom_message", TypeSummary, `"content":"s","details":{"toolCallRefs":[{"shortId":"t7","toolCallId":"a","resultTimestamp":6}]}`),
		entry(3, "custom", TypeIndex, `"data":{"toolCalls":[`+rec+`]}`),
	})
	if ref, _ := s.ShortRef("b@9"); ref != "t7" {
		t.Errorf("alias ref %q, want t7", ref)
	}
}

func TestContextInputHasEmptyState(t *testing.T) {
	in := `{"role":"user","content":"hi","timestamp":1}` + "\n"
	ctx, err := session.Read(strings.NewReader(in), strings.NewReader(in), session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	s := rebuild(t, ctx)
	if s.Len() != 0 || s.Entries != 0 || s.NextRef != 1 {
		t.Fatalf("state %+v", s)
	}
}

// TestMessageKeyIntegers: the integer fast path writes what JavaScript's
// String writes (jsval.FormatNumber), up to and past 2^53.
func TestMessageKeyIntegers(t *testing.T) {
	for _, f := range []float64{1, -1, 7, 1e15, 1767608647500, -1767608647500, 1<<53 - 1, -(1<<53 - 1), 1 << 53, 1<<53 + 2, 1e21, 123456789012345678} {
		raw := strconv.FormatFloat(f, 'f', -1, 64)
		if got, want := MessageKey("x", []byte(raw)), "x@"+jsval.FormatNumber(f); got != want {
			t.Errorf("MessageKey(x, %s) = %s, want %s", raw, got, want)
		}
	}
	for i := int64(1); i < 1<<53; i = i*3 + 1 {
		for _, n := range []int64{i, -i} {
			raw := strconv.FormatInt(n, 10)
			if got, want := MessageKey("x", []byte(raw)), "x@"+jsval.FormatNumber(float64(n)); got != want {
				t.Fatalf("MessageKey(x, %s) = %s, want %s", raw, got, want)
			}
		}
	}
}

func TestMessageKey(t *testing.T) {
	for raw, want := range map[string]string{`1796116303987`: "x@1796116303987", `1.796116303987e12`: "x@1796116303987", `"5"`: "x", ``: "x", `null`: "x"} {
		if got := MessageKey("x", []byte(raw)); got != want {
			t.Errorf("MessageKey(x, %s) = %s, want %s", raw, got, want)
		}
	}
	id, ts := ParseOccurrenceKey("bash_23@1150")
	if id != "bash_23" || ts == nil || *ts != 1150 {
		t.Errorf("ParseOccurrenceKey = %s %v", id, ts)
	}
	if id, ts := ParseOccurrenceKey("a@b"); id != "a@b" || ts != nil {
		t.Errorf("ParseOccurrenceKey(a@b) = %s %v", id, ts)
	}
}

// Rebuild streams the branch's entries without copying their lines; the
// state must keep nothing of a line: on every oracle session, read through
// a reader whose window buffer is reused between entries (no mmap), it
// equals the rebuild of entries copied first.
func TestRebuildKeepsNoLine(t *testing.T) {
	snaps, _ := filepath.Glob(filepath.Join(oracleDir, "*", "requests", "*.session.jsonl"))
	finals, _ := filepath.Glob(filepath.Join(oracleDir, "*", "final", "*.jsonl"))
	n := 0
	for _, p := range append(snaps, finals...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := session.Read(bytes.NewReader(b), bytes.NewReader(b), session.ReadOptions{Branch: true})
		if err != nil {
			t.Fatal(err)
		}
		ents, err := BranchEntries(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := RebuildEntries(ents)
		got := rebuild(t, ctx)
		if want.Len() > 0 {
			n++
		}
		// the texts the state left in the input, read before the scribble
		// (the input of a rebuilt state does not change: a mapped file or a
		// spool); the rest must not be read from the input again
		// (every record held, a replaced one too)
		texts := make([]string, len(got.recs))
		for i := range got.recs {
			rc := got.unpack(&got.recs[i])
			text, err := got.ResultText(&rc)
			if err != nil {
				t.Fatal(err)
			}
			texts[i] = text
		}
		for i := range b {
			b[i] = 'x'
		}
		// every record packed again, in order, its extras with it (as
		// RebuildEntries added them)
		recs := make([]Record, len(got.recs))
		for i := range got.recs {
			recs[i] = got.unpack(&got.recs[i])
			recs[i].ResultText, recs[i].textAt = texts[i], textRef{}
		}
		got.extras = nil
		for i := range got.recs {
			got.recs[i] = got.packRecord(&recs[i], got.recs[i].key)
		}
		got.src = nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Rebuild differs from RebuildEntries(BranchEntries)", p)
		}
	}
	if n < 20 {
		t.Fatalf("only %d sessions with records", n)
	}
}

// RebuildKeys is Rebuild less the records' arguments, texts and previews
// (and the dedup hashes made from them), the chains and the summaries'
// bodies: on every oracle session everything else is the same, and so is
// every answer --write's check asks of it.
func TestRebuildKeysIsRebuildWithoutTexts(t *testing.T) {
	snaps, _ := filepath.Glob(filepath.Join(oracleDir, "*", "requests", "*.session.jsonl"))
	finals, _ := filepath.Glob(filepath.Join(oracleDir, "*", "final", "*.jsonl"))
	texts, chains, summaries := 0, 0, 0
	for _, p := range append(snaps, finals...) {
		ctx := readSession(t, p)
		full := rebuild(t, ctx)
		keys, err := RebuildKeys(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range keys.recordMap() {
			if r.Args != nil || r.ResultText != "" || r.ResultPreview != nil {
				t.Fatalf("%s: RebuildKeys kept %s's arguments or text", p, r.ToolCallID)
			}
		}
		for k, r := range full.recordMap() {
			if text, err := full.ResultText(r); err != nil {
				t.Fatal(err)
			} else if text != "" {
				texts++
			}
			c := *r
			c.Args, c.ResultText, c.ResultPreview, c.textAt = nil, "", nil, textRef{}
			if !reflect.DeepEqual(&c, keys.record(k)) {
				t.Errorf("%s: record %s: %+v, want %+v", p, k, keys.record(k), c)
			}
		}
		if keys.Len() != full.Len() || !slices.Equal(keys.Keys(), full.Keys()) {
			t.Errorf("%s: RebuildKeys has %d records, Rebuild %d (or other keys)", p, keys.Len(), full.Len())
		}
		for i := range full.keys {
			k := full.keys[i].key
			ref, ok := full.ShortRef(k)
			gref, gok := keys.ShortRef(k)
			if ref != gref || ok != gok || full.IsSummarized(k) != keys.IsSummarized(k) {
				t.Errorf("%s: key %s: RebuildKeys: ref %q %v, summarized %v; Rebuild: %q %v, %v", p, k, gref, gok, keys.IsSummarized(k), ref, ok, full.IsSummarized(k))
			}
		}
		if len(full.chains) > 0 {
			chains++
		}
		if len(full.summaries) > 0 {
			summaries++
		}
		full.recs, keys.recs, full.extras, keys.extras = nil, nil, nil, nil
		full.hashes, keys.hashes, full.hashOdd, keys.hashOdd = nil, nil, nil, nil
		full.unhashed, keys.unhashed = nil, nil // (the hashes still to seed)
		withoutChainsAndBodies(full)
		withoutChainsAndBodies(keys)
		if !reflect.DeepEqual(full, keys) {
			t.Errorf("%s: RebuildKeys's state differs from Rebuild's beyond the records, hashes, chains and summaries", p)
		}
	}
	if texts == 0 || chains == 0 || summaries == 0 {
		t.Fatalf("%d records with a result text, %d sessions with chains, %d with summaries: the test proves little", texts, chains, summaries)
	}
}

// withoutChainsAndBodies clears what RebuildKeys does not rebuild: the
// chains (their rewrite points, warnings and block counter too) and the
// summaries' bodies.
func withoutChainsAndBodies(s *State) {
	s.chains, s.chainOrder, s.NextBlock = nil, nil, 0
	s.summaries, s.sumKeys, s.sumMore = nil, nil, nil
	for i := range s.keys {
		s.keys[i].sum = 0
	}
	s.RewritePoints = slices.DeleteFunc(s.RewritePoints, func(p RewritePoint) bool { return p.Kind == TypeChain })
	s.Warnings = slices.DeleteFunc(s.Warnings, func(w session.Warning) bool { return strings.HasPrefix(w.Msg, TypeChain+" entry: ") })
}

// recordMap is every record of s by its key (copies).
func (s *State) recordMap() map[string]*Record {
	out := map[string]*Record{}
	for i := range s.keys {
		if r := s.keys[i].rec; r > 0 {
			rc := s.unpack(&s.recs[r-1])
			out[s.keys[i].key] = &rc
		}
	}
	return out
}

// refMap is every ref s registered → its key.
func (s *State) refMap() map[string]string {
	out := map[string]string{}
	for n, id := range s.refKeys {
		if id > 0 {
			out["t"+strconv.Itoa(n)] = s.keys[id-1].key
		}
	}
	for ref, id := range s.refByName {
		if _, dense := out[ref]; !dense {
			out[ref] = s.keys[id].key
		}
	}
	return out
}

// hasAlias reports whether key is a dedup alias in s.
func hasAlias(s *State, key string) bool {
	_, ok := s.aliasOf(key)
	return ok
}

// TestPackRecordRoundTrip: a record packed (72 bytes, its rare fields and
// a turn index beyond 32 bits in the state's extras) unpacks as it was.
func TestPackRecordRoundTrip(t *testing.T) {
	ts, text, hash := int64(1733000000123), "preview", "abc"
	n := int64(9)
	s := newState()
	var want []Record
	for _, turn := range []int{0, 7, -1, math.MaxInt32, math.MaxInt32 + 1, math.MinInt32, math.MinInt32 - 1, 1 << 40} {
		for _, full := range []bool{false, true} {
			r := Record{ToolCallID: "call_" + strconv.Itoa(len(want)), ToolName: "bash", IsError: full, TurnIndex: turn, Timestamp: int64(turn) * 3}
			if full {
				r.Args, r.ResultText, r.ResultTimestamp = []byte(`{"command":"ls"}`), "out", &ts
				r.SpillPath, r.SpillBytes, r.ResultPreview, r.ContentHash = &text, &n, &text, &hash
			}
			want = append(want, r)
			s.indexRecord(r, "", false)
		}
	}
	if len(s.recs) != len(want) {
		t.Fatalf("%d records, want %d", len(s.recs), len(want))
	}
	for i := range s.recs {
		if got := s.unpack(&s.recs[i]); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("record %d: %+v, want %+v", i, got, want[i])
		}
	}
	if size := unsafe.Sizeof(rec{}); size != 72 {
		t.Errorf("a record is %d bytes, want 72", size)
	}
}

// TestRegisterRefKey: a ref registered with its call's key (a flushed
// call's MessageKey) leaves the state registerRef leaves — the key used
// only when it is the occurrence key (not for a timestamp that is no
// integer, nor for another call's key).
func TestRegisterRefKey(t *testing.T) {
	ts := int64(1733000000123)
	refs := []ToolCallRef{
		{ShortID: "t1", ToolCallID: "call_a", ResultTimestamp: &ts},
		{ShortID: "t2", ToolCallID: "call_b"},
		{ShortID: "t3", ToolCallID: "call_c", ResultTimestamp: &ts},
		{ShortID: "t9", ToolCallID: "call_d", ResultTimestamp: &ts},
		{ShortID: "x", ToolCallID: "call_e", ResultTimestamp: &ts},
		{ShortID: "", ToolCallID: "call_f"},
	}
	keys := []string{
		MessageKey("call_a", []byte("1733000000123")),
		MessageKey("call_b", []byte("null")),
		MessageKey("call_c", []byte("1733000000123.5")),
		"call_a@1733000000123",
		"",
		"call_f",
	}
	want, got := newState(), newState()
	for i, r := range refs {
		want.registerRef(r)
		got.registerRefKey(r, keys[i])
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("registerRefKey: %+v\nregisterRef: %+v", got, want)
	}
	if k, _ := got.refKey("t1"); k != "call_a@1733000000123" {
		t.Errorf("t1 → %q", k)
	}
	if k, _ := got.refKey("t9"); k != "call_d@1733000000123" {
		t.Errorf("t9 → %q", k)
	}
}
