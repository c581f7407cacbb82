package guard

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
)

const (
	tHome = "/home/user"
	tCwd  = "/home/user/proj"
)

func mustRules(t testing.TB, js string) *Rules {
	t.Helper()
	r, err := ParseRules([]byte(js), "test.json")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// verdict runs one call and returns "" (allow) or the named rule plus op.
func verdict(m *Matcher, tool string, args map[string]any) (rule string, op Op) {
	vs := m.Check(Call{Tool: tool, Args: args})
	if len(vs) == 0 {
		return "", ""
	}
	return vs[0].Rule, vs[0].Op
}

type callCase struct {
	name string
	tool string
	arg  string // path, or command for bash
	want string // rule named, "" = allow
	op   Op     // op named, "" = don't care
}

func argsFor(tool, arg string) map[string]any {
	switch strings.ToLower(tool) {
	case "bash":
		return map[string]any{"command": arg}
	}
	if tool[0] >= 'A' && tool[0] <= 'Z' {
		return map[string]any{"file_path": arg}
	}
	return map[string]any{"path": arg}
}

func runCases(t *testing.T, m *Matcher, cases []callCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule, op := verdict(m, c.tool, argsFor(c.tool, c.arg))
			if c.want == "*" && rule != "" {
				return
			}
			if rule != c.want {
				t.Fatalf("%s %q: rule %q, want %q", c.tool, c.arg, rule, c.want)
			}
			if c.op != "" && op != c.op {
				t.Fatalf("%s %q: op %q, want %q", c.tool, c.arg, op, c.op)
			}
		})
	}
}

// TestMatchingRules covers each matching rule of the issue: bare segments at
// any depth, runs of segments, prefixes on segment boundaries, globs, union
// of deny ops, case folding.
func TestMatchingRules(t *testing.T) {
	r := mustRules(t, `{"paths":[
		{"path":".env","deny":["read","write","edit","bash"]},
		{"path":"node_modules/","deny":["write","edit"]},
		{"path":"config/secrets.json","deny":["read"]},
		{"path":"/etc/","deny":["write","edit"]},
		{"path":"~/.ssh/","deny":["read","bash"]},
		{"path":"**/*.pem","deny":["read"]},
		{"path":".env.*","deny":["read"]},
		{"path":"~/.aws/credentials","deny":["read"]}
	]}`)
	m := r.Matcher(Env{Cwd: tCwd, Home: tHome})
	runCases(t, m, []callCase{
		{"bare at root", "read", ".env", ".env", OpRead},
		{"bare at depth", "read", "a/b/c/.env", ".env", OpRead},
		{"bare absolute", "read", "/srv/x/.env", ".env", OpRead},
		{"bare not substring", "read", ".envrc", "", ""},
		{"bare not prefix", "read", ".environment", "", ""},
		{"bare dir segment", "write", "web/node_modules/x/index.js", "node_modules/", OpWrite},
		{"bare dir read allowed", "read", "node_modules/x/README.md", "", ""},
		{"bare dir itself", "edit", "node_modules", "node_modules/", OpEdit},
		{"run of segments", "read", "app/config/secrets.json", "config/secrets.json", OpRead},
		{"run of segments partial", "read", "app/secrets.json", "", ""},
		{"run of segments other parent", "read", "xconfig/secrets.json", "", ""},
		{"abs prefix", "write", "/etc/passwd", "/etc/", OpWrite},
		{"abs exact", "write", "/etc", "/etc/", OpWrite},
		{"abs boundary", "write", "/etcetera/x", "", ""},
		{"abs read allowed", "read", "/etc/hosts", "", ""},
		{"home prefix", "read", "~/.ssh/id_rsa", "~/.ssh/", OpRead},
		{"home absolute spelling", "read", "/home/user/.ssh/id_rsa", "~/.ssh/", OpRead},
		{"home boundary", "read", "/home/user/.sshkeys", "", ""},
		{"glob any depth", "read", "certs/deep/server.pem", "**/*.pem", OpRead},
		{"glob bare basename", "read", ".env.production", ".env.*", OpRead},
		{"glob no match", "read", "server.pem.txt", "", ""},
		{"case folded bare", "read", "src/.ENV", ".env", OpRead},
		{"case folded home", "read", "/HOME/USER/.SSH/config", "~/.ssh/", OpRead},
		{"home file", "read", "~/.aws/credentials", "~/.aws/credentials", OpRead},
		{"home file sibling", "read", "~/.aws/config", "", ""},
	})

	t.Run("case sensitive", func(t *testing.T) {
		ms := r.Matcher(Env{Cwd: tCwd, Home: tHome, CaseSensitive: true})
		if rule, _ := verdict(ms, "read", map[string]any{"path": "src/.ENV"}); rule != "" {
			t.Fatalf(".ENV blocked with --case-sensitive by %q", rule)
		}
		if rule, _ := verdict(ms, "read", map[string]any{"path": "src/.env"}); rule != ".env" {
			t.Fatalf(".env not blocked with --case-sensitive")
		}
	})
}

