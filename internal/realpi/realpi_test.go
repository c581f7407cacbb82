//go:build realpi

// The real-pi integration test: pruner's pi extensions (extensions/) inside
// the real pi 1.6.0 from npm, driven offline with a scripted model. Run it
// with `make realpi` (go test -tags realpi ./internal/realpi/). Where npm or
// its registry cannot be reached it skips, saying that it did not run;
// PRUNER_REALPI_REQUIRE=1 turns that skip into a failure.
package realpi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	secret     = "sk-FAKE-SECRET-7f3a9c0d"
	runTimeout = 120 * time.Second
)

var env struct {
	once   sync.Once
	pi     *Install
	pruner string // the pruner binary built from this module
	tmp    string
	err    error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if env.tmp != "" {
		os.RemoveAll(env.tmp)
	}
	os.Exit(code)
}

// setup installs (or finds cached) pi and builds pruner, once.
func setup(t *testing.T) {
	t.Helper()
	env.once.Do(func() {
		cache, err := DefaultCacheDir()
		if err != nil {
			env.err = err
			return
		}
		if env.pi, env.err = Ensure(context.Background(), cache, t.Logf); env.err != nil {
			return
		}
		if env.tmp, env.err = os.MkdirTemp("", "pruner-realpi-"); env.err != nil {
			return
		}
		env.pruner = filepath.Join(env.tmp, "bin", "pruner")
		out, err := exec.Command("go", "build", "-o", env.pruner, "../../cmd/pruner").CombinedOutput()
		if err != nil {
			env.err = fmt.Errorf("go build pruner: %v\n%s", err, out)
		}
	})
	if env.err != nil {
		if errors.Is(env.err, ErrUnavailable) {
			if os.Getenv("PRUNER_REALPI_REQUIRE") != "" {
				t.Fatalf("real-pi integration test cannot run (PRUNER_REALPI_REQUIRE is set): %v", env.err)
			}
			t.Skipf("DID NOT RUN: the real-pi integration test needs npm and its registry: %v", env.err)
		}
		t.Fatal(env.err)
	}
}

// newWorld serves scenario s on 127.0.0.1 and lays out a world for pi.
func newWorld(t *testing.T, s Scenario) (*World, *Model) {
	t.Helper()
	setup(t)
	m := NewModel(s)
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	w, err := NewWorld(t.TempDir(), env.pi, srv.URL+"/v1")
	if err != nil {
		t.Fatal(err)
	}
	if keep := os.Getenv("PRUNER_REALPI_KEEP"); keep != "" {
		// keep the request bodies for a look: PRUNER_REALPI_KEEP=DIR
		t.Cleanup(func() {
			dir := filepath.Join(keep, strings.ReplaceAll(t.Name(), "/", "_"))
			os.MkdirAll(dir, 0o755)
			for _, r := range m.Requests() {
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("req-%02d-%s.json", r.N, r.Route)), r.Body, 0o644)
			}
		})
	}
	return w, m
}

// installExtension copies extensions/<name>.ts to dir as pruner-<name>.ts.
func installExtension(t *testing.T, dir, name string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "extensions", name+".ts"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pruner-"+name+".ts"), src, 0o644); err != nil {
		t.Fatal(err)
	}
}

