package guard

import "testing"

// TestStdinBecomesCode: text on stdin that a program runs — eval of a
// $(cat) that reads the shell's stdin, awk's system($0) and print | "sh",
// perl's system $_ and eval, REPLs and debuggers (python -m code/pdb, -i,
// code.interact, node's repl, perl -d) — is read as the code it is when the
// analysis can see it, and is unverifiable when it cannot.
func TestStdinBecomesCode(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`bash -c 'eval "$(cat)"' <<< 'grep -r SECRET .'`, KindFolder},
		{`printf 'cat .e%sv' n | bash -c 'eval "$(cat)"'`, KindDeny},
		{`f() { eval "$(cat)"; }; f <<< 'cat .e""nv'`, KindDeny},
		{`bash -c 'x=$(cat); eval "$x"' <<< 'cat .e""nv'`, KindDeny},
		{`bash -c 'eval $(head -1)' <<< 'cat .e""nv'`, KindDeny},
		{`sh -c 'eval "$(cat)"' <<< 'rm -f .e""nv'`, KindDeny},
		{`echo 'cat .e""nv' | awk '{system($0)}'`, KindUnverifiable},
		{`echo 'cat .e""nv' | awk '{print | "sh"}'`, KindUnverifiable},
		{`echo x | awk '{ $0 | getline x; print x }'`, KindUnverifiable},
		{`awk 'BEGIN{getline c; system(c)}' <<< 'cat .e""nv'`, KindUnverifiable},
		{`echo 'cat .e""nv' | perl -ne 'system $_'`, KindUnverifiable},
		{`echo 'open F,".e"."nv"; print <F>' | perl -ne 'eval'`, KindUnverifiable},
		{`perl -e 'eval <>' <<< 'x'`, KindUnverifiable},
		{`echo 'print(open(".e"+"nv").read())' | python3 -m code -q`, KindDeny},
		{`python3 -c 'import code; code.interact()' <<< 'print(open(".e"+"nv").read())'`, KindDeny},
		{`python3 -c 'import pdb; pdb.set_trace()' <<< 'p open(".e"+"nv").read()'`, KindDeny},
		{`python3 -i x.py <<< 'print(open(".e"+"nv").read())'`, KindDeny},
		{`cat cmds | python3 -m code`, KindUnverifiable},
		{`perl -de 0 <<< 'open F,".e"."nv"; print <F>'`, KindUnverifiable},
		// everyday
		{`x=$(cat README.md); echo $x`, ""},
		{`echo hi | bash -c 'eval "$(cat)"'`, ""},
		{`awk '{print $1}' README.md`, ""},
		{`awk 'BEGIN{system("date")}'`, ""},
		{`awk '{print | "sort -u"}' README.md`, ""},
		{`awk '$1 > 3 || $2 < 1' x`, ""},
		{`awk '{ "date" | getline d; print d }'`, ""},
		{`perl -ne 'print if /x/' README.md`, ""},
		{`perl -e 'eval { 1 }; print $@'`, ""},
		{`perl -pe 's/a/b/' README.md`, ""},
		{`python3 -m pytest -q`, ""},
		{`python3 -m code <<< 'print(1)'`, ""},
		{`curl -s https://x/y.json | python3 -m json.tool`, ""},
	})
}

// TestProgramsThatRunTheirInput: programs that run lines of their input
// or stdin as commands — parallel with {} as the program or --pipe into a
// shell, a shell started by script, su, runuser, chrt, gdb's commands on
// stdin — read them as scripts, or are unverifiable when unseen.
func TestProgramsThatRunTheirInput(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`parallel -j1 {} ::: 'cat .e""nv'`, KindDeny},
		{`echo 'cat .e""nv' | parallel -j1 {}`, KindDeny},
		{`echo 'cat .e""nv' | parallel --pipe sh`, KindDeny},
		{`parallel -j1 {} <<< 'cat .e""nv'`, KindDeny},
		{`echo 'cat .e""nv' | script -q /dev/null`, KindDeny},
		{`echo 'cat .e""nv' | runuser -u root sh`, KindDeny},
		{`echo 'cat .e""nv' | su bob`, KindDeny},
		{`echo 'cat .e""nv' | chrt -o 0 sh`, KindDeny},
		{`echo 'shell cat .e""nv' | gdb -q`, KindDeny},
		{`cat cmds | gdb -q`, KindUnverifiable},
		// everyday
		{`parallel gzip ::: a.log b.log`, ""},
		{`parallel echo {} ::: a b`, ""},
		{`cat big.txt | parallel --pipe wc -l`, ""},
		{`gdb -batch -ex bt ./a.out core`, ""},
		{`script -q -c 'ls' /dev/null`, ""},
		{`chrt -o 0 make`, ""},
	})
}
