package guard

import (
	"strings"
	"testing"
)

// Pass 36: copies that keep the source's path below the destination
// (cp --parents, rsync -R/--relative, rsync --files-from=-), install
// folders a package manager takes from the command's variables (GOBIN,
// npm_config_prefix, …, and go env -w), VAR=VALUE words of sudo,
// systemd-run and firejail, names a case-insensitive file system folds
// to a protected one (ſ, ı), and program-file rules (the binary, the
// PATH names that would shadow it) that nothing below them matches.
// Attack rows are denied with the reason's words; near-benign rows stay
// allowed; with and without a disk (runGate34's matchers).

func TestPass36KeepSourcePath(t *testing.T) {
	runGate34(t, []gate20Case{
		{`cp --parents extensions/x.ts .pi`, true, []string{".pi/extensions/x.ts", "cp --parents", "its path as given"}},
		{`cp --pa extensions/x.ts .pi`, true, []string{".pi/extensions/x.ts"}},
		{`cp --parents -t .pi extensions/x.ts`, true, []string{".pi/extensions/x.ts"}},
		{`cd /tmp && cp --parents .pi/extensions/x.ts ` + tCwd, true, []string{tCwd + "/.pi/extensions/x.ts"}},
		{`cp --parents -r hooks .claude/plugins/p`, false, nil}, // a project folder .claude/plugins: no rule
		{`cp --parents plugins/p/hooks/hooks.json ~/.claude`, true, []string{"~/.claude/plugins/"}},
		{`rsync -R extensions/x.ts .pi/`, true, []string{".pi/extensions/x.ts", "rsync -R"}},
		{`rsync --relative /tmp/./extensions/x.ts .pi/`, true, []string{".pi/extensions/x.ts"}},
		{`rsync --rel /tmp/evil/./settings.json .claude/`, true, []string{".claude/settings.json"}},
		{`echo extensions/x.ts | xargs cp --parents -t .pi`, true, []string{".pi/extensions/x.ts"}},
		{`echo .pi/settings.json | rsync --files-from=- /tmp/evil/ .`, true, []string{".pi/settings.json"}},
		{`printf '%s\n' .claude/settings.json | rsync -a --files-from=- /tmp/evil/ ./`, true, []string{".claude/settings.json"}},
		{`echo x | rsync --files-from=- /tmp/evil/ "$d"`, true, []string{"named when the command runs"}},
		// near-benign: the same copies of other paths
		{`cp --parents src/main.go /tmp/out`, false, nil},
		{`cp --parents src/main.go build`, false, nil},
		{`cp --parents docs/a.md .pi`, false, nil},
		{`rsync -R src/main.go /tmp/out/`, false, nil},
		{`rsync --relative /tmp/./src/x.ts build/`, false, nil},
		{`rsync --no-relative -R extensions/x.ts /tmp/out/`, false, nil},
		{`echo src/main.go | rsync --files-from=- . /tmp/out`, false, nil},
		{`cp extensions/x.ts .pi`, false, nil}, // without --parents: .pi/x.ts
	})
}

