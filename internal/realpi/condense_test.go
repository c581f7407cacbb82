//go:build realpi

// The handoff test: the real pi-condense (a checkout named by
// PRUNER_PI_CONDENSE; its code is never part of this repository) loaded into
// the real pi 1.6.0, started on a session `pruner now --write` flushed. Run
// it with `make realpi-condense PI_CONDENSE=DIR`.
package realpi

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// condenseCheckout returns the pi-condense 2.9.x work tree PRUNER_PI_CONDENSE
// names, or skips saying the test did not run.
func condenseCheckout(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PRUNER_PI_CONDENSE")
	if dir == "" {
		if os.Getenv("PRUNER_REALPI_REQUIRE") != "" {
			t.Fatal("the handoff test cannot run (PRUNER_REALPI_REQUIRE is set): set PRUNER_PI_CONDENSE=DIR (a pi-condense 2.9.x checkout)")
		}
		t.Skip("DID NOT RUN: set PRUNER_PI_CONDENSE=DIR (a pi-condense 2.9.x checkout)")
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatalf("PRUNER_PI_CONDENSE=%s is not a pi-condense checkout: %v", dir, err)
	}
	var pkg struct{ Name, Version string }
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Name != "pi-condense" || !strings.HasPrefix(pkg.Version, "2.9.") {
		t.Fatalf("PRUNER_PI_CONDENSE=%s: package %q version %q, want pi-condense 2.9.x (%v)", dir, pkg.Name, pkg.Version, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "index.ts")); err != nil {
		t.Fatalf("PRUNER_PI_CONDENSE=%s: %v", dir, err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pi-condense %s from %s", pkg.Version, abs)
	return abs
}

// summarizerModel answers pi-condense's summarizer requests (no tools in
// the request) itself — one bullet per [[N:tool]] label, as the oracle's
// scripted model did; a range-fusion request gets one line naming the refs
// it was sent — and passes every agent request on to the scripted Model.
type summarizerModel struct {
	agent *Model
	mu    sync.Mutex
	calls []Request // the summarizer requests, in order
}

var (
	labelRE = regexp.MustCompile(`\[\[(\d+):([^\]\s]+)\]\]`)
	refRE   = regexp.MustCompile("`(t\\d+)`")
)

func (s *summarizerModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var probe struct {
		Tools    json.RawMessage `json:"tools"`
		Messages []WireMessage   `json:"messages"`
	}
	if json.Unmarshal(body, &probe) != nil || len(probe.Tools) > 0 || len(probe.Messages) != 1 || probe.Messages[0].Role != "user" {
		s.agent.ServeHTTP(w, r)
		return
	}
	text := probe.Messages[0].Text()
	var reply []string
	seen := map[string]bool{}
	for _, m := range labelRE.FindAllStringSubmatch(text, -1) {
		if !seen[m[0]] {
			seen[m[0]] = true
			reply = append(reply, fmt.Sprintf("- %s scripted summary of %s call %s", m[0], m[2], m[1]))
		}
	}
	if len(reply) == 0 { // a range fusion: the per-batch summaries, with their refs
		var refs []string
		_, subtasks, _ := strings.Cut(text, "<sub-task-summaries>")
		for _, m := range refRE.FindAllStringSubmatch(subtasks, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				refs = append(refs, "`"+m[1]+"`")
			}
		}
		reply = append(reply, "- fused scripted summary of "+strings.Join(refs, ", "))
	}
	s.mu.Lock()
	s.calls = append(s.calls, Request{N: len(s.calls) + 1, Route: "summarizer", Body: body})
	s.mu.Unlock()
	one := NewModel(Scenario{Turns: []Turn{{Prompt: strings.TrimSpace(text), Steps: []Step{{Text: strings.Join(reply, "\n")}}}}})
	one.ServeHTTP(w, r)
}

func (s *summarizerModel) requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.calls...)
}

// recorderExtension dumps the messages of every context event: the "pi"
// copy loads before pi-condense (what pi built, pruner's context edits
// applied), the "condense" copy after it (what pi-condense handed on —
// pi runs context handlers in load order, each seeing the previous one's
// result), with the session file as it was at that request.
const recorderExtension = `import { copyFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export default function (pi: any) {
	pi.on("context", async (event: any, ctx: any) => {
		const dir = process.env.PRUNER_HANDOFF_DUMP;
		if (!dir) return undefined;
		const n = readdirSync(dir).filter((f) => f.endsWith(".condense.jsonl")).length + 1;
		const base = join(dir, "req-" + String(n).padStart(4, "0"));
		const lines = event.messages.map((m: any) => JSON.stringify(m) + "\n").join("");
		if (STAGE === "pi") {
			writeFileSync(base + ".pi.jsonl", lines);
			return undefined;
		}
		const file = ctx.sessionManager.getSessionFile();
		if (file) copyFileSync(file, base + ".session.jsonl");
		writeFileSync(base + ".condense.jsonl", lines);
		return undefined;
	});
}
`

