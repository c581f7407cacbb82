package pipeline

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// memTexts is an index.TextStore in memory; broken makes every read fail.
type memTexts struct {
	b       []byte
	appends int
	broken  bool
}

func (m *memTexts) Append(text string) (int64, error) {
	off := int64(len(m.b))
	m.b = append(m.b, text...)
	m.appends++
	return off, nil
}

func (m *memTexts) ReadAt(p []byte, off int64) (int, error) {
	if m.broken {
		return 0, errors.New("the store is gone")
	}
	if off >= int64(len(m.b)) {
		return 0, io.EOF
	}
	n := copy(p, m.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// TestTextStoreRendersTheSame: a flush that keeps its summaries' texts in
// a TextStore (Options.Texts) renders the same context and writes the same
// session as one that holds them, under every setting (the chains' fusions
// read them back when written), and holds none of them itself.
func TestTextStoreRendersTheSame(t *testing.T) {
	vs := variants(t)
	all := vs["tight"] // every closed chain compressed
	all.Chains.RollingWindow = 0
	vs["all-chains"] = all
	nofuse := all
	nofuse.FuseRangeSummary = false
	vs["all-chains-no-fusion"] = nofuse
	stored := 0
	for name, o := range vs {
		for _, file := range sessions(t) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(name+"/"+filepath.Base(filepath.Dir(file))+"/"+filepath.Base(file), func(t *testing.T) {
				_, want, wantSess := runVerify(t, data, o, false)
				so := o
				texts := &memTexts{}
				so.Texts = texts
				r, got, gotSess := runVerify(t, data, so, false)
				if !bytes.Equal(got, want) {
					t.Errorf("the context differs with the texts stored")
				}
				if !bytes.Equal(gotSess, wantSess) {
					t.Errorf("the session differs with the texts stored")
				}
				if r.Flushed != nil {
					for i, s := range r.Flushed.Summaries {
						if s.Content != "" {
							t.Fatalf("summary %d holds its text (%d bytes)", i, len(s.Content))
						}
					}
				}
				stored += texts.appends
			})
		}
	}
	if stored == 0 {
		t.Fatal("no text stored: the sessions do not cover the store")
	}
}

// TestTextStoreReadFails: a summary that cannot be read back fails the
// output that needs it (no summary written empty).
func TestTextStoreReadFails(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testdata, "sessions", "large-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	o := defaults(t)
	texts := &memTexts{}
	o.Texts = texts
	r, err := Run(context.Background(), read(t, data), o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Summaries == 0 {
		t.Fatal("no summary rendered: the test checks nothing")
	}
	texts.broken = true
	var out bytes.Buffer
	if err := r.writeContext(&out); err == nil || !bytes.Contains([]byte(err.Error()), []byte("the store is gone")) {
		t.Fatalf("writing with a store that cannot be read: %v", err)
	}
}
