package guard

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// scriptFrom returns what a program reads as a script (or a file of
// commands) from the path f names when that path is not a plain file on
// the disk: stdin (`-` when dash, /dev/stdin, /dev/fd/0, /proc/self/fd/0),
// another descriptor the command redirected (`/dev/fd/3 3<<<…`), a process
// substitution (`<(echo …)`, the text it prints), another device or /proc
// file (unknown), or a file the command wrote earlier (see writtenFile).
// ok is false for a file the disk shows (a script on disk is not
// followed) and for a path computed at run time (its callers report it).
func (c *cmd) scriptFrom(f field, raw string, dash bool) (source, bool) {
	if s, ok := c.streamFrom(f, raw, dash); ok {
		return s, true
	}
	return c.a.writtenFile(f)
}

// streamFrom is scriptFrom's stream part: what a path that is a stream
// (stdin, a descriptor, a process substitution, a device, a link to one,
// an argument that may be one) carries.
func (c *cmd) streamFrom(f field, raw string, dash bool) (source, bool) {
	a := c.a
	if f.pattern() {
		if s, ok := a.procSubstOutput(raw); ok {
			return s, true
		}
		if p := unescapeGlob(f.s); strings.Contains(p, "/dev/") || strings.Contains(p, "/proc/") || strings.Contains(p, "stdin") || strings.Contains(p, "/fd/") {
			return dynSource("a stream (" + raw + ")"), true
		}
		if f.posOnly && f.onlyUnk {
			// a function's or sh -c's argument ($1): checked where it is
			// passed as a word, but as a script path it may be a stream
			return dynSource("a script path passed as an argument (" + raw + ")"), true
		}
		return source{}, false
	}
	t := f.text()
	if t == "-" && dash {
		return c.in, true
	}
	// the path as the kernel opens it: joined, cleaned and, with the
	// disk, its links resolved (a project's in.py -> /dev/stdin)
	var ps []string
	for _, cwd := range a.cwds {
		p, _ := joinOrNorm(a, cwd, t)
		ps = append(ps, p)
		if a.env.FS != nil && !a.win {
			if r, changed, ok := resolveLinks(a.env.FS, p, false); changed && ok {
				ps = append(ps, r)
			} else if !ok {
				ps = append(ps, "/dev/"+unknownStr) // cannot be known: a stream for all we see
			}
		}
	}
	for _, p := range ps {
		if s, ok := c.streamPath(p, raw); ok {
			return s, true
		}
	}
	// a link the command made to a stream (ln -s /dev/stdin x.sh)
	for _, p := range ps {
		if to, ok := a.links[p]; ok && to != p {
			if s, ok := c.streamPath(to, raw); ok {
				return s, true
			}
		}
	}
	return source{}, false
}

// streamPath classifies a normalised path: a descriptor (stdin, one the
// command redirected), /dev/null, another device or /proc file.
func (c *cmd) streamPath(p, raw string) (source, bool) {
	if p == "/dev/null" {
		return source{kind: srcText}, true
	}
	if n, ok := fdPath(p); ok {
		if n == "0" {
			return c.in, true
		}
		if s, ok := c.a.fds[n]; ok {
			return s, true
		}
		return dynSource("file descriptor " + n), true
	}
	if strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/") {
		return dynSource("the stream " + p + " (" + raw + ")"), true
	}
	return source{}, false
}

// DescriptorPath is fdPath for other packages (a path given to pruner
// itself that opens a descriptor, not a file of its own).
func DescriptorPath(p string) (string, bool) { return fdPath(p) }

