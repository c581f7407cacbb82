package render_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/pipeline"
	"github.com/pruner-dev/pruner/internal/render"
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

func scenarioOptions(t testing.TB, dir string) render.Options {
	t.Helper()
	c, err := config.Load(config.Options{ConfigFile: filepath.Join(dir, "settings.json"), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	o, err := pipeline.RenderOptions(c)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// renderSession renders a session file as `now --no-flush --no-mask` does.
func renderSession(t testing.TB, path string, o render.Options) ([]byte, *render.Result) {
	t.Helper()
	ctx := readSession(t, path)
	st, err := index.Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Warnings) > 0 {
		t.Errorf("%s: index warnings %v", path, st.Warnings)
	}
	res, err := render.Render(ctx, st, o)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := render.Write(&out, ctx, res, render.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), res
}

// withoutSystem drops pi 1.x system messages (not part of the context event).
func withoutSystem(b []byte) []byte {
	var out []byte
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		if bytes.HasPrefix(l, []byte(`{"role":"system"`)) {
			continue
		}
		out = append(out, l...)
	}
	return out
}

// TestOracle: for every request of every scenario, the render of the
// session as it was at that request equals, byte for byte, what the real
// pi-condense handed the model.
func TestOracle(t *testing.T) {
	scenarios, _ := filepath.Glob(filepath.Join(oracleDir, "*", "settings.json"))
	if len(scenarios) < 7 {
		t.Fatalf("only %d scenarios", len(scenarios))
	}
	n := 0
	for _, sp := range scenarios {
		dir := filepath.Dir(sp)
		o := scenarioOptions(t, dir)
		reqs, _ := filepath.Glob(filepath.Join(dir, "requests", "req-*.context.jsonl"))
		for _, want := range reqs {
			name := filepath.Base(dir) + "/" + filepath.Base(want)
			t.Run(name, func(t *testing.T) {
				wantB, err := os.ReadFile(want)
				if err != nil {
					t.Fatal(err)
				}
				got, res := renderSession(t, strings.TrimSuffix(want, ".context.jsonl")+".session.jsonl", o)
				got = withoutSystem(got)
				if !bytes.Equal(got, wantB) {
					reportDiff(t, got, wantB)
				}
				for _, d := range res.Report.Diagnostics {
					t.Errorf("diagnostic: %s: %s", d.Kind, d.Detail)
				}
			})
			n++
		}
	}
	if n < 40 {
		t.Errorf("only %d requests checked", n)
	}
}

func reportDiff(t *testing.T, got, want []byte) {
	t.Helper()
	gl := bytes.Split(got, []byte("\n"))
	wl := bytes.Split(want, []byte("\n"))
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w []byte
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if !bytes.Equal(g, w) {
			j := 0
			for j < len(g) && j < len(w) && g[j] == w[j] {
				j++
			}
			lo := max(0, j-80)
			t.Fatalf("line %d differs at byte %d (%d vs %d lines):\n got: …%s\nwant: …%s", i+1, j, len(gl), len(wl), clip(g[lo:], 240), clip(w[lo:], 240))
		}
	}
}

func clip(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
