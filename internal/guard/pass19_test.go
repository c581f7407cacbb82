package guard

import (
	"strings"
	"testing"
)

// gate19Exe is the pruner binary the gate's rules protect in these tests.
const gate19Exe = "/usr/local/bin/pruner"

// gate19Matchers: the built-in rules with the gate's own configuration, a
// repository at the cwd holding the project's .claude/settings.json, .env
// and a sub folder, and the agent dir's settings.json; the git index
// tracks the given paths. The second matcher has no disk.
func gate19Matchers(tracked ...string) (disk, noDisk *Matcher) {
	files := map[string]string{
		tCwd + "/.git/HEAD": "ref: refs/heads/main\n", tCwd + "/.claude/settings.json": "{}", tCwd + "/.env": "K=1",
		tCwd + "/a.txt": "a", tCwd + "/sub/m.go": "package m", tCwd + "/docs/x.md": "x",
		tHome + "/.pi/agent/settings.json": "{}", tHome + "/notes/n.txt": "n",
	}
	if tracked != nil {
		files[tCwd+"/.git/index"] = indexOf(tracked...)
	}
	rules := DefaultRules().Union(GateRules(tHome+"/.pi/agent", gate19Exe))
	return rules.Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)}), rules.Matcher(Env{Cwd: tCwd, Home: tHome})
}

// pass19Case is a command, the verdict wanted, and for a denial a text
// its reason must hold (the protected path, what the command would do).
type pass19Case struct {
	cmd  string
	want Kind
	says string
}

func runPass19(t *testing.T, m *Matcher, name string, cases []pass19Case) {
	t.Helper()
	for _, c := range cases {
		got, why := kindOf(m, c.cmd)
		if got != c.want {
			t.Errorf("%s: %q: got %q, want %q (%s)", name, c.cmd, got, c.want, why)
			continue
		}
		if c.says != "" && !strings.Contains(why, c.says) {
			t.Errorf("%s: %q: reason %q does not say %q", name, c.cmd, why, c.says)
		}
	}
}

// TestIntoFolder19: cp, mv, install and ln into a folder write
// FOLDER/basename(SRC) (-t FOLDER, FOLDER/, a folder on the disk, or a
// name the disk does not show is not one); a source named when the
// command runs may be any name. The same into a folder that holds no
// protected path, or under another name, passes.
func TestIntoFolder19(t *testing.T) {
	disk, noDisk := gate19Matchers()
	attacks := []pass19Case{
		{`cp evil settings.json .claude/`, KindDeny, "cp puts settings.json into folder .claude/"},
		{`cp settings.json .claude`, KindDeny, "/home/user/proj/.claude/settings.json"},
		{`mv settings.json .claude`, KindDeny, "mv puts settings.json into folder .claude"},
		{`cp -t .claude settings.json`, KindDeny, ".claude/settings.json"},
		{`cp --target-directory=.claude /tmp/settings.json`, KindDeny, ".claude/settings.json"},
		{`mv -t ~/.pi/agent /tmp/settings.json`, KindDeny, "/home/user/.pi/agent/settings.json"},
		{`mv /tmp/x/settings.json ~/.pi/agent/`, KindDeny, "/home/user/.pi/agent/settings.json"},
		{`install -m 644 settings.json .claude/`, KindDeny, "install puts settings.json"},
		{`ginstall -t .claude settings.json`, KindDeny, ".claude/settings.json"},
		{`ln -s /tmp/x/settings.json .claude/`, KindDeny, "ln puts settings.json"},
		{`ln -sf /tmp/x/settings.json -t .claude`, KindDeny, ".claude/settings.json"},
		{`cd .claude && ln -s /tmp/evil/settings.json`, KindDeny, "ln makes it in the current folder"},
		{`cp a.txt /tmp/settings.json .claude/`, KindDeny, ".claude/settings.json"},
		{`cp *.json .claude/`, KindDeny, ".claude/*.json"},
		{`cp "$F" .claude/`, KindFolder, "a source named when the command runs"},
		{`mv -- settings.json .claude`, KindDeny, ".claude/settings.json"},
		{`cp -r conf/ .claude`, KindFolder, ".claude/settings.json"},
		{`rsync settings.json .claude/`, KindDeny, "rsync puts settings.json into folder .claude/"},
		{`rsync -T /tmp /tmp/x/settings.json .claude`, KindDeny, ".claude/settings.json"},
		{`scp host:settings.json .claude/`, KindDeny, "scp puts settings.json"},
		{`scp host:/etc/settings.json ~/.pi/agent`, KindDeny, "/home/user/.pi/agent/settings.json"},
		{`mv conf .claude`, KindDeny, ".claude/conf"},
	}
	benign := []pass19Case{
		{`cp a.txt .claude/`, "", ""},
		{`cp a.txt sub/`, "", ""},
		{`cp -t sub a.txt settings.json`, "", ""},
		{`mv a.txt sub`, "", ""},
		{`mv a.txt b.txt`, "", ""},
		{`mv sub sub2`, "", ""},
		{`install -m 755 tool ~/notes/`, "", ""},
		{`install -d .claude`, "", ""},
		{`ln -s a.txt b.txt`, "", ""},
		{`ln -s /tmp/x/README.md .claude/`, "", ""},
		{`cp -r sub sub3`, "", ""},
		{`cp *.txt .claude/`, "", ""},
		{`rsync a.txt .claude/`, "", ""},
		{`rsync a.txt host:/tmp/`, "", ""},
		{`scp a.txt host:`, "", ""},
		{`scp host:x .claude/`, "", ""},
	}
	// mv conf .claude, where .claude is a folder: conf lands in
	// .claude/conf, which is not protected; without the disk .claude may
	// be conf itself
	runPass19(t, disk, "disk", append(attacks[:len(attacks)-1], benign...))
	runPass19(t, disk, "disk", []pass19Case{{`mv conf .claude`, "", ""}})
	runPass19(t, noDisk, "no disk", []pass19Case{
		{`mv conf .claude`, KindFolder, "mv writes files below \".claude\""},
		{`cp settings.json .claude`, KindDeny, ".claude/settings.json"},
		{`mv a.txt sub`, "", ""},
	})
}

