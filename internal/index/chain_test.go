package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/summarize"
)

// chainSession builds a session line by line (each entry the child of the
// last), timestamps counting up from 1000.
type chainSession struct {
	lines []string
	n, ts int
}

func newChainSession() *chainSession {
	return &chainSession{lines: []string{`{"type":"session","version":3,"id":"s1","timestamp":"2026-12-01T00:00:00.000Z","cwd":"/p"}`}, ts: 1000}
}

func (b *chainSession) add(msg string) int {
	b.n++
	b.ts += 10
	parent := "null"
	if b.n > 1 {
		parent = fmt.Sprintf(`"e%03d"`, b.n-1)
	}
	b.lines = append(b.lines, fmt.Sprintf(`{"type":"message","id":"e%03d","parentId":%s,"timestamp":"2026-12-01T00:00:00.000Z","message":%s}`, b.n, parent, strings.Replace(msg, "TS", fmt.Sprint(b.ts), 1)))
	return b.ts
}

func (b *chainSession) user(text string) int {
	return b.add(fmt.Sprintf(`{"role":"user","content":[{"type":"text","text":%q}],"timestamp":TS}`, text))
}

func (b *chainSession) calls(calls ...string) int {
	return b.add(`{"role":"assistant","content":[` + strings.Join(calls, ",") + `],"stopReason":"toolUse","timestamp":TS}`)
}

func (b *chainSession) result(id, tool, text string) int {
	return b.add(fmt.Sprintf(`{"role":"toolResult","toolCallId":%q,"toolName":%q,"content":[{"type":"text","text":%q}],"isError":false,"timestamp":TS}`, id, tool, text))
}

func (b *chainSession) reply(text string) int {
	return b.add(fmt.Sprintf(`{"role":"assistant","content":[{"type":"text","text":%q}],"stopReason":"stop","timestamp":TS}`, text))
}

func tc(id, name, args string) string {
	return fmt.Sprintf(`{"type":"toolCall","id":%q,"name":%q,"arguments":%s}`, id, name, args)
}

func (b *chainSession) ctx(t testing.TB) *session.Context {
	return readCtx(t, []byte(strings.Join(b.lines, "\n")+"\n"))
}

// turn is one user turn with one bash call of n chars and a reply.
func (b *chainSession) turn(id string, n int) {
	b.user("do " + id)
	b.calls(tc(id, "bash", `{"command":"echo `+id+`"}`))
	b.result(id, "bash", strings.Repeat("x", n))
	b.reply("did " + id)
}