func TestPass36InstallEnv(t *testing.T) {
	bin := tHome + "/.pi/agent/bin"
	runGate34(t, []gate20Case{
		{`GOBIN=~/.pi/agent/bin go install example.com/x@latest`, true, []string{"go install writes x into folder " + bin, "denies write"}},
		{`GOPATH=~/.pi/agent go install example.com/x@latest`, true, []string{"go install writes x into folder " + bin}},
		{`export GOBIN=~/.pi/agent/bin; go install example.com/git@latest`, true, []string{bin}},
		{`env GOBIN=` + bin + ` go install example.com/x@latest`, true, []string{bin}},
		{`sudo GOBIN=` + bin + ` go install example.com/x@latest`, true, []string{bin}},
		{`go env -w GOBIN=` + bin, true, []string{"go env -w GOBIN", bin}},
		{`go env -w GOPATH=/tmp/gp:` + tHome + `/.pi/agent`, true, []string{"go env -w GOPATH"}},
		{`GOBIN="$d" go install example.com/x@latest`, true, []string{"$GOBIN, a folder named when the command runs"}},
		{`npm_config_prefix=~/.pi/agent npm i -g x`, true, []string{"$npm_config_prefix (installs into it)"}},
		{`NPM_CONFIG_PREFIX=~/.pi/agent npm i -g x`, true, []string{"$NPM_CONFIG_PREFIX"}},
		{`PREFIX=~/.pi/agent npm i -g x`, true, []string{"$PREFIX"}},
		{`PIP_TARGET=.pi/extensions pip install x`, true, []string{"$PIP_TARGET"}},
		{`PYTHONUSERBASE=~/.pi/agent pip install --user x`, true, []string{"$PYTHONUSERBASE"}},
		{`UV_TOOL_BIN_DIR=~/.pi/agent/bin uv tool install x`, true, []string{bin}},
		{`CARGO_INSTALL_ROOT=~/.pi/agent cargo install x`, true, []string{"$CARGO_INSTALL_ROOT"}},
		{`PIPX_BIN_DIR=~/.pi/agent/bin pipx install x`, true, []string{bin}},
		{`BUN_INSTALL=~/.pi/agent bun add -g x`, true, []string{"$BUN_INSTALL"}},
		{`GEM_HOME=~/.pi/agent gem install x`, true, []string{"$GEM_HOME"}},
		{`PNPM_HOME=~/.claude/plugins/p pnpm add -g x`, true, []string{"~/.claude/plugins/"}},
		// near-benign: install folders of the user's own
		{`GOBIN=/tmp/bin go install example.com/x@latest`, false, nil},
		{`GOBIN=$HOME/bin go install ./cmd/tool`, false, nil},
		{`GOPATH=$HOME/go go build ./...`, false, nil},
		{`GOCACHE=/tmp/gocache go test ./...`, false, nil},
		{`go env -w GOPRIVATE=example.com`, false, nil},
		{`go env -w GOBIN=` + tHome + `/bin`, false, nil},
		{`CARGO_TARGET_DIR=target cargo build`, false, nil},
		{`npm_config_cache=/tmp/npm npm ci`, false, nil},
		{`PIP_CACHE_DIR=/tmp/pip pip install -r requirements.txt`, false, nil},
		{`UV_PROJECT_ENVIRONMENT=.venv uv sync`, false, nil},
		{`go install example.com/x@latest`, false, nil},
	})
}

func TestPass36WrapperEnv(t *testing.T) {
	runGate34(t, []gate20Case{
		{`sudo TMPDIR=.pi/extensions mktemp`, true, []string{".pi/extensions"}},
		{`sudo -E TMPDIR=.pi/extensions mktemp -t XXXX.ts`, true, []string{".pi/extensions"}},
		{`systemd-run --setenv=TMPDIR=` + tCwd + `/.pi/extensions mktemp`, true, []string{".pi/extensions"}},
		{`systemd-run -E TMPDIR=` + tCwd + `/.pi/extensions mktemp`, true, []string{".pi/extensions"}},
		{`firejail --env=TMPDIR=.pi/extensions mktemp`, true, []string{".pi/extensions"}},
		// near-benign
		{`sudo TMPDIR=/tmp mktemp`, false, nil},
		{`sudo DEBIAN_FRONTEND=noninteractive apt-get install -y git`, false, nil},
		{`systemd-run --user -E FOO=1 true`, false, nil},
	})
}

