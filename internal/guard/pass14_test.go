package guard

import "testing"

// Attacker pass 14: names read from a NUL-separated list were one token
// with the NUL (printf '.env\0' | sort --files0-from=- printed .env; tar
// --null -T -, git --pathspec-file-nul alike).
func TestNULSeparatedNameLists(t *testing.T) {
	runShellBoth(t, []shellCase{
		{`printf '.env\0' | sort --files0-from=-`, KindDeny},
		{`printf 'a.txt\0.env' | sort --files0-from=-`, KindDeny},
		{`printf '.env\0' | tar --null -T - -cf - | tar xOf -`, KindDeny},
		{`printf '%s\0' .e''nv | tar --null -T - -cf -`, KindDeny},
		{`printf '.env\0' | git add --pathspec-from-file=- --pathspec-file-nul`, KindDeny},
		{`printf 'x\0.env\0' | rsync -0 --files-from=- . /tmp/z`, KindDeny},
		{`printf 'x\0.env\0' | cpio -o0`, KindDeny},
		// everyday
		{`printf 'a.go\0b.go\0' | sort --files0-from=-`, ""},
		{`find src -print0 | sort --files0-from=-`, ""},
		{`printf 'a.go\0' | wc -l --files0-from=-`, ""},
		{`printf 'src\0' | tar --null -T - -czf x.tgz`, ""},
	})
}

// git's --pathspec-from-file=- reads pathspecs, not names: globs and magic
// (echo '*env' | git add --pathspec-from-file=- added .env, which git diff
// --cached then printed), C-quoted lines ("\056env" is .env), and the value
// given as the next word (--pathspec-from-file FILE).
func TestGitPathspecsFromStdin(t *testing.T) {
	runShellBoth(t, []shellCase{
		{`echo '*env' | git add --pathspec-from-file=- && git diff --cached`, KindFolder},
		{`echo ':(glob).e*' | git add --pathspec-from=-`, KindFolder},
		{`echo '.e[n]v' | git add --pathspec-from-file -`, KindFolder},
		{`echo '"\056env"' | git add --pathspec-from-file=-`, KindUnverifiable},
		{`echo '*env' | git commit --pathspec-from-file=- -m x`, KindFolder},
		{`git add --pathspec-from-file x`, KindUnverifiable},
		{`git add --pathspec-from-file=x`, KindUnverifiable},
		{`echo .env | git add --pathspec-from-file -`, KindDeny},
		// everyday
		{`echo src/main.go | git add --pathspec-from-file=-`, ""},
		{`printf 'a.go\nb.go\n' | git add --pathspec-from-file -`, ""},
		{`printf 'a.go\0b.go\0' | git add --pathspec-from-file=- --pathspec-file-nul`, ""},
	})
}

