package render_test

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
)

// TestWriteFromMappedInput: Write of a session read from its file (mapped:
// kept messages are written from the mapping and counted from the
// decoder's counts, Mask skipped where masking keeps them) writes the
// same bytes and Stats as Write of the same session read from memory
// (every message appended, counted from its bytes, Mask called), for every
// session in testdata, with masking composed and without, with chars
// counted and without.
func TestWriteFromMappedInput(t *testing.T) {
	n := 0
	for _, p := range allSessions(t) {
		name := strings.TrimPrefix(p, "../../testdata/")
		in, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(in) == 0 {
			continue
		}
		o := optionsFor(t, p)
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		mapped := writeBoth(t, name, f, f, o)
		f.Close()
		read := writeBoth(t, name, bytes.NewReader(in), bytes.NewReader(in), o)
		for k, want := range read {
			got := mapped[k]
			if !bytes.Equal(got.out, want.out) {
				t.Errorf("%s %s: mapped input writes other bytes", name, k)
			}
			if got.st != want.st {
				t.Errorf("%s %s: mapped input stats\n%+v\nwant\n%+v", name, k, got.st, want.st)
			}
			if want.st.Messages > 0 {
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no session written")
	}
}

type written struct {
	out []byte
	st  render.Stats
}

// writeBoth renders the session of r/ra and writes it with and without
// masking, with and without chars.
func writeBoth(t *testing.T, name string, r io.Reader, ra io.ReaderAt, o render.Options) map[string]written {
	t.Helper()
	ctx, err := session.Read(r, ra, session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	st, err := index.Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]written{}
	for _, masking := range []bool{false, true} {
		ro := o
		var wo render.WriteOptions
		if masking {
			po := prune.Options{RecentTurns: config.DefaultRecentTurns, MaxChars: config.DefaultMaxChars, Protect: o.Protect}
			plan := prune.NewPlan(ctx, po)
			ro.WillMask = func(i int) bool { return plan.Decisions[i].Kind != prune.Keep }
			wo.Mask = func(dst []byte, i int) ([]byte, bool, error) { return plan.AppendMessage(dst, ctx, i) }
		}
		res, err := render.Render(ctx, st, ro)
		if err != nil {
			t.Fatal(err)
		}
		for _, noChars := range []bool{false, true} {
			wo.NoChars = noChars
			var b bytes.Buffer
			s, err := render.Write(&b, ctx, res, wo)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			k := "plain"
			if masking {
				k = "masked"
			}
			if noChars {
				k += ",noChars"
			}
			out[k] = written{b.Bytes(), s}
		}
	}
	return out
}