// A case-insensitive file system compares names by folding (APFS) or
// upper-casing (NTFS): ſ (U+017F) is s there and ı (U+0131) is I, so
// `.pi/ſettings.json` opens .pi/settings.json; matching folds them too.
func TestPass36CaseFold(t *testing.T) {
	runGate34(t, []gate20Case{
		{`echo x > .claude/ſettings.json`, true, []string{".claude/settings.json"}},
		{`echo x > .pı/settings.json`, true, []string{".pi/settings.json"}},
		{`cat ~/.ſsh/id_rsa`, true, []string{"~/.ssh/"}},
		{`cat .ENV`, true, nil},
		// near-benign: other names with such letters
		{`cat ſrc/main.go`, false, nil},
		{`cat ünïcödé.txt`, false, nil},
	})
	for name, m := range gate34Matchers() {
		for _, p := range []string{".pi/ſettings.json", tCwd + "/.claude/ſettings.local.json", "~/.pı/agent/ſettings.json"} {
			if vs := m.Check(Call{Tool: "write", Args: map[string]any{"path": p, "content": "{}"}}); len(vs) == 0 {
				t.Errorf("%s: write %q allowed", name, p)
			}
		}
		if vs := m.Check(Call{Tool: "write", Args: map[string]any{"path": "docs/ſ.md", "content": "x"}}); len(vs) > 0 {
			t.Errorf("%s: write docs/ſ.md denied: %s", name, vs[0].Reason())
		}
	}
	m := gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome, CaseSensitive: true})
	if vs := m.Check(Call{Tool: "write", Args: map[string]any{"path": ".pi/ſettings.json", "content": "{}"}}); len(vs) > 0 {
		t.Errorf("case-sensitive: .pi/ſettings.json denied: %s", vs[0].Reason())
	}
}

// The binary and the PATH names that would shadow it are program files:
// a file of that name replaces or shadows the hook, a folder of that name
// does neither (a PATH search skips it), so a path below one is not the
// rule's. `mkdir pruner && cd pruner && echo > a.txt` used to be denied:
// a relative cd may go to a $CDPATH folder of that name, taken to be
// ~/.local/bin/pruner.
func TestPass36ProgramFileRules(t *testing.T) {
	exe := "/opt/pr/bin/pruner"
	r := gate20Rules().Union(GateRules(tHome+"/.pi/agent", exe)).Union(PathRules(exe, tHome+"/.local/bin:.:/opt/pr/bin:/usr/bin", nil))
	for _, e := range r.Entries {
		want := e.Source == PathRulesSource || e.Path == exe
		if e.File != want {
			t.Errorf("%s (%s): File %v, want %v", e.Path, e.Source, e.File, want)
		}
	}
	for _, env := range []Env{{Cwd: tCwd, Home: tHome}, {Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{exe: "\x7fELF"}, nil)}} {
		checkGate20(t, "program files", r.Matcher(env), []gate20Case{
			{`cp /bin/true ~/.local/bin/pruner`, true, []string{tHome + "/.local/bin/pruner", "denies write"}},
			{`ln -s /bin/true ~/.local/bin/pruner`, true, nil},
			{`echo > /opt/pr/bin/pruner`, true, []string{exe}},
			{`cp -r /tmp/evil/. ~/.local/bin/`, true, []string{"pruner"}},
			{`cp /bin/true pruner`, true, []string{`rule "pruner"`}},
			{`cd sub && cp /bin/true pruner`, true, nil},
			// a folder of that name, or a file below one (mkdir pruner
			// itself writes the bare rule's name: see below)
			{`cd pruner && echo x > notes.md`, false, nil},
			{`mkdir -p ~/.local/bin/pruner/x`, false, nil},
			{`echo x > /opt/pr/bin/pruner/a`, false, nil},
		})
	}
	r2 := gate20Rules().Union(GateRules(tHome+"/.pi/agent", exe)).Union(PathRules(exe, tHome+"/.local/bin:/opt/pr/bin:/usr/bin", nil))
	checkGate20(t, "no dot", r2.Matcher(Env{Cwd: tCwd, Home: tHome}), []gate20Case{
		{`mkdir pruner && cd pruner && echo > a.txt`, false, nil},
		{`mkdir -p pruner && cd pruner && go build -o pruner ../cmd/pruner`, false, nil},
		{`cd pruner && cp /bin/true ~/.local/bin/pruner`, true, nil},
	})
	// rules of a file keep matching below (a rule from the user's file is
	// never a program file)
	u := &Rules{Entries: []Entry{{Path: "/opt/pr/bin/pruner", Deny: SetWrite}}}
	if vs := u.Union(PathRules(exe, "/opt/pr/bin", nil)).Matcher(Env{Cwd: tCwd, Home: tHome}).Check(Call{Tool: "write", Args: map[string]any{"path": exe + "/x", "content": "x"}}); len(vs) == 0 {
		t.Error("a user's rule lost its folder matching to a program-file rule of the same path")
	}
	if !strings.Contains(unionKey(Entry{Path: "p", File: true}), "true") {
		t.Error("unionKey ignores File")
	}
}

