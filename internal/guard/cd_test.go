package guard

import "testing"

// cdMatchers: a project whose src/ holds no protected path, read with the
// disk (the folders' contents known) and without.
func cdMatchers() (disk, noDisk *Matcher) {
	files := map[string]string{
		tCwd + "/.env": "SECRET=x", tCwd + "/a.txt": "a", tCwd + "/src/m.go": "package m // TODO",
		tCwd + "/src/lib/x.go": "package lib", tCwd + "/docs/a.md": "TODO",
	}
	return DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)}),
		DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
}

// TestCdAndThen: `cd DIR && CMD` runs CMD only when the cd succeeded, so
// in DIR (or where CDPATH leads DIR), not where the shell was: a recursion
// of "." after it recurses DIR. Where the cd may have failed (`;`, `||`,
// after the list, `! cd`), may lead elsewhere (zsh's `cd OLD NEW`, `cd -`,
// a cd the command redefines, a computed folder) or CMD leaves DIR again,
// the shell may still be where it was.
func TestCdAndThen(t *testing.T) {
	disk, noDisk := cdMatchers()
	for _, c := range []shellCase{
		{"cd src && grep -r TODO .", ""},
		{"cd ./src && grep -rn TODO .", ""},
		{"cd src && grep -r TODO", ""},
		{"cd src 2>/dev/null && grep -rn TODO . | head", ""},
		{"cd " + tCwd + "/src && grep -r TODO .", ""},
		{"cd src && cd lib && grep -r TODO .", ""},
		{"cd src && git status && grep -r TODO .", ""},
		{"pushd src && grep -r TODO .", ""},
		{"cd src && { grep -r TODO .; }", ""},
		{"x=$(cd src && grep -r TODO .)", ""},
		{"cd src && grep -R TODO .", ""},
		// the shell may be where it was, or anywhere
		{"cd src; grep -r TODO .", KindFolder},
		{"cd src || grep -r TODO .", KindFolder},
		{"! cd src && grep -r TODO .", KindFolder},
		{"cd src && grep -r TODO . ; grep -r TODO .", KindFolder},
		{"(cd src && grep -r TODO .) ; grep -r TODO .", KindFolder},
		{"cd src && true; grep -r TODO .", KindFolder},
		{"cd src && cd .. && grep -r TODO .", KindFolder},
		{"cd src && { cd ..; grep -r TODO .; }", KindFolder},
		{"cd src && (cd .. && grep -r TODO .)", KindFolder},
		{"cd src/.. && grep -r TODO .", KindFolder},
		{"cd . && grep -r TODO .", KindFolder},
		{"cd src && grep -r TODO ..", KindFolder},
		{"cd src && cat ../.env", KindDeny},
		{"cd() { :; }; cd src && grep -r TODO .", KindFolder},
		{"cd() { builtin cd src; }; cd docs && grep -r TODO .", KindFolder},
		{"alias cd=:; cd src && grep -r TODO .", KindFolder},
		{"cd src lib && grep -r TODO .", KindFolder}, // zsh: $PWD with src replaced by lib
		{"cd - && grep -r TODO .", KindFolder},
		{"cd && grep -r TODO .", KindFolder},
		{"cd ~ && grep -r TODO .", KindFolder},
		{"cd -P src && grep -r TODO .", KindFolder}, // options: not the plain form (kept simple)
		{"cd -- src && grep -r TODO .", KindFolder},
		{"CDPATH=/ cd home && grep -r TODO user/proj", KindFolder},
		{"cd +1 && grep -r TODO .", KindFolder}, // zsh's directory stack
		{"cd \"$X\" && grep -r TODO .", KindFolder},
		{"cd $(cat d) && grep -r TODO .", KindFolder},
		{"d=src; [ -n \"$Z\" ] && d=..; cd $d && grep -r TODO .", KindFolder},
		{"cd src && ln -s .. up && grep -R TODO .", KindFolder},
		{"cd src && ln -s " + tCwd + " up && grep -R TODO .", KindFolder},
		{"cd src & grep -r TODO .", KindFolder},
		// what moves the shell without a cd the walk follows
		{"cd src && echo 'cd ..' > x.sh && . ./x.sh && grep -r TODO .", KindUnverifiable},
		{"pushd src && popd && grep -r TODO .", KindFolder},
		{"pushd src; pushd lib && popd && popd && grep -r TODO .", KindFolder},
		{"trap 'cd ..' DEBUG; cd src && grep -r TODO .", KindFolder},
		{"trap 'cd ..' RETURN; f() { :; }; cd src && f && grep -r TODO .", KindFolder},
		{"shopt -s autocd; cd src && .. && grep -r TODO .", KindFolder},
		{"setopt AUTO_CD; cd src && .. && grep -r TODO .", KindFolder},
		{"o=autocd; shopt -s $o; cd src && .. && grep -r TODO .", KindFolder},
		{"shopt -s $(cat o); cd src && .. && grep -r TODO .", KindFolder},
		{"cd src && cd - && grep -r TODO .", KindFolder},
		{"cd docs; cd src && cd - && grep -r TODO .", KindFolder},
		{"cd - && grep -r TODO .", KindFolder},
	} {
		if got, why := kindOf(disk, c.cmd); got != c.want {
			t.Errorf("disk: %q: got %q, want %q (%s)", c.cmd, got, c.want, why)
		}
		// without the disk a bare rule is taken to live at the cwd only:
		// the same verdicts, allowed or not
		if got, _ := kindOf(noDisk, c.cmd); (got == "") != (c.want == "") {
			t.Errorf("no disk: %q: got %q, want %q", c.cmd, got, c.want)
		}
	}
	// the cd's own words are still paths: a cd into a protected folder;
	// CDPATH searches a hidden folder's name too (only ./ and ../ not)
	runShell(t, disk, []shellCase{
		{"CDPATH=" + tHome + "; cd .ssh && cat id_rsa", KindDeny},
		{"export CDPATH=~; cd .pi && cat agent/auth.json", KindDeny},
		{"CDPATH=" + tHome + "; cd .pi/agent; cat auth.json", KindDeny},
		{"cd .github && ls", ""},
		{"cd ./src && cat m.go", ""},
		{"cd ~/.ssh && grep -r x .", KindDeny},
		{"cd " + tHome + "/.pi/agent && cat auth.json", KindDeny},
		{"cd src && cat m.go", ""},
	})
}

