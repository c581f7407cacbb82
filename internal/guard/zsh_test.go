package guard

import "testing"

// TestZshWordSyntax: Claude Code runs a Bash call in the user's shell (zsh
// on macOS). A script that parses as zsh only keeps zsh's glob groups and
// qualifiers in its words (cat .env(.), cat .e(n)v, cat .e?v(N) read .env
// in zsh), a qualifier may run code (*(e:'cmd':), *(+f); bash parses
// *(…) as an extended glob), $~x globs x's value, ${(e)x} and ${(%)x}
// expand it again, print -P expands prompts. Attacker pass 12 finding 4.
func TestZshWordSyntax(t *testing.T) {
	runShellBoth(t, []shellCase{
		{`cat .env(.)`, KindDeny},
		{`cat .e(n)v`, KindDeny},
		{`cat .e(nv|xx)`, KindDeny},
		{`cat .e?v(N)`, KindDeny},
		{`x=.e; cat ${x}nv(N)`, KindDeny},
		{`echo *(e:'cat .env':)`, KindUnverifiable},
		{`echo ?(e:'cat .env':)`, KindUnverifiable},
		{`echo a.txt(e:'cat .env':)`, KindUnverifiable},
		{`echo a.txt(e"cat .e""nv")`, KindUnverifiable},
		{`echo a.txt(+f)`, KindUnverifiable},
		{`x='.e*'; cat $~x`, KindUnverifiable},
		{`x='$(cat .e""nv)'; echo ${(e)x}`, KindUnverifiable},
		{`x=$(rev <<< ')vne. tac($'); echo ${(e)x}`, KindUnverifiable},
		{`x='%F{red}$(cat .e""nv)'; echo ${(%)x}`, KindUnverifiable},
		{`setopt promptsubst; print -P '$(cat .e""nv)'`, KindUnverifiable},
		{`x='$(cat .e""nv)'; print -rP "$x"`, KindUnverifiable},
		// everyday
		{`cat a.txt(N)`, ""},
		{`echo ${(U)x}`, ""},
		{`print -P '%F{red}hi%f'`, ""},
		{`echo "$~x" 'a(.)'`, ""},
		{`echo cost: $~5`, ""},
	})
}

// TestZshOptionSpellings: zsh matches option names ignoring case and
// underscores (setopt g_lob_dots is GLOB_DOTS: cat * read .env), and
// EXTENDED_GLOB makes #, ^ and ~ glob operators (.en#v, .e^x, .env~x
// match .env). Attacker pass 12 finding 5.
func TestZshOptionSpellings(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{tCwd + "/.env": "K=1", tCwd + "/a.txt": "a"}, nil)})
	runShell(t, m, []shellCase{
		{`setopt g_lob_dots; cat *`, KindDeny},
		{`unsetopt no_glob_d_ots; cat *`, KindDeny},
		{`setopt GlobDots; cat *`, KindDeny},
		{`setopt extended__glob; cat .en#v`, KindDeny},
		{`setopt extendedglob; cat .e[n]##v`, KindDeny},
		{`setopt extendedglob; cat .e^x`, KindDeny},
		{`setopt EXTENDED_GLOB; cat .env~x`, KindDeny},
		{`setopt extendedglob; cat ^a.txt`, KindUnverifiable},
		// everyday
		{`cat *`, ""},
		{`setopt extendedglob; cat a.txt`, ""},
		{`setopt extendedglob; ls ~/x`, ""},
		{`echo a#b x~y ^z`, ""},
	})
}

// TestCodeStringsAreSh: a string in interpreter code that may be a command
// is read as /bin/sh reads it (os.system, execSync and system hand it to
// sh): text only zsh parses — a quote opened in a comment running into
// `f(a, b)` — is words, not a zsh glob qualifier; zsh's own words stay
// zsh's, and what sh runs is still read.
func TestCodeStringsAreSh(t *testing.T) {
	runShellBoth(t, []shellCase{
		{"cat > /tmp/a.py << 'EOF'\n# it's\ncontent = re.sub(pattern, replacement, content)\nEOF\npython3 /tmp/a.py", ""},
		{"python3 -c \"# it's\nx = re.sub(a, b, c) # and's\"", ""},
		{"node -e \"// it's\nconst y = f(a, b) // don't\"", ""},
		{"cat > /tmp/a.py << 'EOF'\n# it's\nimport os\nos.system('cat .e\"\"nv')\nEOF\npython3 /tmp/a.py", KindDeny},
		{"python3 -c \"# it's\nopen('.env').read() # x's\"", KindDeny},
		{`zsh -c 'cat .env(.)'`, KindDeny},
		{`python3 -c "import os; os.system('zsh -c \"echo *(e:cat .env:)\"')"`, KindUnverifiable},
	})
}