// TestUnionNotFirstMatch: an earlier, laxer entry must not shadow a stricter
// later one (pikit B5 first-match shadowing).
func TestUnionNotFirstMatch(t *testing.T) {
	r := mustRules(t, `{"paths":[{"path":"node_modules/","deny":["write","edit"]},{"path":".env","deny":["read"]}]}`)
	m := r.Matcher(Env{Cwd: tCwd, Home: tHome})
	rule, op := verdict(m, "read", map[string]any{"path": "node_modules/pkg/.env"})
	if rule != ".env" || op != OpRead {
		t.Fatalf("got %q %q, want .env read", rule, op)
	}
	vs := m.Check(Call{Tool: "write", Args: map[string]any{"path": "node_modules/pkg/.env"}})
	if len(vs) != 1 || vs[0].Rule != "node_modules/" || len(vs[0].Rules) != 1 {
		t.Fatalf("write: %+v", vs)
	}
}

// TestB5 is seed-extensions.md B5: every bypass blocked, every false alarm
// allowed, with the default rules plus `~/.ssh/` (read, bash).
func TestB5(t *testing.T) {
	r := DefaultRules()
	r.Entries = append(r.Entries, Entry{Path: "~/.ssh/", Deny: SetRead | SetBash, Index: 4})
	m := r.Matcher(Env{Cwd: tCwd, Home: tHome})
	runCases(t, m, []callCase{
		// bypasses
		{"tilde via read tool", "read", "~/.pi/agent/auth.json", "~/.pi/agent/auth.json", OpRead},
		{"at prefix", "read", "@.env", ".env", OpRead},
		{"dot slash", "read", "./.env", ".env", OpRead},
		{"spaces round the path (a tool that trims it)", "read", " .env", ".env", OpRead},
		{"newline after the path", "read", ".env\n", ".env", OpRead},
		{"tab before the path", "read", "\t.env", ".env", OpRead},
		{"dotdot in abs", "read", "/home/user/proj/../proj/./.env", ".env", OpRead},
		{"bash $HOME", "bash", "cat $HOME/.pi/agent/auth.json", "~/.pi/agent/auth.json", OpBash},
		{"bash cd chain", "bash", "cd ~/.pi/agent && cat auth.json", "~/.pi/agent/auth.json", OpBash},
		{"bash glob", "bash", "cat ~/.pi/agent/auth.js*", "~/.pi/agent/auth.json", OpBash},
		{"bash glob ?", "bash", "cat ~/.pi/agent/auth.js?n", "~/.pi/agent/auth.json", OpBash},
		{"bash glob dir", "bash", "cat ~/.pi/*/auth.json", "~/.pi/agent/auth.json", OpBash},
		{"bash glob bare", "bash", "cat .en*", ".env", OpBash},
		{"bash quote split", "bash", "cat .e''nv", ".env", OpBash},
		{"ls ssh no slash", "bash", "ls ~/.ssh", "~/.ssh/", OpBash},
		{"first match shadow (default order)", "read", "node_modules/pkg/.env", ".env", OpRead},
		{"backslashes", "read", `src\.env`, ".env", OpRead},
		{"grep tool gated", "grep", ".env", ".env", OpRead},
		{"find tool gated", "find", ".git", ".git/", OpRead},
		{"ls tool gated", "ls", ".git/objects", ".git/", OpRead},
		{"unknown tool with path", "mcp_fs_read", ".env", ".env", OpRead},
		// false alarms
		// the dotenv files with real values are built-in rules too
		{"read .env.local", "read", ".env.local", ".env.local", OpRead},
		{"bash .env.local", "bash", "cat .env.local", ".env.local", OpBash},
		{"read .env.production", "read", "web/.env.production", ".env.production", OpRead},
		{"bash source .env.development", "bash", "source .env.development", ".env.development", OpBash},
		{"bash cp .env.staging", "bash", "cp .env.staging /tmp/x", ".env.staging", OpBash},
		{"bash .env.production.local", "bash", "cat ./.env.production.local", ".env.production.local", OpBash},
		{"read .env.test.local", "read", ".env.test.local", ".env.test.local", OpRead},
		{"bash quote split .env.local", "bash", "cat .env.lo''cal", ".env.local", OpBash},
		{"write .env.local", "write", ".env.local", ".env.local", OpWrite},
		// ...the committed templates and test values are not
		{"read .env.example allowed", "read", ".env.example", "", ""},
		{"bash .env.sample allowed", "bash", "cat .env.sample", "", ""},
		{"bash cp .env.template allowed", "bash", "diff .env.template .env.example", "", ""},
		{"read .env.test allowed", "read", ".env.test", "", ""},
		{"read .env.locale allowed", "read", ".env.locale", "", ""},
		{"read .envrc allowed", "read", ".envrc", "", ""},
		{"process.env", "bash", "node -e 'console.log(process.env.X)'", "", ""},
		{"import.meta.env", "bash", "grep -r import.meta.env src", "", ""},
		{"sshkeys boundary", "bash", "cat /home/user/.sshkeys", "", ""},
		{"sshkeys read", "read", "/home/user/.sshkeys", "", ""},
	})
}

