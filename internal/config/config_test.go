package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

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
	if !errors.As(err, &fe) || fe.Path != p || fe.Line != 3 {
		t.Fatalf("err = %v", err)
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
	if len(c.Warnings) != 3 || !strings.Contains(all, "did you mean maxRetainedChars?") || !strings.Contains(all, "contextPrune.foo is not a pruner key (ignored") ||
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