// fdPath returns the descriptor a path opens: /dev/stdin (0), /dev/fd/N,
// /proc/self/fd/N, /proc/thread-self/fd/N, /proc/PID/fd/N, /dev/stdout
// and /dev/stderr.
func fdPath(p string) (string, bool) {
	switch p {
	case "/dev/stdin":
		return "0", true
	case "/dev/stdout":
		return "1", true
	case "/dev/stderr":
		return "2", true
	}
	var rest string
	switch {
	case strings.HasPrefix(p, "/dev/fd/"):
		rest = p[len("/dev/fd/"):]
	case strings.HasPrefix(p, "/proc/"):
		pid, r, ok := strings.Cut(p[len("/proc/"):], "/fd/")
		if !ok || (pid != "self" && pid != "thread-self" && !allDigits(pid)) {
			return "", false
		}
		rest = r
	default:
		return "", false
	}
	if !allDigits(rest) {
		return "", false
	}
	n, _ := strconv.Atoi(rest)
	return strconv.Itoa(n), true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// procSubstOutput returns what a process substitution `<(…)` written as a
// whole word prints, analysed as the commands it runs.
func (a *shellAnalyzer) procSubstOutput(raw string) (source, bool) {
	if !strings.HasPrefix(raw, "<(") || !strings.HasSuffix(raw, ")") || a.depth >= maxScriptDepth {
		return source{}, false
	}
	inner := raw[2 : len(raw)-1]
	f, zsh, err := parseShellZsh(inner)
	if err != nil {
		return dynSource("a process substitution that does not parse"), true
	}
	prevZsh := a.zsh
	a.zsh = zsh
	defer func() { a.zsh = prevZsh }()
	prev := a.src
	a.src = inner
	a.depth++
	out := a.stmts(f.Stmts, source{})
	a.depth--
	a.src = prev
	if out.kind == srcText {
		return out, true
	}
	return dynSource("a process substitution (" + raw + ")"), true
}

// fdRedirect records what an input redirection of another descriptor
// (`3<<<text`, `3< file`, `4<<EOF`) gives that descriptor, for
// /dev/fd/N; it reports whether r was one.
func (a *shellAnalyzer) fdRedirect(r *syntax.Redirect, outFiles *[]target) bool {
	if r.N == nil || r.N.Value == "0" {
		return false
	}
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
	default:
		return false
	}
	r2 := *r
	r2.N = nil
	a.fds[r.N.Value] = a.redirect(&r2, source{}, outFiles)
	return true
}