// TestAncestor19: replacing or removing a folder replaces what it holds:
// a link made over an ancestor (ln -sfn, -T, a name not shown to be a
// folder), mv -T onto it, mv of a folder onto a name that holds (or,
// without the disk, may hold) a protected path.
func TestAncestor19(t *testing.T) {
	disk, noDisk := gate19Matchers()
	cases := []pass19Case{
		{`ln -sfn /tmp/evil .claude`, KindFolder, "ln writes files below \".claude\""},
		{`ln -sfT /tmp/evil .claude`, KindFolder, ".claude/settings.json"},
		{`ln -sfn /tmp/evil ~/.pi`, KindFolder, "which holds protected path /home/user/.pi/agent/"},
		{`ln -sfn /tmp/evil ~/.pi/agent`, KindFolder, "which holds protected path /home/user/.pi/agent/"},
		{`mv -T /tmp/evil .claude`, KindFolder, ".claude/settings.json"},
		{`rm -rf .claude`, KindFolder, ".claude/settings.json"},
		{`mv .claude /tmp/x`, KindFolder, ".claude/settings.json"},
		{`rsync -a --delete x/ .claude/`, KindFolder, ".claude/settings.json"},
		// benign: a link made inside the folder, or over a name holding nothing protected
		{`ln -sfn /tmp/evil .claude/`, "", ""},
		{`ln -sfn /tmp/evil sub`, "", ""},
		{`ln -s /tmp/evil latest`, "", ""},
		{`mv -T /tmp/evil sub`, "", ""},
	}
	runPass19(t, disk, "disk", cases)
	runPass19(t, noDisk, "no disk", cases)
}

