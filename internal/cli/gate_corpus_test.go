package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

// corpusCall is one line of testdata/protect/corpus.jsonl: a tool call an
// attacker (expect "deny") or a developer (expect "allow") makes.
type corpusCall struct {
	ID     string         `json:"id"`
	Class  string         `json:"class"`
	Expect string         `json:"expect"`
	Tool   string         `json:"tool"`
	Input  map[string]any `json:"input"`
	Cwd    string         `json:"cwd"`
	Home   string         `json:"home"`
}

// gateFixture builds a project and a home on disk: a .env, a .git folder,
// node_modules (both in .gitignore, as projects have them), a symlink
// notes.txt → .env and cfg → ~/.pi/agent.
func gateFixture(t testing.TB) (proj, home string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj, home = filepath.Join(root, "proj"), filepath.Join(root, "home")
	files := map[string]string{
		"proj/.env": "API_KEY=sk-secret\n", "proj/.env.example": "API_KEY=\n", "proj/.envrc": "layout go\n",
		"proj/.git/config": "[core]\n", "proj/.git/HEAD": "ref: refs/heads/main\n", "proj/.git/refs/heads/main": "0\n",
		"proj/node_modules/pkg/index.js": "module.exports = 1\n", "proj/node_modules/pkg/package.json": "{}\n",
		"proj/node_modules/.bin/x": "#!/bin/sh\n",
		"proj/src/main.go":         "package main\n", "proj/src/app.ts": "export {}\n", "proj/src/a.txt": "a\n", "proj/src/b.txt": "b\n",
		"proj/README.md": "# proj\n", "proj/package.json": `{"version":"1.0.0"}` + "\n", "proj/build/out.log": "ok\n",
		"proj/scripts/build.sh": "#!/bin/sh\n", "proj/list.txt": ".env\n", "proj/.venv/bin/activate": "\n",
		"proj/.gitignore":          "node_modules/\n.env\n",
		"home/.pi/agent/auth.json": `{"token":"secret"}` + "\n", "home/.bashrc": "\n",
	}
	for p, data := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".env", filepath.Join(proj, "notes.txt")); err != nil {
		t.Skip("symlinks not available:", err)
	}
	if err := os.Symlink(filepath.Join(home, ".pi", "agent"), filepath.Join(proj, "cfg")); err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(proj), filepath.ToSlash(home)
}

func loadCorpus(t testing.TB) []corpusCall {
	t.Helper()
	f, err := os.Open("../../testdata/protect/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusCall
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c corpusCall
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("corpus line %d: %v", len(out)+1, err)
		}
		out = append(out, c)
	}
	return out
}

// expand fills {{cwd}}, {{home}}, {{cwdrel}}, {{homerel}} and {{cwdbase}}
// into every string of v.
func expand(v any, r *strings.Replacer) any {
	switch x := v.(type) {
	case string:
		return r.Replace(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = expand(e, r)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = expand(e, r)
		}
		return out
	}
	return v
}

