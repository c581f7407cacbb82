package guard

import "testing"

// TestMoveTakesTheFolder: mv of a folder takes everything below it along —
// a source folder is read and written in full, like rm -r: moving an
// ancestor of a protected path moves it out from under its rule (mv ~
// /tmp/h, then cat /tmp/h/.ssh/id_rsa; mv ~/.pi/agent elsewhere takes the
// gate's settings away), so it is denied; the destination is written, not
// recursed, unless -t names it and every operand is a source.
func TestMoveTakesTheFolder(t *testing.T) {
	files := map[string]string{
		tCwd + "/.env": "S=1", tCwd + "/src/a.go": "package a", tCwd + "/a.txt": "a", tCwd + "/build/out": "x",
		tHome + "/.ssh/id_rsa": "k", tHome + "/notes/n.txt": "n",
	}
	for i, m := range []*Matcher{
		DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)}),
		DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome}),
	} {
		disk := i == 0
		for _, c := range []shellCase{
			{"mv ~ /tmp/h", KindFolder},
			{"mv " + tCwd + " /tmp/p", KindFolder},
			{"mv . ../p", KindFolder},
			{"mv -t /tmp ~", KindFolder},
			{"mv --target-directory=/tmp " + tCwd, KindFolder},
			{"mv ~/.ssh /tmp/k", KindDeny},
			{"mv a.txt b.txt", ""},
			{"mv src/a.go src/b.go", ""},
			{"mv a.txt src/", ""},
			{"mv build old-build", ""},
			{"mv ~/notes ~/notes-old", ""},
			{"mv -t src a.txt", ""},
		} {
			if got, why := kindOf(m, c.cmd); got != c.want {
				t.Errorf("disk=%v %q: got %q, want %q (%s)", disk, c.cmd, got, c.want, why)
			}
		}
	}
}
