package restore

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzRestore: whatever the session's bytes (bad lines, no final newline,
// odd ids), a pruner write appended to them is removed byte for byte.
func FuzzRestore(f *testing.F) {
	f.Add(base+"\n", false)
	f.Add(base, true)
	f.Add("not json\n{\"type\":\"x\"}", true)
	f.Fuzz(func(t *testing.T, baseText string, _ bool) {
		if strings.Contains(baseText, "pruner-write") {
			return // a marker inside the base is a different file
		}
		nl := len(baseText) > 0 && !strings.HasSuffix(baseText, "\n")
		file := baseText
		if nl {
			file += "\n"
		}
		file += marker(baseText, nl, "p1", "p2") + "\n" + ours
		p, err := Analyze(strings.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := p.Write(&out); err != nil {
			t.Fatal(err)
		}
		if out.String() != baseText || !p.Exact {
			t.Fatalf("restore gave %q for %q (exact %v)", out.String(), baseText, p.Exact)
		}
	})
}