// handoffCase is one handoff: the settings pi, pi-condense and pruner read,
// the four turns pi alone runs, and what the probe asks context_tree_query
// for.
type handoffCase struct {
	name     string
	settings string
	turns    []Turn
	query    []string // refs and call ids (the scripted model's ids are call_turn<T>_step<S>_<i>)
	chain    bool     // pruner's flush compresses a chain
	spill    bool     // pruner's flush spills the read of data/big.txt
	later    []Call   // turn 6's calls (after pruner's flush; pi-condense flushes them)
	// laterPrompt, when set, is turn 6's prompt instead: an earlier turn's,
	// so the scripted model repeats that turn's calls with the same ids
	laterPrompt string
	alias       string   // a call of turn 6 pi-condense aliases to the record of pruner's ref aliasOf
	aliasOf     string   //
	againQuery  []string // what the last probe asks context_tree_query for, after pruner's second flush
	purge       bool     // an errored call with long arguments is summarized (pruner purges them, pi-condense does not)
}

func bash(cmd string) Call { return Call{Name: "bash", Args: map[string]any{"command": cmd}} }
func read(p string) Call   { return Call{Name: "read", Args: map[string]any{"path": p}} }

// bulkyTurns: four tool turns with bulky results; call_turn2_step2_0 reads
// data/big.txt.
var bulkyTurns = []Turn{
	{Prompt: "Turn 1: count and read alpha.", Steps: []Step{{Calls: []Call{bash("seq 1 3000"), read("data/alpha.txt")}}, {Text: "Turn 1 done."}}},
	{Prompt: "Turn 2: read bravo and the big file.", Steps: []Step{{Calls: []Call{read("data/bravo.txt")}}, {Calls: []Call{read("data/big.txt"), bash("seq 1 1500")}}, {Text: "Turn 2 done."}}},
	{Prompt: "Turn 3: read charlie.", Steps: []Step{{Calls: []Call{read("data/charlie.txt")}}, {Text: "Turn 3 done."}}},
	{Prompt: "Turn 4: count again.", Steps: []Step{{Calls: []Call{bash("seq 5000 7000")}}, {Text: "Turn 4 done."}}},
}

// mixedTurns: a skill read (protected by default), a failed bash
// (call_turn2_step1_2) and a turn of two assistant tool messages. A re-read
// of alpha.txt in the same flush gets no alias (pi-condense dedups only
// against records indexed before the flush); the one in turn 6 does.
var mixedTurns = []Turn{
	{Prompt: "Turn 1: read alpha and count.", Steps: []Step{{Calls: []Call{read("data/alpha.txt"), bash("seq 1 3000")}}, {Text: "Turn 1 done."}}},
	{Prompt: "Turn 2: again, with the skill and a failure.", Steps: []Step{
		{Calls: []Call{read("data/alpha.txt"), read("skills/x/SKILL.md"), bash("seq 1 2000; echo 'error: boom' >&2; exit 3")}},
		{Text: "Turn 2 done."}}},
	{Prompt: "Turn 3: bravo, then count.", Steps: []Step{{Calls: []Call{read("data/bravo.txt")}}, {Calls: []Call{bash("seq 1 1000")}}, {Text: "Turn 3 done."}}},
	{Prompt: "Turn 4: count again.", Steps: []Step{{Calls: []Call{bash("seq 5000 7000")}}, {Text: "Turn 4 done."}}},
}

// reusedTurns: turn 1 is repeated as turn 6 with the same call ids (the
// scripted model names calls by turn and step): its bash prints the time
// (a new record under a reused id), its read is a duplicate (an alias to
// pruner's record under the same id); turn 2's failed call has a long
// command (purgeErrors: over minArgChars 500, purged after cooldownTurns).
var reusedTurns = []Turn{
	{Prompt: "Turn 1: stamp, count and read alpha.", Steps: []Step{{Calls: []Call{bash("date +%s%N; seq 1 3000"), read("data/alpha.txt")}}, {Text: "Turn 1 done."}}},
	{Prompt: "Turn 2: a long command that fails.", Steps: []Step{
		{Calls: []Call{bash("echo " + strings.Repeat("padding-", 80) + " >/dev/null; seq 1 2000; echo 'error: boom' >&2; exit 3")}},
		{Text: "Turn 2 done."}}},
	{Prompt: "Turn 3: read bravo.", Steps: []Step{{Calls: []Call{read("data/bravo.txt")}}, {Text: "Turn 3 done."}}},
	{Prompt: "Turn 4: count again.", Steps: []Step{{Calls: []Call{bash("seq 5000 7000")}}, {Text: "Turn 4 done."}}},
}

// probePrompt is the probe turn's prompt.
const probePrompt = "Probe: recover some results."

