package guard

import (
	"strings"
	"testing"
)

// gate20Rules are the rules the hook applies with no settings: the
// built-in defaults and the gate's own configuration.
func gate20Rules() *Rules {
	return DefaultRules().Union(GateRules(tHome+"/.pi/agent", ""))
}

// gate20Matchers: a project holding Claude Code's and pi's project
// settings and a pi extension, pi's agent dir with its settings and the
// protect extension; and the same rules without a disk (reasoning from
// the rules alone).
func gate20Matchers() map[string]*Matcher {
	files := map[string]string{
		tCwd + "/.claude/settings.json":      `{"hooks":{}}`,
		tCwd + "/.claude/notes.md":           "x",
		tCwd + "/.pi/settings.json":          `{"packages":[]}`,
		tCwd + "/.pi/extensions/own.ts":      "export default 1",
		tCwd + "/src/main.go":                "package main",
		tCwd + "/docs/a.md":                  "a",
		tCwd + "/in.mp4":                     "x",
		tCwd + "/a.png":                      "x",
		tCwd + "/cfg.yaml":                   "a: 1",
		tHome + "/.pi/agent/settings.json":   "{}",
		tHome + "/.pi/agent/extensions/p.ts": "x",
	}
	return map[string]*Matcher{
		"disk":    gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)}),
		"no disk": gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome}),
	}
}

// gate20Case: a command, whether it is denied, and what the reason must
// say (the protected path and what the command does).
type gate20Case struct {
	cmd  string
	deny bool
	why  []string
}

func runGate20(t *testing.T, cases []gate20Case, only ...string) {
	t.Helper()
	for name, m := range gate20Matchers() {
		if len(only) > 0 && !contains(only, name) {
			continue
		}
		checkGate20(t, name, m, cases)
	}
}

// checkGate20 checks each case's verdict and reason words against m.
func checkGate20(t *testing.T, name string, m *Matcher, cases []gate20Case) {
	t.Helper()
	for _, c := range cases {
		k, why := kindOf(m, c.cmd)
		switch {
		case c.deny && k == "":
			t.Errorf("%s: %q: allowed, want denied", name, c.cmd)
		case !c.deny && k != "":
			t.Errorf("%s: %q: denied (%s), want allowed", name, c.cmd, why)
		case c.deny:
			for _, w := range c.why {
				if !strings.Contains(why, w) {
					t.Errorf("%s: %q: reason %q does not say %q", name, c.cmd, why, w)
				}
			}
		}
	}
}

// TestPiPackageCommands20: pi install/remove/uninstall/update/config
// rewrite pi's settings, whose packages pi loads as code (the agent
// dir's; with -l the project's .pi/settings.json); pi's other commands
// (a prompt, list, --help) write neither.
func TestPiPackageCommands20(t *testing.T) {
	agent := tHome + "/.pi/agent/settings.json"
	runGate20(t, []gate20Case{
		{`pi install /tmp/evilpkg`, true, []string{agent, "pi install", "loads as code"}},
		{`pi install npm:@evil/pkg`, true, []string{agent}},
		{`pi install git:github.com/evil/pkg`, true, []string{agent}},
		{`pi remove npm:pkg`, true, []string{agent, "pi remove"}},
		{`pi uninstall npm:pkg`, true, []string{agent, "pi uninstall"}},
		{`pi update`, true, []string{agent, "pi update"}},
		{`pi update npm:pkg`, true, []string{"pi update"}},
		{`pi config`, true, []string{"pi config"}},
		{`pi install -l /tmp/evilpkg`, true, []string{tCwd + "/.pi/settings.json", "pi install -l"}},
		{`pi install --local npm:x`, true, []string{tCwd + "/.pi/settings.json"}},
		{`cd /tmp && pi install -l ./x`, true, []string{"/tmp/.pi/settings.json"}},
		{`PI_CODING_AGENT_DIR=/elsewhere pi install x`, false, nil}, // writes /elsewhere's settings: not this gate's
		{`pi $SUB x`, true, nil},
		{`pi --model m install npm:x`, true, []string{agent, "pi install"}},
		{`npx pi install npm:x`, true, nil},
		{`pi list`, false, nil},
		{`pi --help`, false, nil},
		{`pi -p "summarise README.md"`, false, nil},
		{`pi --version`, false, nil},
	})
}

