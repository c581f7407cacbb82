package guard

import "testing"

// TestProcessViews: a process's working folder and root are reachable
// under /proc in many spellings — /proc/self/cwd, /proc/$$/cwd (a pid
// computed when it runs), /proc/PID/task/TID/cwd, /dev/fd/../cwd (/dev/fd
// is a link to /proc/self/fd), /proc/$$/root$PWD — and a recursion, a
// chdir, tar -C or a link through any of them reaches the project.
func TestProcessViews(t *testing.T) {
	for _, m := range []*Matcher{
		DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome}),
		DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{tCwd + "/.env": "K=1", tCwd + "/src/a.py": "x"}, nil)}),
	} {
		runShell(t, m, []shellCase{
			{`grep -r SECRET /dev/fd/../cwd`, KindFolder},
			{`grep -r SECRET /proc/$$/cwd`, KindFolder},
			{`grep -r SECRET /dev/fd/../../self/cwd`, KindFolder},
			{`grep -r SECRET /proc/$$/task/$$/cwd`, KindFolder},
			{`grep -r SECRET /proc/self/task/1/cwd/`, KindFolder},
			{`rg --hidden SECRET /proc/$$/cwd/`, KindFolder},
			{`cp -r /dev/fd/../cwd/ /tmp/cc`, KindFolder},
			{`find /proc/$$/cwd/ -name '.e*' -delete`, KindFolder},
			{`tar cf - -C /dev/fd/../cwd . | tar xOf - | grep SECRET`, KindFolder},
			{`ln -s /proc/$$/cwd d; grep -r SECRET d/`, KindFolder},
			{`cat /proc/self/cwd/.env`, KindDeny},
			{`cat /dev/fd/../cwd/.env`, KindDeny},
			// everyday
			{`grep -r TODO /proc/self/cwd/src`, ""},
			{`tar czf /tmp/s.tgz -C src .`, ""},
			{`ls /dev/fd`, ""},
			{`echo x > /dev/fd/2`, ""},
		})
	}
	mt := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{tCwd + "/.env": "K=1"}, nil)})
	for _, c := range []Call{
		{Tool: "Grep", Args: map[string]any{"pattern": "SECRET", "path": "/dev/fd/../cwd"}},
		{Tool: "grep", Args: map[string]any{"pattern": "SECRET", "path": "/proc/self/task/7/cwd"}},
		{Tool: "mcp__fs__search", Args: map[string]any{"query": "SECRET", "path": "/dev/fd/../cwd"}},
	} {
		if vs := mt.Check(c); len(vs) == 0 {
			t.Errorf("%s %v: allowed", c.Tool, c.Args)
		}
	}
}

// TestLinksUnderComputedNames: a folder link made under a name computed
// when the command runs ($d/l after d=$(mktemp -d)) may be what a later
// recursion of a computed folder goes through.
func TestLinksUnderComputedNames(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{tCwd + "/.env": "K=1", "/usr/share/doc/x": "x"}, nil)})
	runShell(t, m, []shellCase{
		{`d=$(mktemp -d); ln -s "$PWD" $d/l; grep -r SECRET $d/l/`, KindFolder},
		{`d=$(mktemp -d); ln -s "$PWD" $d/l; tar chf - "$d/l" | tar xO`, KindFolder},
		{`d=$(mktemp -d); ln -s /home/user/proj "$d/x"; cp -rL "$d/x" /tmp/o`, KindFolder},
		{`d=$(mktemp -d); ln -s /usr/share/doc $d/l; grep -r x $d/l/`, ""},
	})
}