// The shell a program hands a command line to is one the command may
// choose: su -s SHELL -c CMD, and $SHELL for flock -c, script -c, su -m,
// sudo -s (SHELL=/usr/bin/fish flock L -c "echo 'x\\' '; cat .env #'"
// printed .env: fish takes \' inside single quotes).
func TestShellChosenByCommand(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	fishCmd := `"echo 'x\\' '; cat .e''nv #'"`
	runShell(t, m, []shellCase{
		{`su -s /usr/bin/fish -c ` + fishCmd, KindUnverifiable},
		{`su --shell=/usr/bin/fish root -c ls`, KindUnverifiable},
		{`runuser -s /bin/csh -c ls user`, KindUnverifiable},
		{`SHELL=/usr/bin/fish flock /tmp/l -c ` + fishCmd, KindUnverifiable},
		{`SHELL=/usr/bin/fish script -qc ` + fishCmd + ` /dev/null`, KindUnverifiable},
		{`SHELL=/usr/bin/fish su -m -c ls`, KindUnverifiable},
		{`export SHELL=/usr/bin/fish; flock /tmp/l -c ls`, KindUnverifiable},
		{`env SHELL=/usr/bin/fish flock /tmp/l -c ls`, KindUnverifiable},
		{`sudo SHELL=/usr/bin/fish -s ls`, KindUnverifiable},
		{`read SHELL <<< /usr/bin/fish; flock /tmp/l -c ls`, KindUnverifiable},
		{`SHELL=/usr/bin/python3 script -qc 'print(1)'`, KindUnverifiable},
		{`SHELL=$(which fish) script -qc ls`, KindUnverifiable},
		{`ln -s /usr/bin/fish sh; SHELL=$PWD/sh flock /tmp/l -c ls`, KindUnverifiable},
		{`make SHELL=/usr/bin/fish`, KindUnverifiable},
		{`make SHELL:=$(which fish) all`, KindUnverifiable},
		{"cat > package.json <<'EOF'\n{\"scripts\":{\"x\":\"echo 'x\\\\' '; cat .e''nv #'\"}}\nEOF\nnpm run -s x --script-shell=/usr/bin/fish", KindDeny}, // pass 16: its tokens name .env
		{`npm run x --script-shell /usr/bin/fish`, KindUnverifiable},
		{`npm_config_script_shell=/usr/bin/fish npm run x`, KindUnverifiable},
		{`NPM_CONFIG_SCRIPT_SHELL=/usr/bin/fish pnpm test`, KindUnverifiable},
		// everyday
		{`SHELL=/bin/bash script -qc 'make test' /dev/null`, ""},
		{`SHELL=/bin/zsh tmux new -d 'npm run dev'`, ""},
		{`su -s /bin/bash -c whoami nobody`, ""},
		{`SHELL=/bin/sh flock /tmp/l -c ls`, ""},
		{`make SHELL=/bin/bash test`, ""},
		{`npm run build --script-shell=/bin/bash`, ""},
		{`export SHELL`, ""},
		{`unset SHELL; flock /tmp/l -c ls`, ""},
	})
}

// Programs that start the command they are given in another folder: a
// login (su -, su -l, runuser -l, sudo -i: the user's home; su - -c 'head
// .bashrc' printed ~/.bashrc), tmux's -c DIR (tmux new -d -c ~ 'cat
// .ssh/id_rsa > o' wrote the key), find -execdir (the folder of each name:
// find /home -name user -execdir cat user/.ssh/id_rsa \; printed it),
// parallel --wd DIR, gdb --cd=DIR and gdb's own cd command.
func TestCommandsStartedElsewhere(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`su - -c 'cat .ssh/id_rsa'`, KindDeny},
		{`su -l root -c 'cat .ssh/id_rsa'`, KindDeny},
		{`su --login -c 'cat .ssh/id_rsa'`, KindDeny},
		{`runuser -l user -c 'cat .ssh/id_rsa'`, KindDeny},
		{`sudo -i cat .ssh/id_rsa`, KindDeny},
		{`sudo -u user --login cat .ssh/id_rsa`, KindDeny},
		{`echo 'cat .ssh/id_rsa' | sudo -i`, KindDeny},
		{`echo 'cat .e""nv' | sudo -s`, KindDeny},
		{`sudo -i <<< 'cat .e""nv'`, KindDeny},
		{`echo 'cat .e""nv' | doas -s`, KindDeny},
		{`echo 'cat .ssh/id_rsa' | su -`, KindDeny},
		{`tmux new -d -c ~ 'cat .ssh/id_rsa > /tmp/o'`, KindDeny},
		{`tmux new-window -c /home/user 'cat .ssh/id_rsa'`, KindDeny},
		{`tmux -L x new -dc ~ 'cat .ssh/id_rsa'`, KindDeny},
		{`tmux split-window -c"$HOME" 'cat .ssh/id_rsa'`, KindDeny},
		{`find /home -maxdepth 1 -name user -execdir cat user/.ssh/id_rsa \;`, KindDeny},
		{`find ~ -maxdepth 1 -name .ssh -execdir cat .ssh/id_rsa \;`, KindDeny},
		{`find /home/user/.ssh -okdir cat id_rsa \;`, KindDeny},
		{`parallel --wd ~ cat ::: .ssh/id_rsa`, KindDeny},
		{`parallel --workdir=/home/user cat ::: .ssh/id_rsa`, KindDeny},
		{`parallel --wd ... cat ::: ../../../.ssh/id_rsa`, KindDeny},
		{`gdb -batch -ex 'cd ~' -ex 'shell cat .ssh/id_rsa'`, KindDeny},
		{`gdb -batch -ex cd -ex '!cat .ssh/id_rsa'`, KindDeny},
		{`gdb --cd=/home/user -batch -ex 'shell cat .ssh/id_rsa'`, KindDeny},
		{`printf 'cd ~\nshell cat .ssh/id_rsa\n' | gdb -q`, KindDeny},
		// everyday
		{`su - postgres -c 'psql -c "select 1"'`, ""},
		{`sudo -i apt-get update`, ""},
		{`su -c 'make install'`, ""},
		{`tmux new -d -s dev 'npm run dev'`, ""},
		{`tmux split-window -c "#{pane_current_path}" 'npm test'`, ""},
		{`find . -name '*.go' -execdir gofmt -l {} +`, ""},
		{`find src -type f -execdir wc -l {} \;`, ""},
		{`parallel --wd /tmp gzip ::: a b`, ""},
		{`parallel --wd ... make ::: a`, ""},
		{`gdb -batch -ex 'cd build' -ex 'shell make'`, ""},
		{`gdb -batch -ex run -ex bt ./a.out`, ""},
	})
}

