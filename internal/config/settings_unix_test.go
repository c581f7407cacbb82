//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestGateSettingsNotRegular: a project's .pi/settings.json (or the agent
// dir's settings.json or configs/protected-paths.json) that is a FIFO, a
// link to /dev/zero or a folder is an error naming the file (the hook then
// denies every call) instead of a read that blocks or never ends — which
// would run into the agent's hook timeout, after which the agent runs the
// call. A symlink to a regular file is read.
func TestGateSettingsNotRegular(t *testing.T) {
	mk := map[string]func(t *testing.T, p string){
		"fifo": func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skip(err)
			}
		},
		"dev zero": func(t *testing.T, p string) {
			if _, err := os.Stat("/dev/zero"); err != nil {
				t.Skip(err)
			}
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
		},
		"folder": func(t *testing.T, p string) {
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, create := range mk {
		for _, where := range []string{"project", "global", "agent rules"} {
			t.Run(name+" "+where, func(t *testing.T) {
				agent, proj := t.TempDir(), t.TempDir()
				var p string
				switch where {
				case "project":
					p = filepath.Join(proj, ".pi", "settings.json")
				case "global":
					p = filepath.Join(agent, "settings.json")
				default:
					p = filepath.Join(agent, "configs", "protected-paths.json")
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
					t.Fatal(err)
				}
				create(t, p)
				done := make(chan error, 1)
				go func() {
					c, err := LoadGate(Options{AgentDir: agent, ProjectDir: proj, Getenv: env(nil)})
					if err == nil {
						_, err = c.DenyRules("")
					}
					done <- err
				}()
				select {
				case err := <-done:
					if err == nil || !strings.Contains(err.Error(), "not a regular file") || !strings.Contains(err.Error(), p) {
						t.Fatalf("err %v, want a not-a-regular-file error naming %s", err, p)
					}
				case <-time.After(5 * time.Second):
					t.Fatal("reading the settings blocked")
				}
			})
		}
	}
	t.Run("symlink to a regular file", func(t *testing.T) {
		agent, proj := t.TempDir(), t.TempDir()
		real := filepath.Join(t.TempDir(), "s.json")
		if err := os.WriteFile(real, []byte(`{"contextPrune":{"protectedPathRules":[{"path":"vault/","deny":["read"]}]}}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(proj, ".pi"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(real, filepath.Join(proj, ".pi", "settings.json")); err != nil {
			t.Fatal(err)
		}
		c, err := LoadGate(Options{AgentDir: agent, ProjectDir: proj, Getenv: env(nil)})
		if err != nil {
			t.Fatal(err)
		}
		rs, err := c.DenyRules("")
		if err == nil {
			rs = withoutGate(t, rs)
		}
		if err != nil || rs.Entries[len(rs.Entries)-1].Path != "vault/" {
			t.Fatalf("rules %v, err %v: want vault/ added", rs, err)
		}
	})
	if _, err := readRegular(filepath.Join(t.TempDir(), "none")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v, want ErrNotExist", err)
	}
}