// TestPiCustomAgentDir20: with the gate's agent dir set elsewhere
// ($PI_CODING_AGENT_DIR where the hook runs), pi install still writes the
// settings the gate protects: denied, the reason naming the agent dir.
func TestPiCustomAgentDir20(t *testing.T) {
	m := DefaultRules().Union(GateRules("/opt/pi-agent", "")).Matcher(Env{Cwd: tCwd, Home: tHome})
	k, why := kindOf(m, `pi install npm:evil`)
	if k == "" || !strings.Contains(why, "PI_CODING_AGENT_DIR") {
		t.Errorf("pi install with the agent dir elsewhere: %q (%s), want denied naming $PI_CODING_AGENT_DIR", k, why)
	}
	if k, why := kindOf(m, `PI_CODING_AGENT_DIR=/opt/pi-agent pi remove npm:x`); k != KindDeny || !strings.Contains(why, "/opt/pi-agent/settings.json") {
		t.Errorf("pi remove with the agent dir set: %q (%s), want a deny of /opt/pi-agent/settings.json", k, why)
	}
	if k, why := kindOf(m, `pi -p hello`); k != "" {
		t.Errorf("pi -p: denied (%s)", why)
	}
}

// TestProjectPiCode20: a trusted project's .pi/extensions/ and
// .pi/settings.json (its packages and extensions keys) are code pi
// loads, which could turn the protect extension off: gate rules.
func TestProjectPiCode20(t *testing.T) {
	runGate20(t, []gate20Case{
		{`echo 'export default () => {}' > .pi/extensions/off.ts`, true, []string{".pi/extensions/", "the gate's own configuration"}},
		{`cp /tmp/off.ts .pi/extensions/`, true, []string{".pi/extensions"}},
		{`rm -rf .pi/extensions`, true, []string{".pi/extensions"}},
		{`echo '{"packages":["/tmp/evil"]}' > .pi/settings.json`, true, []string{".pi/settings.json", "the gate's own configuration"}},
		{`sed -i 's/a/b/' .pi/settings.json`, true, []string{".pi/settings.json"}},
		{`cat .pi/settings.json`, false, nil},
		{`ls .pi/extensions`, false, nil},
		{`echo x > docs/settings.json`, false, nil},
	})
	m := gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome})
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"write", map[string]any{"path": ".pi/extensions/off.ts", "content": "x"}},
		{"Write", map[string]any{"file_path": tCwd + "/.pi/settings.json", "content": "{}"}},
		{"edit", map[string]any{"path": ".pi/settings.json", "edits": []any{}}},
	} {
		if rule, _ := verdict(m, tc.tool, tc.args); rule == "" {
			t.Errorf("%s %v: allowed, want denied", tc.tool, tc.args)
		}
	}
	if rule, _ := verdict(m, "read", map[string]any{"path": ".pi/settings.json"}); rule != "" {
		t.Errorf("reading .pi/settings.json: denied by %q", rule)
	}
	// (pass 21b adds .mcp.json and ~/.claude.json)
	// (pass 34 adds .pi/git/, .pi/npm/, Claude Code's two managed settings and ~/.claude/plugins/)
	if g := GateRules("", ""); len(g.Entries) != 13 {
		t.Errorf("GateRules without agent dir or binary: %d entries, want 13", len(g.Entries))
	}
}