func runPi(t *testing.T, w *World, args ...string) *Result {
	t.Helper()
	r, err := w.Run(context.Background(), runTimeout, args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pi %s: exit %d in %s", strings.Join(args, " "), r.ExitCode, r.Elapsed.Round(time.Millisecond))
	if os.Getenv("PRUNER_REALPI_VERBOSE") != "" {
		t.Logf("stderr:\n%s\nstdout:\n%s", r.Stderr, r.Stdout)
	}
	if r.ExitCode != 0 {
		t.Fatalf("pi %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.ExitCode, r.Stdout, r.Stderr)
	}
	return r
}

// decoded is one recorded request with its messages kept raw as well.
type decoded struct {
	Request
	msgs []WireMessage
	raw  []json.RawMessage // each message's bytes as pi sent them
}

func decode(t *testing.T, reqs []Request) []decoded {
	t.Helper()
	var out []decoded
	for _, r := range reqs {
		var body struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatalf("request %d: %v", r.N, err)
		}
		d := decoded{Request: r, raw: body.Messages}
		for _, m := range body.Messages {
			var wm WireMessage
			if err := json.Unmarshal(m, &wm); err != nil {
				t.Fatalf("request %d: %v", r.N, err)
			}
			d.msgs = append(d.msgs, wm)
		}
		out = append(out, d)
	}
	return out
}

// checkPairing: every toolCall has exactly one result, after it, and every
// result answers a call (what providers reject otherwise).
func checkPairing(t *testing.T, d decoded) {
	t.Helper()
	calls := map[string]int{}
	results := map[string]int{}
	for i, m := range d.msgs {
		for _, c := range m.ToolCalls {
			if _, dup := calls[c.ID]; dup {
				t.Errorf("request %d: tool call %s twice", d.N, c.ID)
			}
			calls[c.ID] = i
		}
		if m.Role == "tool" {
			ci, ok := calls[m.ToolCallID]
			if !ok {
				t.Errorf("request %d: message %d answers unknown (or later) tool call %q", d.N, i, m.ToolCallID)
			} else if ci >= i {
				t.Errorf("request %d: result before its call %s", d.N, m.ToolCallID)
			}
			results[m.ToolCallID]++
		}
	}
	for id := range calls {
		if results[id] != 1 {
			t.Errorf("request %d: tool call %s has %d results", d.N, id, results[id])
		}
	}
}

// toolResult returns the text of the result of the call with id, or "".
func (d decoded) toolResult(id string) (string, bool) {
	for _, m := range d.msgs {
		if m.Role == "tool" && m.ToolCallID == id {
			return m.Text(), true
		}
	}
	return "", false
}

func protectScenario() Scenario {
	return Scenario{Turns: []Turn{{
		Prompt: "Look at the project config and notes, then summarize.",
		Steps: []Step{
			{Text: "Reading the env file first.", Calls: []Call{{Name: "read", Args: map[string]any{"path": ".env"}}}},
			{Calls: []Call{{Name: "bash", Args: map[string]any{"command": "cat .env"}}}},
			{Calls: []Call{{Name: "read", Args: map[string]any{"path": "notes.txt"}}}},
			{Text: "Summary: the build uses make; .env is protected."},
		},
	}}}
}

func protectWorld(t *testing.T) (*World, *Model) {
	w, m := newWorld(t, protectScenario())
	if err := w.WriteFile("proj/.env", "API_KEY="+secret+"\n"); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile("proj/notes.txt", "Build with make. Tests: make test.\n"); err != nil {
		t.Fatal(err)
	}
	return w, m
}

func leaks(reqs []Request) int {
	n := 0
	for _, r := range reqs {
		if bytes.Contains(r.Body, []byte(secret)) {
			n++
		}
	}
	return n
}

// TestRealPiProtect: extensions/protect.ts in the global extensions dir
// denies a read of .env and `cat .env`; the secret reaches no request, also
// with project settings that list other rules.
func TestRealPiProtect(t *testing.T) {
	w, m := protectWorld(t)
	installExtension(t, filepath.Join(w.AgentDir, "extensions"), "protect")
	w.Env["PATH"] = filepath.Dir(env.pruner) + ":" + filepath.Dir(env.pi.Node) + ":/usr/local/bin:/usr/bin:/bin" // pruner found on PATH
	// An (untrusted) project's settings cannot weaken the rules: its
	// protectedPathRules only add to the built-in ones.
	if err := w.WriteFile("proj/.pi/settings.json", `{"contextPrune": {"protectedPathRules": {"paths": [{"path": "other.txt", "deny": ["read"]}]}}}`); err != nil {
		t.Fatal(err)
	}
	r := runPi(t, w, "-p", protectScenario().Turns[0].Prompt)
	reqs := m.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (one per step)\nstderr: %s", len(reqs), r.Stderr)
	}
	if n := leaks(reqs); n != 0 {
		t.Fatalf("the secret reached %d of %d requests", n, len(reqs))
	}
	ds := decode(t, reqs)
	last := ds[len(ds)-1]
	checkPairing(t, last)
	for id, want := range map[string]string{
		"call_turn1_step1_0": `read of protected path ".env"`,
		"call_turn1_step2_0": `bash command touches protected path ".env"`,
		"call_turn1_step3_0": "Build with make.",
	} {
		got, ok := last.toolResult(id)
		if !ok || !strings.Contains(got, want) {
			t.Errorf("result of %s = %q, want it to contain %q", id, got, want)
		}
	}
	if strings.Contains(r.Stderr, "pruner-protect:") {
		t.Errorf("a working set-up reported a failure: %s", r.Stderr)
	}
}

