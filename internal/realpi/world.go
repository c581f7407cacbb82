package realpi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// World is an isolated place to run pi: its own HOME (so ~/.pi/agent is
// World.AgentDir), a project directory to run in, and the scripted model's
// URL in models.json as provider "fake", model "fake-coder".
type World struct {
	Root     string
	Home     string
	AgentDir string // Home/.pi/agent
	Project  string
	Env      map[string]string // extra environment for every run (PATH, PRUNER_BIN, …)
	pi       *Install
}

// NewWorld lays out a world under root for pi, whose model is served at
// baseURL (e.g. an httptest server's URL + "/v1").
func NewWorld(root string, pi *Install, baseURL string) (*World, error) {
	w := &World{Root: root, Home: filepath.Join(root, "home"), Project: filepath.Join(root, "proj"), Env: map[string]string{}, pi: pi}
	w.AgentDir = filepath.Join(w.Home, ".pi", "agent")
	for _, d := range []string{w.AgentDir, w.Project, filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	models := map[string]any{"providers": map[string]any{"fake": map[string]any{
		"baseUrl": baseURL, "api": "openai-completions", "apiKey": "fake-key-not-secret",
		"models": []any{map[string]any{"id": "fake-coder", "name": "Fake Coder", "contextWindow": 128000, "maxTokens": 4096,
			"cost": map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}}},
	}}}
	b, _ := json.MarshalIndent(models, "", "  ")
	if err := os.WriteFile(filepath.Join(w.AgentDir, "models.json"), b, 0o644); err != nil {
		return nil, err
	}
	return w, nil
}

// WriteFile writes data to rel under the world root (parents created).
func (w *World) WriteFile(rel, data string) error {
	p := filepath.Join(w.Root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(data), 0o644)
}

// Result is one finished pi process.
type Result struct {
	Args     []string
	ExitCode int
	Stdout   string
	Stderr   string
	Elapsed  time.Duration
}

// command prepares `pi --offline --model fake/fake-coder ARGS…` in the
// project directory with the world's environment only (nothing inherited
// but PATH's system part).
func (w *World) command(ctx context.Context, args []string) *exec.Cmd {
	full := append([]string{w.pi.CLI, "--offline", "--model", "fake/fake-coder"}, args...)
	cmd := exec.CommandContext(ctx, w.pi.Node, full...)
	cmd.Dir = w.Project
	env := map[string]string{
		"HOME": w.Home, "PI_OFFLINE": "1", "PI_TELEMETRY": "0", "PI_SKIP_VERSION_CHECK": "1",
		"TZ": "UTC", "LANG": "C.UTF-8", "TERM": "dumb", "SHELL": "/bin/bash", "TMPDIR": filepath.Join(w.Root, "tmp"),
		"PATH": filepath.Dir(w.pi.Node) + ":/usr/local/bin:/usr/bin:/bin",
	}
	for k, v := range w.Env {
		env[k] = v
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd
}

// Run runs pi with args (see command) and waits at most timeout.
func (w *World) Run(ctx context.Context, timeout time.Duration, args ...string) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := w.command(ctx, args)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := &Result{Args: args, Stdout: out.String(), Stderr: errb.String(), Elapsed: time.Since(start)}
	if ctx.Err() != nil {
		return r, fmt.Errorf("pi %s: no exit within %s\nstderr: %s", strings.Join(args, " "), timeout, r.Stderr)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.ExitCode = ee.ExitCode()
	} else if err != nil {
		return r, err
	}
	return r, nil
}

// Sessions returns the session files pi wrote, oldest first by name.
func (w *World) Sessions() ([]string, error) {
	m, err := filepath.Glob(filepath.Join(w.AgentDir, "sessions", "*", "*.jsonl"))
	return m, err
}

// RunRPC runs `pi --mode rpc`, sends one prompt command and collects the
// JSON lines pi prints (events, responses, extension UI requests) until the
// run settles (agent_settled), then closes stdin. It waits at most timeout.
func (w *World) RunRPC(ctx context.Context, timeout time.Duration, prompt string) ([]map[string]any, *Result, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := w.command(ctx, []string{"--mode", "rpc"})
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	line, _ := json.Marshal(map[string]any{"id": "prompt-1", "type": "prompt", "message": prompt})
	if _, err := stdin.Write(append(line, '\n')); err != nil {
		return nil, nil, err
	}
	var events []map[string]any
	// one event per line, of any length (a tool result event carries the
	// whole output): no line limit, as pi's own JSONL readers have none
	br := bufio.NewReader(stdout)
	for {
		line, err := br.ReadBytes('\n')
		var ev map[string]any
		if json.Unmarshal(line, &ev) == nil {
			events = append(events, ev)
			if ev["type"] == "agent_settled" {
				break
			}
		}
		if err != nil {
			break
		}
	}
	stdin.Close()
	_, _ = io.Copy(io.Discard, stdout)
	werr := cmd.Wait()
	r := &Result{Args: []string{"--mode", "rpc"}, Stderr: errb.String(), Elapsed: time.Since(start)}
	if ctx.Err() != nil {
		return events, r, fmt.Errorf("pi --mode rpc: not settled within %s\nstderr: %s", timeout, r.Stderr)
	}
	if ee, ok := werr.(*exec.ExitError); ok {
		r.ExitCode = ee.ExitCode()
	}
	return events, r, nil
}
