// Package checkgen writes synthetic pi sessions (format v3) for `pruner
// check` benchmarks and tests: a header, then user turns of assistant tool
// calls (read, bash, write, edit, grep) and their tool results of varied size,
// chained by parentId. Output is deterministic for a seed. About one session
// in ten contains one protected-path violation.
package checkgen

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Options shape the generated sessions.
type Options struct {
	Sessions int   // number of session files
	Turns    int   // user turns per session (default 12)
	Seed     int64 // random seed
}

var (
	paths    = []string{"src/main.go", "internal/app/server.go", "README.md", "docs/guide.md", "package.json", "web/src/App.tsx", "Makefile", "go.mod"}
	commands = []string{"go test ./...", "git status --short", "ls -la src", "grep -rn TODO internal | head -20", "cd web && npm run build 2>&1 | tail -5",
		"cat go.mod && go list -m all | wc -l", "find . -name '*.go' | xargs wc -l | sort -n | tail", "node -e 'console.log(process.env.HOME)'"}
	bad = []string{`{"path":".env"}`, `{"command":"cat ~/.pi/agent/auth.json"}`, `{"command":"echo x > node_modules/a.js"}`}
)

// Write generates the sessions under dir/--home-user-proj<N>--/ and returns
// the total bytes written.
func Write(dir string, o Options) (int64, error) {
	if o.Turns <= 0 {
		o.Turns = 12
	}
	r := rand.New(rand.NewPCG(uint64(o.Seed), 0x9e3779b97f4a7c15))
	var total int64
	for i := range o.Sessions {
		sub := filepath.Join(dir, fmt.Sprintf("--home-user-proj%d--", i%50))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return total, err
		}
		name := filepath.Join(sub, fmt.Sprintf("2026-01-01T00-00-%02d-000Z_%08x.jsonl", i%60, r.Uint32()))
		n, err := writeSession(name, i, o.Turns, r)
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

func writeSession(name string, idx, turns int, r *rand.Rand) (int64, error) {
	f, err := os.Create(name)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriter(f)
	var n int64
	line := func(format string, a ...any) {
		k, _ := fmt.Fprintf(w, format, a...)
		n += int64(k)
		w.WriteByte('\n')
		n++
	}
	line(`{"type":"session","version":3,"id":"sess-%d","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/home/user/proj%d"}`, idx, idx%50)
	parent := "null"
	id := 0
	next := func() (string, string) {
		id++
		cur := fmt.Sprintf("%08x", idx*100000+id)
		p := parent
		parent = `"` + cur + `"`
		return cur, p
	}
	violate := idx%10 == 3
	for t := range turns {
		cur, p := next()
		line(`{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:01:00.000Z","message":{"role":"user","content":[{"type":"text","text":"turn %d: please look at the code and fix the failing test"}],"timestamp":1}}`, cur, p, t)
		calls := 1 + r.IntN(4)
		for c := range calls {
			callID := fmt.Sprintf("toolu_%d_%d_%d", idx, t, c)
			tool, args := pick(r)
			if violate && t == turns/2 && c == 0 {
				b := bad[idx%len(bad)]
				tool = map[bool]string{true: "read", false: "bash"}[strings.Contains(b, `"path"`)]
				args = b
			}
			cur, p = next()
			line(`{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:01:01.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"%s","thinkingSignature":"sig"},{"type":"toolCall","id":"%s","name":"%s","arguments":%s}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":1200,"output":80,"cacheRead":30000,"cacheWrite":500,"totalTokens":31780,"cost":{"input":0.001,"output":0.001,"cacheRead":0.001,"cacheWrite":0.001,"total":0.004}},"stopReason":"toolUse","timestamp":2}}`,
				cur, p, filler(r, 80+r.IntN(400)), callID, tool, args)
			cur, p = next()
			size := 200 + r.IntN(3000)
			if r.IntN(8) == 0 {
				size = 10000 + r.IntN(40000)
			}
			line(`{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:01:02.000Z","message":{"role":"toolResult","toolCallId":"%s","toolName":"%s","content":[{"type":"text","text":"%s"}],"isError":false,"timestamp":3}}`,
				cur, p, callID, tool, filler(r, size))
		}
		cur, p = next()
		line(`{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:01:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"%s"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":4}}`,
			cur, p, filler(r, 100+r.IntN(600)))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return n, err
	}
	return n, f.Close()
}

func pick(r *rand.Rand) (string, string) {
	switch r.IntN(5) {
	case 0, 1:
		return "read", fmt.Sprintf(`{"path":"%s"}`, paths[r.IntN(len(paths))])
	case 2:
		return "bash", fmt.Sprintf(`{"command":%q}`, commands[r.IntN(len(commands))])
	case 3:
		return "edit", fmt.Sprintf(`{"path":"%s","oldText":"a","newText":"b"}`, paths[r.IntN(len(paths))])
	default:
		return "write", fmt.Sprintf(`{"path":"out/gen_%d.go","content":"package out\n"}`, r.IntN(100))
	}
}

const words = "func return error value context session result package import string buffer reader writer check protect path rule"

// filler returns n bytes of JSON-safe text.
func filler(r *rand.Rand, n int) string {
	ws := strings.Fields(words)
	var b strings.Builder
	b.Grow(n + 16)
	for b.Len() < n {
		b.WriteString(ws[r.IntN(len(ws))])
		if r.IntN(12) == 0 {
			b.WriteString(`\n`)
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}