// TestRealPiProtectProjectExtensionUntrusted: pi's trust rule, as
// docs/pi-extensions.md states it. The same extension in the project's
// .pi/extensions/ does nothing in print mode while the project is not
// trusted (the secret is read and sent); with --approve it works.
func TestRealPiProtectProjectExtensionUntrusted(t *testing.T) {
	w, m := protectWorld(t)
	installExtension(t, filepath.Join(w.Project, ".pi", "extensions"), "protect")
	w.Env["PRUNER_BIN"] = env.pruner
	runPi(t, w, "-p", protectScenario().Turns[0].Prompt)
	if n := leaks(m.Requests()); n == 0 {
		t.Fatal("untrusted project extension blocked the read: pi's trust rule changed; update docs/pi-extensions.md")
	}

	w2, m2 := protectWorld(t)
	installExtension(t, filepath.Join(w2.Project, ".pi", "extensions"), "protect")
	w2.Env["PRUNER_BIN"] = env.pruner
	runPi(t, w2, "--approve", "-p", protectScenario().Turns[0].Prompt)
	if n := leaks(m2.Requests()); n != 0 {
		t.Fatalf("trusted (--approve) project extension: the secret reached %d requests", n)
	}
}

// brokenPruners are the ways pruner can fail an extension: not installed,
// failing, and printing garbage.
var brokenPruners = []struct{ name, script string }{
	{"missing", ""},
	{"failing", "#!/bin/sh\necho 'pruner: something broke' >&2\nexit 3\n"},
	{"garbage", "#!/bin/sh\ncat >/dev/null\necho 'not json'\n"},
}

