package pipeline

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/restore"
	"github.com/pruner-dev/pruner/internal/session"
)

var update = flag.Bool("update", false, "rewrite golden files")

const testdata = "../../testdata"

// sessions are every session file in testdata: the shipped sessions, the
// bug-report cases, the render fixtures and the oracle's final sessions.
func sessions(t testing.TB) []string {
	var out []string
	for _, g := range []string{"sessions/*.jsonl", "cases/*/session.jsonl", "condense-oracle/*/final/*.jsonl", "chains/*.jsonl"} {
		m, _ := filepath.Glob(filepath.Join(testdata, g))
		out = append(out, m...)
	}
	if len(out) < 15 {
		t.Fatalf("only %d sessions found", len(out))
	}
	return out
}

func defaults(t testing.TB) Options {
	t.Helper()
	f := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(f, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(config.Options{ConfigFile: f, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	o, err := FromConfig(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// variants are the settings every property runs under.
func variants(t testing.TB) map[string]Options {
	d := defaults(t)
	tight := d
	tight.Prune.RecentTurns, tight.Prune.MaxChars = 1, 500
	tight.MinBatchChars = 0
	agent := d
	agent.AgentMessage = true
	noFlush := d
	noFlush.Flush = false
	return map[string]Options{"defaults": d, "tight": tight, "agent-message": agent, "no-flush": noFlush}
}

func read(t testing.TB, data []byte) *session.Context {
	t.Helper()
	ctx, err := session.Read(bytes.NewReader(data), bytes.NewReader(data), session.ReadOptions{Branch: true, AllEntries: true})
	if err != nil {
		t.Fatal(err)
	}
	return ctx
}

// run is `pruner now` on data: the context, and the session --write would
// write.
func run(t testing.TB, data []byte, o Options) (*Result, []byte, []byte) {
	t.Helper()
	return runVerify(t, data, o, true)
}

// runVerify is run, re-reading the written session to verify it or not.
func runVerify(t testing.TB, data []byte, o Options, verify bool) (*Result, []byte, []byte) {
	t.Helper()
	ctx := read(t, data)
	r, err := Run(context.Background(), ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := r.writeContext(&out); err != nil {
		t.Fatal(err)
	}
	var sess bytes.Buffer
	if ctx.Kind == session.KindSession {
		a, err := r.Append(nil)
		if err != nil {
			t.Fatal(err)
		}
		info, err := r.WriteSession(&sess, bytes.NewReader(data), ctx.Bytes, a)
		if err != nil {
			t.Fatal(err)
		}
		if !verify {
			return r, out.Bytes(), sess.Bytes()
		}
		if err := r.Verify(bytes.NewReader(sess.Bytes()), int64(sess.Len()), info, a); err != nil {
			t.Fatalf("the written session does not verify: %v", err)
		}
	}
	return r, out.Bytes(), sess.Bytes()
}

// writeContext writes r's context as `pruner now` prints it.
func (r *Result) writeContext(w *bytes.Buffer) error {
	if r.Rendered == nil {
		_, err := prune.Render(w, r.Ctx, r.Mask)
		return err
	}
	wo := render.WriteOptions{}
	if plan := r.Mask; plan != nil {
		wo.Mask = func(dst []byte, i int) ([]byte, bool, error) { return plan.AppendMessage(dst, r.Ctx, i) }
	}
	_, err := render.Write(w, r.Ctx, r.Rendered, wo)
	return err
}

func TestGoldenFlush(t *testing.T) {
	o := defaults(t)
	for _, name := range []string{"before-compaction", "compact", "large-session", "pi-1.6.0-rpc-scenario", "narumiruna__ui-review", "../chains/protected"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(testdata, "sessions", name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			_, out, _ := run(t, data, o)
			golden := filepath.Join(testdata, "golden", "flush", strings.TrimPrefix(name, "../chains/")+".jsonl")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/pipeline -run Golden -update)", err)
			}
			if !bytes.Equal(out, want) {
				t.Fatalf("output differs from %s (intended? go test ./internal/pipeline -run Golden -update)", golden)
			}
		})
	}
}

// TestProperties runs every session in testdata under every variant (the
// three large pi-mono sessions under defaults and tight only, to keep the
// suite fast).
func TestProperties(t *testing.T) {
	for vname, o := range variants(t) {
		for _, path := range sessions(t) {
			if st, err := os.Stat(path); err == nil && st.Size() > 900<<10 && vname != "defaults" && vname != "tight" {
				continue
			}
			name := vname + "/" + strings.TrimPrefix(path, testdata+"/")
			t.Run(name, func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				checkProperties(t, data, o)
			})
		}
	}
}

var (
	refRE   = regexp.MustCompile("ref `(t\\d+)`|`(t\\d+)`")
	chainRE = regexp.MustCompile(`<compressed-chain id=\\"(b\d+)\\" tools=\\"([t0-9,]*)\\"`)
)

// outputRefs are the tN refs and bN chain ids in a rendered context.
func outputRefs(out []byte) (refs, chains []string) {
	for _, m := range refRE.FindAllSubmatch(out, -1) {
		refs = append(refs, string(m[1])+string(m[2]))
	}
	for _, m := range chainRE.FindAllSubmatch(out, -1) {
		chains = append(chains, string(m[1]))
		if len(m[2]) > 0 {
			refs = append(refs, strings.Split(string(m[2]), ",")...)
		}
	}
	return refs, chains
}

// checkRefsResolve: every tN and bN in the output resolves in st (with the
// record's text, for a tN: what query prints).
func checkRefsResolve(t *testing.T, st *index.State, out []byte, where string) {
	t.Helper()
	refs, chains := outputRefs(out)
	for _, ref := range refs {
		occ := st.RecordsFor(ref)
		if len(occ) != 1 {
			t.Fatalf("%s in the output does not resolve in %s (%d records)", ref, where, len(occ))
		}
		if r := occ[0].Record; r.ResultText == "" && r.SpillPath == nil {
			if b := st.Query([]string{ref}, nil); len(b) != 1 || !b[0].Found {
				t.Fatalf("%s resolves in %s but query finds nothing", ref, where)
			}
		}
	}
	for _, id := range chains {
		if _, ok := st.ChainByBlock(id); !ok {
			t.Fatalf("chain %s in the output does not resolve in %s", id, where)
		}
		if b := st.QueryChains([]string{id}, nil); len(b) == 0 || b[0].Chain == nil {
			t.Fatalf("query %s gives no chain block (%s)", id, where)
		}
	}
}

func checkProperties(t *testing.T, data []byte, o Options) {
	r, out, sess := run(t, data, o)
	ctx := r.Ctx

	// every output line is strict JSON
	for i, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		if len(out) > 0 && jsval.TypeOf(l) != jsval.Obj {
			t.Fatalf("output line %d is not a JSON object: %.200s", i+1, l)
		}
	}
	// deterministic
	_, out2, sess2 := runVerify(t, data, o, false)
	if !bytes.Equal(out, out2) || !bytes.Equal(sess, sess2) {
		t.Fatal("two runs differ")
	}
	// idempotent: now of now's output changes nothing
	if len(out) > 0 {
		if _, again, _ := runVerify(t, out, o, false); !bytes.Equal(again, out) {
			t.Fatal("now of now's output changed it")
		}
	}
	// every tN and bN in the output resolves with query (the in-memory
	// flush's index, as `pruner query REF SESSION` builds it)
	if ctx.Kind == session.KindSession {
		st, err := r.IndexState()
		if err != nil {
			t.Fatal(err)
		}
		checkRefsResolve(t, st, out, "query's index")
	}
	// every call keeps exactly one result
	checkPairing(t, ctx, out)
	// a compressed chain's protected outputs appear verbatim exactly once
	checkChainOutputs(t, r, out, o)
	// the converse: every old, unprotected, large result is replaced or indexed
	checkConverse(t, r, out)
	if ctx.Kind != session.KindSession {
		return
	}
	// the written session: its bytes start with the input's, now of it is
	// the same context, a second flush adds nothing, restore gives the
	// input back byte for byte
	if !bytes.HasPrefix(sess, data) && !bytes.HasPrefix(sess, append(append([]byte(nil), data...), '\n')) {
		t.Fatal("the written session does not start with the input's bytes")
	}
	// no line pruner appends holds a lone surrogate escape or invalid
	// UTF-8 (case 007: strict providers reject it, on every later request)
	if tail := sess[min(len(data), len(sess)):]; len(tail) > 0 {
		for i, l := range bytes.Split(tail, []byte("\n")) {
			if e := loneSurrogate(l); e != "" || !utf8.Valid(l) {
				t.Fatalf("appended line %d holds a lone surrogate %q or invalid UTF-8: %.200s", i+1, e, l)
			}
		}
	}
	if len(sess) > len(data)+1 {
		r2, out3, sess3 := runVerify(t, sess, o, false)
		if !bytes.Equal(out3, out) {
			t.Fatal("now of the written session differs from now of the session")
		}
		if r2.Flushed != nil && len(r2.Flushed.Entries) > 0 {
			t.Fatalf("a second flush of the written session added %d entries", len(r2.Flushed.Entries))
		}
		if !bytes.Equal(sess3, sess) {
			t.Fatal("--write of the written session would append again")
		}
		// every tN and bN in the output resolves in the written session's index
		st, err := index.Rebuild(read(t, sess))
		if err != nil {
			t.Fatal(err)
		}
		checkRefsResolve(t, st, out, "the written session's index")
		// plain pi (≥ 1.0) reading the written file sends the same contents
		if ctx.Header.Version >= 2 {
			checkPlainPi(t, sess, out)
			checkPlainPiDropped(t, r, sess)
		}
		p, err := restore.Analyze(bytes.NewReader(sess), int64(len(sess)))
		if err != nil {
			t.Fatal(err)
		}
		var back bytes.Buffer
		if err := p.Write(&back); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(back.Bytes(), data) || !p.Exact || p.NeedsForce() != "" {
			t.Fatalf("restore(write(x)) != x (exact %v, %q)", p.Exact, p.NeedsForce())
		}
	}
}

// checkPairing: in the output, every toolCall of an assistant message has
// exactly one result before the next assistant message when the input
// context had one.
func checkPairing(t *testing.T, ctx *session.Context, out []byte) {
	count := func(lines [][]byte) map[string]int {
		n := map[string]int{}
		for _, l := range lines {
			if role, _ := jsval.Get(l, "role"); string(role) == `"toolResult"` {
				id, _ := jsval.Get(l, "toolCallId")
				n[string(id)]++
			}
		}
		return n
	}
	var in bytes.Buffer
	if _, err := prune.Render(&in, ctx, nil); err != nil {
		t.Fatal(err)
	}
	split := func(b []byte) [][]byte {
		if len(b) == 0 {
			return nil
		}
		return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	}
	want, got := count(split(in.Bytes())), count(split(out))
	calls := map[string]bool{} // calls the output still holds (a compressed chain drops its own)
	for _, l := range split(out) {
		content, _ := jsval.Get(l, "content")
		els, _ := jsval.Elements(content)
		for _, el := range els {
			if typ, _ := jsval.Get(el, "type"); string(typ) == `"toolCall"` {
				id, _ := jsval.Get(el, "id")
				calls[string(id)] = true
			}
		}
	}
	for id, n := range want {
		if calls[id] && got[id] != n {
			t.Fatalf("call %s has %d results in the output, %d in the input", id, got[id], n)
		}
	}
}

// checkConverse: every toolResult older than the raw window, not protected,
// not already a notice and longer than maxRetainedChars is changed in the
// output (a stub, a spill stub or a notice).
func checkConverse(t *testing.T, r *Result, out []byte) {
	if r.Mask == nil {
		return
	}
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	changed := map[string]bool{} // by toolCallId@timestamp
	present := map[string]bool{}
	for _, l := range lines {
		if role, _ := jsval.Get(l, "role"); string(role) != `"toolResult"` {
			continue
		}
		{
			id, _ := jsval.Get(l, "toolCallId")
			ts, _ := jsval.Get(l, "timestamp")
			present[string(id)+"@"+string(ts)] = true
		}
		c, _ := jsval.Get(l, "content")
		if bytes.Contains(c, []byte(session.NoticePrefix)) || bytes.Contains(c, []byte("[Summarized in pruner summary")) || bytes.Contains(c, []byte("[Oversized output spilled")) {
			id, _ := jsval.Get(l, "toolCallId")
			ts, _ := jsval.Get(l, "timestamp")
			changed[string(id)+"@"+string(ts)] = true
		}
	}
	for i, m := range r.Ctx.Messages {
		call := r.Mask.Call(r.Ctx, i)
		if m.Role() != session.RoleToolResult || i >= r.Mask.Cutoff || m.HasNotice() || m.TextChars() <= r.Mask.Opts.MaxChars {
			continue
		}
		if call != nil && r.Mask.Opts.Protect.Protected(call.Name(), call.Path(), call.HasPath()) {
			continue
		}
		id := jsval.AppendString(nil, m.ToolCallID())
		if k := string(id) + "@" + m.Timestamp(); present[k] && !changed[k] { // absent: a compressed chain took it
			t.Fatalf("old unprotected result %s (%d chars, line %d) is neither indexed nor masked", m.ToolCallID(), m.TextChars(), m.Line())
		}
	}
}

// checkPlainPi: pi's own context of the written session (what pi ≥ 1.0
// builds from the file, context edits applied, no pi-condense) gives every
// tool result pruner stubs or masks the content pruner's output gives it.
// (Chains, purges and superseded reads are pi-condense's render-time
// passes: pi alone does not apply them.)
func checkPlainPi(t *testing.T, sess, out []byte) {
	ctx := read(t, sess)
	var plain bytes.Buffer
	if _, err := prune.Render(&plain, ctx, nil); err != nil {
		t.Fatal(err)
	}
	key := func(l []byte) string {
		id, _ := jsval.Get(l, "toolCallId")
		ts, _ := jsval.Get(l, "timestamp")
		return string(id) + "@" + string(ts)
	}
	pi := map[string][]byte{}
	for _, l := range bytes.Split(bytes.TrimSuffix(plain.Bytes(), []byte("\n")), []byte("\n")) {
		if role, _ := jsval.Get(l, "role"); string(role) == `"toolResult"` {
			c, _ := jsval.Get(l, "content")
			pi[key(l)] = jsval.Canonical(c)
		}
	}
	for _, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		if role, _ := jsval.Get(l, "role"); string(role) != `"toolResult"` {
			continue
		}
		c, _ := jsval.Get(l, "content")
		if !bytes.Contains(c, []byte(session.NoticePrefix)) && !bytes.Contains(c, []byte("[Summarized in pruner summary")) && !bytes.Contains(c, []byte("[Oversized output spilled")) {
			continue
		}
		if got, ok := pi[key(l)]; !ok || !bytes.Equal(got, jsval.Canonical(c)) {
			t.Fatalf("result %s: pi alone would send %.120s, pruner %.120s", key(l), got, c)
		}
	}
}

