package guard

import "testing"

// TestParallel: GNU parallel runs a command on arguments from `:::`, from
// a file or from stdin, or runs each argument as a command line.
func TestParallel(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"find . -type f | parallel cat", KindDeny},
		{"find . -name '*env' | parallel -j4 cat {}", KindDeny},
		{"parallel cat ::: .env", KindDeny},
		{"parallel --jobs 2 cat ::: src/a.go .env", KindDeny},
		{"parallel ::: 'cat .env'", KindDeny},
		{"parallel 'cat {}' ::: .env", KindDeny},
		{"parallel 'head -1 {} | base64' ::: .env", KindDeny},
		{"echo .env | parallel cat", KindDeny},
		{"echo 'cat .env' | parallel", KindDeny},
		{"ls -a | parallel cat", KindUnverifiable},
		{"parallel -a list cat", KindUnverifiable},
		{"parallel cat :::: list", KindUnverifiable},
		{"sem cat .env", KindDeny},
		{"parallel cat ::: src/a.go", ""},
		{"parallel 'wc -l {}' ::: src/a.go src/b.go", ""},
		{"find src -name '*.go' | parallel gofmt -l", ""},
		{"parallel -j4 echo ::: a b c", ""},
	})
}

// TestGitDiffNoIndex: git diff --no-index (or two paths, one outside the
// work tree, where git drops to it by itself) compares folders
// recursively, hidden names included.
func TestGitDiffNoIndex(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"git diff --no-index /tmp/e .", KindFolder},
		{"git diff --no-index -- /tmp/e .", KindFolder},
		{"git diff --no-index --stat /tmp/e .", KindFolder},
		{"git diff /tmp/empty .", KindFolder},
		{"git diff ~/empty .", KindFolder},
		{"git diff --no-index /dev/null .env", KindDeny},
		{"git diff --no-index src/a.go src/b.go", ""},
		{"git diff main feature", ""},
		{"git diff HEAD~1 -- src", ""},
		{"git diff --stat", ""},
	})
}

// TestCodeComputedCommand: code that runs a command built from its
// arguments, stdin or environment, or from a string with a computed hole,
// runs what the analysis cannot see.
func TestCodeComputedCommand(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`python3 -c "import os,sys; os.system(sys.argv[1])" 'cat .env'`, KindUnverifiable},
		{`python3 -c "import os; c=input(); os.system(f'{c} x')"`, KindUnverifiable},
		{`python3 -c "import os; os.system(os.environ['X'])"`, KindUnverifiable},
		{`python3 -c "import subprocess,sys; subprocess.run(sys.argv[1], shell=True)" x`, KindUnverifiable},
		{`node -e "require('child_process').execSync(process.argv[1])" 'cat .env'`, KindUnverifiable},
		{`ruby -e 'system(ARGV[0])' 'cat .env'`, KindUnverifiable},
		{"perl -e 'print `$ARGV[0]`' 'cat .env'", KindUnverifiable},
		{`php -r 'echo shell_exec($argv[1]);' 'cat .env'`, KindUnverifiable},
		{`python3 -c "import subprocess; print(subprocess.check_output(['git','status']).decode())"`, ""},
		{`python3 -c "import sys; print(sys.argv)" a b`, ""},
		{`node -e "console.log(process.env.HOME)"`, ""},
		{`python3 -c "import os; os.system('ls -la')"`, ""},
	})
}
