package session

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readFile builds the context of a session file in testdata.
func readFile(t testing.TB, path string) *Context {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	ctx, err := Read(f, f, ReadOptions{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return ctx
}

func render(t testing.TB, ctx *Context) []byte {
	t.Helper()
	var out []byte
	var err error
	for _, m := range ctx.Messages {
		out, err = ctx.AppendMessage(out, m)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, '\n')
	}
	return out
}

// TestContextMatchesPiOracle checks, for every session shipped in
// testdata/sessions, that the context equals, byte for byte, what pi 1.6.0's
// own buildSessionContext printed (testdata/oracle/1.6.0, made by
// shared/oracle/run-context.sh; its trailing _meta line is dropped).
func TestContextMatchesPiOracle(t *testing.T) {
	sessions, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	if len(sessions) < 10 {
		t.Fatalf("expected the 10 shipped sessions, found %d", len(sessions))
	}
	for _, s := range sessions {
		name := strings.TrimSuffix(filepath.Base(s), ".jsonl")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("../../testdata/oracle/1.6.0", name+".context.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			i := bytes.LastIndex(want[:len(want)-1], []byte("\n"))
			want = want[:i+1] // drop {"_meta":…}
			if i < 0 {
				want = nil
			}
			got := render(t, readFile(t, s))
			if !bytes.Equal(got, want) {
				gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
				t.Errorf("got %d lines, want %d", len(gl), len(wl))
				for k := 0; k < len(gl) && k < len(wl); k++ {
					if !bytes.Equal(gl[k], wl[k]) {
						t.Errorf("first difference at message %d:\n got: %.300s\nwant: %.300s", k+1, gl[k], wl[k])
						break
					}
				}
			}
		})
	}
}
