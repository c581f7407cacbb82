package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gate21bMatchers: an empty project (no .pi/, no .claude/, no ~/.claude)
// on a disk, and the same rules without one.
func gate21bMatchers() map[string]*Matcher {
	files := map[string]string{
		tCwd + "/src/main.go":     "package main",
		tCwd + "/out/old.txt":     "x",
		tHome + "/notes/a.md":     "a",
		"/tmp/evil/settings.json": `{"packages":["/tmp/evil"]}`,
	}
	return map[string]*Matcher{
		"disk":    gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)}),
		"no disk": gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome}),
	}
}

// runGate21b is runGate20's check over the matchers ms.
func runGate21b(t *testing.T, ms map[string]*Matcher, cases []gate20Case) {
	t.Helper()
	for name, m := range ms {
		checkGate20(t, name, m, cases)
	}
}

// TestFillsMissingFolder21b: a recursive copy, move, link, clone or
// extraction that creates a protected folder which does not exist yet is
// denied by the rules' own paths below it; the same writes elsewhere, and
// writes that create nothing (rm -r, chmod -R), are allowed.
func TestFillsMissingFolder21b(t *testing.T) {
	pi := tCwd + "/.pi/settings.json"
	claude := tCwd + "/.claude/settings.json"
	home := tHome + "/.claude/settings.json"
	runGate21b(t, gate21bMatchers(), []gate20Case{
		{`cp -r /tmp/evil .pi`, true, []string{pi, "cp -r"}},
		{`cp -R /tmp/evil .claude`, true, []string{claude}},
		{`cp -rT /tmp/evil .pi`, true, []string{pi}},
		{`cp -a /tmp/evil/. .pi/`, true, []string{pi}},
		{`rsync -a /tmp/evil/ .pi`, true, []string{pi, "rsync"}},
		{`mv /tmp/evil ~/.claude`, true, []string{home, "mv"}},
		{`mv /tmp/evil .pi`, true, []string{pi}},
		{`ln -s /tmp/evil .pi`, true, []string{pi, "ln"}},
		{`ln -sfn /tmp/evil ~/.claude`, true, []string{home}},
		{`git clone https://example.com/evil.git .pi`, true, []string{pi, "git clone"}},
		{`mkdir .pi && cp -r /tmp/evil/* .pi/`, true, []string{tCwd + "/.pi", `rule ".pi/settings.json"`}},
		{`mkdir -p .pi && tar xf /tmp/e.tar -C .pi`, true, []string{pi}},
		{`unzip /tmp/e.zip -d .pi`, true, []string{pi}},
		{`cp -r /tmp/evil/. .`, true, []string{tCwd}},
		// names made from the source's glob: the sources' names, not the
		// destination's
		{`cp /tmp/evil/* .pi/`, true, []string{`rule ".pi/settings.json"`}},
		{`mkdir .claude && cp /tmp/evil/*.json .claude/`, true, []string{`rule ".claude/settings.json"`}},
		{`ln -s /tmp/evil/* .pi/`, true, []string{`rule ".pi/settings.json"`}},
		{`cp /tmp/evil/*.md .claude/`, false, nil},
		{`cp /tmp/evil/* out/`, false, nil},
		{`cp src/*.go build/`, false, nil},
		// the same writes into folders no rule lies below
		{`cp -r /tmp/evil build`, false, nil},
		{`cp -rT /tmp/evil out`, false, nil},
		{`rsync -a /tmp/evil/ out/`, false, nil},
		{`mv /tmp/evil ~/.claudex`, false, nil},
		{`ln -s /tmp/evil lnk`, false, nil},
		{`git clone https://example.com/evil.git`, false, nil},
		{`git clone https://example.com/evil.git vendor/evil`, false, nil},
		{`mkdir out2 && cp -r /tmp/evil/* out2/`, false, nil},
		{`tar xf /tmp/e.tar -C out`, false, nil},
		{`cp -r src .pi-old`, false, nil},
		{`chmod -R u+w out`, false, nil},
	})
	// writes that create nothing below a folder the disk shows is not
	// there (without a disk it may hold the files: denied as before)
	runGate21b(t, map[string]*Matcher{"disk": gate21bMatchers()["disk"]}, []gate20Case{
		{`rm -rf .pi`, false, nil},
		{`rm -rf ~/.claude`, false, nil},
		{`chmod -R u+w .pi`, false, nil},
	})
}