// handoffScenario: the case's four turns (pi alone), a probe whose model
// asks pi-condense's context_tree_query for the case's refs, a tool turn,
// and a final probe (the on-demand flush between them makes no agent
// request).
func handoffScenario(c handoffCase) Scenario {
	return Scenario{Turns: append(slices.Clone(c.turns),
		Turn{Prompt: probePrompt, Steps: []Step{
			{Calls: []Call{{Name: "context_tree_query", Args: map[string]any{"toolCallIds": c.query}}}},
			{Text: "Recovered them."},
		}},
		Turn{Prompt: cmp.Or(c.laterPrompt, "Turn 6: read some more."), Steps: []Step{{Calls: c.later}, {Text: "Turn 6 done."}}},
		Turn{Prompt: "Final check: reply without tools.", Steps: []Step{{Text: "Final answer: all done."}}},
		// the way back: three more tool turns, then pruner flushes again
		Turn{Prompt: "Turn 7: count a bit.", Steps: []Step{{Calls: []Call{bash("seq 1 2500")}}, {Text: "Turn 7 done."}}},
		Turn{Prompt: "Turn 8: read echo.", Steps: []Step{{Calls: []Call{read("data/echo.txt")}}, {Text: "Turn 8 done."}}},
		Turn{Prompt: "Turn 9: count once more.", Steps: []Step{{Calls: []Call{bash("seq 1 1200")}}, {Text: "Turn 9 done."}}},
		Turn{Prompt: "Second final check: reply without tools.", Steps: lastProbe(c.againQuery)},
	)}
}

// lastProbe: a context_tree_query call for ids, then the answer (or the
// answer alone).
func lastProbe(ids []string) []Step {
	if len(ids) == 0 {
		return []Step{{Text: "Final answer: done again."}}
	}
	return []Step{{Calls: []Call{{Name: "context_tree_query", Args: map[string]any{"toolCallIds": ids}}}}, {Text: "Final answer: done again."}}
}

// handoffWorld lays out a world with the scenario's files and settings.
func handoffWorld(t *testing.T, c handoffCase) (*World, *Model, *summarizerModel) {
	t.Helper()
	setup(t)
	m := NewModel(handoffScenario(c))
	sm := &summarizerModel{agent: m}
	srv := newServer(t, sm)
	w, err := NewWorld(t.TempDir(), env.pi, srv+"/v1")
	if err != nil {
		t.Fatal(err)
	}
	lines := func(prefix string, n, width int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			line := fmt.Sprintf("%s line %04d", prefix, i)
			b.WriteString(line + strings.Repeat(".", max(0, width-len(line))) + "\n")
		}
		return b.String()
	}
	for rel, data := range map[string]string{
		"proj/data/alpha.txt":          lines("alpha", 200, 40),
		"proj/data/bravo.txt":          lines("bravo", 200, 40),
		"proj/data/charlie.txt":        lines("charlie", 200, 40),
		"proj/data/delta.txt":          lines("delta", 200, 40),
		"proj/data/big.txt":            lines("big", 1500, 30), // ~46 KB: under pi's 50 KB read cap, over spillThreshold 30000
		"proj/skills/x/SKILL.md":       lines("skill", 120, 40),
		"home/.pi/agent/settings.json": c.settings + "\n",
	} {
		if err := w.WriteFile(rel, data); err != nil {
			t.Fatal(err)
		}
	}
	return w, m, sm
}

