package prune_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/turns"
)

var update = flag.Bool("update", false, "rewrite golden files")

// allSessions lists every session shipped in testdata.
func allSessions(t testing.TB) []string {
	a, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	b, _ := filepath.Glob("../../testdata/cases/*/session.jsonl")
	if len(a) < 10 || len(b) < 3 {
		t.Fatalf("testdata sessions missing: %d + %d", len(a), len(b))
	}
	return append(a, b...)
}

// propertySessions is every session in testdata: allSessions, the
// pi-condense oracle's final sessions and the render cases.
func propertySessions(t testing.TB) []string {
	out := allSessions(t)
	for _, g := range []string{"../../testdata/condense-oracle/*/final/*.jsonl", "../../testdata/render/*.jsonl"} {
		m, _ := filepath.Glob(g)
		for _, p := range m {
			if !strings.HasSuffix(p, ".golden.jsonl") {
				out = append(out, p)
			}
		}
	}
	return out
}

func splitLines(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

type pairMsg struct {
	Role       string `json:"role"`
	ToolCallID string `json:"toolCallId"`
	StopReason string `json:"stopReason"`
	Content    []struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Text string `json:"text"`
	} `json:"content"`
}

// TestProperties checks, for every session in testdata and several option
// sets: every line is strict JSON and valid UTF-8; the message sequence
// (roles, call ids, toolCall blocks) is unchanged, so every call keeps its
// result; messages not pruned are byte-identical to the unpruned context;
// results of the recent window and of protected calls are verbatim;
// pruning is deterministic and idempotent; every call keeps exactly the
// results it had (one); and the converse: every old (turns.Window),
// unprotected result that pi-ai pairs and that is large (over the limit
// and over 2000 chars, so any notice is shorter) or holds an image is
// replaced, its images gone.
func TestProperties(t *testing.T) {
	pred, err := protect.NewPredicate([]string{"ls", "mem_*"}, []string{"**/*.md", "**/skills/**/*.md"})
	if err != nil {
		t.Fatal(err)
	}
	optsets := map[string]prune.Options{
		"default":    {RecentTurns: config.DefaultRecentTurns, MaxChars: config.DefaultMaxChars, Protect: pred},
		"aggressive": {RecentTurns: 1, MaxChars: 100, Protect: pred},
		"all":        {RecentTurns: 0, MaxChars: 0},
	}
	for _, path := range propertySessions(t) {
		for oname, opts := range optsets {
			name := strings.TrimSuffix(filepath.Base(filepath.Dir(path)), "/") + "/" + filepath.Base(path) + "/" + oname
			t.Run(name, func(t *testing.T) {
				plain, _ := runBytes(t, path, nil)
				pruned, st := runBytes(t, path, &opts)
				if again, _ := runBytes(t, path, &opts); !bytes.Equal(again, pruned) {
					t.Fatal("not deterministic")
				}
				if !utf8.Valid(pruned) {
					t.Fatal("output is not valid UTF-8")
				}
				pl, pr := splitLines(plain), splitLines(pruned)
				if len(pl) != len(pr) {
					t.Fatalf("message count changed: %d → %d", len(pl), len(pr))
				}
				f, _ := os.Open(path)
				ctx, err := session.Read(f, f, session.ReadOptions{})
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				plan := prune.NewPlan(ctx, opts)
				old := turns.Of(ctx).Window(opts.RecentTurns)
				hz := pairing.Find(ctx)
				if in, out := resultsPerCall(pl), resultsPerCall(pr); fmt.Sprint(in) != fmt.Sprint(out) {
					t.Fatalf("results per call changed:\n%v\n%v", in, out)
				} else {
					for k, n := range out {
						if n != 1 {
							t.Fatalf("call %s has %d results", k, n)
						}
					}
				}
				changed := 0
				for i := range pr {
					if !json.Valid(pr[i]) {
						t.Fatalf("message %d: invalid JSON", i)
					}
					var a, b pairMsg
					_ = json.Unmarshal(pl[i], &a)
					_ = json.Unmarshal(pr[i], &b)
					if a.Role != b.Role || a.ToolCallID != b.ToolCallID {
						t.Fatalf("message %d: role/toolCallId changed", i)
					}
					if a.Role == "assistant" && !bytes.Equal(pl[i], pr[i]) {
						t.Fatalf("message %d: assistant changed (toolCall blocks must be kept)", i)
					}
					m := ctx.Messages[i]
					if c := plan.Call(ctx, i); a.Role == "toolResult" && i < old && !hz.Involves(i) && !m.HasNotice() &&
						!opts.Protect.Protected(c.Name(), c.Path(), c.HasPath()) && !opts.Protect.ToolProtected(m.ToolName()) {
						if (m.TextChars() > max(opts.MaxChars, 2000) || m.Images() > 0) && bytes.Equal(pl[i], pr[i]) {
							t.Fatalf("message %d: old, unprotected, %d chars and %d images, but kept", i, m.TextChars(), m.Images())
						}
						if m.Images() > 0 && bytes.Contains(pr[i], []byte(`"type":"image"`)) {
							t.Fatalf("message %d: old result still holds an image", i)
						}
					}
					if bytes.Equal(pl[i], pr[i]) {
						continue
					}
					changed++
					if a.Role != "toolResult" {
						t.Fatalf("message %d: %s changed; only tool results may be pruned", i, a.Role)
					}
					if i >= plan.Cutoff {
						t.Fatalf("message %d: inside the recent window but changed", i)
					}
					c := plan.Call(ctx, i)
					if opts.Protect.Protected(c.Name(), c.Path(), c.HasPath()) {
						t.Fatalf("message %d: protected call %s (%s) was pruned", i, c.Name(), c.Path())
					}
					if m.TextChars() <= opts.MaxChars && m.Images() == 0 {
						t.Fatalf("message %d: %d chars (≤ %d) but pruned", i, m.TextChars(), opts.MaxChars)
					}
					if len(b.Content) == 0 || !strings.HasPrefix(b.Content[0].Text, session.NoticePrefix) && !hasNotice(b) {
						t.Fatalf("message %d: changed without a notice", i)
					}
				}
				if changed != st.Pruned {
					t.Errorf("stats say %d pruned, %d changed", st.Pruned, changed)
				}
				if len(pruned) == 0 {
					return
				}
				twice := runReader(t, pruned, &opts)
				if !bytes.Equal(twice, pruned) {
					t.Fatal("not idempotent: pruning the output changed it")
				}
				if st.CharsAfter > st.CharsBefore {
					t.Errorf("pruning grew the context: %d → %d chars", st.CharsBefore, st.CharsAfter)
				}
			})
		}
	}
}

