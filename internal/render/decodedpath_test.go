package render

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// readPath is what recordProtected read before decodedPath: the record's
// arguments read again, then jsval.Get(args, "path") and jsval.String.
func readPath(st *index.State, rec *index.Record) (path string, has bool, err error) {
	_, err = st.ViewRecordArgs(nil, rec, func(args []byte) {
		if v, ok := jsval.Get(args, "path"); ok {
			path, has = jsval.String(v)
		}
	})
	return path, has, err
}

// checkDecodedPaths flushes the session in b and checks, for every record
// of the flushed state, that decodedPath (when it answers) gives what
// reading the arguments gives. It returns how many records it answered.
func checkDecodedPaths(t testing.TB, name string, b []byte) (answered, records int) {
	t.Helper()
	ctx, err := session.Read(strings.NewReader(string(b)), strings.NewReader(string(b)), session.ReadOptions{Branch: true})
	if err != nil || ctx.Kind != session.KindSession {
		return 0, 0
	}
	st, err := index.Rebuild(ctx)
	if err != nil {
		return 0, 0
	}
	o := index.FlushOptions{Capture: index.CaptureOptions{RawFrom: -1}, Dedup: true, Chains: index.ChainOptions{Enabled: true}, Now: 1}
	f, err := index.Flush(t.Context(), ctx, st, o)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, k := range f.State.Keys() {
		rec, ok := f.State.Record(k)
		if !ok {
			continue
		}
		records++
		path, has, ok := decodedPath(f.State, rec)
		if !ok {
			continue
		}
		answered++
		want, wantHas, err := readPath(f.State, rec)
		if err != nil {
			t.Fatalf("%s: %s: decoded path %q, but its arguments are not read again: %v", name, k, path, err)
		}
		if has != wantHas || path != want {
			args, _ := f.State.RecordArgs(rec)
			t.Fatalf("%s: %s: decoded path %q (%v), its arguments %s give %q (%v)", name, k, path, has, args, want, wantHas)
		}
	}
	return answered, records
}

// TestDecodedPathMatchesTheArguments: on every session under testdata,
// the decoder's path of a flushed record's call is what its arguments
// hold, and most records are answered from it.
func TestDecodedPathMatchesTheArguments(t *testing.T) {
	var paths []string
	_ = filepath.WalkDir("../../testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) < 50 {
		t.Fatalf("only %d sessions", len(paths))
	}
	answered, records := 0, 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		a, r := checkDecodedPaths(t, p, b)
		answered, records = answered+a, records+r
	}
	if records == 0 || answered*2 < records {
		t.Fatalf("%d of %d records answered from the decoder", answered, records)
	}
}

// callSession is a session with one assistant message holding blocks
// (toolCall blocks, raw), a result for each of ids, and a few turns after.
func callSession(ids []string, blocks ...string) []byte {
	var lines []string
	lines = append(lines, `{"type":"session","version":3,"id":"sess","timestamp":"2026-12-01T00:00:00.000Z","cwd":"/p"}`)
	n := 0
	msg := func(m string) {
		n++
		p := "null"
		if n > 1 {
			p = fmt.Sprintf(`"e%03d"`, n-1)
		}
		lines = append(lines, fmt.Sprintf(`{"type":"message","message":%s,"id":"e%03d","parentId":%s,"timestamp":"2026-12-01T00:00:00.000Z"}`, m, n, p))
	}
	msg(`{"role":"user","content":[{"type":"text","text":"go"}],"timestamp":1}`)
	msg(`{"role":"assistant","content":[` + strings.Join(blocks, ",") + `],"stopReason":"toolUse","timestamp":2}`)
	big := strings.Repeat("result text ", 400)
	for i, id := range ids {
		msg(fmt.Sprintf(`{"role":"toolResult","toolCallId":%q,"toolName":"read","content":[{"type":"text","text":%q}],"isError":false,"timestamp":%d}`, id, big+id, 3+i))
	}
	for i := range 4 {
		msg(fmt.Sprintf(`{"role":"user","content":[{"type":"text","text":"next %d"}],"timestamp":%d}`, i, 100+2*i))
		msg(fmt.Sprintf(`{"role":"assistant","content":[{"type":"text","text":"ok %d"}],"stopReason":"stop","timestamp":%d}`, i, 101+2*i))
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// pathCases are toolCall blocks whose path the decoder and a re-read of
// the arguments might see differently.
var pathCases = []string{
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a.txt"}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a.txt","path":"b/.env"}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"b/.env","path":7}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":7,"path":"b/.env"}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a\/b\\c\u0041\n\u00e9\ud83d\ude00"}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"p\u0061th":"x.env"}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"x","p\u0061th":"y"}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":null}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":{"path":"x"}}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":["x"]}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"opts":{"path":"nested"}}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":["path","x"]}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":"path"}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{ "path" : "spaced" , "n" : 1.50 }}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"\ud800lone"}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"bad` + "\xff\xfe" + `bytes"}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"` + "\uFFFD" + `"}}`,
	`{"type":"toolCall","id":"c1","name":"read","input":{"path":"in"},"arguments":{"path":"args"}}`,
	`{"type":"toolCall","id":"c1","name":"read","input":null,"arguments":{"path":"args"}}`,
	`{"type":"toolCall","id":"c1","name":"read","args":{"path":"a2"},"arguments":{"path":"args"}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"one"},"arguments":{"path":"two"}}`,
	`{"type":"toolCall","id":"c1","name":"read","argument\u0073":{"path":"esc"}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"first"}},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"second"}}`,
	`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"x"}},{"type":"tool_use","id":"c1","name":"read","input":{"path":"y"}}`,
	`{"type":"toolCall","id":"c\u0031","name":"read","arguments":{"path":"escid"}}`,
	`{"type":"toolCall","id":"c1","type":"text","name":"read","arguments":{"path":"x"}}`,
}

// TestDecodedPathCases: the cases where the decoder's reading and the
// arguments' might differ give what the arguments give (or fall back).
func TestDecodedPathCases(t *testing.T) {
	answered := 0
	for i, c := range pathCases {
		a, _ := checkDecodedPaths(t, fmt.Sprintf("case %d %s", i, c), callSession([]string{"c1"}, c))
		answered += a
	}
	if answered < len(pathCases)/2 {
		t.Fatalf("only %d of %d cases answered from the decoder", answered, len(pathCases))
	}
}

// FuzzDecodedPath: a toolCall block with arbitrary arguments (and extra
// members) gives the same path from the decoder as from its arguments.
func FuzzDecodedPath(f *testing.F) {
	f.Add(`{"path":"a"}`, ``)
	f.Add(`{"path":"a","path":"b"}`, `,"input":{"path":"c"}`)
	f.Add(`{"p\u0061th":"\ud800"}`, `,"arguments":{"path":"d"}`)
	f.Add(`{"path":7}`, `,"args":null`)
	f.Fuzz(func(t *testing.T, args, extra string) {
		if strings.ContainsAny(args+extra, "\n\r") {
			return
		}
		block := `{"type":"toolCall","id":"c1","name":"read","arguments":` + args + extra + `}`
		checkDecodedPaths(t, "fuzz", callSession([]string{"c1"}, block))
	})
}