// newServer serves h on 127.0.0.1 for the test's lifetime.
func newServer(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// runPruner runs the pruner binary built for the test in the world's
// environment and returns its stdout; a non-zero exit fails the test.
func runPruner(t *testing.T, w *World, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(env.pruner, args...)
	cmd.Dir = w.Project
	cmd.Env = []string{"HOME=" + w.Home, "PATH=/usr/local/bin:/usr/bin:/bin", "TZ=UTC", "LANG=C.UTF-8", "XDG_CACHE_HOME=" + filepath.Join(w.Root, "cache")}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("pruner %s: %v\nstderr: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.Bytes()
}

// sessionLine is the part of a session line the test reads.
type sessionLine struct {
	Type       string          `json:"type"`
	ID         string          `json:"id"`
	CustomType string          `json:"customType"`
	Data       json.RawMessage `json:"data"`
	Details    json.RawMessage `json:"details"`
	Message    struct {
		Role       string          `json:"role"`
		ToolName   string          `json:"toolName"`
		ToolCallID string          `json:"toolCallId"`
		Content    json.RawMessage `json:"content"`
	} `json:"message"`
}

func parseLines(t *testing.T, data []byte) []sessionLine {
	t.Helper()
	var out []sessionLine
	for i, l := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		var s sessionLine
		if err := json.Unmarshal(l, &s); err != nil {
			t.Fatalf("session line %d: %v", i+1, err)
		}
		out = append(out, s)
	}
	return out
}

type refBinding struct {
	ShortID         string `json:"shortId"`
	ToolCallID      string `json:"toolCallId"`
	ResultTimestamp *int64 `json:"resultTimestamp"`
}

func (r refBinding) key() string {
	if r.ResultTimestamp == nil {
		return r.ToolCallID
	}
	return r.ToolCallID + "@" + strconv.FormatInt(*r.ResultTimestamp, 10)
}

// stateOf lists the refs (summary toolCallRefs and backfill refs) and the
// indexed occurrences of context-prune-* lines.
func stateOf(t *testing.T, lines []sessionLine) (refs []refBinding, records []string) {
	t.Helper()
	for _, l := range lines {
		switch l.CustomType {
		case "context-prune-summary":
			var d struct {
				ToolCallRefs []refBinding `json:"toolCallRefs"`
			}
			if err := json.Unmarshal(l.Details, &d); err != nil {
				t.Fatalf("summary %s: %v", l.ID, err)
			}
			refs = append(refs, d.ToolCallRefs...)
		case "context-prune-index":
			var d struct {
				ToolCalls []struct {
					ToolCallID      string `json:"toolCallId"`
					ResultTimestamp *int64 `json:"resultTimestamp"`
				} `json:"toolCalls"`
				Refs []refBinding `json:"refs"`
			}
			if err := json.Unmarshal(l.Data, &d); err != nil {
				t.Fatalf("index %s: %v", l.ID, err)
			}
			refs = append(refs, d.Refs...)
			for _, c := range d.ToolCalls {
				records = append(records, refBinding{ToolCallID: c.ToolCallID, ResultTimestamp: c.ResultTimestamp}.key())
			}
		}
	}
	return refs, records
}

// aliasesOf lists the context-prune-dedup-alias lines as "call>original"
// (the alias's call id and the original's occurrence key).
func aliasesOf(t *testing.T, lines []sessionLine) []string {
	t.Helper()
	var out []string
	for _, l := range lines {
		if l.CustomType == "context-prune-dedup-alias" {
			var d struct {
				NewToolCallID           string `json:"newToolCallId"`
				OriginalToolCallID      string `json:"originalToolCallId"`
				OriginalResultTimestamp *int64 `json:"originalResultTimestamp"`
			}
			if err := json.Unmarshal(l.Data, &d); err != nil {
				t.Fatalf("alias %s: %v", l.ID, err)
			}
			out = append(out, d.NewToolCallID+">"+refBinding{ToolCallID: d.OriginalToolCallID, ResultTimestamp: d.OriginalResultTimestamp}.key())
		}
	}
	return out
}

// chainIDs lists the blockId of every context-prune-chain line.
func chainIDs(t *testing.T, lines []sessionLine) []string {
	t.Helper()
	var ids []string
	for _, l := range lines {
		if l.CustomType == "context-prune-chain" {
			var d struct {
				BlockID string `json:"blockId"`
			}
			if err := json.Unmarshal(l.Data, &d); err != nil {
				t.Fatalf("chain %s: %v", l.ID, err)
			}
			ids = append(ids, d.BlockID)
		}
	}
	return ids
}

// refNumber is N of a ref tN.
func refNumber(t *testing.T, ref string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(ref, "t"))
	if err != nil || !strings.HasPrefix(ref, "t") {
		t.Fatalf("ref %q is not tN", ref)
	}
	return n
}

// withoutSystemLines drops pi 1.x system messages and blank lines (the
// system prompt is not part of pi's context event).
func withoutSystemLines(b []byte) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var m struct {
			Role string `json:"role"`
		}
		if json.Unmarshal([]byte(l), &m) == nil && m.Role == "system" {
			continue
		}
		out = append(out, l)
	}
	return out
}

// firstDiff names the first message where two contexts differ, or "".
func firstDiff(got, want []string) string {
	for i := range max(len(got), len(want)) {
		g, w := "(none)", "(none)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("message %d of %d/%d\n  pruner:      %.700s\n  pi-condense: %.700s", i+1, len(got), len(want), g, w)
		}
	}
	return ""
}