// TestFillsThroughRelativeLink21b: a link below the folder a write fills
// is written through, its relative target resolved from the link's own
// folder (sub/p -> ../.pi is the project's .pi, not the cwd's parent's),
// on a real temporary folder.
func TestFillsThroughRelativeLink21b(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.ToSlash(filepath.Join(root, "proj"))
	for _, d := range []string{"proj/.pi", "proj/sub", "proj/sub2", "proj/src/p", "proj/deep/a"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "proj/.pi/settings.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	// sub/p -> ../.pi (the project's .pi); deep/a/q -> ../../.pi; the cwd's
	// parent holds a .pi of no rule's (proj's parent is root)
	for link, to := range map[string]string{"proj/sub/p": "../.pi", "proj/deep/a/q": "../../.pi", "proj/sub2/x": "../src"} {
		if err := os.Symlink(to, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	m := gate20Rules().Matcher(Env{Cwd: proj, Home: tHome, FS: IOFS(os.DirFS("/"))})
	if m.Env().FS == nil {
		t.Fatal("the temporary folder is not seen on the disk")
	}
	pi := proj + "/.pi/settings.json"
	for _, c := range []gate20Case{
		{`tar xf /tmp/e.tar -C sub`, true, []string{pi, proj + "/sub/p"}},
		{`cp -r src/. sub/`, true, []string{pi}},
		{`rsync -a src/ sub/`, true, []string{pi}},
		{`cp -r /tmp/evil/. deep`, true, []string{pi}},
		{`cd sub && tar xf /tmp/e.tar`, true, []string{pi}},
		// made by the command itself
		{`ln -s ../.pi sub2/p2 && tar xf /tmp/e.tar -C sub2`, true, []string{pi}},
		{`ln -s ../.pi sub2/p2 && cp -r src/. sub2/`, true, []string{pi}},
		// a link to a folder no rule lies below; a folder without links
		{`tar xf /tmp/e.tar -C sub2`, false, nil},
		{`cp -r /tmp/evil/. src/`, false, nil},
		// reading through the link is no write
		{`cat sub/p/../../src/p`, false, nil},
		{`rm -rf sub`, false, nil},
	} {
		k, why := kindOf(m, c.cmd)
		switch {
		case c.deny && k == "":
			t.Errorf("%q: allowed, want denied", c.cmd)
		case !c.deny && k != "":
			t.Errorf("%q: denied (%s), want allowed", c.cmd, why)
		case c.deny:
			for _, w := range c.why {
				if !strings.Contains(why, w) {
					t.Errorf("%q: reason %q does not say %q", c.cmd, why, w)
				}
			}
		}
	}
}

// TestBuildOutputs21b: build and test tools' output options write the
// file they name or fill the folder they name; formatters rewrite their
// languages' files below a folder operand (the disk decides: they create
// nothing). The same options naming other paths, and read-only runs, are
// allowed.
func TestBuildOutputs21b(t *testing.T) {
	pi := tCwd + "/.pi/settings.json"
	outputs := []gate20Case{
		{`tsc --outDir .pi`, true, []string{pi, "tsc --outDir"}},
		{`tsc -outDir .pi`, true, []string{pi}},
		{`tsc --outdir=.pi`, true, []string{pi}},
		{`tsc --outFile .pi/settings.json`, true, []string{pi}},
		{`rollup -c -o .pi/settings.json`, true, []string{pi}},
		{`rollup src/main.js --file .pi/settings.json`, true, []string{pi}},
		{`rollup -d .pi`, true, []string{pi, "rollup -d"}},
		{`webpack --output-path .pi`, true, []string{pi}},
		{`webpack -o ~/.claude`, true, []string{tHome + "/.claude/settings.json"}},
		{`vite build --outDir .pi`, true, []string{pi}},
		{`esbuild src/a.ts --bundle --outdir=.pi`, true, []string{pi}},
		{`go test -c -o .pi/settings.json`, true, []string{pi}},
		{`go test -coverprofile .pi/settings.json ./...`, true, []string{pi}},
		{`go test -coverprofile=.pi/settings.json ./...`, true, []string{pi}},
		{`go test -cpuprofile .pi/settings.json`, true, []string{pi}},
		{`go test -memprofile=.pi/settings.json`, true, []string{pi}},
		{`go test -trace .pi/settings.json`, true, []string{pi}},
		{`go test -outputdir .pi -cpuprofile cpu.out`, true, []string{pi}},
		{`go test -json ./... > .pi/settings.json`, true, []string{pi}},
		{`pytest --junitxml=.pi/settings.json`, true, []string{pi}},
		{`pytest --junit-xml .pi/settings.json`, true, []string{pi}},
		{`pytest --cov=src --cov-report=xml:.pi/settings.json`, true, []string{pi}},
		{`pytest --cov-report html:.pi`, true, []string{pi}},
		{`pytest --basetemp=.pi`, true, []string{pi}},
		{`jest --coverageDirectory .pi`, true, []string{pi}},
		{`cargo build --target-dir .pi`, true, []string{pi}},
		// the same options elsewhere; runs that write nothing named
		{`tsc --outDir dist`, false, nil},
		{`tsc --noEmit`, false, nil},
		{`rollup -c -o dist/bundle.js`, false, nil},
		{`webpack --output-path dist`, false, nil},
		{`go test -c -o app.test ./pkg`, false, nil},
		{`go test -coverprofile=cover.out ./...`, false, nil},
		{`go test -run TestX -count=1 ./...`, false, nil},
		{`pytest --junitxml=report.xml --cov-report=xml:coverage.xml --cov-report=term`, false, nil},
		{`pytest --cov-report html:htmlcov`, false, nil},
		{`cargo build --target-dir target2`, false, nil},
	}
	runGate21b(t, gate21bMatchers(), outputs)

	// formatters: what the disk holds below the folder decides
	files := map[string]string{
		tCwd + "/.claude/settings.json": `{"hooks":{}}`,
		tCwd + "/src/main.go":           "package main",
		tCwd + "/src/a.py":              "x = 1",
		tCwd + "/web/a.ts":              "let a = 1",
	}
	withPy := map[string]string{tCwd + "/.pi/extensions/own.py": "x", tCwd + "/.pi/extensions/own.go": "package x"}
	for k, v := range files {
		withPy[k] = v
	}
	m := gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	mx := gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(withPy, nil)})
	claude := tCwd + "/.claude/settings.json"
	runGate21b(t, map[string]*Matcher{"disk": m}, []gate20Case{
		{`prettier --write .`, true, []string{claude, "prettier"}},
		{`prettier -w .claude`, true, []string{claude}},
		{`npx prettier --write .`, true, []string{claude}},
		{`eslint --fix .`, true, []string{claude, "eslint"}},
		{`biome format --write .`, true, []string{claude}},
		// no path: the current folder
		{`eslint --fix`, true, []string{claude, "eslint"}},
		{`npx eslint --fix --ext .ts`, true, []string{claude}},
		{`biome format --write`, true, []string{claude}},
		{`dprint fmt`, true, []string{claude}},
		{`dprint fmt .claude/settings.json`, true, []string{claude}},
		{`eslint`, false, nil},
		{`biome check`, false, nil},
		{`dprint check`, false, nil},
		{`dprint fmt web`, false, nil},
		// their languages' files only: settings.json is no Go or Python
		{`gofmt -w .`, false, nil},
		{`black .`, false, nil},
		{`ruff format .`, false, nil},
		{`ruff check --fix .`, false, nil},
		// a folder without protected files; checks that write nothing
		{`prettier --write web src`, false, nil},
		{`prettier --check .`, false, nil},
		{`eslint .`, false, nil},
		{`ruff check .`, false, nil},
		{`ruff format --check .`, false, nil},
		{`gofmt -d .`, false, nil},
	})
	ext := tCwd + "/.pi/extensions/own."
	runGate21b(t, map[string]*Matcher{"disk with pi extensions": mx}, []gate20Case{
		{`gofmt -w .`, true, []string{ext + "go", "gofmt"}},
		{`goimports -w .pi`, true, []string{ext + "go"}},
		{`black .`, true, []string{ext + "py", "black"}},
		{`ruff format .`, true, []string{ext + "py", "ruff"}},
		{`ruff --fix .`, true, []string{ext + "py"}},
		{`ruff check --fix`, true, []string{ext + "py"}},
		{`gofmt -w src`, false, nil},
		{`black src`, false, nil},
		{`ruff format src`, false, nil},
	})
}

// TestMCPConfigRules21b: Claude Code starts the MCP servers a project's
// .mcp.json and the user's ~/.claude.json list (commands run): the gate
// denies writing them, and a folder fill that creates them; reading them,
// and files of similar names, stay allowed.
func TestMCPConfigRules21b(t *testing.T) {
	mcp, user := tCwd+"/.mcp.json", tHome+"/.claude.json"
	runGate21b(t, gate21bMatchers(), []gate20Case{
		{`echo '{"mcpServers":{"x":{"command":"sh"}}}' > .mcp.json`, true, []string{mcp, `rule ".mcp.json"`}},
		{`cp /tmp/evil.json .mcp.json`, true, []string{mcp}},
		{`sed -i 's/a/b/' ~/.claude.json`, true, []string{user, `rule "~/.claude.json"`}},
		{`jq '.mcpServers.x.command="sh"' ~/.claude.json > /tmp/c && mv /tmp/c ~/.claude.json`, true, []string{user}},
		{`cp -r /tmp/evil/. .`, true, []string{tCwd}},
		{`cat .mcp.json ~/.claude.json`, false, nil},
		{`echo x > mcp.json`, false, nil},
		{`echo x > ~/.claude.json.bak`, false, nil},
		{`echo x > docs/.mcp.json.example`, false, nil},
	})
	for _, p := range []string{".mcp.json", "~/.claude.json"} {
		m := gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome})
		if rule, _ := verdict(m, "write", map[string]any{"path": p, "content": "{}"}); rule != p {
			t.Errorf("Write %s: rule %q, want %q", p, rule, p)
		}
		if rule, _ := verdict(m, "read", map[string]any{"path": p}); rule != "" {
			t.Errorf("Read %s: denied by %q", p, rule)
		}
	}
}