// resultsPerCall counts the results pi-ai pairs with each call (latest
// assistant's open calls; any other message but a system one closes them),
// keyed by the call's position and id.
func resultsPerCall(lines [][]byte) map[string]int {
	out := map[string]int{}
	var open map[string]string
	for i, l := range lines {
		var m pairMsg
		_ = json.Unmarshal(l, &m)
		switch m.Role {
		case "system":
		case "assistant":
			open = map[string]string{}
			for _, c := range m.Content {
				if c.Type == "toolCall" {
					open[c.ID] = fmt.Sprintf("%d/%s", i, c.ID)
				}
			}
		case "toolResult":
			if k, ok := open[m.ToolCallID]; ok {
				out[k]++
			} else {
				out["orphan "+m.ToolCallID]++
			}
		default:
			open = nil
		}
	}
	return out
}

func hasNotice(m pairMsg) bool {
	for _, c := range m.Content {
		if strings.HasPrefix(c.Text, session.NoticePrefix) {
			return true
		}
	}
	return false
}

// TestGolden compares `now` with default settings on every session against
// testdata/golden/now/*.jsonl (regenerate with go test ./internal/prune -update).
func TestGolden(t *testing.T) {
	pred, _ := protect.NewPredicate(protect.DefaultProtectedTools(), protect.DefaultProtectedPaths())
	opts := prune.Options{RecentTurns: config.DefaultRecentTurns, MaxChars: config.DefaultMaxChars, Protect: pred}
	for _, path := range allSessions(t) {
		base := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		if base == "session" {
			base = filepath.Base(filepath.Dir(path))
		}
		t.Run(base, func(t *testing.T) {
			got, _ := runBytes(t, path, &opts)
			golden := filepath.Join("../../testdata/golden/now", base+".jsonl")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/prune -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (if intended: go test ./internal/prune -update)", golden)
			}
		})
	}
}