// TestBashConstructs: every other bypass kind the issue names.
func TestBashConstructs(t *testing.T) {
	r := mustRules(t, `{"paths":[
		{"path":".env","deny":["read","write","edit","bash"]},
		{"path":"~/.ssh/","deny":["read","write","bash"]},
		{"path":"node_modules/","deny":["write"]},
		{"path":"/etc/","deny":["write"]}
	]}`)
	m := r.Matcher(Env{Cwd: tCwd, Home: tHome})
	runCases(t, m, []callCase{
		{"pipeline", "bash", "true | cat .env | wc", ".env", OpBash},
		{"subshell", "bash", "(cd src && cat ../.env)", ".env", OpBash},
		{"brace group", "bash", "{ cat .env; }", ".env", OpBash},
		{"cmd subst", "bash", "echo $(cat .env)", ".env", OpBash},
		{"backticks", "bash", "echo `cat .env`", ".env", OpBash},
		{"proc subst", "bash", "diff <(cat .env) x", ".env", OpBash},
		{"sh -c", "bash", `sh -c "cat .env"`, ".env", OpBash},
		{"bash -lc", "bash", `bash -lc 'cat .env'`, ".env", OpBash},
		{"nested -c", "bash", `bash -c "sh -c 'cat .e\"\"nv'"`, ".env", OpBash},
		{"eval", "bash", `eval "cat .env"`, ".env", OpBash},
		{"eval joined", "bash", `eval cat .e"nv"`, ".env", OpBash},
		{"redirect in", "bash", "wc -l < .env", ".env", OpBash},
		{"redirect out", "bash", "echo x > .env", ".env", OpBash},
		{"redirect append home", "bash", "echo Host >> ~/.ssh/config", "~/.ssh/", OpBash},
		{"here-string", "bash", "xargs cat <<< .env", ".env", OpBash},
		{"here-doc", "bash", "xargs cat <<EOF\n.env\nEOF", ".env", OpBash},
		{"here-doc script", "bash", "bash <<'EOF'\ncat .env\nEOF", ".env", OpBash},
		{"for loop", "bash", "for f in .env; do cat $f; done", ".env", OpBash},
		{"variable", "bash", "f=.e; cat ${f}nv", ".env", OpBash},
		{"export var", "bash", "export F=~/.ssh/id_rsa; cat $F", "~/.ssh/", OpBash},
		{"braces", "bash", "cat .{env,x}", ".env", OpBash},
		{"test clause", "bash", "[[ -f .env ]] && echo y", ".env", OpBash},
		{"if", "bash", "if true; then cat .env; fi", ".env", OpBash},
		{"while", "bash", "while read l; do echo $l; done < .env", ".env", OpBash},
		{"sudo wrapper", "bash", "sudo -u root cat .env", ".env", OpBash},
		{"env wrapper", "bash", "env FOO=1 cat .env", ".env", OpBash},
		{"option value", "bash", "docker run --env-file=.env img", ".env", OpBash},
		{"volume", "bash", "docker run -v ./.env:/app/.env img", ".env", OpBash},
		{"PWD", "bash", "cat $PWD/.env", ".env", OpBash},
		{"braced home", "bash", "cat ${HOME}/.ssh/id_rsa", "~/.ssh/", OpBash},
		{"tilde only dir", "bash", "cd ~ && cat .ssh/id_rsa", "~/.ssh/", OpBash},
		{"cd relative chain", "bash", "cd .. ; cd proj; cd ../..; cat user/.ssh/id_rsa", "~/.ssh/", OpBash},
		{"unknown leading var", "bash", "cat $SECRETS_DIR/.env", ".env", OpBash},
		{"unknown leading var anchored", "bash", "cat $D/auth.json", "", ""},
		{"unknown dir then name", "bash", "cat $(npm root -g)/.ssh/id_rsa", "~/.ssh/", OpBash},
		{"unknown dir and file", "bash", "cat $(npm root -g)/$F", "*", ""}, // $F alone may be any file
		{"unknown file in protected dir", "bash", "cat ~/.ssh/$F", "*", ""},
		{"dollar single", "bash", `cat $'.e\x6ev'`, ".env", OpBash},
		{"line continuation", "bash", "cat .e\\\nnv", ".env", OpBash},
		{"background", "bash", "cat .env & wait", ".env", OpBash},
		{"or list", "bash", "false || cat .env", ".env", OpBash},
		{"function", "bash", "f() { cat .env; }; f", ".env", OpBash},
		{"case", "bash", "case x in x) cat .env;; esac", ".env", OpBash},
		// write semantics where bash itself is not denied
		{"tee write", "bash", "echo x | tee node_modules/a.js", "node_modules/", OpWrite},
		{"cp target write", "bash", "cp a.js node_modules/a.js", "node_modules/", OpWrite},
		{"cp source read ok", "bash", "cp node_modules/a.js a.js", "", ""},
		{"mv write", "bash", "mv node_modules/a.js b.js", "node_modules/", OpWrite},
		{"sed -i write", "bash", "sed -i 's/a/b/' node_modules/x.js", "node_modules/", OpWrite},
		{"sed read ok", "bash", "sed 's/a/b/' node_modules/x.js", "", ""},
		{"redirect write", "bash", "echo x > /etc/hosts", "/etc/", OpWrite},
		{"dd of", "bash", "dd if=/dev/zero of=/etc/x", "/etc/", OpWrite},
		{"cat etc read ok", "bash", "cat /etc/hosts", "", ""},
		{"ls node_modules ok", "bash", "ls node_modules", "", ""},
		// false alarms
		{"star does not match dotfile", "bash", "cat *", "", ""},
		{"quoted star literal", "bash", "echo '.en*'", "", ""},
		{"only unknown", "bash", `echo "$1" $X`, "", ""},
		{"top-level positional unknown", "bash", `cat "$1"`, "*", ""}, // how the agent's shell binds $1 is not known
		{"url", "bash", "curl https://example.com/a:b", "", ""},
		{"dotenv npm", "bash", "npm i dotenv", "", ""},
		{"regex backslash", "bash", `grep -r '\.env' src`, "", ""},
		{"fd dup", "bash", "cmd 2>&1 >/dev/null", "", ""},
		{"echo ssh parent", "bash", "echo ~/.sshx", "", ""},
	})

	t.Run("parse error is a violation", func(t *testing.T) {
		vs := m.Check(Call{Tool: "bash", Args: map[string]any{"command": "cat .env ((("}})
		if len(vs) != 1 || vs[0].Kind != KindBashParse {
			t.Fatalf("got %+v", vs)
		}
		if !strings.Contains(vs[0].Reason(), "parse") {
			t.Fatalf("reason %q", vs[0].Reason())
		}
	})

	// commands bash -n rejects: an empty list after if/then/else/do, an empty
	// group or subshell. mvdan.cc/sh's bash parser rejects them too, but its
	// zsh parser (the fallback) accepts them: they used to pass the hook.
	t.Run("empty lists bash rejects do not parse", func(t *testing.T) {
		for _, cmd := range []string{"if then fi", "if true; then fi", "if true; then :; else fi",
			"if true; then :; elif then :; fi", "while do done", "until false; do done",
			"for x in a; do done", "{ }", "( )", "f() { }", "cat .env; if then fi"} {
			vs := m.Check(Call{Tool: "bash", Args: map[string]any{"command": cmd}})
			if len(vs) != 1 || vs[0].Kind != KindBashParse {
				t.Errorf("%q: got %+v, want a bash-parse-error", cmd, vs)
			}
		}
		for _, cmd := range []string{"if true; then :; fi", "case x in a) ;; esac", "while false; do :; done",
			"for ((i=0;i<1;i++)); do :; done", "f() { :; }", "( : )"} {
			if vs := m.Check(Call{Tool: "bash", Args: map[string]any{"command": cmd}}); len(vs) != 0 {
				t.Errorf("%q: got %+v, want allowed", cmd, vs)
			}
		}
	})
}