// TestRemovesSources19: rsync --remove-source-files, tar --remove-files,
// zip -m and 7z -sdel delete what they read; an option computed when it
// runs may be one of them. Without them, or of other files, they pass.
func TestRemovesSources19(t *testing.T) {
	disk, noDisk := gate19Matchers()
	cases := []pass19Case{
		{`rsync --remove-source-files .claude/settings.json /tmp/x`, KindDeny, "rsync --remove-source-files deletes it"},
		{`rsync -a --remove-source-files .claude /tmp/x`, KindFolder, ".claude/settings.json"},
		{`rsync -a --remove-sent-files ~/.pi/agent/ /tmp/x`, KindFolder, "which holds protected path /home/user/.pi/agent/"},
		{`tar --remove-files -cf /tmp/x.tar .claude`, KindFolder, "tar --remove-files (deletes what it reads)"},
		{`tar -czf /tmp/x.tgz --remove-files .claude/settings.json`, KindDeny, ".claude/settings.json"},
		{`zip -m /tmp/x.zip .claude/settings.json`, KindDeny, "zip -m deletes it"},
		{`zip -rm /tmp/x.zip .claude`, KindFolder, ".claude/settings.json"},
		{`zip --move /tmp/x.zip .claude/settings.json`, KindDeny, ".claude/settings.json"},
		{`7z a -sdel /tmp/x.7z .claude/settings.json`, KindDeny, "7z -sdel deletes it"},
		{`tar $OPT -cf /tmp/x.tar .claude/settings.json`, KindDeny, ".claude/settings.json"},
		// benign
		{`rsync -a .claude/ /tmp/x`, "", ""},
		{`rsync -a --remove-source-files sub/ /tmp/x`, "", ""},
		{`tar --remove-files -cf /tmp/x.tar sub`, "", ""},
		{`tar -cf /tmp/x.tar .claude`, "", ""},
		{`zip -r /tmp/x.zip .claude`, "", ""},
		{`zip -m /tmp/x.zip a.txt`, "", ""},
		{`7z a /tmp/x.7z .claude/settings.json`, "", ""},
		{`7z a -sdel /tmp/x.7z a.txt`, "", ""},
	}
	runPass19(t, disk, "disk", cases)
	runPass19(t, noDisk, "no disk", cases)
}

// TestGitRewrites19: while the repository's index (read from the disk)
// tracks a protected path, a git command that writes the index's files
// into the work tree is denied unless it names only other paths after
// `--` (restore: its operands), makes a branch where HEAD is, or touches
// the index only. In a repository tracking none they pass; an index that
// cannot be read is not shown safe. A command that writes the files of a
// commit or tree (merge, pull, checkout BRANCH, reset --hard, stash pop,
// …) is denied in every repository (pass 33: the commit's files are not
// read); with pathspecs only those are written, each checked as a folder
// that may hold anything.
func TestGitRewrites19(t *testing.T) {
	fromIndex := []string{
		`git checkout .`, `git checkout -p`, `git restore .`, `git checkout-index -a -f`, `git restore '*.json'`,
		`git checkout -- .`, `git -C sub checkout -- .`,
	}
	fromCommit := []string{
		`git checkout main`, `git checkout -f main`, `git stash`, `git stash push`,
		`git stash pop`, `git stash apply stash@{1}`, `git reset --hard`, `git reset --hard HEAD~1`, `git reset --merge`,
		`git pull`, `git pull --rebase`, `git merge x`, `git merge --abort`, `git rebase main`, `git rebase -i HEAD~3`,
		`git switch x`, `git cherry-pick abc`, `git revert abc`, `git bisect start`, `git read-tree -u -m HEAD`,
		`git -C sub checkout main`, `cd sub && git switch main`,
	}
	commitPaths := []string{`git restore --worktree --staged .`, `git restore -s main -- .claude`, `git checkout main -- .`}
	safe := []string{
		`git status`, `git log --oneline`, `git add a.txt`, `git checkout -b feature`, `git switch -c feature`,
		`git checkout main -- a.txt`, `git restore a.txt`, `git restore --staged .`, `git reset`, `git reset HEAD~1`,
		`git reset -- a.txt`, `git stash list`, `git bisect log`, `git read-tree HEAD`, `git commit -m x`,
		`cd sub && git restore .`, // below sub only
	}
	tracked, _ := gate19Matchers(".claude/settings.json", "a.txt", "sub/m.go")
	untracked, noDisk := gate19Matchers("a.txt", "sub/m.go")
	var tc, uc []pass19Case
	for _, c := range fromIndex {
		tc = append(tc, pass19Case{c, KindFolder, "may rewrite what git tracks below"})
		uc = append(uc, pass19Case{c, "", ""})
	}
	for _, c := range fromCommit {
		tc = append(tc, pass19Case{c, KindUnverifiable, "pruner cannot read"})
		uc = append(uc, pass19Case{c, KindUnverifiable, "pruner cannot read"})
	}
	for _, c := range commitPaths {
		tc = append(tc, pass19Case{c, KindFolder, "writes a commit's files there"})
		uc = append(uc, pass19Case{c, KindFolder, "writes a commit's files there"})
	}
	for _, c := range safe {
		tc = append(tc, pass19Case{c, "", ""})
		uc = append(uc, pass19Case{c, "", ""})
	}
	runPass19(t, tracked, "tracked", tc)
	runPass19(t, untracked, "untracked", uc)
	// the reason names the protected path git tracks
	runPass19(t, tracked, "tracked", []pass19Case{{`git checkout -- .`, KindFolder, "holds protected path /home/user/proj/.claude/settings.json"}})
	// an explicit pathspec naming a protected path: always denied
	for name, m := range map[string]*Matcher{"untracked": untracked, "no disk": noDisk} {
		runPass19(t, m, name, []pass19Case{
			{`git checkout main -- .claude/settings.json`, KindDeny, ".claude/settings.json"},
			{`git restore .claude/settings.json`, KindDeny, ".claude/settings.json"},
		})
	}
	// an index that cannot be read, a work tree or repository set
	// elsewhere: not shown safe
	files := map[string]string{tCwd + "/.git/HEAD": "ref: refs/heads/main\n", tCwd + "/.git/index": "DIRC\x00\x00\x00\x02\x00\x00\x00\x09", tCwd + "/.claude/settings.json": "{}"}
	bad := DefaultRules().Union(GateRules(tHome+"/.pi/agent", gate19Exe)).Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runPass19(t, bad, "unreadable index", []pass19Case{
		{`git checkout -- .`, KindUnverifiable, "the repository's index cannot be read"},
		{`git status`, "", ""},
	})
	runPass19(t, untracked, "elsewhere", []pass19Case{
		{`git --work-tree=. --git-dir=/tmp/r.git checkout -- .`, KindFolder, "in a repository or work tree set elsewhere"},
		{`GIT_INDEX_FILE=/tmp/i git checkout -- .`, KindFolder, "in a repository or work tree set elsewhere"},
	})
}