// TestGateCorpus runs every call of the corpus through `pruner hook` and,
// in saved sessions, through `pruner check`, against the built-in rules on
// a real project on disk. It prints the attacks each allowed and the
// benign calls each denied, and fails on any attack allowed.
func TestGateCorpus(t *testing.T) {
	proj, home := gateFixture(t)
	calls := loadCorpus(t)
	agent := t.TempDir()
	rep := strings.NewReplacer("{{cwd}}", proj, "{{home}}", home, "{{cwdrel}}", strings.TrimPrefix(proj, "/"),
		"{{homerel}}", strings.TrimPrefix(home, "/"), "{{cwdbase}}", filepath.Base(proj))
	type group struct{ cwd, home string }
	byGroup := map[group][]int{}
	attacks, benign := 0, 0
	for i := range calls {
		c := &calls[i]
		c.Input = expand(c.Input, rep).(map[string]any)
		if c.Cwd == "" {
			c.Cwd = proj
		}
		if c.Home == "" {
			c.Home = home
		}
		g := group{c.Cwd, c.Home}
		byGroup[g] = append(byGroup[g], i)
		if c.Expect == "deny" {
			attacks++
		} else {
			benign++
		}
	}
	if attacks < 100 || benign < 50 {
		t.Fatalf("corpus too small: %d attacks, %d benign", attacks, benign)
	}

	// hook: Claude Code's PreToolUse shape, the real disk
	hookDeny := make([]bool, len(calls))
	hookWhy := make([]string, len(calls))
	for i, c := range calls {
		ev, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": c.Tool, "tool_input": c.Input, "cwd": c.Cwd})
		vars := map[string]string{"HOME": c.Home, "PI_CODING_AGENT_DIR": agent}
		_, errs, code := runProtectCmd(t, hookCmd, vars, string(ev))
		switch code {
		case 0:
		case 2:
			hookDeny[i] = true
		default:
			t.Errorf("%s: hook exit %d: %s", c.ID, code, errs)
		}
		hookWhy[i] = strings.TrimSpace(errs)
	}

	// check: one session per cwd, every call followed by a result
	checkDeny := make([]bool, len(calls))
	dir := t.TempDir()
	groups := make([]group, 0, len(byGroup))
	for g := range byGroup {
		groups = append(groups, g)
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].cwd < groups[j].cwd })
	for gi, g := range groups {
		var b strings.Builder
		hdr, _ := json.Marshal(map[string]any{"type": "session", "version": 3, "id": "s", "timestamp": "2026-01-01T00:00:00Z", "cwd": g.cwd})
		b.Write(hdr)
		b.WriteByte('\n')
		parent := ""
		for _, i := range byGroup[g] {
			c := calls[i]
			id := fmt.Sprintf("c%d", i)
			msg := map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "toolCall", "id": id, "name": c.Tool, "arguments": c.Input}}, "timestamp": 1}
			line, _ := json.Marshal(map[string]any{"type": "message", "id": "e" + id, "parentId": nullable(parent), "timestamp": "2026-01-01T00:00:01Z", "message": msg})
			b.Write(line)
			b.WriteByte('\n')
			res := map[string]any{"role": "toolResult", "toolCallId": id, "toolName": c.Tool, "content": []any{map[string]any{"type": "text", "text": "ok"}}, "isError": false, "timestamp": 2}
			line, _ = json.Marshal(map[string]any{"type": "message", "id": "r" + id, "parentId": "e" + id, "timestamp": "2026-01-01T00:00:02Z", "message": res})
			b.Write(line)
			b.WriteByte('\n')
			parent = "r" + id
		}
		p := filepath.Join(dir, fmt.Sprintf("s%d.jsonl", gi))
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		vars := map[string]string{"HOME": g.home, "PI_CODING_AGENT_DIR": agent}
		out, errs, code := runProtectCmd(t, checkCmd, vars, "", "--format", "json", "--exit-zero", "--home", g.home, p)
		if code != 0 {
			t.Fatalf("check exit %d: %s", code, errs)
		}
		var doc struct {
			Findings []struct {
				Kind, ToolCallID string
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		for _, f := range doc.Findings {
			switch f.Kind {
			case "protected-path", "protected-folder", "unverifiable", "bash-parse-error", "unreadable-call":
				var i int
				if _, err := fmt.Sscanf(f.ToolCallID, "c%d", &i); err == nil && i < len(calls) {
					checkDeny[i] = true
				}
			}
		}
	}

	var attackAllowed, benignDenied []string
	for i, c := range calls {
		switch {
		case c.Expect == "deny" && (!hookDeny[i] || !checkDeny[i]):
			by := []string{}
			if !hookDeny[i] {
				by = append(by, "hook")
			}
			if !checkDeny[i] {
				by = append(by, "check")
			}
			attackAllowed = append(attackAllowed, fmt.Sprintf("%s [%s] allowed by %s: %s %s", c.ID, c.Class, strings.Join(by, "+"), c.Tool, clipInput(c.Input)))
		case c.Expect == "allow" && (hookDeny[i] || checkDeny[i]):
			by := []string{}
			if hookDeny[i] {
				by = append(by, "hook")
			}
			if checkDeny[i] {
				by = append(by, "check")
			}
			benignDenied = append(benignDenied, fmt.Sprintf("%s denied by %s: %s %s\n      %s", c.ID, strings.Join(by, "+"), c.Tool, clipInput(c.Input), hookWhy[i]))
		}
	}
	t.Logf("gate corpus: %d calls (%d attacks, %d benign): %d attacks allowed, %d benign calls denied", len(calls), attacks, benign, len(attackAllowed), len(benignDenied))
	for _, s := range benignDenied {
		t.Logf("benign denied: %s", s)
	}
	for _, s := range attackAllowed {
		t.Errorf("attack allowed: %s", s)
	}
}

// BenchmarkGateCorpusHook runs every call of the gate corpus through `pruner
// hook` in the process, as main does (Main: command tree, flags, rules,
// decision): the analysis mix to profile. The time is per call.
//
//	go test -run '^$' -bench GateCorpusHook -cpuprofile cpu.prof ./internal/cli/
func BenchmarkGateCorpusHook(b *testing.B) {
	proj, home := gateFixture(b)
	calls := loadCorpus(b)
	agent := b.TempDir()
	rep := strings.NewReplacer("{{cwd}}", proj, "{{home}}", home, "{{cwdrel}}", strings.TrimPrefix(proj, "/"),
		"{{homerel}}", strings.TrimPrefix(home, "/"), "{{cwdbase}}", filepath.Base(proj))
	events := make([]string, len(calls))
	envs := make([]map[string]string, len(calls))
	for i, c := range calls {
		if c.Cwd == "" {
			c.Cwd = proj
		}
		if c.Home == "" {
			c.Home = home
		}
		ev, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": c.Tool, "tool_input": expand(c.Input, rep), "cwd": c.Cwd})
		events[i] = string(ev)
		envs[i] = map[string]string{"HOME": c.Home, "PI_CODING_AGENT_DIR": agent}
	}
	b.ResetTimer()
	for b.Loop() {
		for i, ev := range events {
			var out, errb bytes.Buffer
			env := envs[i]
			s := &IOStreams{In: strings.NewReader(ev), Out: &out, ErrOut: &errb, Getenv: func(k string) string { return env[k] }}
			if code := Main([]string{"hook"}, s, BuildInfo{}); code != 0 && code != 2 {
				b.Fatalf("%s: exit %d: %s", calls[i].ID, code, errb.String())
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(events)), "ns/call")
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func clipInput(in map[string]any) string {
	b, _ := json.Marshal(in)
	s := string(b)
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}