// TestClaudeNames: Claude Code tool names and argument keys.
func TestClaudeNames(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	cases := []struct {
		tool string
		args map[string]any
		want string
		op   Op
	}{
		{"Read", map[string]any{"file_path": "/home/user/proj/.env"}, ".env", OpRead},
		{"Write", map[string]any{"file_path": "node_modules/x.js", "content": "x"}, "node_modules/", OpWrite},
		{"Edit", map[string]any{"file_path": ".git/config"}, ".git/", OpEdit},
		{"MultiEdit", map[string]any{"file_path": ".git/config", "edits": []any{}}, ".git/", OpEdit},
		{"Bash", map[string]any{"command": "cat .env"}, ".env", OpBash},
		{"Grep", map[string]any{"pattern": "SECRET", "path": ".env"}, ".env", OpRead},
		{"Grep", map[string]any{"pattern": "SECRET", "glob": ".env"}, ".env", OpRead},
		{"Grep", map[string]any{"pattern": ".env"}, "", ""},
		{"Glob", map[string]any{"pattern": "**/.env"}, ".env", OpRead},
		{"Glob", map[string]any{"pattern": "**/*.ts"}, "", ""},
		{"find", map[string]any{"pattern": "*.ts", "path": "src"}, "", ""},
		{"NotebookEdit", map[string]any{"notebook_path": "node_modules/a.ipynb"}, "node_modules/", OpEdit},
		{"multi_edit", map[string]any{"edits": []any{map[string]any{"path": "a.txt"}, map[string]any{"path": "node_modules/b"}}}, "node_modules/", OpEdit},
		{"apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: .git/hooks/pre-commit\n*** End Patch"}, ".git/", OpEdit},
		{"SomeMCPTool", map[string]any{"file_path": "~/.pi/agent/auth.json"}, "~/.pi/agent/auth.json", OpRead},
		{"SomeMCPTool", map[string]any{"query": ".env"}, "", ""},
		{"read", map[string]any{"path": 42}, ".env", OpRead}, // not a string: unverifiable (TestArgShapes)
		{"bash", map[string]any{"command": []any{"cat", ".env"}}, ".env", OpBash},
	}
	for _, c := range cases {
		rule, op := verdict(m, c.tool, c.args)
		if rule != c.want || (c.op != "" && op != c.op) {
			t.Errorf("%s %v: got %q %q, want %q %q", c.tool, c.args, rule, op, c.want, c.op)
		}
	}
}