// tar's -C is positional and may be computed: every relative name may be
// below any -C folder (tar -cf - -C ~ .ssh/id_rsa -C /tmp x printed the
// key: the last -C was taken for all of them; -C "$(find …)" was the cwd),
// and the names -T - reads are below them too, its list may hold -C DIR.
func TestTarDirectoryOptions(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`tar -cf - -C ~ .ssh/id_rsa -C /tmp x | tar xOf -`, KindDeny},
		{`tar -C "$(find /home -maxdepth 1 -name user)" -cf - .ssh/id_rsa | tar xOf -`, KindDeny},
		{`echo .ssh/id_rsa | tar -C ~ -T - -cf -`, KindDeny},
		{`echo .ssh/id_rsa | tar -T - -cf - --directory ~`, KindDeny},
		{`printf '%s\n' -C ~ .ssh/id_rsa | tar -T - -cf - | tar xOf -`, KindUnverifiable},
		{`tar -xzf a.tgz -C /tmp/x -C ~/.ssh`, KindDeny},
		// everyday
		{`tar -czf out.tgz -C build .`, ""},
		{`tar -czf out.tgz -C build dist -C ../docs site`, ""},
		{`tar -xzf a.tgz -C /tmp/x`, ""},
		{`tar -xzf a.tgz -C "$(mktemp -d)"`, ""},
		{`echo src | tar -T - -czf x.tgz`, ""},
	})
}

// The names a list gives are below the folder the program reads them from:
// rsync --files-from=- SRC DST (echo .ssh/id_rsa | rsync --files-from=- ~
// /tmp/x copied the key), cpio -o/-p -D DIR; cpio -p copies into its
// operand.
func TestNameListBaseFolders(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`echo .ssh/id_rsa | rsync --files-from=- ~ /tmp/x/`, KindDeny},
		{`echo .ssh/id_rsa | rsync -a --files-from - /home/user /tmp/x/`, KindDeny},
		{`echo .ssh/id_rsa | cpio -o -D ~`, KindDeny},
		{`echo .ssh/id_rsa | cpio -o --directory=/home/user`, KindDeny},
		{`echo .ssh/id_rsa | cpio -pd -D ~ /tmp/x`, KindDeny},
		{`echo .e''nv | cpio -p /tmp/x`, KindDeny},
		{`echo x | cpio -p ~/.ssh`, KindDeny},
		// everyday
		{`printf 'a.go\nb.go\n' | rsync --files-from=- . /tmp/bk/`, ""},
		{`find src -name '*.go' | cpio -o > a.cpio`, ""},
		{`find src | cpio -pdm /tmp/bk`, ""},
	})
}