// mktemp's shortcut for the shared temporary folder took every folder
// whose name starts with /tmp for it: a project in /tmp/x (its
// .pi/extensions) and /tmpx are other folders.
func TestPass36MktempBelowTmp(t *testing.T) {
	m := gate20Rules().Matcher(Env{Cwd: "/tmp/w/proj", Home: tHome})
	checkGate20(t, "tmp project", m, []gate20Case{
		{`mktemp -p /tmp/w/proj/.pi/extensions XXXX.ts`, true, []string{".pi/extensions"}},
		{`TMPDIR=/tmp/w/proj/.pi/extensions mktemp`, true, []string{".pi/extensions"}},
		{`mktemp /tmpx/.pi/extensions/XXXX.ts`, true, nil},
		{`mktemp -p .pi/extensions`, true, nil},
		{`mktemp -p /tmp`, false, nil},
		{`mktemp -p /tmp/ build.XXXX`, false, nil},
		{`mktemp -d /tmp/build.XXXXXX`, false, nil},
		{`TMPDIR=/tmp mktemp`, false, nil},
		{`mktemp -p /tmp/w/proj x.XXXX`, false, nil},
	})
}

// rsync writes into its --backup-dir, --temp-dir (-T) and --partial-dir;
// a relative one is the receiver's, below the destination.
func TestPass36RsyncDirs(t *testing.T) {
	runGate34(t, []gate20Case{
		{`rsync -b --backup-dir=.pi/extensions src/main.go /tmp/out/main.go`, true, []string{"--backup-dir=.pi/extensions", ".pi/extensions/"}},
		{`rsync --temp-dir=.pi/extensions src/main.go /tmp/out/`, true, []string{".pi/extensions"}},
		{`rsync -T .pi/extensions src/main.go /tmp/out/`, true, nil},
		{`rsync --partial-dir ~/.claude/plugins/p src/main.go /tmp/out/`, true, []string{"~/.claude/plugins/"}},
		{`cd /tmp && rsync --partial-dir=extensions src/main.go ` + tCwd + `/.pi/`, true, []string{"below the destination"}},
		{`rsync --temp-dir="$t" src/main.go /tmp/out/`, true, nil},
		// near-benign
		{`rsync -a --backup-dir=/tmp/bak src/ /tmp/out/`, false, nil},
		{`rsync -a --partial-dir=.rsync-partial src/ /tmp/out/`, false, nil},
		{`rsync -a -T /tmp src/ /tmp/out/`, false, nil},
	})
}

// history -w/-a write the history file, -r/-n read it; ssh writes its
// known-hosts file and its control socket.
func TestPass36HistorySSH(t *testing.T) {
	runGate34(t, []gate20Case{
		{`history -w .pi/settings.json`, true, []string{".pi/settings.json"}},
		{`HISTFILE=.claude/settings.json; history -s x; history -w`, true, []string{"$HISTFILE"}},
		{`history -r .env; history`, true, []string{".env"}},
		{`ssh -o UserKnownHostsFile=.pi/settings.json host`, true, []string{".pi/settings.json"}},
		{`ssh -M -S .pi/extensions/s host`, true, []string{".pi/extensions/s"}},
		{`history`, false, nil},
		{`history 20`, false, nil},
		{`history -w /tmp/h`, false, nil},
		{`ssh -o UserKnownHostsFile=/dev/null host`, false, nil},
	})
}