// checkPlainPiDropped: a result a compressed chain dropped that render had
// stubbed reaches pi alone (which does not apply chains) as that stub.
func checkPlainPiDropped(t *testing.T, r *Result, sess []byte) {
	if r.Rendered == nil || len(r.Rendered.Dropped) == 0 {
		return
	}
	ctx := read(t, sess)
	var plain bytes.Buffer
	if _, err := prune.Render(&plain, ctx, nil); err != nil {
		t.Fatal(err)
	}
	pi := map[string][]byte{}
	for _, l := range bytes.Split(bytes.TrimSuffix(plain.Bytes(), []byte("\n")), []byte("\n")) {
		if role, _ := jsval.Get(l, "role"); string(role) == `"toolResult"` {
			id, _ := jsval.Get(l, "toolCallId")
			ts, _ := jsval.Get(l, "timestamp")
			c, _ := jsval.Get(l, "content")
			pi[string(id)+"@"+string(ts)] = jsval.Canonical(c)
		}
	}
	for _, it := range r.Rendered.Dropped {
		if it.Change != render.Stubbed && it.Change != render.SpillStubbed {
			continue
		}
		m := r.Ctx.Messages[it.Src]
		key := string(jsval.AppendString(nil, m.ToolCallID())) + "@" + m.Timestamp()
		b, err := it.AppendJSON(nil, r.Ctx)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := jsval.Get(b, "content")
		if got := pi[key]; !bytes.Equal(got, jsval.Canonical(c)) {
			t.Fatalf("result %s dropped by a chain: pi alone would send %.120s, not its stub %.120s", key, got, c)
		}
	}
}
