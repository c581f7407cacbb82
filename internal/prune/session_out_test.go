package prune_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/session"
)

// TestSessionOutput checks, for every session: the rewritten session's
// context equals the pruned context (so pi, reading the rewritten file,
// sends what `pruner now` prints); every line not pruned is byte-identical;
// rewriting again changes nothing.
func TestSessionOutput(t *testing.T) {
	pred, _ := protect.NewPredicate(protect.DefaultProtectedTools(), protect.DefaultProtectedPaths())
	opts := prune.Options{RecentTurns: 1, MaxChars: 500, Protect: pred}
	for _, path := range allSessions(t) {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			in, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ctx, err := session.Read(bytes.NewReader(in), bytes.NewReader(in), session.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var sess bytes.Buffer
			st, err := prune.RenderSession(&sess, ctx, prune.NewPlan(ctx, opts), int64(len(in)))
			if err != nil {
				t.Fatal(err)
			}
			inLines, outLines := bytes.Split(in, []byte("\n")), bytes.Split(sess.Bytes(), []byte("\n"))
			if len(inLines) != len(outLines) {
				t.Fatalf("line count %d → %d", len(inLines), len(outLines))
			}
			changed := 0
			for i := range inLines {
				if !bytes.Equal(inLines[i], outLines[i]) {
					changed++
				}
			}
			if changed != st.Pruned {
				t.Errorf("%d lines changed, %d pruned", changed, st.Pruned)
			}
			want, _ := runBytes(t, path, &opts)
			got := runReader(t, sess.Bytes(), nil)
			if !bytes.Equal(got, want) {
				t.Error("context of the rewritten session differs from the pruned context")
			}
			ctx2, err := session.Read(bytes.NewReader(sess.Bytes()), bytes.NewReader(sess.Bytes()), session.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var again bytes.Buffer
			if _, err := prune.RenderSession(&again, ctx2, prune.NewPlan(ctx2, opts), int64(sess.Len())); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again.Bytes(), sess.Bytes()) {
				t.Error("rewriting the rewritten session changed it")
			}
		})
	}
}
