package prune_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/estimate"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/session"
)

// tinyPNG is a 1×1 PNG: 96 bytes of base64, far shorter than an image
// notice, yet pi counts it as 4800 chars (1200 tokens) like any image.
const tinyPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

// imageSession: an old screenshot result (turn one), then two more turns.
func imageSession(data string) string {
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-12-01T00:00:00.000Z","cwd":"/p"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-12-01T00:00:01.000Z","message":{"role":"user","content":"look","timestamp":1}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-12-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"s1","name":"screenshot","arguments":{}}],"stopReason":"toolUse","timestamp":2}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-12-01T00:00:03.000Z","message":{"role":"toolResult","toolCallId":"s1","toolName":"screenshot","content":[{"type":"text","text":"shot"},{"type":"image","data":"` + data + `","mimeType":"image/png"}],"isError":false,"timestamp":3}}`,
		`{"type":"message","id":"u2","parentId":"r1","timestamp":"2026-12-01T00:00:04.000Z","message":{"role":"user","content":"two","timestamp":4}}`,
		`{"type":"message","id":"u3","parentId":"u2","timestamp":"2026-12-01T00:00:05.000Z","message":{"role":"user","content":"three","timestamp":5}}`,
	}
	return strings.Join(lines, "\n") + "\n"
}

func pruneString(t *testing.T, in string, opts prune.Options) ([]byte, prune.Stats, *session.Context) {
	t.Helper()
	ctx, err := session.Read(strings.NewReader(in), strings.NewReader(in), session.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	st, err := prune.Render(&out, ctx, prune.NewPlan(ctx, opts))
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), st, ctx
}

// TestSmallOldImageIsPruned: the image notice is longer than a tiny
// image's base64, so measured in JSON chars it "saved nothing" and the
// image stayed; measured as pi counts it (4800 chars) it is pruned.
func TestSmallOldImageIsPruned(t *testing.T) {
	opts := prune.Options{RecentTurns: 2, MaxChars: 4000}
	out, st, _ := pruneString(t, imageSession(tinyPNG), opts)
	if st.Images != 1 || bytes.Contains(out, []byte(tinyPNG)) {
		t.Fatalf("tiny old image kept (stats %+v)", st)
	}
	notice := "[pruner: pruned image/png image] call s1, entry r1 · 96 bytes base64, ~1200 tokens; recover: pruner query --entry r1 SESSION"
	if !bytes.Contains(out, []byte(notice)) {
		t.Fatalf("notice missing or not pi's estimate:\n%s", out)
	}
	// the stats count the image as 4800 chars before and the notice after
	plain, _, _ := pruneString(t, imageSession(tinyPNG), prune.Options{RecentTurns: 100})
	block := `{"type":"image","data":"` + tinyPNG + `","mimeType":"image/png"}`
	wantBefore := int64(session.RuneCount(plain) - bytes.Count(plain, []byte("\n")) - len(block) + estimate.ImageChars)
	if st.CharsBefore != wantBefore {
		t.Errorf("charsBefore %d, want %d (image as %d chars)", st.CharsBefore, wantBefore, estimate.ImageChars)
	}
	if saved := st.CharsBefore - st.CharsAfter; saved <= int64(estimate.ImageChars-len(notice)-40) {
		t.Errorf("saved %d chars, want about %d", saved, estimate.ImageChars-len(notice))
	}
	if st.TokensBefore != estimate.Tokens64(st.CharsBefore) {
		t.Errorf("tokens %d for %d chars", st.TokensBefore, st.CharsBefore)
	}
}

// TestImageSizeInNotices: a masked result with images names them at pi's
// estimate (1200 tokens each), not 4800 tokens.
func TestImageSizeInNotices(t *testing.T) {
	in := strings.Replace(imageSession(tinyPNG), `"text":"shot"`, `"text":"`+strings.Repeat("y", 50)+`"`, 1)
	out, st, _ := pruneString(t, in, prune.Options{RecentTurns: 2, MaxChars: 10})
	if st.Masked != 1 || !bytes.Contains(out, []byte("50 chars, ~13 tokens, 1 image(s) ~1200 tokens")) {
		t.Fatalf("masked %d:\n%s", st.Masked, out)
	}
}

// TestSessionOutputPrunesSmallImages: --session decides as the context
// does (the same estimate), so the rewritten file's context is `now`'s.
func TestSessionOutputPrunesSmallImages(t *testing.T) {
	in := imageSession(tinyPNG)
	opts := prune.Options{RecentTurns: 2, MaxChars: 4000}
	now, _, ctx := pruneString(t, in, opts)
	var sess bytes.Buffer
	if _, err := prune.RenderSession(&sess, ctx, prune.NewPlan(ctx, opts), int64(len(in))); err != nil {
		t.Fatal(err)
	}
	again, _, _ := pruneString(t, sess.String(), prune.Options{RecentTurns: 100})
	if !bytes.Equal(again, now) {
		t.Fatalf("context of the session output differs from now:\n%s\n---\n%s", again, now)
	}
}