// TestPerlClusters19: perl's -0 and -l take attached digits and the
// cluster goes on, so -0pi, -0777pi, -l0pi edit in place; -i's extension
// is attached only (-i -pe). Without -i they read.
func TestPerlClusters19(t *testing.T) {
	disk, noDisk := gate19Matchers()
	cases := []pass19Case{
		{`perl -0pi -e 's/a/b/' .claude/settings.json`, KindDeny, "protected path \".claude/settings.json (perl -i edits it in place)\""},
		{`perl -0777pi -e 's/a/b/' .claude/settings.json`, KindDeny, ".claude/settings.json"},
		{`perl -0 -pi -e 's/a/b/' .claude/settings.json`, KindDeny, ".claude/settings.json"},
		{`perl -0x0pi -e 's/a/b/' .claude/settings.json`, KindDeny, ".claude/settings.json"},
		{`perl -l0pi -e 's/a/b/' .claude/settings.json`, KindDeny, ".claude/settings.json"},
		{`perl -pi.bak -e 's/a/b/' .claude/settings.json`, KindDeny, ".claude/settings.json"},
		{`perl -i -pe 's/a/b/' .claude/settings.json`, KindDeny, ".claude/settings.json"},
		{`perl -ni -e print ~/.pi/agent/settings.json`, KindDeny, "/home/user/.pi/agent/settings.json"},
		{`ruby -0pi -e 'x' .claude/settings.json`, KindDeny, ".claude/settings.json"},
		{`ruby -pi.bak -e 'x' .claude/settings.json`, KindDeny, ".claude/settings.json"},
		{`perl -0e 'open F, ">", ".claude/settings.json"'`, KindDeny, ".claude/settings.json"},
		// benign
		{`perl -0pe 's/a/b/' .claude/settings.json`, "", ""},
		{`perl -0777 -ne 'print' .claude/settings.json`, "", ""},
		{`perl -i -pe 's/a/b/' a.txt`, "", ""},
		{`perl -F, -lane 'print $F[0]' a.txt`, "", ""},
		{`perl -lne 'print' .claude/settings.json`, "", ""},
	}
	runPass19(t, disk, "disk", cases)
	runPass19(t, noDisk, "no disk", cases)
}