// brokenPruner returns a PRUNER_BIN for case c.
func brokenPruner(t *testing.T, w *World, script string) string {
	p := filepath.Join(w.Root, "no-such-pruner")
	if script != "" {
		p = filepath.Join(w.Root, "broken-pruner")
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestRealPiProtectBrokenPruner: when pruner is missing, fails, its
// settings do not load or its hook rejects the command line, every call is
// blocked (fail closed) and the user is told once on stderr in print mode,
// not only the model.
func TestRealPiProtectBrokenPruner(t *testing.T) {
	cases := []struct{ name, script, settings, want string }{
		{name: "missing", want: "pruner-protect: cannot run"},
		{name: "failing", script: brokenPruners[1].script, want: "config failed: pruner: something broke"},
		{name: "broken settings", settings: `{"contextPrune": {"protectedPathRules": {"paths": []}}}`, want: "config failed: pruner: "},
		// a pruner whose hook does not know a flag: exit 2 like a deny, but no verdict
		{name: "usage error", script: "#!/bin/sh\n[ \"$1\" = config ] && exit 0\ncat >/dev/null\necho 'Error: unknown flag: --fail-closed' >&2\nexit 2\n",
			want: "pruner-protect: Error: unknown flag: --fail-closed; tool calls are blocked"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, m := protectWorld(t)
			installExtension(t, filepath.Join(w.AgentDir, "extensions"), "protect")
			w.Env["PRUNER_BIN"] = env.pruner
			if c.settings != "" {
				if err := w.WriteFile("home/.pi/agent/settings.json", c.settings); err != nil {
					t.Fatal(err)
				}
			} else {
				w.Env["PRUNER_BIN"] = brokenPruner(t, w, c.script)
			}
			r := runPi(t, w, "-p", protectScenario().Turns[0].Prompt)
			reqs := m.Requests()
			if n := leaks(reqs); n != 0 {
				t.Fatalf("the secret reached %d requests", n)
			}
			if n := strings.Count(r.Stderr, "pruner-protect:"); n != 1 || !strings.Contains(r.Stderr, c.want) {
				t.Fatalf("stderr tells the user %d times, want once with %q:\n%s", n, c.want, r.Stderr)
			}
			if c.name == "missing" && !strings.Contains(r.Stderr, "PRUNER_BIN=") {
				t.Errorf("stderr does not name PRUNER_BIN: %s", r.Stderr)
			}
			ds := decode(t, reqs)
			last := ds[len(ds)-1]
			checkPairing(t, last)
			if got, _ := last.toolResult("call_turn1_step3_0"); strings.Contains(got, "Build with make") {
				t.Errorf("notes.txt was read although pruner is broken: %q", got)
			}
		})
	}
}

// TestRealPiProtectBadPruningSetting: a bad pruning setting breaks
// `pruner config` but not the gate: the user is told once that pruning
// settings are broken, .env stays denied and other calls run.
func TestRealPiProtectBadPruningSetting(t *testing.T) {
	w, m := protectWorld(t)
	installExtension(t, filepath.Join(w.AgentDir, "extensions"), "protect")
	w.Env["PRUNER_BIN"] = env.pruner
	if err := w.WriteFile("home/.pi/agent/settings.json", `{"contextPrune": {"maxRetainedChars": "lots"}}`); err != nil {
		t.Fatal(err)
	}
	r := runPi(t, w, "-p", protectScenario().Turns[0].Prompt)
	reqs := m.Requests()
	if n := leaks(reqs); n != 0 {
		t.Fatalf("the secret reached %d requests", n)
	}
	want := "maxRetainedChars: want a whole number ≥ 0, got \"lots\"; pruning settings are broken; tool calls are still checked"
	if n := strings.Count(r.Stderr, "pruner-protect:"); n != 1 || !strings.Contains(r.Stderr, want) {
		t.Fatalf("stderr tells the user %d times, want once with %q:\n%s", n, want, r.Stderr)
	}
	ds := decode(t, reqs)
	last := ds[len(ds)-1]
	checkPairing(t, last)
	if got, _ := last.toolResult("call_turn1_step3_0"); !strings.Contains(got, "Build with make") {
		t.Errorf("notes.txt was not read although the gate loads: %q", got)
	}
}

// TestRealPiProtectReplacedDefaults: global protectedPathRules replace the
// built-in rules; pruner hook cannot say so (its stderr is the model's
// reason), so protect tells the user once at start-up, with pruner's
// warning and the hint that prints the dropped rules. The gate still works.
func TestRealPiProtectReplacedDefaults(t *testing.T) {
	w, m := protectWorld(t)
	installExtension(t, filepath.Join(w.AgentDir, "extensions"), "protect")
	w.Env["PRUNER_BIN"] = env.pruner
	if err := w.WriteFile("home/.pi/agent/settings.json", `{"contextPrune": {"protectedPathRules": [{"path": ".env", "deny": ["read", "bash"]}]}}`); err != nil {
		t.Fatal(err)
	}
	r := runPi(t, w, "-p", protectScenario().Turns[0].Prompt)
	if n := leaks(m.Requests()); n != 0 {
		t.Fatalf("the secret reached %d requests", n)
	}
	want := "contextPrune.protectedPathRules replaces the built-in deny rules: no longer applied: .env (write,edit), .git/ (read,write,edit)"
	hint := `add these entries to it: {"path":".env","deny":["write","edit"]}, {"path":".git/","deny":["read","write","edit"]}`
	if n := strings.Count(r.Stderr, "replaces the built-in deny rules"); n != 1 || !strings.Contains(r.Stderr, "pruner-protect: ") ||
		!strings.Contains(r.Stderr, want) || !strings.Contains(r.Stderr, hint) {
		t.Fatalf("stderr tells the user %d times, want once with %q and %q:\n%s", n, want, hint, r.Stderr)
	}
}

// TestRealPiBrokenPrunerRPC: in rpc mode (a UI: ctx.hasUI) both extensions
// tell the user through the UI — one notify request each — and nothing on
// stderr; protect still blocks every call.
func TestRealPiBrokenPrunerRPC(t *testing.T) {
	w, m := protectWorld(t)
	installExtension(t, filepath.Join(w.AgentDir, "extensions"), "protect")
	installExtension(t, filepath.Join(w.AgentDir, "extensions"), "prune")
	w.Env["PRUNER_BIN"] = filepath.Join(w.Root, "no-such-pruner")
	events, r, err := w.RunRPC(context.Background(), runTimeout, protectScenario().Turns[0].Prompt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pi --mode rpc: %d events in %s", len(events), r.Elapsed.Round(time.Millisecond))
	notes := map[string]int{}
	for _, ev := range events {
		if ev["type"] != "extension_ui_request" || ev["method"] != "notify" {
			continue
		}
		msg, _ := ev["message"].(string)
		if ev["notifyType"] != "error" {
			t.Errorf("notify %q has type %v, want error", msg, ev["notifyType"])
		}
		for _, p := range []string{"pruner-protect: cannot run", "pruner-prune: cannot prune"} {
			if strings.HasPrefix(msg, p) {
				notes[p]++
			}
		}
	}
	if notes["pruner-protect: cannot run"] != 1 || notes["pruner-prune: cannot prune"] != 1 {
		t.Fatalf("UI notifications %v, want one from each extension; events:\n%v", notes, events)
	}
	if strings.Contains(r.Stderr, "pruner-") {
		t.Errorf("rpc mode wrote to stderr: %s", r.Stderr)
	}
	if n := leaks(m.Requests()); n != 0 {
		t.Fatalf("the secret reached %d requests", n)
	}
}

func pruneScenario() Scenario {
	return Scenario{Turns: []Turn{
		{Prompt: "Turn one: count to 5000.", Steps: []Step{
			{Calls: []Call{{Name: "bash", Args: map[string]any{"command": "seq 1 5000"}}}},
			{Calls: []Call{{Name: "bash", Args: map[string]any{"command": "seq 1 3000; exit 3"}}}},
			{Text: "Turn one done."},
		}},
		{Prompt: "Turn two: read the big file.", Steps: []Step{
			{Calls: []Call{{Name: "read", Args: map[string]any{"path": "big.txt"}}}},
			{Calls: []Call{{Name: "bash", Args: map[string]any{"command": "echo small"}}}},
			{Text: "Turn two done."},
		}},
		{Prompt: "Turn three: small check.", Steps: []Step{
			{Calls: []Call{{Name: "bash", Args: map[string]any{"command": "echo small"}}}},
			{Text: "Turn three done."},
		}},
	}}
}

func pruneWorld(t *testing.T) (*World, *Model) {
	w, m := newWorld(t, pruneScenario())
	var big strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&big, "line %04d of the big file, padded to be long enough to matter\n", i)
	}
	if err := w.WriteFile("proj/big.txt", big.String()); err != nil {
		t.Fatal(err)
	}
	// pruner reads the same settings.json as pi: keep only the last turn raw.
	if err := w.WriteFile("home/.pi/agent/settings.json", `{"contextPrune": {"recentTurnsToKeep": 1, "maxRetainedChars": 2000}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	return w, m
}

// TestRealPiPrune: extensions/prune.ts over three pi processes (-p, then
// -c -p twice). Results of turns outside the window arrive as pruner's
// notices, every toolCall keeps its result, and the pruned part of the
// prompt is byte-identical from one request to the next, across processes.
func TestRealPiPrune(t *testing.T) {
	w, m := pruneWorld(t)
	installExtension(t, filepath.Join(w.AgentDir, "extensions"), "prune")
	w.Env["PRUNER_BIN"] = env.pruner
	sc := pruneScenario()
	var stderr []string
	for i, turn := range sc.Turns {
		args := []string{"-p", turn.Prompt}
		if i > 0 {
			args = append([]string{"-c"}, args...)
		}
		stderr = append(stderr, runPi(t, w, args...).Stderr)
	}
	for i, s := range stderr {
		if strings.Contains(s, "pruner-prune:") {
			t.Errorf("process %d reported a problem: %s", i+1, s)
		}
	}
	ds := decode(t, m.Requests())
	if len(ds) != 8 {
		t.Fatalf("%d requests, want 8", len(ds))
	}
	for _, d := range ds {
		checkPairing(t, d)
	}
	turnOf := func(d decoded) string { return strings.SplitN(d.Route, ".", 2)[0] }
	for _, d := range ds {
		seq, _ := d.toolResult("call_turn1_step1_0")
		failed, _ := d.toolResult("call_turn1_step2_0")
		bigRead, haveBig := d.toolResult("call_turn2_step1_0")
		switch turnOf(d) {
		case "turn1": // the current turn: raw
			if d.Route != "turn1.step1" && !strings.Contains(seq, "\n5000") {
				t.Errorf("request %d (%s): turn-1 result not raw: %.80q", d.N, d.Route, seq)
			}
		case "turn2", "turn3":
			if !strings.HasPrefix(seq, "[pruner: pruned bash result] ") || strings.Contains(seq, "\n4999") {
				t.Errorf("request %d (%s): seq 5000 result is not pruner's notice: %.200q", d.N, d.Route, seq)
			}
			if !strings.Contains(failed, "[pruner:") || len(failed) > 2500 {
				t.Errorf("request %d (%s): failed result not excerpted (%d chars): %.200q", d.N, d.Route, len(failed), failed)
			}
		}
		if turnOf(d) == "turn3" && haveBig && !strings.HasPrefix(bigRead, "[pruner: pruned read result] ") {
			t.Errorf("request %d (%s): big read result is not pruner's notice: %.200q", d.N, d.Route, bigRead)
		}
	}
	// Prompt-cache stability: everything up to the last pruned message of a
	// request is byte-identical in the next request.
	for i := 0; i+1 < len(ds); i++ {
		a, b := ds[i], ds[i+1]
		k := -1
		for j, raw := range a.raw {
			if bytes.Contains(raw, []byte("[pruner: ")) {
				k = j
			}
		}
		if k < 0 {
			continue
		}
		if len(b.raw) <= k {
			t.Fatalf("request %d has fewer messages than %d", b.N, a.N)
		}
		for j := 0; j <= k; j++ {
			if !bytes.Equal(a.raw[j], b.raw[j]) {
				t.Errorf("requests %d -> %d (%s -> %s): message %d changed:\n%.300s\n%.300s", a.N, b.N, a.Route, b.Route, j, a.raw[j], b.raw[j])
			}
		}
	}
	// The session file keeps the raw results: the extension prunes the
	// request only.
	sessions, err := w.Sessions()
	if err != nil || len(sessions) != 1 {
		t.Fatalf("sessions: %v %v", sessions, err)
	}
	sb, err := os.ReadFile(sessions[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(sb, []byte(`\n5000`)) || bytes.Contains(sb, []byte("[pruner: ")) {
		t.Error("the session file lost a raw result or holds a notice")
	}
	t.Logf("last request: %d bytes", len(ds[len(ds)-1].Body))
}

// TestRealPiPruneBrokenPruner: when pruner is missing, fails or prints
// garbage, the messages go to the model unchanged (fail open) and each pi
// process tells the user once.
func TestRealPiPruneBrokenPruner(t *testing.T) {
	for _, c := range brokenPruners {
		t.Run(c.name, func(t *testing.T) {
			w, m := pruneWorld(t)
			installExtension(t, filepath.Join(w.AgentDir, "extensions"), "prune")
			w.Env["PRUNER_BIN"] = brokenPruner(t, w, c.script)
			sc := pruneScenario()
			r1 := runPi(t, w, "-p", sc.Turns[0].Prompt)
			r2 := runPi(t, w, "-c", "-p", sc.Turns[1].Prompt)
			for i, r := range []*Result{r1, r2} {
				if n := strings.Count(r.Stderr, "pruner-prune:"); n != 1 || !strings.Contains(r.Stderr, "messages are sent unpruned") {
					t.Errorf("process %d tells the user %d times, want once:\n%s", i+1, n, r.Stderr)
				}
			}
			ds := decode(t, m.Requests())
			last := ds[len(ds)-1]
			checkPairing(t, last)
			if seq, _ := last.toolResult("call_turn1_step1_0"); !strings.Contains(seq, "\n5000") || strings.Contains(seq, "[pruner:") {
				t.Errorf("turn-1 result changed without pruner: %.200q", seq)
			}
			t.Logf("last request unpruned: %d bytes", len(last.Body))
		})
	}
}

// TestRealPiExtensionsTypeCheck: both extensions type-check (tsc --strict)
// against the .d.ts of the pi package they run in.
func TestRealPiExtensionsTypeCheck(t *testing.T) {
	setup(t)
	nm := filepath.Join(env.pi.Dir, "node_modules")
	abs, err := filepath.Abs(filepath.Join("..", "..", "extensions"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{
		"compilerOptions": map[string]any{
			"strict": true, "noEmit": true, "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022",
			"skipLibCheck": true, "types": []string{"node"}, "typeRoots": []string{filepath.Join(nm, "@types")},
			"paths": map[string]any{PiPackage: []string{filepath.Join(nm, PiPackage, "dist", "index.d.ts")}},
		},
		"files": []string{filepath.Join(abs, "protect.ts"), filepath.Join(abs, "prune.ts")},
	}
	b, _ := json.Marshal(cfg)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(env.pi.Node, env.pi.TSC, "-p", filepath.Join(dir, "tsconfig.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}