// DIRSTACK's elements are folders popd and pushd go to: setting one in any
// form (pushd /tmp; DIRSTACK[1]=~; popd; cat .ssh/id_rsa printed the key)
// leads them anywhere; pushd alone and pushd +N rotate to the stack.
func TestDirStackElements(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`pushd /tmp; DIRSTACK[1]=/home/user; popd; cat .ssh/id_rsa`, KindDeny},
		{`pushd /tmp; DIRSTACK[1]=$(cat f); popd; cat .ssh/id_rsa`, KindDeny},
		{`pushd /tmp; DIRSTACK[1]=/home/user; pushd +1; cat .ssh/id_rsa`, KindDeny},
		{`pushd /tmp; DIRSTACK+=(/home/user); popd; cat .ssh/id_rsa`, KindDeny},
		{`pushd /tmp; read 'DIRSTACK[1]' <<< /home/user; popd; cat .ssh/id_rsa`, KindDeny},
		{`pushd /tmp; printf -v 'DIRSTACK[1]' /home/user; popd; cat .ssh/id_rsa`, KindDeny},
		{`pushd /home/user; pushd /tmp; pushd; cat .ssh/id_rsa`, KindDeny},
		// everyday
		{`pushd src && make && popd`, ""},
		{`pushd /tmp; DIRSTACK[1]=/x; popd; cat README.md`, ""},
		{`pushd /tmp; DIRSTACK[1]=/x; popd; echo hi > out.txt`, ""},
	})
}

// Code that sets the argument list its language reads as input files:
// awk's ARGV (awk 'BEGIN{ARGV[1]=sprintf("%cenv",46); ARGC=2} 1' printed
// .env), perl's @ARGV read by <>, ruby's ARGV read by ARGF, python's
// fileinput.
func TestCodeSetsItsArgumentList(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`awk 'BEGIN{ARGV[1]=sprintf("%cenv",46); ARGC=2} {print}'`, KindUnverifiable},
		{`awk -v f=.e 'BEGIN{ARGV[1]=f "nv"; ARGC=2} {print}'`, KindUnverifiable},
		{`awk 'BEGIN{ARGV[ARGC++]=sprintf("%cenv",46)} 1'`, KindUnverifiable},
		{`awk 'BEGIN{split(sprintf("%cenv",46), ARGV); ARGC=2} 1'`, KindUnverifiable},
		{`perl -e 'push @ARGV, sprintf("%cenv",46); print while <>'`, KindUnverifiable},
		{`perl -e '@ARGV=(sprintf("%cenv",46)); print <>'`, KindUnverifiable},
		{`perl -e '$ARGV[0]=reverse "vne."; print <>' x`, KindDeny},
		{`perl -e '$ARGV[0]=sprintf("%cenv",46); print <>' x`, KindUnverifiable},
		{`ruby -e 'ARGV.replace([format("%cenv",46)]); puts ARGF.read'`, KindUnverifiable},
		{`ruby -e 'ARGV << format("%cenv",46); puts ARGF.read'`, KindUnverifiable},
		{`python3 -c 'import fileinput;[print(l,end="") for l in fileinput.input(["%cenv"%46])]'`, KindUnverifiable},
		{`python3 -c 'import sys,fileinput;sys.argv=["x","%cenv"%46];[print(l) for l in fileinput.input()]'`, KindUnverifiable},
		// everyday
		{`awk '{print $1}' file.txt`, ""},
		{`awk 'NR==FNR{a[$1];next} $1 in a' a.txt b.txt`, ""},
		{`awk 'BEGIN{for(i=1;i<ARGC;i++) print ARGV[i]}' a b`, ""},
		{`perl -ne 'print if /x/' a.txt`, ""},
		{`perl -e 'print "$ARGV[0]\n"' x`, ""},
		{`ruby -e 'puts ARGV[0]' x`, ""},
		{`python3 -c 'import sys; sys.argv=["p","--x"]; import argparse'`, ""},
		{`python3 -c 'import fileinput; [print(l) for l in fileinput.input()]' a.txt`, ""},
	})
}