// TestTildeAfterEquals19: a `~` the shell leaves in an argument (after
// `=`: bash expands `of=~/x` as it does an assignment, zsh's
// magic_equal_subst `--output=~/x`) names the home too.
func TestTildeAfterEquals19(t *testing.T) {
	disk, noDisk := gate19Matchers()
	cases := []pass19Case{
		{`dd if=/tmp/x of=~/.pi/agent/settings.json`, KindDeny, "/home/user/.pi/agent/settings.json"},
		{`curl --output=~/.pi/agent/settings.json https://x`, KindDeny, "/home/user/.pi/agent/settings.json"},
		{`wget --output-document=~/.claude/settings.json https://x`, KindDeny, "/home/user/.claude/settings.json"},
		{`dd if=~/.env.local of=/tmp/x`, KindDeny, ".env.local"},
		// benign
		{`dd if=/tmp/x of=~/notes/n.txt`, "", ""},
		{`curl --output=~/x.html https://x`, "", ""},
		{`echo a=~/.pi`, "", ""},
	}
	runPass19(t, disk, "disk", cases)
	runPass19(t, noDisk, "no disk", cases)
}

// TestUnmodelledProgram19: an argument of a program the analysis does not
// model (nor a module run with python -m, nor a script on the disk) may
// be written: denied where a rule denies write, the reason saying pruner
// cannot tell what the program does with it. Known read-only programs,
// and other files, pass.
func TestUnmodelledProgram19(t *testing.T) {
	disk, noDisk := gate19Matchers()
	cases := []pass19Case{
		{`frobnicate .claude/settings.json`, KindDeny, "pruner cannot tell what frobnicate does with protected path \".claude/settings.json\""},
		{`frobnicate --out=.claude/settings.json`, KindDeny, "pruner cannot tell what frobnicate does"},
		{`frobnicate ~/.pi/agent/settings.json`, KindDeny, "/home/user/.pi/agent/settings.json"},
		{`mytool -c node_modules/x/package.json`, KindDeny, "pruner cannot tell what mytool does"},
		{`python3 -m json.tool a.txt .claude/settings.json`, KindDeny, "pruner cannot tell what python3 -m json.tool does"},
		{`python3 fix.py .claude/settings.json`, KindDeny, "pruner cannot tell what the script fix.py does"},
		{`bash fix.sh .claude/settings.json`, KindDeny, "pruner cannot tell what the script fix.sh does"},
		{`node fix.js ~/.pi/agent/settings.json`, KindDeny, "/home/user/.pi/agent/settings.json"},
		{`./fix.sh .claude/settings.json`, KindDeny, "pruner cannot tell what fix.sh does"},
		{`go run ./cmd/fix .claude/settings.json`, KindDeny, "pruner cannot tell what the program go run builds does"},
		{`cargo run --release -- .claude/settings.json`, KindDeny, "the program cargo run builds"},
		{`npx frob .claude/settings.json`, KindDeny, "pruner cannot tell what frob does"},
		// benign
		{`frobnicate a.txt`, "", ""},
		{`cat .claude/settings.json`, "", ""},
		{`head -n 5 ~/.pi/agent/settings.json`, "", ""},
		{`jq . .claude/settings.json`, "", ""},
		{`python3 -m json.tool .claude/settings.json`, KindDeny, ""}, // json.tool IN OUT: one operand is not shown read-only either
		{`python3 -m json.tool a.txt out.json`, "", ""},
		{`python3 fix.py a.txt`, "", ""},
		{`bash fix.sh a.txt`, "", ""},
		{`go run ./cmd/fix a.txt`, "", ""},
		{`cargo run --release`, "", ""},
		{`echo 'cat "$1"' > t.sh; sh t.sh .claude/settings.json`, "", ""}, // a script the command wrote is read
	}
	runPass19(t, disk, "disk", cases)
	runPass19(t, noDisk, "no disk", cases)
}