// TestNormalize: path normalisation, including Windows forms.
func TestNormalize(t *testing.T) {
	posix := Env{Cwd: tCwd, Home: tHome}
	win := Env{Cwd: `C:\Users\u\proj`, Home: `C:\Users\u`}
	cases := []struct {
		env  Env
		in   string
		want string
	}{
		{posix, "", ""},
		{posix, ".env", "/home/user/proj/.env"},
		{posix, "@.env", "/home/user/proj/.env"},
		{posix, "@@x", "/home/user/proj/@x"},
		{posix, "~", "/home/user"},
		{posix, "~/", "/home/user"},
		{posix, "~//.ssh", "/home/user/.ssh"},
		{posix, "~x/y", "/home/user/proj/~x/y"},
		{posix, "$HOME/a", "/home/user/a"},
		{posix, "${HOME}/a", "/home/user/a"},
		{posix, "$HOMEX/a", "/home/user/proj/$HOMEX/a"},
		{posix, "../../..", "/"},
		{posix, "a//b/./c/../d", "/home/user/proj/a/b/d"},
		{posix, `a\b`, "/home/user/proj/a/b"},
		{Env{}, "x", "/x"},
		{win, `C:\Users\u\proj\.env`, "c:/Users/u/proj/.env"},
		{win, `.env`, "c:/Users/u/proj/.env"},
		{win, `..\x`, "c:/Users/u/x"},
		{win, `~\.ssh\id`, "c:/Users/u/.ssh/id"},
		{win, `%USERPROFILE%\.ssh`, "c:/Users/u/.ssh"},
		{win, `\\?\C:\Users\u\.env`, "c:/Users/u/.env"},
		{win, `\\?\UNC\srv\share\.env`, "//srv/share/.env"},
		{win, `\\srv\share\a\..\.env`, "//srv/share/.env"},
		{win, `/tmp/x`, "c:/tmp/x"},
		{win, `d:/x/../y`, "d:/y"},
		{Env{Cwd: "/", Home: "A:"}, "0", "/0"}, // a rooted cwd on Windows: no share
		{Env{Cwd: "/"}, "x/.env", "/x/.env"},
		{Env{Cwd: `\\?\D:\work`, Home: `C:\Users\u`}, `a`, "d:/work/a"},
	}
	for _, c := range cases {
		if got := NormalizePath(c.env, c.in); got != c.want {
			t.Errorf("NormalizePath(%q, %q) = %q, want %q", c.env.Cwd, c.in, got, c.want)
		}
	}
}