// TestRealPiCondenseHandoff: pi-condense, started on a session pruner
// flushed (`pruner now --write`), rebuilds the same refs and renders the
// same stubs; and back. Real pi (no pruning) makes four tool turns; pruner
// flushes the session with the settings pi-condense reads (pruneOn
// on-demand, so pi-condense flushes only at /pruner now); then pi runs with
// pi-condense between two recorders: a probe whose model calls
// context_tree_query for two of pruner's refs and a call id, a tool turn,
// `/pruner now`, a final probe, three more tool turns; pruner flushes again;
// a last probe. At each of the 12 requests the context pi-condense handed
// on equals `pruner now --no-flush --no-mask` of the session as it was then
// (pi's system message aside) and differs from the one pi built; the
// context_tree_query result equals `pruner query` of the same ids; each
// flush (pi-condense's, then pruner's second) goes on after the other's
// refs and chain ids and indexes none of its records again. Cases: defaults
// (chains), chains off with a spill (the query reads pruner's blob), and
// dedup/protected/error/agent-message batching (pi-condense aliases a
// re-read to pruner's record by its content hash).
func TestRealPiCondenseHandoff(t *testing.T) {
	pc := condenseCheckout(t)
	later := []Call{read("data/delta.txt"), bash("seq 1 800")}
	cases := []handoffCase{
		{name: "chains", settings: `{"contextPrune": {"enabled": true, "pruneOn": "on-demand"}}`,
			turns: bulkyTurns, query: []string{"t1", "t3", "call_turn2_step2_0"}, later: later, chain: true},
		{name: "no-chains-spill", settings: `{"contextPrune": {"enabled": true, "pruneOn": "on-demand", "spillThreshold": 30000, "chainCompression": {"rollingWindow": 10}}}`,
			turns: bulkyTurns, query: []string{"t1", "t3", "call_turn2_step2_0"}, later: later, spill: true},
		{name: "dedup-protected-error-agent-message", settings: `{"contextPrune": {"enabled": true, "pruneOn": "on-demand", "batchingMode": "agent-message", "chainCompression": {"rollingWindow": 10}}}`,
			turns: mixedTurns, query: []string{"t1", "t3", "call_turn2_step1_2"}, later: []Call{read("data/alpha.txt"), read("data/delta.txt")}, alias: "call_turn6_step1_0", aliasOf: "t1"},
		{name: "reused-ids-error-purge", settings: `{"contextPrune": {"enabled": true, "pruneOn": "on-demand", "chainCompression": {"rollingWindow": 10}}}`,
			turns: reusedTurns, query: []string{"t1", "call_turn2_step1_0"}, laterPrompt: reusedTurns[0].Prompt,
			alias: "call_turn1_step1_1", aliasOf: "t2", againQuery: []string{"call_turn1_step1_0"}, purge: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			w, m, sm := handoffWorld(t, c)
			cfg := filepath.Join(w.AgentDir, "settings.json")
			sc := handoffScenario(c)

			// 1. pi alone: four tool turns, each its own process.
			for i, turn := range sc.Turns[:4] {
				args := []string{"-p", turn.Prompt}
				if i > 0 {
					args = append([]string{"-c"}, args...)
				}
				runPi(t, w, args...)
			}
			sessions, err := w.Sessions()
			if err != nil || len(sessions) != 1 {
				t.Fatalf("sessions: %v %v", sessions, err)
			}
			session := sessions[0]

			// 2. pruner flushes it, with the settings pi-condense will read.
			// --force: pi has exited, but the file was written moments ago.
			original, err := os.ReadFile(session)
			if err != nil {
				t.Fatal(err)
			}
			runPruner(t, w, "now", "--write", "--force", "-q", "--config", cfg, session)
			written, err := os.ReadFile(session)
			if err != nil {
				t.Fatal(err)
			}
			prunerRefs, prunerRecords := stateOf(t, parseLines(t, written))
			if len(prunerRefs) == 0 {
				t.Fatal("pruner's flush allocated no refs")
			}
			byRef := map[string]string{}
			maxRef := 0
			for _, r := range prunerRefs {
				byRef[r.ShortID] = r.key()
				maxRef = max(maxRef, refNumber(t, r.ShortID))
			}
			for _, want := range c.query {
				if !strings.HasPrefix(want, "t") {
					continue
				}
				if byRef[want] == "" {
					t.Fatalf("pruner's flush has no %s (refs %v); the probe asks for it", want, prunerRefs)
				}
			}
			if c.chain != bytes.Contains(written, []byte(`"customType":"context-prune-chain"`)) {
				t.Fatalf("pruner's flush compressed a chain: %v, want %v", !c.chain, c.chain)
			}
			var blobs []string
			if c.spill {
				blobs, _ = filepath.Glob(filepath.Join(filepath.Dir(session), "*-blobs", "*.txt"))
				if len(blobs) == 0 || !bytes.Contains(written, []byte(`"spillPath":`)) {
					t.Fatalf("pruner's flush spilled nothing (blobs %v)", blobs)
				}
			}
			if !bytes.HasPrefix(written, original) {
				t.Fatal("pruner now --write changed a line pi wrote")
			}
			t.Logf("pruner now --write: refs t1..t%d, %d records, %d blobs, %d bytes appended to %d", maxRef, len(prunerRecords), len(blobs), len(written)-len(original), len(original))
			queryArgs := append(append([]string{"query", "--config", cfg}, c.query...), session)
			queryWant := runPruner(t, w, append([]string{"query", "--no-flush"}, queryArgs[1:]...)...)
			if q := runPruner(t, w, queryArgs...); !bytes.Equal(q, queryWant) {
				t.Errorf("pruner query answers differently with and without --no-flush:\n%s", lineDiff(string(queryWant), string(q)))
			}

			// 3. pi with pi-condense between two recorders.
			dump := filepath.Join(w.Root, "dump")
			if err := os.MkdirAll(dump, 0o755); err != nil {
				t.Fatal(err)
			}
			w.Env["PRUNER_HANDOFF_DUMP"] = dump
			if keep := os.Getenv("PRUNER_REALPI_KEEP"); keep != "" {
				// keep the dumps and the session for a look: PRUNER_REALPI_KEEP=DIR
				t.Cleanup(func() {
					dir := filepath.Join(keep, strings.ReplaceAll(t.Name(), "/", "_"))
					_ = os.MkdirAll(dir, 0o755)
					_ = exec.Command("cp", "-r", dump, filepath.Dir(session), dir).Run()
				})
			}
			var ext []string
			for _, stage := range []string{"pi", "condense"} {
				p := filepath.Join("..", "ext", "record-"+stage+".ts") // pi runs in w.Project
				if err := w.WriteFile(filepath.Join("ext", "record-"+stage+".ts"), strings.Replace(recorderExtension, "STAGE", strconv.Quote(stage), 1)); err != nil {
					t.Fatal(err)
				}
				ext = append(ext, p)
			}
			withExt := func(args ...string) []string {
				return append([]string{"-e", ext[0], "-e", filepath.Join(pc, "index.ts"), "-e", ext[1], "-c"}, args...)
			}
			agentBefore := len(m.Requests())
			runPi(t, w, withExt("-p", sc.Turns[4].Prompt)...) // probe: context_tree_query
			runPi(t, w, withExt("-p", sc.Turns[5].Prompt)...) // tool turn, not flushed (on-demand)
			probed, err := os.ReadFile(session)
			if err != nil {
				t.Fatal(err)
			}
			summarizerBefore := len(sm.requests())
			runPi(t, w, withExt("-p", "/pruner now")...)
			if n := len(sm.requests()) - summarizerBefore; n == 0 {
				t.Fatal("/pruner now made no summarizer request")
			}
			runPi(t, w, withExt("-p", sc.Turns[6].Prompt)...)
			final, err := os.ReadFile(session)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(final, written) {
				t.Fatal("pi changed the bytes pruner wrote")
			}

			// 3b. The way back: pi (pi-condense loaded, not flushing) runs
			// three tool turns, pruner flushes again over pi-condense's
			// state, and pi-condense renders the result in a last probe.
			for _, turn := range sc.Turns[7:10] {
				runPi(t, w, withExt("-p", turn.Prompt)...)
			}
			again, err := os.ReadFile(session)
			if err != nil {
				t.Fatal(err)
			}
			runPruner(t, w, "now", "--write", "--force", "-q", "--config", cfg, session)
			rewritten, err := os.ReadFile(session)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(rewritten, again) {
				t.Fatal("pruner now --write changed a line pi or pi-condense wrote")
			}
			runPi(t, w, withExt("-p", sc.Turns[10].Prompt)...)

			// 4a. Every request's context: pi-condense's == pruner's render.
			snaps, _ := filepath.Glob(filepath.Join(dump, "req-*.condense.jsonl"))
			requests := 12 // probe 2, turn 6 2, final 1, turns 7-9 6, last probe 1
			if len(c.againQuery) > 0 {
				requests++ // the last probe's context_tree_query
			}
			if want := len(m.Requests()) - agentBefore; len(snaps) != want || want != requests {
				t.Fatalf("%d context dumps for %d agent requests, want %d", len(snaps), want, requests)
			}
			wire := decode(t, m.Requests()[agentBefore:])
			changed, departures := 0, 0
			for i, snap := range snaps {
				base := strings.TrimSuffix(snap, ".condense.jsonl")
				got, err := os.ReadFile(snap)
				if err != nil {
					t.Fatal(err)
				}
				before, err := os.ReadFile(base + ".pi.jsonl")
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(before, got) {
					changed++
				}
				// the recorder saw what went on the wire: the tool results
				// of the dump are the request's, in order
				checkOccurrencePairing(t, wire[i])
				if d := firstDiff(toolTexts(t, got), wireToolTexts(wire[i])); d != "" {
					t.Errorf("%s: the dumped context is not what request %d sent: %s", filepath.Base(base), wire[i].N, d)
				}
				rendered := runPruner(t, w, "now", "--no-flush", "--no-mask", "-q", "--config", cfg, base+".session.jsonl")
				ours, theirs := withoutSystemLines(rendered), withoutSystemLines(got)
				for j := range min(len(ours), len(theirs)) {
					if ours[j] != theirs[j] && purgeDeparture(t, ours[j], theirs[j]) {
						// the documented departure: pruner purges the long
						// arguments of an errored call pi-condense summarized
						theirs[j] = ours[j]
						departures++
					}
				}
				if d := firstDiff(ours, theirs); d != "" {
					t.Errorf("%s: pruner's render of the session differs from what pi-condense sent: %s", filepath.Base(base), d)
				}
			}
			if departures > 0 {
				t.Logf("in %d messages pruner purged the arguments of an errored call pi-condense summarized and left as they were (docs/render.md, where pruner departs)", departures)
			}
			if c.purge != (departures > 0) {
				t.Errorf("%d messages differ by the error purge of a summarized call; want some: %v", departures, c.purge)
			}
			t.Logf("%d requests compared; pi-condense changed the context pi built in %d", len(snaps), changed)
			// the probe's context_tree_query result: verbatim in recovery
			// grace, stubbed once the grace (recoveryGraceTurns, 3) ran out
			// — by both
			if g := grace(t, snaps, "call_turn5_step1_0"); !strings.HasPrefix(g, "raw") || !strings.HasSuffix(g, "stub") {
				t.Errorf("the probe's context_tree_query result per request: %s; want raw first, a stub at the end", g)
			} else {
				t.Logf("the probe's context_tree_query result per request: %s", g)
			}
			// pi alone applies pruner's context edits (the stubs' text) but
			// not chains, and keeps each result's details; pi-condense's
			// render puts its own stub objects (no details) and the chain in.
			// A request it did not change is one it did not render from
			// pruner's index.
			if changed != len(snaps) {
				t.Errorf("pi-condense changed the context of %d of %d requests: it did not render pruner's index in the others", changed, len(snaps))
			}

			// 4b. context_tree_query answers as pruner query does.
			var answer string
			found := false
			for _, l := range parseLines(t, probed[len(written):]) {
				if l.Type == "message" && l.Message.Role == "toolResult" && l.Message.ToolName == "context_tree_query" {
					answer, found = WireMessage{Content: l.Message.Content}.Text(), true
				}
			}
			if !found {
				t.Fatal("the probe's context_tree_query call has no result in the session")
			}
			if c.spill && !strings.Contains(answer, "big line 1500") {
				t.Errorf("context_tree_query %v did not read pruner's blob (big.txt's last line is not in its answer)", c.query)
			}
			if strings.TrimSuffix(string(queryWant), "\n") != answer {
				t.Errorf("context_tree_query %v answered differently from pruner query:\n%s", c.query, lineDiff(string(queryWant), answer))
			} else {
				t.Logf("context_tree_query %v == pruner query [--no-flush] %v (%d chars)", c.query, c.query, len(answer))
			}

			// 4c. pi-condense's own flush continues after pruner's refs.
			newRefs, newRecords := stateOf(t, parseLines(t, final[len(probed):]))
			if len(newRefs) == 0 {
				t.Fatal("/pruner now wrote no refs")
			}
			if c.alias != "" {
				// turn 6 re-read a file pruner indexed: pi-condense finds
				// pruner's record by its content hash
				aliases := aliasesOf(t, parseLines(t, final[len(probed):]))
				orig := byRef[c.aliasOf]
				if !slices.Contains(aliases, c.alias+">"+orig) {
					t.Errorf("pi-condense aliased %v, want %s to pruner's %s (%s)", aliases, c.alias, c.aliasOf, orig)
				}
			}
			if c.chain {
				// chain ids continue too: pruner compressed b1
				if old, now := chainIDs(t, parseLines(t, written)), chainIDs(t, parseLines(t, final[len(probed):])); !slices.Equal(old, []string{"b1"}) || len(now) == 0 || now[0] != "b2" {
					t.Errorf("chains: pruner compressed %v, then pi-condense %v; want [b1], then b2 first", old, now)
				}
			}
			var nums []int
			for _, r := range newRefs {
				nums = append(nums, refNumber(t, r.ShortID))
				if old, ok := byRef[r.ShortID]; ok {
					t.Errorf("pi-condense reused pruner's ref %s (%s) for %s", r.ShortID, old, r.key())
				}
			}
			sort.Ints(nums)
			if nums[0] != maxRef+1 {
				t.Errorf("pi-condense's first new ref is t%d, want t%d (after pruner's t%d)", nums[0], maxRef+1, maxRef)
			}
			for _, k := range newRecords {
				if slices.Contains(prunerRecords, k) {
					t.Errorf("pi-condense indexed %s again, which pruner had indexed", k)
				}
			}
			t.Logf("/pruner now: refs t%d..t%d, %d records; %d summarizer requests", nums[0], nums[len(nums)-1], len(newRecords), len(sm.requests()))

			// 4d. pruner's second flush continues after pi-condense's refs.
			allRefs, allRecords := stateOf(t, parseLines(t, again))
			last := 0
			taken := map[string]string{}
			for _, r := range allRefs {
				last = max(last, refNumber(t, r.ShortID))
				taken[r.ShortID] = r.key()
			}
			backRefs, backRecords := stateOf(t, parseLines(t, rewritten[len(again):]))
			if len(backRefs) == 0 {
				t.Fatal("pruner's second flush allocated no refs (turn 7 is outside its raw window)")
			}
			nums = nums[:0]
			for _, r := range backRefs {
				nums = append(nums, refNumber(t, r.ShortID))
				if old, ok := taken[r.ShortID]; ok {
					t.Errorf("pruner reused ref %s (%s) for %s", r.ShortID, old, r.key())
				}
			}
			sort.Ints(nums)
			if nums[0] != last+1 {
				t.Errorf("pruner's second flush starts at t%d, want t%d (after t%d)", nums[0], last+1, last)
			}
			for _, k := range backRecords {
				if slices.Contains(allRecords, k) {
					t.Errorf("pruner indexed %s again", k)
				}
			}
			if c.chain {
				before, back := chainIDs(t, parseLines(t, again)), chainIDs(t, parseLines(t, rewritten[len(again):]))
				if len(back) == 0 || len(before) == 0 || back[0] != fmt.Sprintf("b%d", len(before)+1) {
					t.Errorf("chains: %v before pruner's second flush, %v by it; want it to go on at b%d", before, back, len(before)+1)
				}
				t.Logf("chains: pruner %v, then pi-condense and pruner up to %v", chainIDs(t, parseLines(t, written)), back)
			}
			if len(c.againQuery) > 0 {
				// the last probe asks context_tree_query about what both
				// flushes indexed (a reused id: every occurrence)
				last, err := os.ReadFile(session)
				if err != nil {
					t.Fatal(err)
				}
				want := runPruner(t, w, append(append([]string{"query", "--no-flush", "--config", cfg}, c.againQuery...), session)...)
				got := ""
				for _, l := range parseLines(t, last[len(rewritten):]) {
					if l.Type == "message" && l.Message.Role == "toolResult" && l.Message.ToolName == "context_tree_query" {
						got = WireMessage{Content: l.Message.Content}.Text()
					}
				}
				if strings.TrimSuffix(string(want), "\n") != got {
					t.Errorf("the last probe's context_tree_query %v answered differently from pruner query:\n%s", c.againQuery, lineDiff(string(want), got))
				} else {
					t.Logf("last probe: context_tree_query %v == pruner query --no-flush %v (%d chars, %d occurrences)", c.againQuery, c.againQuery, len(got), strings.Count(got, "## "))
				}
			}
			t.Logf("pruner now --write again: refs t%d..t%d, %d records; %s in all", nums[0], nums[len(nums)-1], len(backRecords), time.Since(start).Round(time.Millisecond))
		})
	}
}