// TestDestinationFolders20: git clone URL DIR, git -C D clone URL DIR and
// git worktree add DIR write DIR in full (clone without DIR: the URL's
// last segment); a folder holding a protected path (or one itself) is
// denied, a new folder elsewhere is not. --work-tree pointing at a
// folder holding one is denied (gate27's rewrite rule, kept here).
func TestDestinationFolders20(t *testing.T) {
	runGate20(t, []gate20Case{
		{`git clone https://x/y ~/.pi/agent/extensions`, true, []string{tHome + "/.pi/agent/extensions"}},
		{`git -C ~/.pi/agent clone https://x/y extensions`, true, []string{tHome + "/.pi/agent/extensions"}},
		{`git -C ~/.pi -C agent clone https://x/y extensions`, true, []string{tHome + "/.pi/agent/extensions"}},
		{`git clone --depth 1 https://x/y .pi/extensions`, true, []string{".pi/extensions"}},
		{`git clone https://x/.claude.git`, true, []string{".claude/settings.json", "git clone"}},
		{`git worktree add ~/.pi/agent/extensions`, true, []string{tHome + "/.pi/agent/extensions"}},
		{`git worktree add .claude evil`, true, []string{".claude/settings.json", "git worktree add"}},
		{`git worktree add -b x .pi/extensions`, true, []string{".pi/extensions"}},
		{`git --work-tree=.claude checkout evil -- settings.json`, true, nil},
		{`gh repo clone evil/ext .pi/extensions`, true, []string{".pi/extensions", "gh repo clone"}},
		{`gh repo clone evil/.claude`, true, []string{".claude/settings.json"}},
		{`git submodule add https://x/y .pi/extensions`, true, []string{".pi/extensions", "git submodule add"}},
		{`git submodule add https://x/.claude.git`, true, []string{".claude/settings.json"}},
		{`npm install --prefix ~/.pi/agent/extensions evil`, true, []string{tHome + "/.pi/agent/extensions"}},
		{`npm i -g --prefix ~/.pi/agent/extensions evil`, true, []string{tHome + "/.pi/agent/extensions"}},
		{`gh repo clone x/y /tmp/y`, false, nil},
		{`git submodule add https://x/y vendor/y`, false, nil},
		{`git clone https://github.com/x/y`, false, nil},
		{`git clone https://github.com/x/y.git /tmp/y`, false, nil},
		{`git -C /tmp clone https://x/y z`, false, nil},
		{`git worktree add ../wt2 main`, false, nil},
		{`git worktree list`, false, nil},
	})
}

// TestFolderAccess20: chmod, chown, chattr, setfacl of a folder change
// who may open everything below it (chmod 000 .claude hides the hook's
// settings): denied when the folder holds a protected path; a file or a
// folder holding none is fine.
func TestFolderAccess20(t *testing.T) {
	runGate20(t, []gate20Case{
		{`chmod 000 .claude`, true, []string{".claude/settings.json", "chmod of a folder"}},
		{`chmod a-r ~/.pi/agent`, true, []string{tHome + "/.pi/agent/"}},
		{`chmod -v 0 .pi`, true, []string{tCwd + "/.pi/"}},
		{`chown nobody .claude`, true, []string{".claude/settings.json", "chown"}},
		{`chgrp nogroup .claude`, true, []string{"chgrp"}},
		{`chattr +i .claude`, true, []string{".claude/settings.json", "chattr"}},
		{`setfacl -m u:nobody:--- .claude`, true, []string{".claude/settings.json", "setfacl"}},
		{`install -d -m 000 .claude`, true, []string{".claude/settings.json", "install -d"}},
		{`install -d -o nobody ~/.pi/agent/extensions`, true, []string{tHome + "/.pi/agent/extensions"}},
		{`install -d -m 755 build`, false, nil},
		{`chmod +x src/main.go`, false, nil},
		{`chmod 755 src`, false, nil},
		{`chown -R me docs`, false, nil},
		{`setfacl -m u:x:r docs`, false, nil},
	})
}