// TestWindowsMatching: rules match Windows spellings when the cwd is Windows.
func TestWindowsMatching(t *testing.T) {
	r := DefaultRules()
	r.Entries = append(r.Entries, Entry{Path: "~/.ssh/", Deny: SetRead, Index: 4})
	m := r.Matcher(Env{Cwd: `C:\Users\u\proj`, Home: `C:\Users\u`})
	runCases(t, m, []callCase{
		{"drive abs", "read", `C:\Users\u\proj\.env`, ".env", OpRead},
		{"lowercase drive", "read", `c:\users\U\.ssh\id_rsa`, "~/.ssh/", OpRead},
		{"verbatim prefix", "read", `\\?\C:\Users\u\.pi\agent\auth.json`, "~/.pi/agent/auth.json", OpRead},
		{"mixed slashes", "read", `C:/Users/u\.git/config`, ".git/", OpRead},
		{"other drive not home", "read", `D:\Users\u\.ssh\id_rsa`, "", ""},
		{"bash backslash", "bash", `type C:\Users\u\.pi\agent\auth.json`, "", ""}, // unquoted \ escapes in bash
		{"bash quoted backslash", "bash", `cat 'C:\Users\u\.pi\agent\auth.json'`, "~/.pi/agent/auth.json", OpBash},
		{"bash relative", "bash", `cat .\.env`, "", ""},
		{"bash quoted relative", "bash", `cat '.\.env'`, ".env", OpBash},
	})
}

// linkFS is a file system of directories, files and symlinks for tests.
func linkFS(files map[string]string, links map[string]string) FS {
	m := fstest.MapFS{}
	for p, data := range files {
		m[strings.TrimPrefix(p, "/")] = &fstest.MapFile{Data: []byte(data), Mode: 0o644}
	}
	for p, to := range links {
		m[strings.TrimPrefix(p, "/")] = &fstest.MapFile{Data: []byte(to), Mode: fs.ModeSymlink | 0o777}
	}
	return IOFS(m)
}

func TestSymlinks(t *testing.T) {
	r := DefaultRules()
	fsys := linkFS(map[string]string{
		"/home/user/proj/.env":            "X=1",
		"/home/user/.pi/agent/auth.json":  "{}",
		"/home/user/proj/other.txt":       "x",
		"/home/user/proj/src/main.go":     "package main",
		"/home/user/proj/.git/config":     "[core]",
		"/home/user/proj/theme/README.md": "x",
	}, map[string]string{
		"/home/user/proj/notes.txt": ".env",
		"/home/user/proj/cfg":       "/home/user/.pi/agent",
		"/home/user/proj/loop":      "loop",
	})
	env := Env{Cwd: tCwd, Home: tHome, FS: fsys}
	m := r.Matcher(env)
	runCases(t, m, []callCase{
		{"file link", "read", "notes.txt", ".env", OpRead},
		{"dir link", "read", "cfg/auth.json", "~/.pi/agent/auth.json", OpRead},
		{"bash via link", "bash", "cat cfg/auth.json", "~/.pi/agent/auth.json", OpBash},
		{"new file under link", "write", "cfg/new.json", "", ""},
		{"write through link", "write", "cfg/auth.json", "~/.pi/agent/auth.json", OpWrite},
		{"unrelated", "read", "other.txt", "", ""},
		{"link loop does not allow .env", "read", "loop/../.env", ".env", OpRead},
		{"glob expands to link", "bash", "cat ./*.txt", ".env", OpBash},
		// `..` after a symlinked folder is the target's parent (the kernel's rule)
		{"dotdot after a dir link", "bash", "cat cfg/../agent/auth.json", "~/.pi/agent/auth.json", OpBash},
		{"dotdot after a dir link, read tool", "read", "cfg/../agent/auth.json", "~/.pi/agent/auth.json", OpRead},
		{"dotdot, no link", "bash", "cat src/../README.md", "", ""},
	})
	vs := m.Check(Call{Tool: "read", Args: map[string]any{"path": "notes.txt"}})
	if len(vs) != 1 || vs[0].Resolved != "/home/user/proj/.env" || !strings.Contains(vs[0].Reason(), "/home/user/proj/.env") {
		t.Fatalf("%+v", vs)
	}
	// a glob that reaches .env through a link names the link it expanded to
	vs = m.Check(Call{Tool: "bash", Args: map[string]any{"command": "cat ./*.txt"}})
	if len(vs) != 1 || vs[0].Expanded != "/home/user/proj/notes.txt" ||
		!strings.Contains(vs[0].Reason(), "expands to /home/user/proj/notes.txt -> /home/user/proj/.env") {
		t.Fatalf("glob via link: %+v %q", vs, vs[0].Reason())
	}
	// a file system that cannot answer never turns a block into an allow
	mf := r.Matcher(Env{Cwd: tCwd, Home: tHome, FS: IOFS(fstest.MapFS{})})
	if rule, _ := verdict(mf, "read", map[string]any{"path": ".env"}); rule != ".env" {
		t.Fatal("empty file system allowed .env")
	}
}