// TestDerivedOutputs19: names a command derives from its operands —
// gunzip FILE.gz writes FILE (-S SUF, .tgz gives .tar), gzip FILE writes
// FILE.gz, split and csplit write PREFIX… (with split's
// --additional-suffix), BSD base64 -o FILE — and extractions into a
// folder holding a protected path.
func TestDerivedOutputs19(t *testing.T) {
	disk, noDisk := gate19Matchers()
	cases := []pass19Case{
		{`gunzip .claude/settings.json.gz`, KindDeny, "gunzip writes it from .claude/settings.json.gz"},
		{`cd .claude && gunzip settings.json.gz`, KindDeny, "/home/user/proj/.claude/settings.json"},
		{`cd ~/.pi/agent && gzip -d settings.json.gz`, KindDeny, "/home/user/.pi/agent/settings.json"},
		{`unxz .claude/settings.json.xz`, KindDeny, ".claude/settings.json"},
		{`gunzip -S .x .claude/settings.json.x`, KindDeny, ".claude/settings.json"},
		{`gunzip .claude/*`, KindDeny, ".claude/"},
		{`gzip -S on .claude/settings.js`, KindDeny, ".claude/settings.json"},
		{`split -b 1 a.txt .claude/settings.js`, KindDeny, "split writes its pieces under this name"},
		{`split -b1 -a1 --additional-suffix=.json a.txt .claude/setting`, KindDeny, ".claude/setting*.json"},
		{`csplit -f .claude/settings a.txt 1`, KindDeny, "csplit writes its pieces"},
		{`cd .claude && csplit a.txt 1`, "", ""}, // xx00…: nothing protected
		{`base64 -d -o .claude/settings.json a.txt`, KindDeny, ".claude/settings.json"},
		{`base64 -d -i a.txt --output=.claude/settings.json`, KindDeny, ".claude/settings.json"},
		{`unzip x.zip -d .claude`, KindFolder, ".claude/settings.json"},
		{`tar xf x.tar -C .claude`, KindFolder, ".claude/settings.json"},
		// benign
		{`gunzip a.txt.gz`, "", ""},
		{`gunzip settings.json.gz`, "", ""}, // ./settings.json is no protected path
		{`gunzip -c .claude/settings.json.gz`, "", ""},
		{`gzip -k a.txt`, "", ""},
		{`split -b 1 a.txt part-`, "", ""},
		{`csplit -f part a.txt 1`, "", ""},
		{`base64 -d -i a.txt -o out.bin`, "", ""},
		{`unzip x.zip -d sub`, "", ""},
	}
	runPass19(t, disk, "disk", cases)
	runPass19(t, noDisk, "no disk", cases)
}

// TestOwnIdeas19: backups (-b, -S SUF, --backup=numbered) rename what cp,
// mv, install and ln replace to NAME+SUF; package managers install below
// the folder --prefix/--target/--root names; go install writes
// $GOBIN/NAME, a folder the analysis does not see; git clone, submodule
// add and worktree add fill a folder (clone's default: the URL's name);
// python -m zipfile -e extracts below its folder.
func TestOwnIdeas19(t *testing.T) {
	disk, noDisk := gate19Matchers()
	cases := []pass19Case{
		{`mv -b -S .json x .claude/settings`, KindDeny, "mv backs it up"},
		{`cp -b -S .json x .claude/settings`, KindDeny, ".claude/settings.json"},
		{`cp --backup --suffix=.json x .claude/settings`, KindDeny, ".claude/settings.json"},
		{`cp --backup=numbered x .claude/settings`, KindDeny, ".claude/settings"},
		{`cp -b x .claude/settings.j`, KindDeny, ".claude/settings.j"},
		{`ln -sf -b -S .json x .claude/settings`, KindDeny, ".claude/settings.json"},
		{`install -b -S .json x .claude/settings`, KindDeny, ".claude/settings.json"},
		{`cp -b -S .json /tmp/settings .claude/`, KindDeny, ".claude/settings.json"},
		{`cp -b -S .json x .claude/`, "", ""}, // .claude/x backed up as .claude/x.json
		{`npm install --prefix ~/.pi/agent/extensions evil`, KindDeny, "/home/user/.pi/agent/extensions"},
		{`pnpm add --dir=/home/user/.pi/agent/extensions evil`, KindDeny, "/home/user/.pi/agent/extensions"},
		{`pip install --target ~/.pi/agent/extensions evil`, KindDeny, "/home/user/.pi/agent/extensions"},
		{`npm install --prefix "$D" evil`, KindUnverifiable, "npm installs into a folder named when the command runs"},
		{`go install ./cmd/pruner`, KindDeny, "go install writes $GOBIN/pruner"},
		{`go install example.com/pruner/v2@latest`, KindDeny, "/usr/local/bin/pruner"},
		{`git clone https://x/y ~/.pi/agent/extensions/x`, KindDeny, "/home/user/.pi/agent/extensions/x"},
		{`cd ~/.pi/agent/extensions && git clone --depth 1 https://x/y.git`, KindDeny, "/home/user/.pi/agent/extensions/y"},
		{`cd ~/.pi/agent && git clone https://x/extensions.git`, KindDeny, "/home/user/.pi/agent/extensions"},
		{`git submodule add https://x/evil.git .claude`, KindFolder, "git submodule add (it clones into the folder) writes files below \".claude\""}, // pass 20 (picmd.go) names it first
		{`git worktree add ~/.pi/agent/extensions/w`, KindDeny, "/home/user/.pi/agent/extensions/w"},
		{`python3 -m zipfile -e x.zip .claude`, KindFolder, "python -m zipfile -e writes files below"},
		// benign
		{`git clone https://x/y`, "", ""},
		{`git clone -b main https://x/y.git vendor/y`, "", ""},
		{`git worktree add ../w main`, "", ""},
		{`python3 -m zipfile -e x.zip out/`, "", ""},
		{`cp -b x a.txt`, "", ""},
		{`mv -b a.txt b.txt`, "", ""},
		{`npm install --prefix /tmp/x left-pad`, "", ""},
		{`npm install left-pad`, "", ""},
		{`pip install -t /tmp/t requests`, "", ""},
		{`go install golang.org/x/tools/gopls@latest`, "", ""},
		{`go build ./...`, "", ""},
	}
	runPass19(t, disk, "disk", cases)
	runPass19(t, noDisk, "no disk", cases)
}