// grace tells, per dump where the call id's result is, whether it was
// sent as context_tree_query printed it or as a stub ("raw raw stub …").
func grace(t *testing.T, snaps []string, id string) string {
	t.Helper()
	var out []string
	for _, snap := range snaps {
		b, err := os.ReadFile(snap)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range withoutSystemLines(b) {
			var m struct {
				ToolCallID string          `json:"toolCallId"`
				Content    json.RawMessage `json:"content"`
			}
			if json.Unmarshal([]byte(l), &m) == nil && m.ToolCallID == id {
				if strings.HasPrefix(WireMessage{Content: m.Content}.Text(), "## toolRef: ") { // context_tree_query's own output
					out = append(out, "raw")
				} else { // a summary's stub or (over spillThreshold) a spill stub
					out = append(out, "stub")
				}
			}
		}
	}
	return strings.Join(out, " ")
}

// purgeDeparture: two versions of an assistant message that differ only in
// the arguments of toolCalls pruner's render purged (its version holds
// `<purged-errored-args`, pi-condense's the original arguments).
func purgeDeparture(t *testing.T, ours, theirs string) bool {
	t.Helper()
	var a, b map[string]any
	if json.Unmarshal([]byte(ours), &a) != nil || json.Unmarshal([]byte(theirs), &b) != nil || a["role"] != "assistant" || b["role"] != "assistant" {
		return false
	}
	ac, _ := a["content"].([]any)
	bc, _ := b["content"].([]any)
	if len(ac) != len(bc) {
		return false
	}
	purged := 0
	for i := range ac {
		x, _ := ac[i].(map[string]any)
		y, _ := bc[i].(map[string]any)
		if x == nil || y == nil || x["type"] != "toolCall" {
			continue
		}
		xa, _ := json.Marshal(x["arguments"])
		ya, _ := json.Marshal(y["arguments"])
		if !bytes.Equal(xa, ya) && bytes.Contains(xa, []byte("purged-errored-args")) && !bytes.Contains(ya, []byte("purged-errored-args")) {
			x["arguments"], purged = y["arguments"], purged+1
		}
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return purged > 0 && bytes.Equal(ja, jb)
}

// checkOccurrencePairing: every tool message answers an open call of the
// latest assistant message (a reused id names a new occurrence), once, and
// every call is answered before the next assistant or user message.
func checkOccurrencePairing(t *testing.T, d decoded) {
	t.Helper()
	open := map[string]bool{}
	closeAll := func(i int) {
		for id := range open {
			t.Errorf("request %d: call %s has no result before message %d", d.N, id, i)
		}
		open = map[string]bool{}
	}
	for i, m := range d.msgs {
		switch m.Role {
		case "assistant":
			closeAll(i)
			for _, c := range m.ToolCalls {
				if open[c.ID] {
					t.Errorf("request %d: message %d calls %s twice", d.N, i, c.ID)
				}
				open[c.ID] = true
			}
		case "tool":
			if !open[m.ToolCallID] {
				t.Errorf("request %d: message %d answers %q, no open call", d.N, i, m.ToolCallID)
			}
			delete(open, m.ToolCallID)
		default:
			closeAll(i)
		}
	}
	closeAll(len(d.msgs))
}

// toolTexts lists the text of every toolResult of a dumped context.
func toolTexts(t *testing.T, context []byte) []string {
	t.Helper()
	var out []string
	for _, l := range withoutSystemLines(context) {
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("dumped message: %v", err)
		}
		if m.Role == "toolResult" {
			out = append(out, WireMessage{Content: m.Content}.Text())
		}
	}
	return out
}

// wireToolTexts lists the text of every tool message of a request.
func wireToolTexts(d decoded) []string {
	var out []string
	for _, m := range d.msgs {
		if m.Role == "tool" {
			out = append(out, m.Text())
		}
	}
	return out
}

// lineDiff shows the first differing line of two texts.
func lineDiff(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(a), len(b)) {
		x, y := "(none)", "(none)"
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("line %d of %d/%d\n  pruner query:       %.300q\n  context_tree_query: %.300q", i+1, len(a), len(b), x, y)
		}
	}
	return "(only trailing newlines differ)"
}
