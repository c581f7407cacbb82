package render_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/pipeline"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/turns"
)

var update = flag.Bool("update", false, "rewrite golden files")

const renderDir = "../../testdata/render"

// optionsFor loads NAME.settings.json beside a session, else the scenario's
// settings.json, else the defaults.
func optionsFor(t testing.TB, session string) render.Options {
	t.Helper()
	co := config.Options{AgentDir: t.TempDir(), Getenv: func(string) string { return "" }}
	for _, p := range []string{strings.TrimSuffix(session, ".jsonl") + ".settings.json", filepath.Join(filepath.Dir(session), "..", "settings.json")} {
		if _, err := os.Stat(p); err == nil {
			co.ConfigFile = p
			break
		}
	}
	c, err := config.Load(co)
	if err != nil {
		t.Fatal(err)
	}
	o, err := pipeline.RenderOptions(c)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestGolden: the render of every testdata/render session (phases the
// oracle does not reach: protected chain outputs, {bN}, superseded reads,
// error purge, image cap, protection repair) equals its golden file.
func TestGolden(t *testing.T) {
	ins, _ := filepath.Glob(filepath.Join(renderDir, "*.jsonl"))
	n := 0
	for _, in := range ins {
		if strings.HasSuffix(in, ".golden.jsonl") {
			continue
		}
		n++
		t.Run(filepath.Base(in), func(t *testing.T) {
			got, _ := renderSession(t, in, optionsFor(t, in))
			gp := strings.TrimSuffix(in, ".jsonl") + ".golden.jsonl"
			if *update {
				if err := os.WriteFile(gp, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(gp)
			if err != nil {
				t.Fatalf("%v (run: go test ./internal/render -run Golden -update)", err)
			}
			if !bytes.Equal(got, want) {
				reportDiff(t, got, want)
			}
		})
	}
	if n < 5 {
		t.Fatalf("only %d golden inputs", n)
	}
}

// allSessions is every session file in testdata/.
func allSessions(t testing.TB) []string {
	var out []string
	for _, g := range []string{
		"../../testdata/sessions/*.jsonl",
		"../../testdata/cases/*/session.jsonl",
		oracleDir + "/*/requests/*.session.jsonl",
		oracleDir + "/*/final/*.jsonl",
		oracleDir + "/query/*.jsonl",
		renderDir + "/*.jsonl",
	} {
		m, _ := filepath.Glob(g)
		for _, p := range m {
			if !strings.HasSuffix(p, ".golden.jsonl") {
				out = append(out, p)
			}
		}
	}
	if len(out) < 80 {
		t.Fatalf("only %d sessions", len(out))
	}
	return out
}

type rendered struct {
	ctx *session.Context
	st  *index.State
	res *render.Result
	out []byte
}

func renderBytes(t *testing.T, in []byte, o render.Options) rendered {
	t.Helper()
	ctx, err := session.Read(bytes.NewReader(in), bytes.NewReader(in), session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	st, err := index.Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := render.Render(ctx, st, o)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := render.Write(&out, ctx, res, render.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return rendered{ctx, st, res, out.Bytes()}
}

var refRe = regexp.MustCompile("`(t[0-9]+)`")

// TestProperties over every session in testdata/ and several settings:
// deterministic, idempotent, strict JSON, no orphan result and every
// answered call still answered, every indexed result stubbed unless
// protected or in grace, every protected chain output verbatim exactly
// once, every ref resolvable.
func TestProperties(t *testing.T) {
	for _, p := range allSessions(t) {
		base := optionsFor(t, p)
		in, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		variants := map[string]render.Options{"settings": base}
		v := base
		v.MaxImages = 1
		variants["maxImages=1"] = v
		v = base
		v.PurgeCooldownTurns, v.PurgeMinArgChars = 0, 0
		variants["purge-all"] = v
		v = base
		v.Chains, v.RecoveryGraceTurns = false, 0
		variants["no-chains,no-grace"] = v
		var inAns map[string]int
		for vn, o := range variants {
			name := strings.TrimPrefix(p, "../../testdata/") + " " + vn
			a := renderBytes(t, in, o)
			if vn == "settings" {
				if b := renderBytes(t, in, o); !bytes.Equal(a.out, b.out) {
					t.Errorf("%s: not deterministic", name)
				}
			}
			if inAns == nil {
				inAns = inputPairs(t, a.ctx)
			}
			if len(a.out) > 0 { // an empty context does not read back (no line)
				if again := renderBytes(t, a.out, o); !bytes.Equal(again.out, a.out) {
					t.Errorf("%s: not idempotent (render of the render changed)", name)
				}
			}
			checkOutput(t, name, a, o, inAns)
			if vn == "settings" {
				checkComposed(t, name, in, o)
			}
		}
	}
}

// checkComposed renders with masking composed over the render (as now
// does) and checks the converse: every result pi-ai pairs that is old
// (turns.Window of recentTurnsToKeep), unprotected, not in recovery grace
// and not already a notice is replaced when it is indexed (stubbed) or
// large (over maxRetainedChars and 2000 chars) or holds an image (masked),
// and a masked result's images are gone; every call keeps one result.
func checkComposed(t *testing.T, name string, in []byte, o render.Options) {
	t.Helper()
	ctx, err := session.Read(bytes.NewReader(in), bytes.NewReader(in), session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	st, err := index.Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	po := prune.Options{RecentTurns: config.DefaultRecentTurns, MaxChars: config.DefaultMaxChars, Protect: o.Protect}
	plan := prune.NewPlan(ctx, po)
	o.WillMask = func(i int) bool { return plan.Decisions[i].Kind != prune.Keep }
	res, err := render.Render(ctx, st, o)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := render.Write(&out, ctx, res, render.WriteOptions{Mask: func(dst []byte, i int) ([]byte, bool, error) {
		return plan.AppendMessage(dst, ctx, i)
	}}); err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
	var msgs []map[string]any
	for _, l := range lines {
		var m map[string]any
		_ = json.Unmarshal(l, &m)
		msgs = append(msgs, m)
	}
	got, orphans := answered(msgs)
	for k, n := range got {
		if n != 1 {
			t.Errorf("%s (masked): call %s has %d results", name, k, n)
		}
	}
	if len(orphans) > 0 {
		t.Errorf("%s (masked): orphans %v", name, orphans)
	}
	old := turns.Of(ctx).Window(po.RecentTurns)
	graceFrom := turns.Of(ctx).Window(o.RecoveryGraceTurns + 1)
	hz := pairing.Find(ctx)
	for k, it := range res.Items {
		if it.Src < 0 || int(it.Src) >= old {
			continue
		}
		m := ctx.Messages[it.Src]
		if m.Role() != session.RoleToolResult || m.HasNotice() || hz.Involves(int(it.Src)) {
			continue
		}
		c := plan.Call(ctx, int(it.Src))
		if o.Protect.Protected(c.Name(), c.Path(), c.HasPath()) || o.Protect.ToolProtected(m.ToolName()) {
			continue
		}
		orig, _ := ctx.AppendMessage(nil, m)
		kept := bytes.Equal(lines[k], orig)
		indexed := st.IsSummarized(index.MessageKey(m.ToolCallID(), []byte(m.Timestamp()))) || st.HasLegacyBareRecord(m.ToolCallID())
		graced := m.ToolName() == render.QueryToolName && o.RecoveryGraceTurns > 0 && int(it.Src) >= graceFrom
		switch {
		case graced:
		case indexed && kept:
			t.Errorf("%s (masked): old indexed result %s left verbatim", name, m.ToolCallID())
		case (m.TextChars() > max(po.MaxChars, 2000) || m.Images() > 0) && kept:
			t.Errorf("%s (masked): old result %s (%d chars, %d images) left verbatim", name, m.ToolCallID(), m.TextChars(), m.Images())
		case m.Images() > 0 && bytes.Contains(lines[k], []byte(`"type":"image"`)):
			t.Errorf("%s (masked): old result %s still holds an image", name, m.ToolCallID())
		}
	}
}

// answered pairs results with calls as pi-ai does (the latest assistant's
// open calls; any other message closes them; system messages are not in the
// list pi sends): answered counts results per call (assistant timestamp/id).
func answered(ms []map[string]any) (map[string]int, []string) {
	got := map[string]int{}
	var orphans []string
	var open map[string]string
	for _, m := range ms {
		switch m["role"] {
		case "system":
		case "assistant":
			open = map[string]string{}
			c, _ := m["content"].([]any)
			for _, x := range c {
				if b, _ := x.(map[string]any); b["type"] == "toolCall" {
					id, _ := b["id"].(string)
					open[id] = fmt.Sprint(m["timestamp"]) + "/" + id
				}
			}
		case "toolResult":
			id, _ := m["toolCallId"].(string)
			if k, ok := open[id]; ok {
				got[k]++
				delete(open, id)
			} else {
				orphans = append(orphans, id)
			}
		default:
			open = nil
		}
	}
	return got, orphans
}

func inputPairs(t *testing.T, ctx *session.Context) map[string]int {
	var inMsgs []map[string]any
	for _, m := range ctx.Messages {
		b, err := ctx.AppendMessage(nil, m)
		if err != nil {
			t.Fatal(err)
		}
		var x map[string]any
		_ = json.Unmarshal(b, &x)
		inMsgs = append(inMsgs, x)
	}
	got, _ := answered(inMsgs)
	return got
}

func checkOutput(t *testing.T, name string, r rendered, o render.Options, inAns map[string]int) {
	t.Helper()
	lines := bytes.Split(bytes.TrimSuffix(r.out, []byte("\n")), []byte("\n"))
	if len(r.out) == 0 {
		lines = nil
	}
	var msgs []map[string]any
	for _, l := range lines {
		var m map[string]any
		if !utf8.Valid(l) || json.Unmarshal(l, &m) != nil {
			t.Fatalf("%s: output line not strict JSON: %.200s", name, l)
		}
		msgs = append(msgs, m)
	}
	outAns, orphans := answered(msgs)
	if len(orphans) > 0 {
		t.Errorf("%s: orphan results in the output: %v", name, orphans)
	}
	kept := map[string]bool{}
	for _, m := range msgs {
		if m["role"] == "assistant" {
			kept[fmt.Sprint(m["timestamp"])] = true
		}
	}
	for k, n := range inAns {
		ts := k[:strings.IndexByte(k, '/')]
		if kept[ts] && outAns[k] != n {
			t.Errorf("%s: call %s had %d result(s), now %d", name, k, n, outAns[k])
		}
	}
	// every indexed result left verbatim is protected now, in grace or
	// part of a pair pi-ai would not pair
	if !o.ImagesOnly {
		hz := pairing.Find(r.ctx)
		for _, it := range r.res.Items {
			if it.Src < 0 || it.Change != render.Kept {
				continue
			}
			m := r.ctx.Messages[it.Src]
			if m.Role() != session.RoleToolResult || hz.Involves(int(it.Src)) || !r.st.IsSummarized(index.MessageKey(m.ToolCallID(), []byte(m.Timestamp()))) {
				continue
			}
			if m.ToolName() != render.QueryToolName && r.res.Report.Repaired == 0 {
				t.Errorf("%s: indexed result %s left verbatim", name, m.ToolCallID())
			}
		}
	}
	// protected chain outputs: verbatim, exactly once in the whole output
	for _, m := range msgs {
		tx := text(m)
		for _, blk := range strings.Split(tx, "<protected-output tool=\"")[1:] {
			body := blk[strings.IndexByte(blk, '\n')+1:]
			body = body[:strings.Index(body, "\n</protected-output>")]
			enc, _ := json.Marshal(body)
			if c := bytes.Count(r.out, enc[1:len(enc)-1]); c != 1 {
				t.Errorf("%s: a protected output appears %d times", name, c)
			}
		}
	}
	// every ref a stub or summary shows resolves to a record
	for _, mm := range refRe.FindAllSubmatch(r.out, -1) {
		if _, ok := r.st.Resolve(string(mm[1])); !ok && r.st.Entries > 0 {
			t.Errorf("%s: ref %s does not resolve", name, mm[1])
		}
	}
}
