package summarize

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"
)

var fuseInput = []string{
	"- `t1` bash `seq 1 3000` — OK; 3000 lines\n  - last: 3000" + Footer([]string{"t1"}),
	"- `t2` read `a.txt` — OK; 200 lines" + Footer([]string{"t2"}),
}

func TestFuseDeterministic(t *testing.T) {
	got := FuseDeterministic(fuseInput, []string{"t1", "t2"})
	want := "- `t1` bash `seq 1 3000` — OK; 3000 lines\n  - last: 3000\n\n- `t2` read `a.txt` — OK; 200 lines" + Footer([]string{"t1", "t2"})
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if n, parts := JSLen(got), JSLen(fuseInput[0])+JSLen(fuseInput[1]); n >= parts {
		t.Errorf("the fusion (%d chars) is not shorter than the summaries (%d)", n, parts)
	}
	// a summary without the footer is kept whole; an empty one is dropped
	if got := FuseDeterministic([]string{"plain note", "  "}, []string{"t9"}); got != "plain note"+Footer([]string{"t9"}) {
		t.Errorf("got %q", got)
	}
	if StripFooter("x"+Footer([]string{"t1"})+"\nmore") != "x"+Footer([]string{"t1"})+"\nmore" {
		t.Error("a footer that does not end the text is no footer")
	}
}

func TestFuseRequest(t *testing.T) {
	r := FuseRequest(fuseInput)
	if !strings.HasPrefix(r, FusePrompt+"\n\n<sub-task-summaries>\n"+fuseInput[0]+"\n\n"+fuseInput[1]+"\n</sub-task-summaries>") || !strings.HasSuffix(r, "</sub-task-summaries>") {
		t.Fatalf("request layout:\n%s", r)
	}
	if FuseKey(fuseInput, "") == FuseKey(fuseInput[:1], "") {
		t.Error("the key does not depend on the summaries")
	}
}

func TestFuseCommand(t *testing.T) {
	refs := []string{"t1", "t2"}
	det := FuseDeterministic(fuseInput, refs)
	reply := func(s string) Runner {
		return RunnerFunc(func(ctx context.Context, req []byte) ([]byte, error) {
			if !strings.Contains(string(req), "<sub-task-summaries>") {
				t.Errorf("request %q", req)
			}
			return []byte(s), nil
		})
	}
	for _, c := range []struct {
		name   string
		run    Runner
		text   string
		source Source
		warn   string
	}{
		{"ok", reply("Counted to 3000 (`t1`) and read a.txt (`t2`).\n"), "Counted to 3000 (`t1`) and read a.txt (`t2`).", SourceCommand, ""},
		{"no ref", reply("Counted and read."), det, SourceFallback, "names none of the chain's refs"},
		{"ref prefix only", reply("see `t12`"), det, SourceFallback, "names none"},
		{"empty", reply(" \n"), det, SourceFallback, "printed nothing"},
		{"binary", reply("t1\x00"), det, SourceFallback, "binary"},
		{"longer", reply("t1 " + strings.Repeat("z", 1000)), det, SourceFallback, "longer than the summaries"},
		{"fails", RunnerFunc(func(context.Context, []byte) ([]byte, error) { return nil, errors.New("exit status 1") }), det, SourceFallback, "summarizer failed: exit status 1"},
		{"timeout", RunnerFunc(func(ctx context.Context, _ []byte) ([]byte, error) { <-ctx.Done(); return nil, ctx.Err() }), det, SourceFallback, "timed out"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Fuse(context.Background(), fuseInput, refs, Options{Command: c.run, Timeout: 50 * time.Millisecond})
			if r.Text != c.text || r.Source != c.source || !strings.Contains(r.Warning, c.warn) || (c.warn == "" && r.Warning != "") {
				t.Errorf("got %q (%s, %q), want %q (%s, …%q…)", r.Text, r.Source, r.Warning, c.text, c.source, c.warn)
			}
		})
	}
	// the cache: a fusion a command made is reused byte for byte
	cache := &mapCache{m: map[string]string{}}
	calls := 0
	run := RunnerFunc(func(context.Context, []byte) ([]byte, error) { calls++; return []byte("fused `t1` `t2`"), nil })
	a := Fuse(context.Background(), fuseInput, refs, Options{Command: run, Cache: cache})
	b := Fuse(context.Background(), fuseInput, refs, Options{Command: run, Cache: cache})
	if calls != 1 || a.Text != b.Text || b.Source != SourceCache {
		t.Errorf("calls %d, %q / %q (%s)", calls, a.Text, b.Text, b.Source)
	}
	// without a command: deterministic
	if r := Fuse(context.Background(), fuseInput, refs, Options{}); r.Text != det || r.Source != SourceDeterministic {
		t.Errorf("deterministic: %+v", r)
	}
}

// footerRE is the refs footer as a regular expression (StripFooter's first
// form): StripFooter cuts what it matches.
var footerRE = regexp.MustCompile("\n\n---\n\\*\\*Summarized tool refs\\*\\*: [^\n]*\nUse `context_tree_query` with these refs to retrieve the original full outputs\\.$")

func stripFooterRE(summary string) string {
	if loc := footerRE.FindStringIndex(summary); loc != nil {
		return summary[:loc[0]]
	}
	return summary
}

// FuzzStripFooter: StripFooter is stripFooterRE.
func FuzzStripFooter(f *testing.F) {
	tail := "\nUse `context_tree_query` with these refs to retrieve the original full outputs."
	for _, s := range []string{"", "x", "a" + Footer([]string{"t1", "t2"}), "- [[1:bash]]\n" + Footer([]string{"t3"}), "\n\n---\n**Summarized tool refs**: t1" + tail,
		"---\n**Summarized tool refs**: t1" + tail, "\n\n---\n**Summarized tool refs**: t1\nx" + tail, "\n\n---\n**Summarized tool refs**: " + tail, tail, "a" + Footer(nil) + "\n"} {
		f.Add(s)
	}
	if got := StripFooter("a" + Footer([]string{"t1", "t2"})); got != "a" {
		f.Fatalf("the footer Footer writes is not cut: %q", got)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := StripFooter(s), stripFooterRE(s); got != want {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	})
}

// FuzzFuseDeterministicJoined: FuseDeterministic, written into one
// buffer, is the kept parts joined and the footer made by concatenation.
func FuzzFuseDeterministicJoined(f *testing.F) {
	f.Add("- `t1` bash x\n\n---\n**Summarized tool refs**: `t1`\nUse `context_tree_query` with these refs to retrieve the original full outputs.", " \u00a0\n", "b\n\n", "t1", "t2")
	f.Add("", "", "", "", "")
	f.Fuzz(func(t *testing.T, a, b, c, r1, r2 string) {
		summaries, refs := []string{a, b, c}, []string{r1, r2}
		var parts []string
		for _, s := range summaries {
			if t := strings.TrimRightFunc(StripFooter(s), isJSSpace); strings.TrimLeftFunc(t, isJSSpace) != "" {
				parts = append(parts, t)
			}
		}
		footer := "\n\n---\n**Summarized tool refs**: "
		for i, r := range refs[:len(refs)-len(r2)%2] {
			if i > 0 {
				footer += ", "
			}
			footer += "`" + r + "`"
		}
		footer += "\nUse `context_tree_query` with these refs to retrieve the original full outputs."
		if got, want := FuseDeterministic(summaries, refs[:len(refs)-len(r2)%2]), strings.Join(parts, "\n\n")+footer; got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}