// TestCodePlace19: interpreter code that moves, renames, links or copies
// (shutil.copy/move, os.rename/symlink, fs.renameSync, perl's rename,
// fs.cpSync and copytree into a folder) writes every file below each name
// it is given: a destination folder receives the source, a folder renamed
// over is replaced. The same between names holding nothing protected, or
// a copy out of a protected folder, passes.
func TestCodePlace19(t *testing.T) {
	disk, noDisk := gate19Matchers()
	cases := []pass19Case{
		{`python3 -c "import shutil; shutil.copy('/tmp/settings.json', '.claude')"`, KindDeny, "touches protected path \".claude (copy puts settings.json into folder .claude)\""}, // pass 20: the file it writes, not the whole folder
		{`python3 -c "import shutil; shutil.move('a.txt', '.claude/')"`, KindFolder, ".claude/settings.json"},
		{`python3 -c "import os; os.rename('/tmp/x', '.claude')"`, KindFolder, ".claude/settings.json"},
		{`python3 -c "import os; os.symlink('/tmp/e', '.claude')"`, KindFolder, ".claude/settings.json"},
		{`node -e "require('fs').renameSync('x', '.claude')"`, KindFolder, ".claude/settings.json"},
		{`node -e "require('fs').cpSync('x', '.claude', {recursive:true})"`, KindFolder, "cpSync in code (it writes what it copies or moves into the folder) writes files below \".claude\""},
		{`python3 -c "import shutil; shutil.copytree('x', '.claude', dirs_exist_ok=True)"`, KindFolder, ".claude/settings.json"},
		{`perl -e 'rename "x", ".claude"'`, KindFolder, ".claude/settings.json"},
		{`python3 -c "import shutil; shutil.move('/tmp/x', '` + tHome + `/.pi/agent')"`, KindFolder, "/home/user/.pi/agent/"},
		// benign
		{`python3 -c "import shutil; shutil.copy('a.txt', 'sub')"`, "", ""},
		{`python3 -c "import os; os.rename('a.txt', 'b.txt')"`, "", ""},
		{`node -e "require('fs').copyFileSync('a.txt', 'b.txt')"`, "", ""},
		{`python3 -c "import shutil; shutil.copytree('src', 'build')"`, "", ""},
		{`python3 -c "import shutil; shutil.copytree('.claude', '/tmp/b')"`, "", ""},
	}
	runPass19(t, disk, "disk", cases)
	runPass19(t, noDisk, "no disk", cases)
}
