package guard

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Pass 33: git as a write primitive. Real repositories made with git in a
// temporary folder, read from the disk: a git command that writes the
// files of a commit or tree is denied in every repository, files written
// from an index an earlier git command may have changed are denied, a
// glob cd does not hide the repository, and configuration git reads from
// a file is read.

// gate33Git runs git in dir with no user or system configuration.
func gate33Git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// gate33Repo makes a repository at dir holding files (path → content),
// all added to the index and committed.
func gate33Repo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gate33Git(t, dir, "init", "-q")
	gate33Git(t, dir, "add", "-f", ".")
	gate33Git(t, dir, "commit", "-q", "-m", "x")
}

type gate33Dirs struct {
	root, clean, demo, linked, plain, evil, ok string
}

// gate33Setup: clean tracks src/a.go only; demo tracks .pi/settings.json;
// linked's index holds a symbolic link to .claude/settings.json; plain is
// no repository; evil and ok are git configuration files on the disk.
func gate33Setup(t *testing.T) gate33Dirs {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	d := gate33Dirs{root: root, clean: root + "/clean", demo: root + "/demo", linked: root + "/linked", plain: root + "/p",
		evil: root + "/e2.gc", ok: root + "/ok.gc"}
	gate33Repo(t, d.clean, map[string]string{"src/a.go": "package a"})
	gate33Repo(t, d.demo, map[string]string{"src/a.go": "package a", ".pi/settings.json": "{}", ".env": "K=1"})
	gate33Repo(t, d.linked, map[string]string{"src/a.go": "package a"})
	cmd := exec.Command("sh", "-c", "printf .claude/settings.json | git hash-object -w --stdin")
	cmd.Dir = d.linked
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	gate33Git(t, d.linked, "update-index", "--add", "--cacheinfo", "120000,"+strings.TrimSpace(string(out))+",lnk")
	gate33Git(t, d.clean, "config", "alias.co", "merge")
	gate33Git(t, d.clean, "config", "alias.sy", "!git pull")
	gate33Git(t, d.clean, "config", "alias.lg", "log --oneline")
	if err := os.MkdirAll(d.plain, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d.evil, []byte("[alias]\n\tst = !cp /tmp/x .pi/settings.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d.ok, []byte("[user]\n\tname = x\n[core]\n\tautocrlf = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return d
}

func gate33Disk(cwd string) *Matcher {
	return gate20Rules().Matcher(Env{Cwd: cwd, Home: tHome, FS: IOFS(os.DirFS("/"))})
}

const (
	g33Tree  = "pruner cannot read"
	g33Index = "a git command earlier in the command may have changed"
)

// attack 2: a commit's or tree's files into the work tree, denied in a
// repository that tracks no protected file, with and without the disk.
func TestPass33CommitTrees(t *testing.T) {
	d := gate33Setup(t)
	denied := []gate20Case{
		{`git checkout origin/master -- .claude`, true, []string{".claude/settings.json", "writes a commit's files there"}},
		{`git merge origin/master`, true, []string{"git merge", g33Tree, "outside the agent"}},
		{`git pull /tmp/src master`, true, []string{"git pull", g33Tree}},
		{`git fetch && git reset --hard origin/master`, true, []string{"git reset", g33Tree}},
		{`git reset --hard`, true, []string{"git reset", g33Tree}},
		{`git restore --source=origin/master .claude`, true, []string{".claude/settings.json"}},
		{`git restore -s origin/master -- .pi`, true, []string{".pi/settings.json"}},
		{`git rebase`, true, []string{"git rebase", g33Tree}},
		{`git rebase --abort`, true, []string{"git rebase", g33Tree}},
		{`git cherry-pick abc123`, true, []string{"git cherry-pick", g33Tree}},
		{`git revert abc123`, true, []string{"git revert", g33Tree}},
		{`git checkout evil`, true, []string{"may switch to a branch or commit", "git checkout -- FILE"}},
		{`git checkout -f`, true, []string{g33Tree}},
		{`git checkout -b new origin/evil`, true, []string{"may switch to a branch or commit"}},
		{`git switch evil`, true, []string{"git switch", g33Tree}},
		{`git switch -c new origin/evil`, true, []string{"git switch", g33Tree}},
		{`git stash pop`, true, []string{"a stash", g33Tree}},
		{`git stash apply stash@{0}`, true, []string{"a stash", g33Tree}},
		{`git stash`, true, []string{"HEAD's commit", g33Tree}},
		{`git am --abort`, true, []string{"git am"}},
		{`git read-tree -u -m HEAD evil`, true, []string{"git read-tree", g33Tree}},
		{`git bisect start`, true, []string{"git bisect", g33Tree}},
		{`git submodule update --init`, true, []string{"submodules' commits", g33Tree}},
		{`git checkout src/a.go`, true, []string{"git checkout -- FILE"}},
		{`git -c alias.co=merge co evil`, true, []string{"git merge", g33Tree}},
		{`git -c alias.up='pull --rebase' up`, true, []string{"git pull", g33Tree}},
		{`git -c alias.st=status st`, false, nil},
		{`git checkout main -- '*.json'`, true, []string{"may be any path"}},
		{`git checkout main -- :/`, true, []string{"may be any path"}},
		{`git --work-tree=.claude checkout evil -- settings.json`, true, []string{"work tree set elsewhere"}},
		// near-benign: no tree change, the index's files, named ordinary files
		{`git checkout -b new`, false, nil},
		{`git switch -c new`, false, nil},
		{`git checkout --orphan new`, false, nil},
		{`git checkout`, false, nil},
		{`git checkout -- src/a.go`, false, nil},
		{`git checkout ./src/a.go`, false, nil},
		{`git restore src/a.go`, false, nil},
		{`git restore --staged .`, false, nil},
		{`git checkout main -- src/a.go`, false, nil},
		{`git restore --source=HEAD~1 src/a.go`, false, nil},
		{`git stash push -- src/a.go`, false, nil},
		{`git reset HEAD~1`, false, nil},
		{`git status && git diff && git log --oneline`, false, nil},
		{`git add src/a.go && git commit -m x`, false, nil},
		{`git fetch && git branch x && git tag v1`, false, nil},
		{`git stash list`, false, nil},
		{`git bisect log`, false, nil},
		{`git rebase --quit`, false, nil},
		// a new work tree: a folder filled, checked as git clone's (pass 19)
		{`git worktree add .claude main`, true, []string{".claude/settings.json"}},
		{`git worktree add ../wt2 main`, false, nil},
	}
	checkGate20(t, "disk", gate33Disk(d.clean), denied)
	// aliases in the repository's configuration on the disk
	checkGate20(t, "disk", gate33Disk(d.clean), []gate20Case{
		{`git co evil`, true, []string{"git merge", g33Tree}},
		{`git sy`, true, []string{"git pull", g33Tree}},
		{`git lg`, false, nil},
	})
	checkGate20(t, "no disk", gate20Rules().Matcher(Env{Cwd: d.clean, Home: tHome}), denied)
	// the index's files: read from the disk (clean tracks none protected,
	// demo does); without the disk not known
	checkGate20(t, "disk", gate33Disk(d.clean), []gate20Case{
		{`git checkout -- .`, false, nil}, {`git checkout-index -f -a`, false, nil}, {`git restore .`, false, nil},
	})
	checkGate20(t, "disk demo", gate33Disk(d.demo), []gate20Case{
		{`git checkout -- .`, true, []string{"may rewrite what git tracks below", "/demo/.env"}},
		{`git checkout -- .pi`, true, []string{"may rewrite what git tracks below", ".pi/settings.json"}},
		{`git checkout-index -f -a`, true, []string{"/demo/"}},
		{`git checkout -- src`, false, nil},
	})
	checkGate20(t, "no disk", gate20Rules().Matcher(Env{Cwd: d.clean, Home: tHome}), []gate20Case{
		{`git checkout -- .`, false, nil}, // the index's files below a named folder: not covered
		{`git checkout-index -f -a`, true, []string{"without the disk"}},
	})
}

// attack 1: the index changed earlier in the same command, then
// materialised; an index holding a symbolic link.
func TestPass33StaleIndex(t *testing.T) {
	d := gate33Setup(t)
	cases := []gate20Case{
		{`git update-index --add --cacheinfo 100644,$(git hash-object -w /tmp/evil.json),.claude/settings.json && git checkout -- .`, true, []string{g33Index}},
		{`git update-index --add --cacheinfo 100644,$(git hash-object -w /tmp/evil.json),.claude/settings.json && git checkout-index -f -a`, true, []string{g33Index}},
		{`git update-index --add --cacheinfo 120000,$(printf .claude/settings.json|git hash-object -w --stdin),lnk && git checkout-index lnk && echo evil2 > lnk`, true, []string{g33Index}},
		{`git read-tree evil && git checkout -- .`, true, []string{g33Index}},
		{`git add -A && git restore .`, true, []string{g33Index}},
		{`git reset -q evil -- . && git checkout -- src`, true, []string{g33Index}},
		{`git rm --cached -r . && git checkout-index -a`, true, []string{g33Index}},
		{`git evilalias; git checkout -- .`, true, []string{g33Index}},
		// read-only git commands first: the index on the disk holds
		{`git status && git checkout -- .`, false, nil},
		{`git diff --stat; git restore src/a.go`, false, nil},
		// a new branch, the index's own files: the index stays
		{`git checkout -b new && git checkout -- . && git restore . && git checkout-index -f -a`, false, nil},
		{`git switch -c new && git checkout -- .`, false, nil},
		// a commit's file into the index too: the index changed
		{`git checkout main -- src/a.go && git checkout -- .`, true, []string{g33Index}},
		{`git restore --staged --source=evil . && git restore .`, true, []string{g33Index}},
	}
	checkGate20(t, "disk", gate33Disk(d.clean), cases)
	// the index on the disk holds a symbolic link: its target is a blob
	checkGate20(t, "disk linked", gate33Disk(d.linked), []gate20Case{
		{`git checkout-index -f -a`, true, []string{"symbolic link", "lnk"}},
		{`git checkout-index lnk && echo evil2 > lnk`, true, []string{"symbolic link"}},
		{`git checkout -- src`, false, nil},
	})
}

// attack 3: a glob cd names the repository; the index check expands it.
func TestPass33GlobCd(t *testing.T) {
	d := gate33Setup(t)
	m := gate33Disk(d.plain)
	glob := d.root + "/dem[o]"
	checkGate20(t, "disk", m, []gate20Case{
		{`cd ` + glob + ` && git reset --hard`, true, []string{g33Tree}},
		{`cd ` + glob + ` && git checkout-index -f .pi/settings.json`, true, []string{".pi/settings.json"}},
		{`cd ` + glob + ` && git checkout-index -f -a`, true, []string{"/demo/"}},
		{`cd ` + glob + ` && git checkout -- .`, true, []string{"may rewrite what git tracks below", "/demo/"}},
		{`cd ` + glob + ` && git stash pop`, true, []string{g33Tree}},
		{`cd ` + d.root + `/de* && git checkout -- .`, true, []string{"may rewrite what git tracks below", "/demo/"}},
		{`cd "$(cat /tmp/where)" && git checkout -- .`, true, nil},
		// what git prints there: a tracked .env in demo
		{`cd ` + glob + ` && git diff HEAD`, true, []string{".env"}},
		// a glob that names the repository tracking none protected
		{`cd ` + d.root + `/cl[e]an && git checkout -- .`, false, nil},
		{`cd ` + d.root + `/cl[e]an && git checkout-index -f -a`, false, nil},
	})
}

// attack 4: configuration git reads from a file for this command.
func TestPass33ConfigSources(t *testing.T) {
	d := gate33Setup(t)
	m := gate33Disk(d.clean)
	cases := []gate20Case{
		{`git -c include.path=` + d.evil + ` st`, true, []string{d.evil, "alias.st"}},
		{`git -c includeIf.onbranch:main.path=` + d.evil + ` st`, true, []string{"alias.st"}},
		{`GIT_CONFIG_GLOBAL=` + d.evil + ` git st`, true, []string{"$GIT_CONFIG_GLOBAL", "alias.st"}},
		{`GIT_CONFIG_SYSTEM=` + d.evil + ` git st`, true, []string{"alias.st"}},
		{`GIT_CONFIG=` + d.evil + ` git st`, true, []string{"alias.st"}},
		{`export GIT_CONFIG_GLOBAL=` + d.evil + `; git st`, true, []string{"alias.st"}},
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=include.path GIT_CONFIG_VALUE_0=` + d.evil + ` git st`, true, []string{"alias.st"}},
		{`GIT_CONFIG_PARAMETERS="'include.path'='` + d.evil + `'" git st`, true, []string{"alias.st"}},
		{`CF=` + d.evil + `; git --config-env=include.path=CF st`, true, []string{"alias.st"}},
		{`git --config-env=include.path=CF st`, true, []string{"$CF"}},
		{`git -c include.path=$F st`, true, []string{"computed when the command runs"}},
		// readable files whose keys run nothing; no file; /dev/null
		{`git -c include.path=` + d.ok + ` log --oneline`, false, nil},
		{`GIT_CONFIG_GLOBAL=` + d.ok + ` git status`, false, nil},
		{`git -c include.path=` + d.root + `/none.gc status`, false, nil},
		{`GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_SYSTEM=/dev/null git status`, false, nil},
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.autocrlf GIT_CONFIG_VALUE_0=false git status`, false, nil},
	}
	checkGate20(t, "disk", m, cases)
	// without the disk a configuration file cannot be read
	checkGate20(t, "no disk", gate20Rules().Matcher(Env{Cwd: d.clean, Home: tHome}), []gate20Case{
		{`git -c include.path=` + d.ok + ` log`, true, []string{"without the disk"}},
		{`GIT_CONFIG_GLOBAL=` + d.evil + ` git st`, true, []string{"without the disk"}},
		{`GIT_CONFIG_GLOBAL=/dev/null git status`, false, nil},
	})
}