func TestHostDisk(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("X=1"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".env", filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git", filepath.Join(dir, "g")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "theme", "node_modules"), 0o700); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	fsys := IOFS(os.DirFS("/"))
	m := DefaultRules().Matcher(Env{Cwd: filepath.ToSlash(dir), Home: "/nonexistent-home", FS: fsys})
	runCases(t, m, []callCase{
		{"link to .env", "read", "notes.txt", ".env", OpRead},
		{"bash link to .env", "bash", "cat notes.txt", ".env", OpBash},
		{"missing file under linked dir", "write", "g/new/file", ".git/", OpWrite},
		{"plain", "read", "plain.txt", "", ""},
		{"glob expanded on disk", "bash", "mv theme/* /tmp/x", "node_modules/", OpWrite},
		{"glob with no protected match", "bash", "mv ./*.md /tmp/x", "", ""},
		{"glob expands to link", "bash", "cat ./*.txt", ".env", OpBash},
	})
	// without the file system a bare `*` below the cwd names no protected file
	m2 := DefaultRules().Matcher(Env{Cwd: filepath.ToSlash(dir), Home: "/nonexistent-home"})
	if rule, _ := verdict(m2, "bash", map[string]any{"command": "mv theme/* /tmp/x"}); rule != "" {
		t.Fatalf("pure wildcard blocked by %q without file system", rule)
	}
	if got, changed, ok := resolveLinks(fsys, filepath.ToSlash(dir)+"/notes.txt", false); !ok || !changed || got != filepath.ToSlash(real)+"/.env" {
		t.Fatalf("resolveLinks = %q %v %v", got, changed, ok)
	}
	if _, err := fsys.Lstat("c:/x"); err == nil {
		t.Fatal("a Windows path exists on POSIX")
	}
}

func TestParseRulesErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{``, "empty rules"},
		{`{`, "test.json"},
		{`{"paths":[]}`, "protect nothing"},
		{`[]`, "protect nothing"},
		{`{}`, `no "paths"`},
		{`{"path":[]}`, `unknown key "path"`},
		{`{"paths":{}}`, "not a list"},
		{`{"paths":[{"path":".env"}]}`, `paths[0] ".env": missing "deny"`},
		{`{"paths":[{"path":".env","deny":[]}]}`, `paths[0] ".env": empty "deny"`},
		{`{"paths":[{"path":".env","deny":["read"]},{"path":"x","deny":["delete"]}]}`, `paths[1] "x": unknown op "delete"`},
		{`{"paths":[{"path":"x[","deny":["read"]}]}`, `paths[0] "x[": bad glob`},
		{`{"paths":[{"path":"x","ops":["read"]}]}`, `renamed to "deny"`},
		{`{"paths":[{"path":"x","deny":["read"],"dney":1}]}`, `unknown key "dney"`},
		{`{"paths":[{"deny":["read"]}]}`, `paths[0]: missing "path"`},
		{`{"paths":[{"path":"","deny":["read"]}]}`, `empty "path"`},
		{`{"paths":["x"]}`, `paths[0]: not an object`},
		{`{"paths":[{"path":1,"deny":["read"]}]}`, `not a string`},
		{`{"paths":[{"path":"x","deny":"read"}]}`, `not a list of op names`},
		{`[{"path":"x","deny":["READ"]}]`, `protectedPathRules[0] "x": unknown op "READ" (did you mean "read"?`},
		{`[{"path":"x","deny":["reed"]}]`, `unknown op "reed" (did you mean "read"?`},
		{`[{"path":"x","deny":["wirte"]}]`, `(did you mean "write"?`},
		{`[{"path":"x","deny":["delete"]}]`, `unknown op "delete" (want read`}, // nothing near: no guess
		{`".env"`, `the rules are a string (".env"), not a list of entries: want [{"path"`},
		{`42`, `the rules are a number (42)`},
		{`true`, `the rules are a boolean`},
		{`{"paths":".env"}`, `"paths" is a string (".env"), not a list of entries: want "paths": [{"path"`},
	}
	for _, c := range cases {
		_, err := ParseRules([]byte(c.in), "test.json")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseRules(%s) = %v, want error containing %q", c.in, err, c.want)
		}
	}
	// two unknown keys: the same one named on every run (map order)
	for range 20 {
		if _, err := ParseRules([]byte(`{"path":".env","deny":["read"],"zz":1}`), "t.json"); err == nil || !strings.Contains(err.Error(), `unknown key "deny"`) {
			t.Fatalf("unknown keys: %v, want the first in order named", err)
		}
		if _, err := ParseRules([]byte(`[{"path":".env","deny":["read"],"zeta":1,"alpha":2}]`), "t.json"); err == nil || !strings.Contains(err.Error(), `unknown key "alpha"`) {
			t.Fatalf("an entry's unknown keys: %v, want the first in order named", err)
		}
	}
	r, err := ParseRules([]byte(`{"_comment":"x","paths":[{"path":".env","deny":["read","bash"],"_note":"y"}]}`), "ok.json")
	if err != nil || len(r.Entries) != 1 || r.Entries[0].Deny != SetRead|SetBash || r.Source != "ok.json" {
		t.Fatalf("%+v %v", r, err)
	}
	r, err = ParseRules([]byte(`[{"path":".env","deny":["write"]}]`), "settings")
	if err != nil || r.Entries[0].Deny != SetWrite {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestDefaults(t *testing.T) {
	d := DefaultRules()
	b, err := d.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"paths":[{"path":".env","deny":["read","write","edit","bash"]},{"path":".git/","deny":["read","write","edit"]},{"path":"node_modules/","deny":["write","edit"]},{"path":"~/.pi/agent/auth.json","deny":["read","write","edit","bash"]},` +
		`{"path":".env.local","deny":["read","write","edit","bash"]},{"path":".env.development","deny":["read","write","edit","bash"]},` +
		`{"path":".env.production","deny":["read","write","edit","bash"]},{"path":".env.staging","deny":["read","write","edit","bash"]},` +
		`{"path":".env.development.local","deny":["read","write","edit","bash"]},{"path":".env.production.local","deny":["read","write","edit","bash"]},` +
		`{"path":".env.test.local","deny":["read","write","edit","bash"]},` +
		`{"path":"~/.ssh/","deny":["read","write","edit","bash"]},{"path":"~/.aws/credentials","deny":["read","write","edit","bash"]},` +
		`{"path":"~/.netrc","deny":["read","write","edit","bash"]},{"path":"~/.config/gh/hosts.yml","deny":["read","write","edit","bash"]}]}`
	if string(b) != want {
		t.Fatalf("defaults:\n%s\nwant\n%s", b, want)
	}
	back, err := ParseRules(b, "x")
	if err != nil || len(back.Entries) != 15 {
		t.Fatal(err)
	}
	u := d.Union(mustRules(t, `{"paths":[{"path":"secret.txt","deny":["read"]},{"path":".env","deny":["read","write","edit","bash"]}]}`))
	n := len(d.Entries)
	if len(u.Entries) != n+1 || u.Entries[n].Path != "secret.txt" || u.Entries[n].Source != "test.json" || u.Entries[0].Source != DefaultRulesSource || u.Entries[n].Index != n {
		t.Fatalf("union: %+v", u.Entries)
	}
}

func TestAnalyzeBashPaths(t *testing.T) {
	// `;`: cat runs where it was when cd fails (with && it runs in /tmp
	// only: TestCdAndThen)
	ps, err := AnalyzeBash(Env{Cwd: tCwd, Home: tHome}, "cd /tmp; cat a > b")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.Ops.String()+":"+p.Path)
	}
	joined := strings.Join(got, " ")
	for _, want := range []string{"read:/home/user/proj/a", "read:/tmp/a", "write,edit:/tmp/b", "write,edit:/home/user/proj/b"} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %s in %s", want, joined)
		}
	}
	if _, err := AnalyzeBash(Env{}, "if then"); err == nil {
		t.Fatal("no parse error")
	}
}