// sourcesOf names the files a program loads by itself from the files the
// command wrote — modules it imports, a package's scripts, a build's
// sources — and the language they are read in: a Python run imports a
// written m.py, npm runs a written package.json's scripts, go test
// compiles and runs a written x_test.go.
func sourcesOf(name string) (exts []string, lang string) {
	switch name {
	case "python", "python2", "python3", "pypy", "pypy3", "ipython", "py", "pip", "pip3", "uv", "poetry", "pipenv",
		"pytest", "tox", "nox", "hatch", "pdm":
		return []string{".py", ".pth", "pyproject.toml", "setup.cfg", "conftest.py", "tox.ini", "noxfile.py", "pipfile"}, "python"
	case "node", "nodejs", "bun", "deno", "tsx", "ts-node", "esno", "npm", "npx", "pnpm", "pnpx", "yarn", "bunx",
		"jest", "vitest", "mocha", "webpack", "vite", "esbuild", "rollup", "turbo", "nx", "tsc", "eslint", "prettier":
		return []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", "package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", "deno.json", "deno.jsonc"}, "js"
	case "perl", "perl5", "prove", "cpanm":
		return []string{".pl", ".pm", ".t"}, "perl"
	case "ruby", "irb", "jruby", "bundle", "rake", "rails", "rspec", "gem":
		return []string{".rb", "Gemfile", "Rakefile", ".gemspec"}, "ruby"
	case "php", "composer", "phpunit":
		return []string{".php", "composer.json"}, "php"
	case "awk", "gawk", "mawk", "nawk":
		return []string{".awk"}, "awk" // @include, -i
	case "jq", "gojq", "jaq":
		return []string{".jq"}, "jq" // include, import (-L)
	case "gcc", "g++", "cc", "c++", "clang", "clang++", "tcc":
		return []string{".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".m", ".s"}, "generic"
	case "swiftc", "swift":
		return []string{".swift"}, "generic"
	case "kotlinc", "kotlin":
		return []string{".kt", ".kts"}, "generic"
	case "zig":
		return []string{".zig"}, "generic"
	case "go":
		return []string{".go", "go.mod"}, "generic"
	case "cargo", "rustc", "cargo-make", "makers":
		return []string{".rs", "Cargo.toml", ".cargo/config.toml", ".cargo/config", "makefile.toml"}, "generic"
	// task runners whose task files hold shell commands (read for the
	// paths and commands their strings name)
	case "mise", "rtx":
		return []string{"mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml", "/.config/mise/config.toml"}, "generic"
	case "poe", "poethepoet":
		return []string{"pyproject.toml", "poe_tasks.toml", "poe_tasks.yaml", "poe_tasks.json"}, "generic"
	case "foreman", "honcho", "overmind", "hivemind", "nf":
		return []string{"/procfile", "/procfile.dev", ".procfile"}, "sh" // NAME: COMMAND lines
	case "pre-commit", "prek":
		return []string{".pre-commit-config.yaml", ".pre-commit-config.yml", ".pre-commit-hooks.yaml"}, "unmodelled:" + name // YAML: unquoted entries
	case "lefthook":
		return []string{"lefthook.yml", "lefthook.yaml", "lefthook-local.yml", "lefthook.toml", "lefthook.json"}, "unmodelled:" + name
	case "invoke", "inv", "fab":
		return []string{"tasks.py", "fabfile.py", "invoke.yaml"}, "python"
	case "dotnet", "msbuild":
		return []string{".csproj", ".fsproj", ".vbproj", ".props", ".targets", ".sln", ".cs", ".fs"}, "generic"
	case "sbt", "mill", "lein", "bb":
		return []string{"build.sbt", ".sbt", ".scala", "build.sc", "project.clj", "bb.edn", ".clj"}, "generic"
	case "mix", "elixir":
		return []string{"mix.exs", ".exs", ".ex"}, "generic"
	case "tilt", "earthly":
		return []string{"/tiltfile", "/earthfile"}, "generic"
	case "mvn", "gradle", "gradlew", "java", "javac":
		return []string{".java", "pom.xml", ".gradle", ".kts"}, "generic"
	// build tools whose build files run commands (cmake's
	// execute_process, a ninja rule, a just recipe, a task's cmds, a
	// bazel genrule, meson's run_command): a language not modelled
	case "cmake", "ctest", "cpack":
		return []string{".cmake", "cmakelists.txt", "cmakepresets.json", "cmakeuserpresets.json"}, "unmodelled:" + name
	case "ninja", "samu":
		return []string{".ninja"}, "unmodelled:" + name
	case "meson":
		return []string{"meson.build", "meson_options.txt", "meson.options"}, "unmodelled:" + name
	case "just":
		return []string{"/justfile", "/.justfile", ".just"}, "unmodelled:" + name
	case "task", "go-task":
		return []string{"/taskfile.yml", "/taskfile.yaml", "/taskfile.dist.yml", "/taskfile.dist.yaml", ".taskrc.yml"}, "unmodelled:" + name
	case "bazel", "bazelisk":
		return []string{"/build", "/build.bazel", ".bzl", "/workspace", "/workspace.bazel", "/module.bazel", ".bazelrc"}, "unmodelled:" + name
	case "scons":
		return []string{"/sconstruct", "/sconscript"}, "python"
	// container tools: a compose file's volumes and commands, a
	// Dockerfile's COPY and RUN (the build context is sent in full)
	case "docker", "podman", "nerdctl", "finch", "docker-compose", "podman-compose", "buildah":
		return []string{"/compose.yml", "/compose.yaml", "/docker-compose.yml", "/docker-compose.yaml", ".override.yml", ".override.yaml",
			"/dockerfile", "/containerfile", ".dockerfile", ".containerfile", "/.dockerignore", "/.containerignore"}, "unmodelled:" + name
	}
	return nil, ""
}

// loadsWrittenSources reads the files the command wrote that the program
// it runs may load by itself (see sourcesOf): known text as code of their
// language, anything else unverifiable.
func (c *cmd) loadsWrittenSources(before int) {
	exts, lang := sourcesOf(c.name)
	if exts == nil {
		return
	}
	if lang == "unmodelled:"+c.name && containerTool(c.name) {
		// docker cp copies (checked as folders): it loads no build or
		// compose file
		for i := 1; i < len(c.args); i++ {
			if t := optText(c.args[i].f); !strings.HasPrefix(t, "-") {
				if t == "cp" {
					return
				}
				break
			}
		}
	}
	a := c.a
	matches := func(p string) bool {
		p = strings.ToLower(p) // M.PY is m.py on a case-insensitive disk
		for _, e := range exts {
			if strings.HasSuffix(p, strings.ToLower(e)) {
				return true
			}
		}
		return false
	}
	if strings.HasPrefix(lang, "unmodelled:") && !(c.name == "cmake" && len(c.args) > 1 && optText(c.args[1].f) == "-E") {
		// a build file the command wrote, named by an argument whatever
		// its name (cmake -P x.txt, ninja -f b.txt, just --justfile=j)
		for i := 1; i < len(c.args); i++ {
			f := c.args[i].f
			fs := []field{f}
			if t := optText(f); strings.HasPrefix(t, "-") {
				if k := strings.IndexByte(t, '='); k > 0 {
					fs = append(fs, subField(f, k+1))
				} else if !strings.HasPrefix(t, "--") && len(t) > 2 {
					fs = append(fs, subField(f, 2))
				}
			}
			for _, g := range fs {
				if s, ok := a.writtenFile(g); ok {
					c.runScript(c.args[i].raw, s, source{}, lang)
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, w := range a.writtenPaths() {
		if matches(w) && a.written[w].at <= before {
			seen[w] = true
			if s, ok := a.writtenBefore(w, false, before); ok {
				c.runScript(w, s, source{}, lang)
			}
		}
	}
	for i := range a.out.targets[:min(before, len(a.out.targets))] {
		t := &a.out.targets[i]
		if !t.ops.Has(OpWrite) || t.meta || seen[t.path] {
			continue
		}
		if t.rec || t.pattern && (strings.ContainsRune(t.path[strings.LastIndexByte(t.path, '/')+1:], unknownRune) || matches(t.path)) || matches(t.path) {
			seen[t.path] = true
			if s, ok := a.writtenBefore(t.path, t.pattern, before); ok && !t.rec && !t.pattern {
				c.runScript(t.path, s, source{}, lang)
			} else {
				a.unknown(t.raw, c.name+" may load "+t.raw+", which the command writes with content the analysis cannot see", SetRead|setModify)
			}
		}
	}
}

// evalsFiles reports whether code may run code it reads from a file
// (exec(open(…).read()), eval, runpy, require('./…') or a computed
// require, load, do FILE, include, dofile, source()).
func evalsFiles(code, lang string) bool {
	l := strings.ToLower(code)
	has := func(ws ...string) bool {
		for _, w := range ws {
			if strings.Contains(l, w) {
				return true
			}
		}
		return false
	}
	switch lang {
	case "python":
		return has("exec(", "eval(", "compile(", "runpy", "run_path", "execfile", "import_module", "__import__", "exec_module", "load_source", "spec_from_file")
	case "js":
		if has("eval(", "function(", "import(", "vm.run", "runinthiscontext", "runinnewcontext", "createrequire") {
			return true
		}
		for i := strings.Index(l, "require("); i >= 0; {
			rest := strings.TrimLeft(l[i+len("require("):], " \t")
			if rest == "" || strings.IndexByte("'\"`", rest[0]) < 0 || len(rest) > 1 && (rest[1] == '.' || rest[1] == '/') {
				return true // a relative, absolute or computed module
			}
			j := strings.Index(l[i+1:], "require(")
			if j < 0 {
				break
			}
			i += 1 + j
		}
		return false
	case "ruby":
		return has("eval", "load", "require")
	case "perl":
		return has("eval", "do ", "do(", "do\"", "do'", "require")
	case "php":
		return has("eval(", "include", "require")
	case "generic":
		return has("dofile", "loadfile", "loadstring", "load(", "require", "source(", "eval", "exec")
	}
	return false
}

// evalWritten reads the files the command wrote before this statement as
// code in lang, for code that may run what it reads from a file: known
// text as that code, anything else unverifiable.
func (a *shellAnalyzer) evalWritten(raw, lang string) {
	before := min(a.stmtStart, len(a.out.targets))
	seen := map[string]bool{}
	for _, w := range a.writtenPaths() {
		if a.written[w].at > before {
			continue
		}
		seen[w] = true
		if s, ok := a.writtenBefore(w, false, before); ok {
			if s.kind == srcFile {
				// a copy: what its source holds (a file on the disk is not followed)
				if ws, ok := a.writtenFile(litField(s.file)); ok && ws.kind != srcFile {
					s = ws
				} else {
					continue
				}
			}
			switch {
			case s.kind == srcText && !strings.ContainsRune(s.text, unknownRune):
				a.code(s.text, raw, lang, 1)
			case s.kind != srcNone:
				a.unknown(raw, "the code may run a file the command writes ("+w+"), whose content the analysis cannot see", SetRead|setModify)
			}
		}
	}
	for i := range a.out.targets[:before] {
		t := &a.out.targets[i]
		if !t.ops.Has(OpWrite) || t.meta || seen[t.path] {
			continue
		}
		seen[t.path] = true
		if s, ok := a.writtenBefore(t.path, t.pattern, before); ok && s.kind == srcText && !t.rec && !t.pattern {
			a.code(s.text, raw, lang, 1)
			continue
		}
		a.unknown(raw, "the code may run a file the command writes ("+strings.TrimSpace(t.raw)+"), whose content the analysis cannot see", SetRead|setModify)
		return
	}
}

// rcFile is a start-up or configuration file a program reads by itself.
type rcFile struct{ path, lang string }

// rcFiles lists the start-up files a program reads by itself from the
// home directory (and the project), by the flags it runs with: a shell's
// rc files (zsh's ~/.zshenv and fish's config.fish always, ~/.bashrc and
// ~/.zshrc when interactive, profiles for a login shell), vim's vimrc
// (not with -u or in Ex silent mode), git's global configuration, curl's
// and wget's rc files, gdb's, tmux's and screen's.
func (c *cmd) rcFiles() []rcFile {
	home := c.a.env.Home
	if home == "" {
		return nil
	}
	interactive, login, noRC, sawE, sawS := false, false, false, c.name == "ex", false
	for _, ar := range c.args[1:] {
		t := optText(ar.f)
		switch {
		case t == "--login":
			login = true
		case t == "--norc" || t == "--noprofile" || t == "-f" && c.name == "zsh" || t == "--no-rcs" || t == "-u" || t == "--clean" || t == "-n" && c.name == "gdb" || t == "-nx" || t == "--nx" || t == "-q" && (c.name == "curl" || c.name == "wget"):
			noRC = true
		case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && len(t) > 1:
			interactive = interactive || strings.ContainsRune(t[1:], 'i')
			login = login || strings.ContainsRune(t[1:], 'l') && (c.name == "bash" || c.name == "zsh" || c.name == "sh" || c.name == "fish")
			sawE = sawE || strings.ContainsAny(t[1:], "eE")
			sawS = sawS || strings.ContainsRune(t[1:], 's')
		}
	}
	exSilent := sawE && sawS // vim -es, ex -s: no start-up files
	var out []rcFile
	add := func(lang string, ps ...string) {
		for _, p := range ps {
			out = append(out, rcFile{home + "/" + p, lang})
		}
	}
	switch c.name {
	case "bash":
		if interactive && !noRC {
			add("sh", ".bashrc")
		}
		if login {
			add("sh", ".bash_profile", ".bash_login", ".profile")
		}
	case "zsh":
		if !noRC {
			add("sh", ".zshenv")
			if interactive {
				add("sh", ".zshrc")
			}
			if login {
				add("sh", ".zprofile", ".zlogin")
			}
		}
	case "sh", "dash", "ksh", "mksh":
		if login {
			add("sh", ".profile")
		}
	case "fish":
		if !noRC {
			add("unmodelled:fish", ".config/fish/config.fish", ".config/fish/conf.d")
		}
	case "vim", "vi", "nvim", "view", "vimdiff", "gvim":
		if !noRC && !exSilent {
			add("vim", ".vimrc", ".vim/vimrc", ".exrc", ".config/nvim/init.vim", ".vim/plugin", ".config/nvim/plugin")
			add("unmodelled:nvim", ".config/nvim/init.lua")
		}
	case "git":
		add("git", ".gitconfig", ".config/git/config")
	case "curl":
		if !noRC {
			add("generic", ".curlrc", ".config/curlrc")
		}
	case "wget", "wget2":
		if !noRC {
			add("generic", ".wgetrc")
		}
	case "gdb", "cgdb":
		if !noRC {
			add("unmodelled:gdb", ".gdbinit", ".config/gdb/gdbinit")
			out = append(out, rcFile{".gdbinit", "unmodelled:gdb"})
		}
	case "tmux":
		add("unmodelled:tmux", ".tmux.conf", ".config/tmux/tmux.conf")
	case "screen":
		add("unmodelled:screen", ".screenrc")
	case "less", "more":
		add("generic", ".lesskey", ".config/lesskey")
	case "direnv":
		out = append(out, rcFile{".envrc", "sh"})
	}
	return out
}

// loadsWrittenRC reads the start-up files the program reads by itself
// (see rcFiles) that the command wrote before it runs.
func (c *cmd) loadsWrittenRC(before int) {
	rcs := c.rcFiles()
	if c.a.rcMoved && len(rcs) > 0 && (len(c.a.written) > 0 || c.a.anyWrite()) {
		c.a.unknown(c.args[0].raw, "the command moved the start-up files "+c.name+" reads by itself ($HOME, $XDG_CONFIG_HOME, …) after writing files: one it wrote may be among them", SetRead|setModify)
		return
	}
	for _, rc := range rcs {
		f := litField(rc.path)
		s, ok := c.a.writtenFile(f)
		if !ok {
			// a folder of start-up files (conf.d, plugin): any file below
			p, _ := c.a.norm(rc.path, false)
			s, ok = c.a.writtenBefore(p+"/"+unknownStr, true, before)
		}
		if !ok {
			continue
		}
		if rc.lang == "git" {
			c.a.writtenConfig(c.args[0].raw, f)
			continue
		}
		c.runScript(rc.path, s, source{}, rc.lang)
		c.rcDownloads(rc.path, s)
	}
}

// containerTool: the container tools sourcesOf names.
func containerTool(name string) bool {
	switch name {
	case "docker", "podman", "nerdctl", "finch", "docker-compose", "podman-compose", "buildah":
		return true
	}
	return false
}
