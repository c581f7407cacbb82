package protect

import (
	"strings"
	"testing"
)

// FuzzNormalize: path normalisation never panics, is idempotent, and always
// yields an absolute path.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", ".env", "@~/.ssh/x", "$HOME/../..", `C:\a\..\b`, `\\?\UNC\s\h\x`, "//", "~//x", "a/./b/../../../c", "%USERPROFILE%", "\x00", "c:"} {
		f.Add(s, "/home/u/p", "/home/u")
		f.Add(s, `C:\Users\u\p`, `C:\Users\u`)
	}
	f.Fuzz(func(t *testing.T, p, cwd, home string) {
		env := Env{Cwd: cwd, Home: home}
		n := NormalizePath(env, p)
		if p == "" {
			if n != "" {
				t.Fatalf("empty path normalised to %q", n)
			}
			return
		}
		if !strings.HasPrefix(n, "/") && !isWindowsAbs(n) {
			t.Fatalf("NormalizePath(%q) = %q is not absolute", p, n)
		}
		if n2 := NormalizePath(Env{Cwd: cwd}, n); n2 != n && !strings.HasPrefix(n, "//") && !strings.Contains(n, "@") && !strings.HasPrefix(n, "/??/") {
			t.Fatalf("not idempotent: %q -> %q -> %q", p, n, n2)
		}
		m := DefaultRules().Matcher(env)
		m.Check(Call{Tool: "read", Args: map[string]any{"path": p}})
	})
}

// FuzzBash: the bash analysis never panics and a parse failure is always
// reported as a violation, never as an allow.
func FuzzBash(f *testing.F) {
	for _, s := range []string{
		"cat .env", "echo x && cat .e''nv", "bash -c 'cat .env'", "eval \"$(cat x)\"", "cat <<EOF\n.env\nEOF",
		"cd ~ && cat .ssh/x", "for f in *; do cat \"$f\"; done", "cat .{a,b{c,d}}", "echo $'\\x2e'env", "(((",
		"x=${HOME:-/}; cat $x/.pi/agent/auth.json", "cat [.]env", "ls @(a|b)", "cat {1..100}",
		"sudo -u x env A=1 xargs -I{} timeout 5 cat {}", "dd of=/etc/x", "a=(1 2); cat ${a[0]}",
	} {
		f.Add(s)
	}
	m := DefaultRules().Matcher(Env{Cwd: "/home/u/p", Home: "/home/u"})
	f.Fuzz(func(t *testing.T, cmd string) {
		vs := m.Check(Call{Tool: "bash", Args: map[string]any{"command": cmd}})
		_, err := AnalyzeBash(m.Env(), cmd)
		if err != nil && cmd != "" && (len(vs) == 0 || vs[0].Kind != KindBashParse) {
			t.Fatalf("parse error %v not reported: %+v", err, vs)
		}
		for _, v := range vs {
			_ = v.Reason()
		}
	})
}
