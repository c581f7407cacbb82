package restore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

const base = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[],"timestamp":2}}`

func marker(baseText string, newline bool, ids ...string) string {
	sum := sha256.Sum256([]byte(baseText))
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = `"` + id + `"`
	}
	nl := ""
	if newline {
		nl = `,"newline":true`
	}
	return fmt.Sprintf(`{"type":"custom","customType":"pruner-write","data":{"v":1,"baseBytes":%d,"baseSha256":"%s"%s,"ids":[%s]},"id":"m1","parentId":"a2","timestamp":"2026-01-01T00:00:03.000Z"}`,
		len(baseText), hex.EncodeToString(sum[:]), nl, strings.Join(q, ","))
}

const ours = `{"type":"custom_message","customType":"context-prune-summary","content":"x","display":false,"details":{},"id":"p1","parentId":"m1","timestamp":"2026-01-01T00:00:03.000Z"}
{"type":"context_edit","id":"p2","parentId":"p1","timestamp":"2026-01-01T00:00:03.000Z","targetId":"a2","replacement":{"content":"[pruner: x]"}}
`

func restore(t *testing.T, file string) (*Plan, string) {
	t.Helper()
	p, err := Analyze(strings.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := p.Write(&out); err != nil {
		t.Fatal(err)
	}
	return p, out.String()
}

func TestRestoreExact(t *testing.T) {
	for _, b := range []string{base + "\n", base} { // with and without a final newline
		file := b
		nl := !strings.HasSuffix(b, "\n")
		if nl {
			file += "\n"
		}
		file += marker(b, nl, "p1", "p2") + "\n" + ours
		p, got := restore(t, file)
		if got != b || !p.Exact || p.NeedsForce() != "" || p.Removed != 3 || len(p.Later) != 0 {
			t.Fatalf("final newline %v: plan %+v, got %q", !nl, p, got)
		}
	}
}

func TestRestoreKeepsLaterLines(t *testing.T) {
	later := `{"type":"message","id":"b1","parentId":"p2","timestamp":"2026-01-02T00:00:00.000Z","message":{"role":"user","content":"again","timestamp":3}}` + "\n"
	file := base + "\n" + marker(base+"\n", false, "p1", "p2") + "\n" + ours + later
	p, got := restore(t, file)
	want := base + "\n" + strings.Replace(later, `"parentId":"p2"`, `"parentId":"a2"`, 1)
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if !p.Exact || len(p.Later) != 1 || p.Reparented != 1 || !strings.Contains(p.NeedsForce(), "pi appended 1 entries") {
		t.Fatalf("plan %+v", p)
	}
}

func TestRestoreDetectsRewrittenBase(t *testing.T) {
	file := strings.Replace(base, `"hi"`, `"HI"`, 1) + "\n" + marker(base+"\n", false, "p1", "p2") + "\n" + ours
	p, _ := restore(t, file)
	if p.Exact || !strings.Contains(p.NeedsForce(), "no longer match") {
		t.Fatalf("plan %+v", p)
	}
}

func TestRestoreNothing(t *testing.T) {
	p, got := restore(t, base+"\n")
	if p.Markers != 0 || got != base+"\n" {
		t.Fatalf("plan %+v", p)
	}
}

func TestLegacy(t *testing.T) {
	orig := `{"type":"session","id":"s"}
{"type":"message","id":"r","message":{"role":"toolResult","toolCallId":"c","content":[{"type":"text","text":"big output"}],"isError":false}}`
	masked := `{"type":"session","id":"s"}
{"type":"message","id":"r","message":{"role":"toolResult","toolCallId":"c","content":[{"type":"text","text":"[pruner: pruned bash result] …"}],"isError":false}}` + "\n"
	later := `{"type":"message","id":"z","message":{"role":"user","content":"x"}}` + "\n"
	for _, c := range []struct{ cur, want string }{{masked, orig}, {masked + later, orig + "\n" + later}} {
		p, err := AnalyzeLegacy(strings.NewReader(c.cur), int64(len(c.cur)), strings.NewReader(orig), int64(len(orig)))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		p.Write(&out)
		if out.String() != c.want || p.Masked != 1 {
			t.Fatalf("got %q (plan %+v)", out.String(), p)
		}
	}
	other := strings.Replace(masked, `"id":"r"`, `"id":"q"`, 1)
	if _, err := AnalyzeLegacy(strings.NewReader(other), int64(len(other)), strings.NewReader(orig), int64(len(orig))); err == nil {
		t.Fatal("a file that is not derived from the backup was accepted")
	}
}

// TestMarkerKeysAreExact: the marker is read as JSON.parse reads it: a key
// in another case ("Blobs", "IDS") is not the key, and a marker that does
// not read is a problem (named with its line), never a guess.
func TestMarkerKeysAreExact(t *testing.T) {
	m := strings.Replace(marker(base+"\n", false, "p1"), `"ids":`, `"Blobs":["/etc/passwd"],"ids":`, 1)
	p, _ := restore(t, base+"\n"+m+"\n"+ours+"\n")
	if p.Markers != 1 || len(p.Blobs) != 0 || !p.Exact {
		t.Fatalf("markers %d blobs %v exact %v", p.Markers, p.Blobs, p.Exact)
	}
	bad := strings.Replace(marker(base+"\n", false, "p1"), `"baseBytes":`, `"BaseBytes":`, 1)
	p, _ = restore(t, base+"\n"+bad+"\n"+ours+"\n")
	if p.Markers != 0 || len(p.Problems) == 0 || !strings.Contains(p.Problems[0], "line 4: unreadable pruner-write marker: baseBytes") {
		t.Fatalf("markers %d problems %q", p.Markers, p.Problems)
	}
}