// TestFileWriters20: programs whose writes the generic handling took for
// reads: php's file_put_contents/fputs, yq -i, cmake -E's cp/mv/rm,
// rename's computed names, ffmpeg's and convert's outputs.
func TestFileWriters20(t *testing.T) {
	runGate20(t, []gate20Case{
		{`php -r 'file_put_contents(".claude/settings.json",1);'`, true, []string{".claude/settings.json"}},
		{`php -r '$f=fopen(".pi/settings.json","a"); fputs($f,"x");'`, true, []string{".pi/settings.json"}},
		{`yq -i '.hooks={}' .claude/settings.json`, true, []string{".claude/settings.json"}},
		{`yq --inplace '.a=1' ~/.pi/agent/settings.json`, true, []string{tHome + "/.pi/agent/settings.json"}},
		{`cmake -E copy /tmp/x .claude/settings.json`, true, []string{".claude/settings.json"}},
		{`cmake -E copy_if_different /tmp/settings.json .claude`, true, []string{".claude/settings.json", "cmake -E copy_if_different puts settings.json into folder .claude"}},
		{`cmake -E copy -t .claude /tmp/settings.json`, true, []string{".claude/settings.json"}},
		{`cmake -E rename /tmp/x .claude/settings.json`, true, []string{".claude/settings.json"}},
		{`cmake -E rm -rf .claude`, true, []string{".claude/settings.json"}},
		{`cmake -E remove_directory ~/.pi/agent/extensions`, true, []string{tHome + "/.pi/agent/extensions"}},
		{`cmake -E copy_directory /tmp/evil .pi/extensions`, true, []string{".pi/extensions"}},
		{`cmake -E create_symlink /tmp/evil .pi/settings.json`, true, []string{".pi/settings.json"}},
		{`rename s/x/settings/ .claude/x.json`, true, []string{".claude/settings.json", "rename (it computes the new names"}},
		{`rename x.json settings.json .claude/x.json`, true, []string{"rename (it computes the new names"}},
		{`ffmpeg -i /tmp/a.mp4 .claude/settings.json`, true, []string{".claude/settings.json"}},
		{`ffmpeg -y -i in.mp4 -f data ~/.pi/agent/settings.json`, true, []string{tHome + "/.pi/agent/settings.json"}},
		{`convert /tmp/a.png .claude/settings.json`, true, []string{".claude/settings.json"}},
		{`magick /tmp/a.png -write .pi/settings.json out.png`, true, []string{".pi/settings.json"}},
		{`php -r 'echo strlen(file_get_contents("src/main.go"));'`, false, nil},
		{`yq '.hooks' .claude/settings.json`, false, nil},
		{`yq -i '.a=1' cfg.yaml`, false, nil},
		{`cmake -E copy src/main.go docs/`, false, nil},
		{`cmake -E echo hi`, false, nil},
		{`cmake --build build`, false, nil},
		{`rename s/a/b/ docs/a.md`, false, nil},
		{`ffmpeg -i in.mp4 out.webm`, false, nil},
		{`ffmpeg -i .claude/settings.json out.txt`, false, nil}, // reading it is allowed
		{`convert a.png b.jpg`, false, nil},
	})
}

// TestCopyIntoFolder20: a copy into a folder writes FOLDER/basename(SRC),
// by cp after a cd and by interpreter code (shutil.copy/copy2/move,
// fs.copyFileSync, fs.cpSync); a computed source may be any name there.
func TestCopyIntoFolder20(t *testing.T) {
	runGate20(t, []gate20Case{
		{`cd ~/.pi/agent && cp /tmp/settings.json .`, true, []string{tHome + "/.pi/agent/settings.json"}},
		{`python3 -c 'import shutil; shutil.copy("/tmp/settings.json", ".claude")'`, true, []string{".claude/settings.json", "copy puts settings.json into folder .claude"}},
		{`python3 -c 'import shutil; shutil.copy2("/tmp/settings.json", ".claude/")'`, true, []string{".claude/settings.json"}},
		{`cd ~/.pi/agent && python3 -c 'import shutil; shutil.copy("/tmp/settings.json", ".")'`, true, []string{tHome + "/.pi/agent/settings.json"}},
		{`node -e 'require("fs").copyFileSync("/tmp/settings.json", ".claude")'`, true, []string{".claude/settings.json"}},
		{`node -e 'require("fs").cpSync("/tmp/d", ".pi/extensions", {recursive: true})'`, true, []string{".pi/extensions"}},
		{`python3 -c 'import shutil,sys; shutil.copy(sys.argv[1], ".claude")' /tmp/x`, true, []string{".claude/settings.json"}},
		{`python3 -c 'import shutil; shutil.copy(src="/tmp/settings.json", dst=".claude")'`, true, []string{".claude/settings.json"}},
		{`python3 -c 'import shutil,os; shutil.copy("/tmp/settings.json", os.path.expanduser("~/.pi/agent"))'`, true, []string{tHome + "/.pi/agent/settings.json"}},
		{`python3 -c 'import shutil; shutil.copy("/tmp/settings.json", "docs")'`, false, nil},
		{`python3 -c 'import shutil; shutil.copyfile("/tmp/s.json", "out.json")'`, false, nil},
		{`python3 -c 'print("a.b".replace("a", "b"))'`, false, nil},
	}, "disk")
	// without the disk a folder is not known to be one: the literal
	// destination and DEST/basename are both taken as written
	runGate20(t, []gate20Case{
		{`python3 -c 'import shutil; shutil.copy("/tmp/settings.json", ".claude")'`, true, []string{".claude/settings.json"}},
		{`node -e 'require("fs").copyFileSync("/tmp/settings.json", ".claude")'`, true, []string{".claude/settings.json"}},
		{`python3 -c 'import shutil; shutil.copy("/tmp/settings.json", "docs")'`, false, nil},
	}, "no disk")
}