// The shell's history runs commands again: fc -s (set -o history; history
// -s 'cat .e""nv'; fc -s cat printed .env), fc with an editor or OLD=NEW,
// and history expansion once set -H is on (cat .exnv, then ^x^ ran cat
// .env); history -s adds its words as a command line.
func TestHistoryReruns(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"set -o history\nhistory -s \"cat .e\\\"\\\"nv\"\nfc -s cat", KindDeny},
		{`set -o history; history -s 'cat .exnv'; fc -s x= cat`, KindUnverifiable},
		{`set -o history; fc -e sed`, KindUnverifiable},
		{"set -H -o history\ncat .exnv 2>/dev/null\n^x^", KindUnverifiable},
		{"set -o histexpand -o history\ncat .exnv\n!!:s/x//", KindUnverifiable},
		{"shopt -so histexpand", KindUnverifiable},
		{`set -eH`, KindUnverifiable},
		// everyday
		{`fc -l`, ""},
		{`fc -ln -5`, ""},
		{`history | tail`, ""},
		{`set +H; echo "hi!"`, ""},
		{`set +o histexpand`, ""},
		{`shopt -uo histexpand`, ""},
		{`set -euo pipefail; make`, ""},
	})
}

// Build tools' options and variables whose value is a command they run:
// go -exec (go run -exec "sh -c 'cat .e\"\"nv' --" x.go printed .env) and
// -toolexec, split as go splits them, GOFLAGS' -exec=/-toolexec=, cargo's
// CARGO_TARGET_…_RUNNER (split at blanks: 'sh -c cat${IFS}.e""nv --'
// printed it) and wrappers, cargo --config of a runner.
func TestBuildToolCommands(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`go run -exec "sh -c 'cat .e\"\"nv' --" x.go`, KindDeny},
		{`go test -exec="sh -c 'cat .e\"\"nv' --" ./...`, KindDeny},
		{`go build --toolexec "sh -c 'cat .e\"\"nv' --" .`, KindDeny},
		{`go test -exec=$(which x) .`, KindUnverifiable},
		{`echo 'cat .e""nv' > t.sh; GOFLAGS=-toolexec=./t.sh go build .`, KindDeny},
		{`GOFLAGS="-exec=$X" go test .`, KindUnverifiable},
		{`CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER='sh -c cat${IFS}.e""nv --' cargo run -q`, KindDeny},
		{`RUSTC_WRAPPER="$W" cargo build`, KindUnverifiable},
		{`cargo --config 'target.x86_64-unknown-linux-gnu.runner="x"' run`, KindUnverifiable},
		// everyday
		{`go run x.go`, ""},
		{`go test -race -count=1 ./...`, ""},
		{`go test -exec 'env FOO=1' ./...`, ""},
		{`GOFLAGS=-mod=mod go build ./...`, ""},
		{`cargo build --release`, ""},
		{`cargo test --config net.git-fetch-with-cli=true`, ""},
		{`RUSTC_WRAPPER=sccache cargo build`, ""},
	})
}

// Response files: compilers, linkers, binutils and the JDK read more
// arguments from @FILE with quotes of their own (echo '-E -include
// .e""nv' > r; gcc @r -x c /dev/null printed .env): one the command wrote
// is unverifiable, unless it holds the names find printed.
func TestResponseFilesWritten(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`echo '-E -include .e""nv' > r; gcc @r -x c /dev/null`, KindUnverifiable},
		{`printf '%s\n' -E -include .e\"\"nv > r; cpp @r /dev/null`, KindUnverifiable},
		{`echo '-cp .e""nv' > a; java @a Main`, KindUnverifiable},
		{`echo x > r; clang++ @./r a.cc`, KindUnverifiable},
		{`gcc @$(cat x) a.c`, KindUnverifiable},
		{`find . -name '*env' > srcs; gcc -E @srcs`, KindDeny},
		// everyday
		{`find src -name '*.java' > srcs; javac @srcs`, ""},
		{`gcc @build/flags.rsp -c a.c`, ""},
		{`echo '{"a":1}' > body.json; curl -d @body.json http://localhost:8000`, ""},
		{`gcc -o a a.c`, ""},
	})
}