func mustPredicate(t testing.TB, tools, paths []string) *protect.Predicate {
	t.Helper()
	p, err := protect.NewPredicate(tools, paths)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDetectChains(t *testing.T) {
	b := newChainSession()
	b.turn("c1", 10) // closed
	b.user("interrupted")
	b.calls(tc("c2", "read", `{"path":"skills/x/SKILL.md"}`), tc("c3", "todo", `{}`))
	b.result("c2", "read", "skill")
	b.result("c3", "todo", "ok")
	// a synthetic chain message is no chain start: the chain goes on
	b.add(`{"role":"user","content":[{"type":"text","text":"  <compressed-chain id=\"b9\" tools=\"\">\nx\n</compressed-chain>"}],"timestamp":TS}`)
	b.user("no tools")
	b.reply("just text")
	b.user("open")
	b.calls(tc("c4", "bash", `{}`))
	chains, err := DetectChains(b.ctx(t), mustPredicate(t, []string{"todo"}, []string{"**/skills/**/*.md"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(chains) != 3 {
		t.Fatalf("%d chains, want 3 (closed, interrupted, text-only; the open one left out): %+v", len(chains), chains)
	}
	if c := chains[0]; !c.Closed() || c.StartUserTimestamp != 1010 || *c.FinalAssistantTimestamp != 1040 || !c.Timed ||
		fmt.Sprint(c.MiddleToolCallIDs) != "[c1]" || fmt.Sprint(c.MiddleOccurrenceKeys) != "[c1@1030]" || len(c.ProtectedToolCallIDs) != 0 {
		t.Errorf("closed chain %+v", c)
	}
	if c := chains[1]; c.Closed() || fmt.Sprint(c.MiddleToolCallIDs) != "[c2 c3]" || fmt.Sprint(c.ProtectedToolCallIDs) != "[c2 c3]" {
		t.Errorf("interrupted chain %+v (want c2 protected by path, c3 by name)", c)
	}
	if c := chains[2]; !c.Closed() || len(c.MiddleToolCallIDs) != 0 {
		t.Errorf("text-only chain %+v", c)
	}
}

func TestSelectEligible(t *testing.T) {
	b := newChainSession()
	for i := 1; i <= 6; i++ {
		b.turn(fmt.Sprintf("c%d", i), 10)
	}
	ctx := b.ctx(t)
	chains, err := DetectChains(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(cs []ChainRange) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.MiddleToolCallIDs...)
		}
		return strings.Join(out, " ")
	}
	st := newState()
	for _, c := range []struct {
		window  int
		grace   map[string]bool
		rawFrom int
		want    string
	}{
		{3, nil, -1, "c1 c2 c3"},
		{0, nil, -1, "c1 c2 c3 c4 c5 c6"}, // /pruner compact
		{10, nil, -1, ""},
		// a graced context_tree_query result defers its chain, and the
		// window is counted before: c3 does not become eligible instead
		{3, map[string]bool{"c2@1070": true}, -1, "c1 c3"},
		{3, map[string]bool{"c2": true}, -1, "c1 c3"}, // a bare grace key matches any occurrence
		// the raw window wins: a chain ending inside it stays
		{3, nil, 8, "c1 c2"},
	} {
		if got := ids(SelectEligible(chains, c.window, st, c.grace, c.rawFrom, nil)); got != c.want {
			t.Errorf("window %d grace %v rawFrom %d: %q, want %q", c.window, c.grace, c.rawFrom, got, c.want)
		}
	}
	// already compressed chains are not candidates: the window moves past them
	st.registerChain(&ChainData{BlockID: "b1", StartUserTimestamp: chains[0].StartUserTimestamp})
	if got := ids(SelectEligible(chains, 3, st, nil, -1, nil)); got != "c2 c3" {
		t.Errorf("after b1: %q, want c2 c3", got)
	}
	if hz := pairing.Find(ctx); len(hz.Hazards) != 0 || ids(SelectEligible(chains, 3, newState(), nil, -1, hz)) != "c1 c2 c3" {
		t.Errorf("hazards %v", hz.Hazards)
	}
	// a pairing hazard in a range keeps the chain (fail closed): another
	// extension's message between c1's call and its result
	h := newChainSession()
	h.user("do c1")
	h.calls(tc("c1", "bash", `{}`))
	h.n++
	h.lines = append(h.lines, fmt.Sprintf(`{"type":"custom_message","customType":"other","content":"note","display":true,"id":"e%03d","parentId":"e%03d","timestamp":"2026-12-01T00:00:00.000Z"}`, h.n, h.n-1))
	h.result("c1", "bash", "x")
	h.reply("did c1")
	for i := 2; i <= 6; i++ {
		h.turn(fmt.Sprintf("c%d", i), 10)
	}
	hctx := h.ctx(t)
	hchains, err := DetectChains(hctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	hz := pairing.Find(hctx)
	if len(hz.Hazards) == 0 {
		t.Fatal("no hazard found")
	}
	if got := ids(SelectEligible(hchains, 3, newState(), nil, -1, hz)); got != "c2 c3" {
		t.Errorf("with a hazard in c1's chain: %q, want c2 c3", got)
	}
}

// flushChains flushes ctx with the defaults and chains on (no raw window).
func flushChains(t *testing.T, ctx *session.Context, pred *protect.Predicate) *Flushed {
	t.Helper()
	st, err := Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Flush(context.Background(), ctx, st, FlushOptions{
		Capture: CaptureOptions{Protect: pred, RawFrom: -1}, MinBatchChars: 1000, Dedup: true,
		Chains: ChainOptions{Enabled: true, RollingWindow: 3, Fuse: func(cx context.Context, s, r []string) summarize.FuseResult {
			return summarize.Fuse(cx, s, r, summarize.Options{})
		}},
		Now: 99,
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestChainsCompressOnlyWhatIsSafe: interrupted and open chains are never
// compressed, an all-protected chain is skipped (nothing to compress), and
// a chain no summary covers gets the deterministic body over a backfill.
func TestChainsCompressOnlyWhatIsSafe(t *testing.T) {
	b := newChainSession()
	pred := mustPredicate(t, []string{"todo"}, nil)
	b.user("all protected")
	b.calls(tc("p1", "todo", `{}`))
	b.result("p1", "todo", "noted")
	b.reply("ok")
	b.user("interrupted")
	b.calls(tc("i1", "bash", `{}`))
	b.result("i1", "bash", strings.Repeat("i", 2000))
	b.turn("small", 10) // uncovered: deterministic
	b.turn("big", 3000) // covered
	for i := 0; i < 3; i++ {
		b.turn(fmt.Sprintf("w%d", i), 2000) // the rolling window
	}
	b.user("open")
	b.calls(tc("o1", "bash", `{}`))
	b.result("o1", "bash", "running")
	ctx := b.ctx(t)
	f := flushChains(t, ctx, pred)
	chains := f.State.Chains()
	var got []string
	for _, c := range chains {
		got = append(got, c.BlockID+":"+strings.Join(c.DroppedToolCallIDs, ","))
	}
	if strings.Join(got, " ") != "b1:small b2:big" {
		t.Fatalf("chains %v, want b1:small b2:big (the protected one skipped, the interrupted and open ones kept)", got)
	}
	if c := chains[0]; c.BodySource != "deterministic" || !hasRangeSummary(c, "Deterministic chain compression") {
		t.Errorf("uncovered chain %+v", c)
	}
	if c := chains[1]; c.BodySource != "" || hasRangeSummary(c, "") {
		t.Errorf("a chain one summary covers has no range summary: %+v", c)
	}
	if len(f.Diagnostics) != 0 {
		t.Errorf("diagnostics %v (an all-protected chain is no mismatch)", f.Diagnostics)
	}
	// the entries: the batches', then the backfill and b1, b2, the stats
	var types []string
	for _, e := range f.Entries {
		types = append(types, strings.TrimPrefix(e.CustomType, "context-prune-"))
	}
	if want := "summary index summary index summary index summary index summary index frontier stats index chain chain stats flush-metrics"; strings.Join(types, " ") != want {
		t.Errorf("entries\n got %s\nwant %s", strings.Join(types, " "), want)
	}
	if s := f.State.Stats; s.ChainsCompressed != 2 || s.RangesSummarized != 0 {
		t.Errorf("stats %+v", s)
	}
}

// TestChainBackfillsWhatNoRecordCovers (issue 8, item 2): a covered chain
// drops a call of a batch under minBatchChars (no record); pruner indexes
// it first (backfilled, turnIndex -1, a ref), so it is recoverable, and the
// fused body names it. pi-condense backfills only chains no summary covers,
// so the call would be lost to it.
func TestChainBackfillsWhatNoRecordCovers(t *testing.T) {
	b := newChainSession()
	b.user("count, then a small edit")
	b.calls(tc("big", "bash", `{"command":"seq 1 900"}`))
	b.result("big", "bash", strings.Repeat("9\n", 900))
	b.calls(tc("edit1", "edit", `{"path":"a.go","oldText":"a","newText":"b"}`))
	b.result("edit1", "edit", "Successfully replaced text in a.go.")
	b.reply("done")
	for i := 0; i < 3; i++ {
		b.turn(fmt.Sprintf("w%d", i), 2000)
	}
	ctx := b.ctx(t)
	f := flushChains(t, ctx, nil)
	c, ok := f.State.ChainByBlock("b1")
	if !ok {
		t.Fatal("no chain b1")
	}
	occ := f.State.RecordsFor("edit1")
	if len(occ) != 1 || occ[0].Record.TurnIndex != -1 || !f.State.Backfilled(occ[0].Key) {
		t.Fatalf("the trivial edit is not backfilled: %+v", occ)
	}
	ref, _ := f.State.ShortRef(occ[0].Key)
	if fmt.Sprint(c.Refs()) != "[t1 "+ref+"]" {
		t.Errorf("toolRefs %v, want the summarised call's and the backfilled one's (%s)", c.Refs(), ref)
	}
	if text, ok := c.RangeSummary(); !ok || !strings.Contains(text, "`"+ref+"` edit `a.go`") {
		t.Errorf("the body does not name the backfilled call: %q", text)
	}
	if f.Fused != 1 || f.Backfilled != 1 {
		t.Errorf("fused %d, backfilled %d", f.Fused, f.Backfilled)
	}
	// the backfilled record carries the result text once written
	line, err := f.Entries[len(f.Entries)-4].AppendLine(nil, ctx, "x", "y", "2026-01-01T00:00:00.000Z")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(line), `"backfilled":true`) || !strings.Contains(string(line), `"resultText":"Successfully replaced text in a.go."`) {
		t.Errorf("backfill entry %s", line)
	}
}

// TestDeterministicChainBody pins the grammar (the oracle's chain b2 is the
// byte-for-byte check: TestFlushMatchesPiCondense).
func TestDeterministicChainBody(t *testing.T) {
	calls := []bodyCall{
		{toolCallID: "c2", toolName: "read", args: []byte(`{"path":"` + strings.Repeat("p", 250) + `"}`), at: 5000},
		{toolCallID: "c1", toolName: "bash", args: []byte(`{"command":"ls"}`), at: 1000},
		{toolCallID: "c3", toolName: "Read", args: []byte(`{}`), at: 7600},
		{toolCallID: "c4", toolName: "bash", args: []byte(`{}`), at: 3000},
	}
	got := DeterministicChainBody(calls, nil)
	want := strings.Join([]string{
		"Deterministic chain compression (no per-batch summary existed for this span; raw outputs recoverable via context_tree_query).",
		"Calls: 4",
		"Tools: bash x2, read x1, Read x1",
		"Span: 1970-01-01T00:00:01.000Z -> 1970-01-01T00:00:07.600Z (7s)",
		`First: bash {"command":"ls"}`,
		"Last: Read {}",
		"Refs: c2, c1, c3, c4",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if ex := excerpt(calls[0].args); len(ex) != 203 || !strings.HasSuffix(ex, "...") {
		t.Errorf("excerpt %q", ex)
	}
}

// TestChainEndsIsTheStableSortsEnds: chainEnds picks the calls a stable
// sort by time puts first and last, ties included.
func TestChainEndsIsTheStableSortsEnds(t *testing.T) {
	for n := 1; n <= 6; n++ {
		for seed := 0; seed < 200; seed++ {
			calls := make([]bodyCall, n)
			for i := range calls {
				calls[i] = bodyCall{toolCallID: strconv.Itoa(i), at: int64((seed*7 + i*i*3 + seed/(i+1)) % 4)}
			}
			sorted := append([]bodyCall(nil), calls...)
			sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].at < sorted[j].at })
			first, last := chainEnds(calls)
			if calls[first].toolCallID != sorted[0].toolCallID || calls[last].toolCallID != sorted[n-1].toolCallID {
				t.Fatalf("%v: ends %d, %d; the stable sort's %s, %s", calls, first, last, sorted[0].toolCallID, sorted[n-1].toolCallID)
			}
		}
	}
}

// TestChainOnTheShippedFixture: testdata/chains/protected.jsonl (a skill
// read and a todo inside compressed chains) flushes into four chains whose
// entries decode as Rebuild reads them.
func TestChainOnTheShippedFixture(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "chains", "protected.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := readCtx(t, data)
	f := flushChains(t, ctx, mustPredicate(t, []string{"todo"}, []string{"**/skills/**/*.md"}))
	var lines []string
	for i, e := range f.Entries {
		l, err := e.AppendLine(nil, ctx, fmt.Sprintf("n%03d", i), "p", "2026-01-01T00:00:00.000Z")
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(l))
	}
	var ents []Entry
	for i, l := range lines {
		ents = append(ents, Entry{Type: f.Entries[i].Type, CustomType: f.Entries[i].CustomType, ID: fmt.Sprint(i), Line: 100 + i, Raw: []byte(l)})
	}
	st := RebuildEntries(ents)
	if len(st.Warnings) > 0 {
		t.Fatalf("warnings %v", st.Warnings)
	}
	if len(st.Chains()) != len(f.State.Chains()) || st.Len() != f.State.Len() || st.NextBlock != f.State.NextBlock {
		t.Fatalf("rebuilt %d chains, %d records (next b%d); the flush holds %d, %d (b%d)", len(st.Chains()), st.Len(), st.NextBlock, len(f.State.Chains()), f.State.Len(), f.State.NextBlock)
	}
	for _, c := range f.State.Chains() {
		rc, ok := st.ChainByBlock(c.BlockID)
		if !ok || fmt.Sprintf("%+v", derefChain(*rc)) != fmt.Sprintf("%+v", derefChain(*c)) {
			t.Errorf("chain %s rebuilt as %+v, written %+v", c.BlockID, rc, c)
		}
	}
	b1, _ := st.ChainByBlock("b1")
	if fmt.Sprint(b1.ProtectedToolCallIDs) != "[toolu_01]" {
		t.Errorf("b1 protectedToolCallIds %v, want the skill read", b1.ProtectedToolCallIDs)
	}
}

// hasRangeSummary reports whether c has a range summary (its body written
// when asked, or held) that starts with prefix.
func hasRangeSummary(c *ChainData, prefix string) bool {
	text, ok := c.RangeSummary()
	return ok && strings.HasPrefix(text, prefix)
}

// derefChain makes a chain entry comparable by value.
func derefChain(c ChainData) string {
	s, _ := c.RangeSummary() // a deterministic fusion is written from its summaries
	f := int64(0)
	if c.FinalAssistantTimestamp != nil {
		f = *c.FinalAssistantTimestamp
	}
	c.RangeSummaryText, c.fused, c.backfill, c.body, c.FinalAssistantTimestamp = nil, nil, nil, nil, nil
	c.ToolRefs, c.refNums = c.Refs(), nil // (a flush's as numbers)
	return fmt.Sprintf("%+v %d %q", c, f, s)
}

// TestChainsWithSharedTimestampsStay: a chain whose user message shares
// its timestamp with another user message (a session replayed or copied
// into itself) could not be resolved by any render: it is not compressed.
func TestChainsWithSharedTimestampsStay(t *testing.T) {
	b := newChainSession()
	b.turn("c1", 3000)
	b.turn("c2", 3000)
	// the same user message again, timestamp and all
	b.add(`{"role":"user","content":[{"type":"text","text":"do c1"}],"timestamp":1010}`)
	b.calls(tc("c9", "bash", `{}`))
	b.result("c9", "bash", strings.Repeat("y", 3000))
	b.reply("again")
	for i := 0; i < 3; i++ {
		b.turn(fmt.Sprintf("w%d", i), 2000)
	}
	f := flushChains(t, b.ctx(t), nil)
	var got []string
	for _, c := range f.State.Chains() {
		got = append(got, strings.Join(c.DroppedToolCallIDs, ","))
	}
	if strings.Join(got, " ") != "c2" {
		t.Fatalf("compressed %v, want only c2 (c1's and c9's user messages share a timestamp)", got)
	}
}

// TestWholeTimestamp: the digits fast path reads what jsval.Number reads.
func TestWholeTimestamp(t *testing.T) {
	for _, raw := range []string{"0", "-0", "1", "-1", "1700000000000", "999999999999999", "9999999999999999", "01", "-01", "1.0", "1.5", "1e3", " 12", "12 ", "", "-", "--1", "+1", "0x10", "123456789012345", "-123456789012345"} {
		var want int64
		f, ok := jsval.Number([]byte(raw))
		if ok && f == float64(int64(f)) {
			want = int64(f)
		} else {
			ok = false
		}
		if got, gotOK := wholeTimestamp(raw); got != want || gotOK != ok {
			t.Errorf("wholeTimestamp(%q) = %d %v, want %d %v", raw, got, gotOK, want, ok)
		}
	}
}