// TestCdableVars: with bash's cdable_vars (zsh's CDABLE_VARS) on, `cd NAME`
// goes to the folder $NAME names (zsh: ~NAME), anywhere: a command that
// may turn it on (in any spelling, or a shopt of an option named when it
// runs) makes such a cd lead anywhere. A shopt of an option computed when
// it runs may turn on dotglob too.
func TestCdableVars(t *testing.T) {
	disk, _ := cdMatchers()
	runShell(t, disk, []shellCase{
		{"shopt -s cdable_vars; X=~/.pi; cd X && cat agent/auth.json", KindDeny},
		{"shopt -s cdable_vars; X=~/.pi; cd X; cat agent/auth.json", KindDeny},
		{"shopt -s cdable_var''s; X=~/.pi; cd X; cat agent/auth.json", KindDeny},
		{"o=cdable_; shopt -s ${o}vars; X=~/.pi; cd X && cat agent/auth.json", KindDeny},
		{"shopt -s $(cat f); X=~/.pi; cd X && cat agent/auth.json", KindDeny},
		{"BASHOPTS=cdable_vars bash -c 'X=~/.pi; cd X && cat agent/auth.json'", KindDeny},
		{"setopt CDABLE_VARS; cd X/agent && cat auth.json", KindDeny},
		{"setopt c_dable_Vars; cd X/agent && cat auth.json", KindDeny},
		{"shopt -s cdable_vars; cd src && grep -r TODO .", KindFolder},
		{"shopt -s $(cat f); cat *env", KindDeny},
		{"shopt -s \"$o\"; grep S *", KindDeny},
		// without it, a cd is to the folder it names
		{"X=~/.pi; cd X && cat agent/auth.json", ""},
		{"shopt -s nullglob; cd src && cat *.go", ""},
		{"shopt -s globstar; cd src && grep -r TODO .", ""},
	})
}

// TestLinksBelowAFollowingRecursion: a recursion that follows symlinks
// (grep -R, rg -L, zip -r) enters a link the command made anywhere below
// its folder (or under a computed name), not only one it names: ln -s ..
// src/up && grep -R x src reads the project's .env through src/up.
func TestLinksBelowAFollowingRecursion(t *testing.T) {
	disk, noDisk := cdMatchers()
	for _, m := range []*Matcher{disk, noDisk} {
		runShell(t, m, []shellCase{
			{"ln -s .. src/up && grep -R TODO src", KindFolder},
			{"ln -s " + tCwd + " src/lib/up; grep -R TODO src", KindFolder},
			{"cd src && ln -s .. up && grep -R TODO .", KindFolder},
			{"ln -s .. \"$D\" && grep -R TODO src", KindFolder},
			{"ln -s \"$X\" src/up && grep -R TODO src", KindFolder},
			{"ln -s .. src/up && zip -r x.zip src", KindFolder},
			// not followed, or a link to a file that is not protected
			{"ln -s .. src/up && grep -r TODO src", ""},
			{"ln -s ../a.txt src/up && grep -R TODO src", ""},
			{"ln -s .. docs/up && grep -R TODO src", ""},
		})
	}
}
