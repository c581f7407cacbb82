package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/guard"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/spf13/pflag"
)

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaults(t *testing.T) {
	c, err := Load(Options{AgentDir: t.TempDir(), Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Enabled || c.RecentTurnsToKeep != 2 || c.MaxRetainedChars != 4000 ||
		!reflect.DeepEqual(c.ProtectedPaths, protect.DefaultProtectedPaths()) || !reflect.DeepEqual(c.ProtectedTools, protect.DefaultProtectedTools()) {
		t.Fatalf("defaults: %+v", c)
	}
	if c.Sources["maxRetainedChars"] != "default" || len(c.Files) != 0 {
		t.Errorf("sources %v files %v", c.Sources, c.Files)
	}
}

// pi's merge: project over global, one level deep under contextPrune; arrays
// replaced, never concatenated; explicit [] wins over the default.
func TestMergeGlobalProjectEnvFlags(t *testing.T) {
	agent, proj := t.TempDir(), t.TempDir()
	write(t, filepath.Join(agent, "settings.json"), `{"theme":"dark","contextPrune":{"maxRetainedChars":1000,"protectedTools":["a","b"],"recentTurnsToKeep":5}}`)
	write(t, filepath.Join(proj, ".pi", "settings.json"), `{"contextPrune":{"protectedTools":["c"],"protectedPaths":[]}}`)
	c, err := Load(Options{AgentDir: agent, ProjectDir: proj, Getenv: env(map[string]string{"PRUNER_RECENT_TURNS_TO_KEEP": "3"})})
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxRetainedChars != 1000 || !reflect.DeepEqual(c.ProtectedTools, []string{"c"}) || len(c.ProtectedPaths) != 0 || c.RecentTurnsToKeep != 3 {
		t.Fatalf("merged: %+v", c)
	}
	if c.Sources["protectedTools"] != filepath.Join(proj, ".pi", "settings.json") || c.Sources["recentTurnsToKeep"] != "env PRUNER_RECENT_TURNS_TO_KEEP" {
		t.Errorf("sources: %v", c.Sources)
	}
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.Int("max-chars", 0, "")
	fs.StringSlice("protect-path", nil, "")
	if err := fs.Parse([]string{"--max-chars", "77", "--protect-path", "a/**,b/*.md"}); err != nil {
		t.Fatal(err)
	}
	c, err = Load(Options{AgentDir: agent, ProjectDir: proj, Getenv: env(nil), Flags: fs,
		FlagKeys: map[string]string{"max-chars": "maxRetainedChars", "protect-path": "protectedPaths"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxRetainedChars != 77 || !reflect.DeepEqual(c.ProtectedPaths, []string{"a/**", "b/*.md"}) || c.Sources["maxRetainedChars"] != "flag --max-chars" {
		t.Fatalf("flags: %+v %v", c, c.Sources)
	}
}

func TestOffSwitches(t *testing.T) {
	for _, e := range []map[string]string{{"PRUNER_PRUNING": "off"}, {"PRUNER_ENABLED": "false"}} {
		c, err := Load(Options{AgentDir: t.TempDir(), Getenv: env(e)})
		if err != nil {
			t.Fatal(err)
		}
		if c.Enabled {
			t.Errorf("%v: still enabled", e)
		}
	}
}

func TestConfigFileReplacesSettingsFiles(t *testing.T) {
	agent := t.TempDir()
	write(t, filepath.Join(agent, "settings.json"), `{"contextPrune":{"maxRetainedChars":1}}`)
	f := filepath.Join(t.TempDir(), "c.json")
	write(t, f, `{"contextPrune":{"recentTurnsToKeep":9}}`)
	c, err := Load(Options{ConfigFile: f, AgentDir: agent, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxRetainedChars != 4000 || c.RecentTurnsToKeep != 9 {
		t.Fatalf("%+v", c)
	}
	if _, err := Load(Options{ConfigFile: filepath.Join(t.TempDir(), "missing.json"), Getenv: env(nil)}); err == nil {
		t.Error("missing --config file: no error")
	}
}

func TestErrorsNameFileLineAndKey(t *testing.T) {
	agent := t.TempDir()
	p := filepath.Join(agent, "settings.json")
	write(t, p, "{\n  \"contextPrune\": {\n    \"maxRetainedChars\": 10,,\n  }\n}\n")
	_, err := Load(Options{AgentDir: agent, Getenv: env(nil)})
	var fe *FileError
	if !errors.As(err, &fe) || fe.Path != p || fe.Line != 3 || fe.Col != 28 {
		t.Fatalf("err = %v, want line 3 column 28 (the second comma)", err)
	}
	// the column is the offending byte's, at a line's start and mid-line
	for body, want := range map[string][2]int{
		"{\n  \"maxRetainedChars\": 4000, }\n": {2, 29},
		`{"contextPrune": {"x": 1,,}}`:         {1, 26},
		`[1,2]`:                                {1, 1},
		"\x7fELF":                              {1, 1},
		"{\n}\n}":                              {3, 1},
	} {
		write(t, p, body)
		_, err := Load(Options{AgentDir: agent, Getenv: env(nil)})
		if !errors.As(err, &fe) || fe.Line != want[0] || fe.Col != want[1] {
			t.Errorf("%q: err = %v (line %d col %d), want %d:%d", body, err, fe.Line, fe.Col, want[0], want[1])
		}
	}
	cases := map[string]string{
		`{"contextPrune":{"recentTurnsToKeep":-1}}`:     "recentTurnsToKeep",
		`{"contextPrune":{"maxRetainedChars":1.5}}`:     "maxRetainedChars",
		`{"contextPrune":{"enabled":"yes"}}`:            "enabled",
		`{"contextPrune":{"protectedPaths":"**/*.md"}}`: "protectedPaths",
		`{"contextPrune":{"protectedTools":[1]}}`:       "protectedTools",
		`{"contextPrune":{"protectedPaths":["ok",""]}}`: "protectedPaths",
	}
	for body, key := range cases {
		write(t, p, body)
		_, err := Load(Options{AgentDir: agent, Getenv: env(nil)})
		var ve *ValueError
		if !errors.As(err, &ve) || !strings.HasPrefix(ve.Key, key) || ve.Source != p {
			t.Errorf("%s: err = %v, want a ValueError on %s from %s", body, err, key, p)
		}
	}
	write(t, p, `{"contextPrune":[1]}`)
	if _, err := Load(Options{AgentDir: agent, Getenv: env(nil)}); !errors.As(err, &fe) {
		t.Errorf("contextPrune not an object: %v", err)
	}
}

func TestMisspeltKeysWarn(t *testing.T) {
	agent := t.TempDir()
	write(t, filepath.Join(agent, "settings.json"), `{"contextPrune":{"maxRetainedCharz":10,"RecentTurnsToKeep":1,"minBatchChars":5,"foo":1}}`)
	c, err := Load(Options{AgentDir: agent, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(c.Warnings, "\n")
	if len(c.Warnings) != 3 || !strings.Contains(all, "did you mean maxRetainedChars?") || !strings.Contains(all, "contextPrune.foo is not a pruner or pi-condense key (ignored") ||
		strings.Contains(all, "minBatchChars") {
		t.Fatalf("warnings = %q (pi-context-prune's minBatchChars must not warn)", c.Warnings)
	}
	write(t, filepath.Join(agent, "settings.json"), `{"contextprune":{"enabled":false}}`)
	if _, err := Load(Options{AgentDir: agent, Getenv: env(nil)}); err == nil || !strings.Contains(err.Error(), `did you mean "contextPrune"`) {
		t.Errorf("wrong-case key: %v", err)
	}
	write(t, filepath.Join(agent, "settings.json"), `{"contextPrune":{"protectedPathRules":[{"path":".env","deny":["READ"]}]}}`)
	var re *RulesError
	if _, err := Load(Options{AgentDir: agent, Getenv: env(nil)}); !errors.As(err, &re) {
		t.Errorf("bad protectedPathRules: %v", err)
	}
	if _, err := Load(Options{AgentDir: agent, Getenv: env(map[string]string{"PRUNER_PRUNING": "banana"})}); err == nil {
		t.Error("PRUNER_PRUNING=banana accepted")
	}
}

// Every layer, and the source each value reports (the table `pruner config`
// prints): flags over env over project over global over defaults.
func TestSourcesPerLayer(t *testing.T) {
	agent, proj := t.TempDir(), t.TempDir()
	global := filepath.Join(agent, "settings.json")
	project := filepath.Join(proj, ".pi", "settings.json")
	write(t, global, `{"contextPrune":{"maxRetainedChars":1000,"recentTurnsToKeep":5,"protectedTools":["a"]}}`)
	write(t, project, `{"contextPrune":{"recentTurnsToKeep":4,"protectedTools":["b"],"minBatchChars":10,"chainCompression":{"rollingWindow":-1}}}`)
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.StringSlice("protect-tool", nil, "")
	if err := fs.Parse([]string{"--protect-tool", "c,d"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(Options{AgentDir: agent, ProjectDir: proj, Flags: fs, FlagKeys: map[string]string{"protect-tool": "protectedTools"},
		Getenv: env(map[string]string{"PRUNER_PROTECTED_PATHS": "x/**, y/*", "PRUNER_PRUNING": "off"})})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"enabled":           "env PRUNER_PRUNING",
		"protectedTools":    "flag --protect-tool",
		"protectedPaths":    "env PRUNER_PROTECTED_PATHS",
		"recentTurnsToKeep": project,
		"maxRetainedChars":  global,
		// the batch/index stage's keys, not set here
		"flush": "default", "summarizerCmd": "default", "summarizerConcurrency": "default",
		// pi-condense's keys: from the files, or their defaults
		"minBatchChars":    project,
		"chainCompression": project + " (invalid values: defaults used)",
	}
	for _, k := range CondenseKeys() {
		if _, ok := want[k]; !ok {
			want[k] = "default"
		}
	}
	if !reflect.DeepEqual(c.Sources, want) {
		t.Errorf("sources:\n got %v\nwant %v", c.Sources, want)
	}
	if c.Enabled || c.RecentTurnsToKeep != 4 || c.MaxRetainedChars != 1000 ||
		!reflect.DeepEqual(c.ProtectedTools, []string{"c", "d"}) || !reflect.DeepEqual(c.ProtectedPaths, []string{"x/**", "y/*"}) {
		t.Errorf("values: %+v", c)
	}
	if !reflect.DeepEqual(c.Files, []string{global, project}) || !reflect.DeepEqual(c.Searched, []string{global, project}) {
		t.Errorf("files %v searched %v", c.Files, c.Searched)
	}
}

// Bad values are errors naming the variable or flag they came from.
func TestEnvAndFlagErrorsNameTheirSource(t *testing.T) {
	for name, val := range map[string]string{
		"PRUNER_MAX_RETAINED_CHARS":   "lots",
		"PRUNER_RECENT_TURNS_TO_KEEP": "-1",
		"PRUNER_ENABLED":              "maybe",
	} {
		// PRUNER_PRUNING=on would win over PRUNER_ENABLED; the bad value still counts
		_, err := Load(Options{AgentDir: t.TempDir(), Getenv: env(map[string]string{name: val, "PRUNER_PRUNING": "on"})})
		var ve *ValueError
		if !errors.As(err, &ve) || ve.Source != "env "+name {
			t.Errorf("%s=%s: err = %v", name, val, err)
		}
	}
}

// pi strips a UTF-8 byte order mark before JSON.parse; so does pruner.
func TestSettingsWithBOM(t *testing.T) {
	agent := t.TempDir()
	write(t, filepath.Join(agent, "settings.json"), "\ufeff"+`{"contextPrune":{"maxRetainedChars":7}}`)
	c, err := Load(Options{AgentDir: agent, Getenv: env(nil)})
	if err != nil || c.MaxRetainedChars != 7 {
		t.Fatalf("BOM settings: %v %+v", err, c)
	}
}

// The agent dir comes from PI_CODING_AGENT_DIR with ~ expanded, as pi's
// getAgentDir does, or ~/.pi/agent.
func TestAgentDirFromEnvironment(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, "pi-agent", "settings.json"), `{"contextPrune":{"recentTurnsToKeep":9}}`)
	write(t, filepath.Join(home, ".pi", "agent", "settings.json"), `{"contextPrune":{"recentTurnsToKeep":8}}`)
	for val, want := range map[string]int{"~/pi-agent": 9, filepath.Join(home, "pi-agent"): 9, "": 8} {
		c, err := Load(Options{Getenv: env(map[string]string{"HOME": home, "USERPROFILE": home, "PI_CODING_AGENT_DIR": val})})
		if err != nil {
			t.Fatal(err)
		}
		if c.RecentTurnsToKeep != want {
			t.Errorf("PI_CODING_AGENT_DIR=%q: recentTurnsToKeep %d, want %d (agent dir %s)", val, c.RecentTurnsToKeep, want, c.AgentDir)
		}
	}
}

func ruleSummary(rs *RuleSet) []string {
	var out []string
	for i, e := range rs.Entries {
		out = append(out, e.Path+" "+e.Deny.String()+" <- "+rs.Origins[i])
	}
	return out
}

// A project's protectedPathRules only add to the rules of the global settings
// (or protected-paths.json, or the built-in defaults): they never remove or
// replace one, whatever the project writes.
func TestProjectRulesOnlyAdd(t *testing.T) {
	projectBodies := []string{
		`{"contextPrune":{"protectedPathRules":[{"path":"secrets/**","deny":["read"]}]}}`,
		// attempts to weaken: narrower ops for .env, a rule for an unrelated path
		`{"contextPrune":{"protectedPathRules":[{"path":".env","deny":["write"]}]}}`,
		`{"contextPrune":{"protectedPathRules":[{"path":"nothing-here","deny":["edit"]}]}}`,
	}
	globalBodies := map[string]string{
		"built-in defaults": "",
		"global settings":   `{"contextPrune":{"protectedPathRules":[{"path":"~/.ssh/**","deny":["read","bash"]}]}}`,
	}
	for gname, gbody := range globalBodies {
		for _, pbody := range projectBodies {
			agent, proj := t.TempDir(), t.TempDir()
			if gbody != "" {
				write(t, filepath.Join(agent, "settings.json"), gbody)
			}
			noProject, err := Load(Options{AgentDir: agent, Getenv: env(nil)})
			if err != nil {
				t.Fatal(err)
			}
			base, err := noProject.DenyRules("")
			if err != nil {
				t.Fatal(err)
			}
			base = withoutGate(t, base)
			write(t, filepath.Join(proj, ".pi", "settings.json"), pbody)
			c, err := Load(Options{AgentDir: agent, ProjectDir: proj, Getenv: env(nil)})
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.DenyRules("")
			if err != nil {
				t.Fatal(err)
			}
			got = withoutGate(t, got)
			// every base entry is still there, unchanged and first
			if len(got.Entries) != len(base.Entries)+1 || !reflect.DeepEqual(got.Entries[:len(base.Entries)], base.Entries) {
				t.Errorf("%s + %s: base rules changed:\n%q\nbase %q", gname, pbody, ruleSummary(got), ruleSummary(base))
			}
			pfile := filepath.Join(proj, ".pi", "settings.json")
			if o := got.Origins[len(got.Origins)-1]; !strings.HasPrefix(o, pfile) || !strings.HasSuffix(o, "(project, adds)") {
				t.Errorf("origin of the project rule: %q", o)
			}
			if o := got.Origins[0]; o != base.Source {
				t.Errorf("origin of a base rule: %q, want %q", o, base.Source)
			}
		}
	}
	// --rules FILE replaces the base, and the project still adds
	agent, proj := t.TempDir(), t.TempDir()
	rules := filepath.Join(agent, "rules.json")
	write(t, rules, `{"paths":[{"path":"only-this","deny":["read"]}]}`)
	write(t, filepath.Join(proj, ".pi", "settings.json"), projectBodies[0])
	c, err := Load(Options{AgentDir: agent, ProjectDir: proj, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.DenyRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	got = withoutGate(t, got)
	if s := ruleSummary(got); len(s) != 2 || s[0] != "only-this read <- "+rules || !strings.HasPrefix(s[1], "secrets/** read <- ") {
		t.Errorf("--rules + project: %q", s)
	}
	// protected-paths.json under the agent dir is the base when settings set none
	write(t, filepath.Join(agent, "configs", "protected-paths.json"), `{"paths":[{"path":"vault/","deny":["read"]}]}`)
	if got, err = c.DenyRules(""); err == nil {
		got = withoutGate(t, got)
	}
	if err != nil || got.Entries[0].Path != "vault/" || len(got.Entries) != 2 {
		t.Errorf("protected-paths.json + project: %v %q", err, ruleSummary(got))
	}
	// an empty project list adds nothing: valid, the base rules apply
	write(t, filepath.Join(proj, ".pi", "settings.json"), `{"contextPrune":{"protectedPathRules":[]}}`)
	c, err = Load(Options{AgentDir: agent, ProjectDir: proj, Getenv: env(nil)})
	if err != nil {
		t.Fatalf("empty project rules list: %v", err)
	}
	if got, err = c.DenyRules(rules); err == nil {
		got = withoutGate(t, got)
	}
	if err != nil || len(got.Entries) != 1 || got.Entries[0].Path != "only-this" {
		t.Errorf("empty project list: %v %q", err, ruleSummary(got))
	}
	// an invalid project rule is an error, never a silent fallback
	write(t, filepath.Join(proj, ".pi", "settings.json"), `{"contextPrune":{"protectedPathRules":[{"path":".env","deny":["reed"]}]}}`)
	var re *RulesError
	if _, err := Load(Options{AgentDir: agent, ProjectDir: proj, Getenv: env(nil)}); !errors.As(err, &re) {
		t.Errorf("invalid project rule: %v", err)
	}
	// a global empty list stays an error: it would disable the gate
	write(t, filepath.Join(proj, ".pi", "settings.json"), `{}`)
	write(t, filepath.Join(agent, "settings.json"), `{"contextPrune":{"protectedPathRules":[]}}`)
	if _, err := Load(Options{AgentDir: agent, ProjectDir: proj, Getenv: env(nil)}); !errors.As(err, &re) {
		t.Errorf("empty global rules list: %v", err)
	}
}

// TestProjectCannotSetTrustedKeys: every key that makes pruner run a
// command is ignored in a project's .pi/settings.json (with a warning), and
// read from the global settings, --config, the environment and flags.
func TestProjectCannotSetTrustedKeys(t *testing.T) {
	trusted := TrustedKeys()
	if len(trusted) == 0 {
		t.Fatal("no trusted key: summarizerCmd runs a command")
	}
	for _, key := range trusted {
		agent, proj := t.TempDir(), t.TempDir()
		write(t, filepath.Join(proj, ".pi", "settings.json"), `{"contextPrune":{"`+key+`":"touch PWNED"}}`)
		c, err := Load(Options{AgentDir: agent, ProjectDir: proj, Getenv: env(nil)})
		if err != nil {
			t.Fatal(err)
		}
		if c.SummarizerCmd != "" || c.Sources[key] != "default" {
			t.Errorf("%s from the project: value %q, source %s", key, c.SummarizerCmd, c.Sources[key])
		}
		if len(c.Ignored) != 1 || !strings.Contains(c.Ignored[0], key+" is ignored: a project's settings cannot set a command") {
			t.Errorf("ignored: %q", c.Ignored)
		}
		if !strings.Contains(strings.Join(c.Warnings, "\n"), key+" is ignored") {
			t.Errorf("no warning: %q", c.Warnings)
		}
		// the global settings (merged under the project's) still count
		write(t, filepath.Join(agent, "settings.json"), `{"contextPrune":{"`+key+`":"mine"}}`)
		c, err = Load(Options{AgentDir: agent, ProjectDir: proj, Getenv: env(nil)})
		if err != nil {
			t.Fatal(err)
		}
		if c.SummarizerCmd != "mine" || c.Sources[key] != filepath.Join(agent, "settings.json") {
			t.Errorf("%s from the global settings: %q from %s", key, c.SummarizerCmd, c.Sources[key])
		}
		// --config is the user's own choice of file
		cf := filepath.Join(t.TempDir(), "c.json")
		write(t, cf, `{"contextPrune":{"`+key+`":"chosen"}}`)
		c, err = Load(Options{ConfigFile: cf, ProjectDir: proj, Getenv: env(nil)})
		if err != nil || c.SummarizerCmd != "chosen" {
			t.Errorf("%s from --config: %q, %v", key, c.SummarizerCmd, err)
		}
	}
}

// CondenseKeys lists every field of Condense (a key added there is listed
// by `pruner config` with its source).
func TestCondenseKeysCoverCondense(t *testing.T) {
	var tags []string
	rt := reflect.TypeOf(Condense{})
	for i := 0; i < rt.NumField(); i++ {
		tags = append(tags, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
	}
	if !reflect.DeepEqual(tags, CondenseKeys()) {
		t.Errorf("Condense fields %v, CondenseKeys %v", tags, CondenseKeys())
	}
}

// TestDroppedHintPastes: the hint's entries, added to the rules list that
// dropped the built-in rules, make that list apply every built-in rule
// again (the hint works for --rules FILE, which pruner config never sees).
func TestDroppedHintPastes(t *testing.T) {
	for _, mine := range []string{
		`{"path":"only-this","deny":["read"]}`,
		`{"path":".env","deny":["read","bash"]}, {"path":".git/","deny":["write"]}`,
	} {
		dir := t.TempDir()
		rules := filepath.Join(dir, "rules.json")
		write(t, rules, `{"paths":[`+mine+`]}`)
		c, err := Load(Options{AgentDir: dir, ProjectDir: t.TempDir(), Getenv: env(nil)})
		if err != nil {
			t.Fatal(err)
		}
		rs, err := c.DenyRules(rules)
		if err != nil {
			t.Fatal(err)
		}
		hint := rs.DroppedHint()
		_, entries, ok := strings.Cut(hint, "add these entries to it: ")
		if rs.DroppedWarning() == "" || !ok {
			t.Fatalf("%s: no dropped rules or no entries in the hint %q", mine, hint)
		}
		var parsed []map[string]any
		if err := json.Unmarshal([]byte("["+entries+"]"), &parsed); err != nil || len(parsed) != len(rs.Dropped) {
			t.Fatalf("%s: hint entries %q: %v (%d, want %d)", mine, entries, err, len(parsed), len(rs.Dropped))
		}
		write(t, rules, `{"paths":[`+mine+`, `+entries+`]}`)
		if rs, err = c.DenyRules(rules); err != nil || len(rs.Dropped) != 0 || rs.DroppedHint() != "" {
			t.Errorf("%s + the hint's entries: %v; still dropped %v", mine, err, rs.Dropped)
		}
	}
}

// TestUnknownVars: a PRUNER_* variable pruner does not read is warned of,
// with the one it may mean; the settings' variables, the off switch and
// the extensions' and scripts' own variables are not.
func TestUnknownVars(t *testing.T) {
	got := unknownVars([]string{"PRUNER_RECENTTURNS=3", "PRUNER_FLUSHH=0", "PRUNER_PRUNNING=off", "PRUNER_ZZZ=1",
		"PRUNER_RECENT_TURNS_TO_KEEP=3", "PRUNER_PRUNING=off", "PRUNER_BIN=/x", "PRUNER_REALPI_KEEP=1", "PRUNER_BENCH_FILE=f", "PATH=/bin", "PRUNERX=1"})
	want := []string{
		"PRUNER_RECENTTURNS is not a pruner variable: it is ignored (did you mean PRUNER_RECENT_TURNS_TO_KEEP?)",
		"PRUNER_FLUSHH is not a pruner variable: it is ignored (did you mean PRUNER_FLUSH?)",
		"PRUNER_PRUNNING is not a pruner variable: it is ignored (did you mean PRUNER_PRUNING?)",
	}
	if len(got) != 4 || !slices.Equal(got[:3], want) || !strings.HasPrefix(got[3], "PRUNER_ZZZ is not a pruner variable: it is ignored (pruner reads PRUNER_PRUNING, ") {
		t.Fatalf("got %q", got)
	}
	c, err := Load(Options{AgentDir: t.TempDir(), Getenv: env(nil), Environ: []string{"PRUNER_FLUSHH=0"}})
	if err != nil || !slices.Contains(c.Warnings, want[1]) {
		t.Fatalf("Load does not warn: %v %v", c.Warnings, err)
	}
}

// withoutGate is rs without the gate's own rules (guard.GateRules), which
// every rule set ends with whatever its source: it fails when they are
// not there, at the end, all of them.
func withoutGate(t *testing.T, rs *RuleSet) *RuleSet {
	t.Helper()
	n := 0
	for i := len(rs.Origins) - 1; i >= 0 && rs.Origins[i] == guard.GateRulesSource; i-- {
		n++
	}
	if n < 7 {
		t.Fatalf("the rules end with %d of the gate's own rules, want 7 or more: %q", n, ruleSummary(rs))
	}
	for _, o := range rs.Origins[:len(rs.Origins)-n] {
		if o == guard.GateRulesSource {
			t.Fatalf("a gate rule before the others: %q", ruleSummary(rs))
		}
	}
	out := *rs
	out.Rules = &guard.Rules{Source: rs.Rules.Source, Entries: rs.Entries[:len(rs.Entries)-n]}
	out.Origins = rs.Origins[:len(rs.Origins)-n]
	return &out
}

// A blank variable is unset, as an empty one is: PRUNER_PROTECTED_PATHS=' '
// used to turn path protection off.
func TestBlankEnvIsUnset(t *testing.T) {
	def, err := Load(Options{AgentDir: t.TempDir(), Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"", " ", "\t", " \n "} {
		c, err := Load(Options{AgentDir: t.TempDir(), Getenv: env(map[string]string{"PRUNER_PROTECTED_PATHS": v, "PRUNER_PROTECTED_TOOLS": v, "PRUNER_MAX_RETAINED_CHARS": v})})
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		if !slices.Equal(c.ProtectedPaths, def.ProtectedPaths) || len(c.ProtectedPaths) == 0 || !slices.Equal(c.ProtectedTools, def.ProtectedTools) || c.MaxRetainedChars != def.MaxRetainedChars {
			t.Errorf("%q: paths %q tools %q max %d, want the defaults %q %q %d", v, c.ProtectedPaths, c.ProtectedTools, c.MaxRetainedChars, def.ProtectedPaths, def.ProtectedTools, def.MaxRetainedChars)
		}
	}
}

// A key cut short or run on is named, once only one known key fits.
func TestShortenedKeysWarn(t *testing.T) {
	agent := t.TempDir()
	for body, want := range map[string]string{
		`{"contextPrune":{"recentTurns":3}}`:           "contextPrune.recentTurns is not a pruner or pi-condense key; did you mean recentTurnsToKeep?",
		`{"contextPrune":{"maxRetainedCharsLimit":3}}`: "did you mean maxRetainedChars?",
		`{"contextPrune":{"summarizer":"x"}}`:          "(ignored; known:", // summarizerCmd and summarizerConcurrency: no one guess
		`{"contextPrune":{"protected":["x"]}}`:         "(ignored; known:", // protectedTools, protectedPaths
	} {
		write(t, filepath.Join(agent, "settings.json"), body)
		c, err := Load(Options{AgentDir: agent, Getenv: env(nil)})
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if all := strings.Join(c.Warnings, "\n"); !strings.Contains(all, want) {
			t.Errorf("%s: warnings %q, want %q", body, all, want)
		}
	}
}

// Every bad value in effect is reported, each at its line and column, not
// only the first.
func TestEveryBadValueReported(t *testing.T) {
	agent := t.TempDir()
	p := filepath.Join(agent, "settings.json")
	write(t, p, "{\n  \"other\": {\"enabled\": 1},\n  \"contextPrune\": {\n    \"enabled\": \"yes\",\n    \"recentTurnsToKeep\": \"x\",\n\t\"maxRetainedChars\": -1\n  }\n}\n")
	_, err := Load(Options{AgentDir: agent, Getenv: env(nil)})
	multi, ok := err.(interface{ Unwrap() []error })
	if !ok {
		t.Fatalf("err = %v, want the bad values joined", err)
	}
	var got []string
	for _, e := range multi.Unwrap() {
		var ve *ValueError
		if !errors.As(e, &ve) {
			t.Fatalf("%v is not a ValueError", e)
		}
		got = append(got, fmt.Sprintf("%s %d:%d %s", ve.Key, ve.Line, ve.Col, e))
	}
	want := []string{
		"enabled 4:5 " + p + ":4:5: contextPrune.enabled: want true or false, got \"yes\"",
		"recentTurnsToKeep 5:5 " + p + ":5:5: contextPrune.recentTurnsToKeep: want a whole number ≥ 0, got \"x\"",
		"maxRetainedChars 6:2 " + p + ":6:2: contextPrune.maxRetainedChars: want a whole number ≥ 0, got -1",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// one bad value: the ValueError itself
	write(t, p, `{"contextPrune":{"flush":"no"}}`)
	if _, err := Load(Options{AgentDir: agent, Getenv: env(nil)}); err == nil || err.Error() != p+`:1:18: contextPrune.flush: want true or false, got "no"` {
		t.Fatalf("err = %v", err)
	}
}
