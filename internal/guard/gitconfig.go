package guard

import (
	"strings"
	"sync"
)

// git configuration that runs code later (pass 31). `git config KEY
// VALUE` persists: a key that names a command (core.fsmonitor,
// core.pager, core.sshCommand, alias.x '!…', diff.external,
// filter.x.clean, credential.helper '!…', a hooks folder, …) makes a
// later git command — in this call or any later one, or the user's own —
// run it, where the gate never sees it run. Setting one is unverifiable
// (it fails closed), unless the value is one that runs no code of the
// project's: a boolean, an empty value, a stock pager, editor or
// credential helper, a tool's name. An alias without `!` is a git command
// line, analysed as one, and passes when it runs an everyday subcommand.
// `git -c KEY=VALUE` lasts for this command only: its command is analysed
// where git runs (handlers.go), as before.

// gitConfig handles `git config …`; i is the index of "config".
func (c *cmd) gitConfig(i int) {
	var ops []int
	setting, edit, rename := true, false, false
	for k := i + 1; k < len(c.args); k++ {
		t := optText(c.args[k].f)
		if t == "--" {
			c.done[k] = true
			for k++; k < len(c.args); k++ {
				ops = append(ops, k)
			}
			break
		}
		if !strings.HasPrefix(t, "-") || len(t) < 2 || c.args[k].f.pattern() && !strings.HasPrefix(t, "--") {
			ops = append(ops, k)
			continue
		}
		c.done[k] = true
		name, _, eq := strings.Cut(t, "=")
		switch name {
		case "--file", "-f":
			if eq {
				c.fileField(c.args[k].raw, subField(c.args[k].f, len(name)+1), SetRead|setModify)
			} else {
				c.file(k+1, SetRead|setModify)
				k++
			}
		case "--blob", "--type", "--default", "--comment", "--value":
			if !eq {
				c.word(k + 1)
				k++
			}
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--unset", "--unset-all",
			"--remove-section", "--get-color", "--get-colorbool":
			setting = false
		case "--rename-section":
			rename = true
		case "-e", "--edit":
			edit = true
		}
	}
	if len(ops) > 0 {
		// the subcommands of git 2.46
		switch optText(c.args[ops[0]].f) {
		case "set":
			c.word(ops[0])
			ops = ops[1:]
		case "get", "list", "unset", "remove-section":
			setting = false
		case "rename-section":
			rename = true
		case "edit":
			edit = true
		}
	}
	switch {
	case edit:
		c.a.unknown(c.args[i].raw, "git config --edit lets an editor rewrite the configuration, whose keys may name commands git runs later", SetRead|setModify)
	case rename:
		c.a.unknown(c.args[i].raw, "git config --rename-section may move keys into a section whose keys name commands git runs later", SetRead|setModify)
	case setting && len(ops) >= 2:
		c.gitConfigSet(ops[0], ops[1])
	}
	for _, k := range ops {
		c.word(k)
	}
}

// gitConfigSet checks `git config KEY VALUE` (args ki and vi).
func (c *cmd) gitConfigSet(ki, vi int) {
	kf, vf := c.args[ki].f, c.args[vi].f
	if kf.pattern() {
		c.a.unknown(c.args[ki].raw, "git config sets a key only known when the command runs, which may name a command git runs later", SetRead|setModify)
		return
	}
	key := strings.ToLower(kf.s)
	if base, ok := extInsteadOf(kf.s); ok {
		c.a.value(c.args[ki].raw, kf, SetRead)
		c.gitScriptField(c.args[ki].raw, litField(base))
		if why := gitKeyRunsLater(kf.s, vf.s, vf.pattern()); why != "" {
			c.a.unknown(c.args[ki].raw, why, SetRead|setModify)
		}
		return
	}
	why := gitKeyRunsLater(kf.s, vf.s, vf.pattern())
	later := func() {
		if why != "" {
			c.a.unknown(c.args[vi].raw, why, SetRead|setModify)
		}
	}
	switch {
	case key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path"):
		later()
	case key == "core.hookspath":
		c.gitScript(vi)
		c.a.writtenScripts(c.args[vi].raw, optText(vf))
		// hooks written there later in the command run at a later git
		// command (writtenHooks)
		if !vf.pattern() {
			n, _ := c.a.norm(vf.s, false)
			c.a.hooksPaths = append(c.a.hooksPaths, n)
		} else {
			c.a.unknown(c.args[vi].raw, "git config core.hooksPath with a folder computed when it runs", SetRead|setModify)
		}
		later()
	case strings.HasPrefix(key, "alias.") && !vf.pattern() && !strings.HasPrefix(strings.TrimSpace(vf.s), "!"):
		// a git command line: `git x` runs `git VALUE`
		c.done[vi] = true
		c.a.value(c.args[vi].raw, vf, SetRead)
		later()
		c.a.script("git "+vf.s, c.args[vi].raw, source{})
	case why != "":
		c.gitScript(vi)
		later()
	}
}

// gitKeyRunsLater says why setting git configuration key to value makes
// git run code of the project's later ("" when it does not): see the top
// of this file.
func gitKeyRunsLater(key, value string, computed bool) string {
	k := strings.ToLower(key)
	later := func(what string) string {
		return "git config " + key + " " + what + " at a later git command (in this call or a later one), which pruner cannot check when it runs"
	}
	switch {
	case k == "include.path" || strings.HasPrefix(k, "includeif.") && strings.HasSuffix(k, ".path"):
		// git reads that file as more configuration, now and in every
		// later git command: its keys may run commands
		return "git config " + k + " makes git read a file as configuration, whose keys may run commands"
	case k == "core.hookspath":
		if computed || !noHooks(value) {
			return later("makes git run the hooks in that folder")
		}
	case strings.HasPrefix(k, "alias."):
		name := "`git " + key[len("alias."):] + "`"
		if computed || strings.HasPrefix(strings.TrimSpace(value), "!") {
			return later("runs a shell command (`!…`) as " + name)
		}
		if !safeGitAlias(value) {
			return later("makes " + name + " run a git command that may run other commands (-c, --exec, a subcommand that runs one)")
		}
	case gitCommandKey(k) || k == "init.templatedir" || k == "core.worktree":
		if !computed && safeGitValue(k, value) {
			return ""
		}
		switch k {
		case "init.templatedir":
			return later("copies that folder's hooks into the repositories git init and clone make, which run them")
		case "core.worktree":
			return later("moves the work tree git checks out and cleans")
		}
		return later("names a command git runs")
	}
	if (k == "protocol.ext.allow" || k == "protocol.allow") && (computed || !strings.EqualFold(strings.TrimSpace(value), "never")) {
		return later("lets git run the commands of ext:: URLs")
	}
	if strings.HasPrefix(k, "remote.") && (strings.HasSuffix(k, ".url") || strings.HasSuffix(k, ".pushurl")) && (computed || strings.HasPrefix(strings.TrimSpace(value), "ext::")) {
		return later("makes the remote an ext:: URL, whose command git runs")
	}
	if base, ok := extInsteadOf(key); ok && base != "" {
		return later("rewrites URLs to git's ext:: transport, whose command git runs")
	}
	return ""
}

// noHooks: a hooks folder that holds none (`/dev/null`, the usual way to
// turn hooks off).
func noHooks(dir string) bool { return dir == "/dev/null" || dir == "/dev/null/" }

// safeGitValue reports whether a command-valued git key's value runs no
// code of the project's: a boolean or empty value where git takes one, a
// stock pager, editor, ssh, gpg or credential helper with options only, a
// tool's name (its command is a key of its own).
func safeGitValue(key, v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return true
	}
	words := strings.Fields(v)
	// stock programs with options that run nothing, read no other
	// configuration and write no file (vim -c, less -o, store --file,
	// emacsclient -a and bat's --pager are not among them)
	optsOnly := func(progs map[string]func(string) bool) bool {
		if strings.ContainsAny(v, "|;&$`<>(){}\\\"'*?[!") {
			return false
		}
		ok, known := progs[words[0]]
		if !known {
			return false
		}
		for _, w := range words[1:] {
			if ok == nil || !ok(w) {
				return false
			}
		}
		return true
	}
	last := key[strings.LastIndexByte(key, '.')+1:]
	switch {
	case last == "fsmonitor" || last == "pager" || strings.HasPrefix(key, "pager."):
		switch strings.ToLower(v) {
		case "true", "false", "yes", "no", "on", "off", "0", "1":
			return true
		}
	}
	switch {
	case last == "pager" || strings.HasPrefix(key, "pager."):
		return optsOnly(map[string]func(string) bool{"less": lessOpt, "more": nil, "most": nil, "cat": nil,
			"delta": plainLongOpt, "bat": plainLongOpt, "diff-so-fancy": nil})
	case last == "editor":
		vim := oneOf("-f", "--nofork", "-p", "-o", "-O", "-N", "-n", "--noplugin", "-R", "-M", "-m", "--clean", "-X")
		gui := oneOf("--wait", "-w", "-n", "--new-window", "-r", "--reuse-window")
		return optsOnly(map[string]func(string) bool{"vi": vim, "vim": vim, "nvim": vim, "gvim": vim,
			"emacs": oneOf("-nw", "-q", "-Q", "--no-init-file", "--no-splash"), "emacsclient": oneOf("-t", "-c", "--tty", "--create-frame", "-nw"),
			"code": gui, "code-insiders": gui, "subl": gui, "mate": gui, "kate": gui, "gedit": gui,
			"nano": nil, "micro": nil, "hx": nil, "kak": nil, "ed": nil, "mg": nil, "joe": nil})
	case last == "helper" && strings.HasPrefix(key, "credential."):
		return optsOnly(map[string]func(string) bool{"store": nil, "osxkeychain": nil, "libsecret": nil, "manager": nil,
			"manager-core": nil, "wincred": nil, "gnome-keyring": nil,
			"cache": func(w string) bool {
				n, ok := strings.CutPrefix(w, "--timeout=")
				return ok && n != "" && strings.Trim(n, "0123456789") == ""
			}})
	case key == "core.sshcommand":
		// ssh with its options and their values (-i KEY, -o Name=value),
		// none that runs a command or reads another configuration
		l := strings.ToLower(v)
		return words[0] == "ssh" && !strings.ContainsAny(v, "|;&$`<>(){}\\\"'*?[!") && !strings.Contains(l, "command") && !strings.Contains(" "+l, " -f")
	case last == "program" && strings.HasPrefix(key, "gpg."):
		return optsOnly(map[string]func(string) bool{"gpg": nil, "gpg2": nil, "gpgsm": nil, "ssh-keygen": nil})
	case last == "proxy" && key != "core.gitproxy":
		// http.proxy, remote.NAME.proxy: a URL, not a command
		return !strings.ContainsAny(v, " \t;|&$`<>(){}'\"\\!*?[")
	case last == "smtpserver":
		// a host name; a path is a program send-email runs
		return !strings.ContainsAny(v, "/\\~ ;|&$`") && !strings.HasPrefix(v, ".")
	case strings.HasPrefix(key, "filter.lfs."):
		// what `git lfs install` sets
		switch v {
		case "git-lfs clean -- %f", "git-lfs smudge -- %f", "git-lfs smudge --skip -- %f", "git-lfs filter-process", "git-lfs filter-process --skip":
			return true
		}
		return false
	case last == "update" && strings.HasPrefix(key, "submodule."):
		return v == "checkout" || v == "rebase" || v == "merge" || v == "none"
	case last == "tool":
		for _, r := range v {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
				return false
			}
		}
		return true
	}
	return false
}

func oneOf(opts ...string) func(string) bool {
	return func(w string) bool {
		for _, o := range opts {
			if w == o {
				return true
			}
		}
		return false
	}
}

// lessOpt: less's flags that take no file or command (-FRX, -S, -x4).
func lessOpt(w string) bool {
	f, ok := strings.CutPrefix(w, "-")
	return ok && f != "" && strings.Trim(f, "FRXSKriIJMmNnQqWwesdfgGaBcCEhLuUVyz0123456789") == ""
}

// plainLongOpt: delta's and bat's style options (--dark,
// --side-by-side, --paging=never), not one naming a pager or a file.
func plainLongOpt(w string) bool {
	if !strings.HasPrefix(w, "-") || strings.Contains(w, "pager") || strings.Contains(w, "config") || strings.ContainsAny(w, "/.~") {
		return false
	}
	return strings.Trim(strings.TrimLeft(w, "-"), "abcdefghijklmnopqrstuvwxyz0123456789-=") == ""
}

// gitAliasSubs are the git subcommands an alias without `!` may run (the
// everyday ones: none runs a command its arguments name, as long as no
// option of gitAliasOpts is given).
var gitAliasSubs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"status": true, "log": true, "diff": true, "show": true, "commit": true, "checkout": true, "switch": true,
		"branch": true, "add": true, "reset": true, "restore": true, "stash": true, "push": true, "pull": true,
		"fetch": true, "merge": true, "rebase": true, "cherry-pick": true, "revert": true, "tag": true, "remote": true,
		"blame": true, "grep": true, "ls-files": true, "rev-parse": true, "describe": true, "shortlog": true,
		"reflog": true, "worktree": true, "mv": true, "rm": true, "clone": true, "init": true, "whatchanged": true,
		"rev-list": true, "ls-tree": true, "cat-file": true, "show-branch": true, "range-diff": true, "notes": true,
	}
})

// gitAliasOpts are options of those subcommands that run a command or
// change what git runs.
var gitAliasOpts = []string{"-c", "--config-env", "--exec-path", "--exec", "-x", "--upload-pack", "--receive-pack",
	"-u", "--ext-diff", "--textconv", "--template", "--separate-git-dir"}

// safeGitAlias reports whether a git alias (no `!`) runs an everyday
// subcommand with plain words and no option that runs a command.
func safeGitAlias(v string) bool {
	words := strings.Fields(v)
	if len(words) == 0 || strings.ContainsAny(v, "|;&$`<>(){}\\\"'*?[!") || !gitAliasSubs()[words[0]] {
		return false
	}
	for _, w := range words[1:] {
		for _, o := range gitAliasOpts {
			if w == o || strings.HasPrefix(w, o+"=") || len(o) == 2 && strings.HasPrefix(w, o) && !strings.HasPrefix(w, "--") {
				return false
			}
		}
	}
	return true
}

// gitConfigFileWrites checks the writes of the command to git's global
// configuration files (~/.gitconfig, ~/.config/git/config): `git config
// --global` by other means (a redirection, cp, tee, code). Their keys are
// read as `git config KEY VALUE` would be; one that runs code later, or a
// content the analysis does not know, is unverifiable.
func (a *shellAnalyzer) gitConfigFileWrites() {
	home := strings.TrimSuffix(a.env.Home, "/")
	if home == "" || a.win {
		return
	}
	n := len(a.out.targets)
	for _, f := range []string{home + "/.gitconfig", home + "/.config/git/config"} {
		hit := ""
		for i := 0; i < n; i++ {
			t := &a.out.targets[i]
			if t.pattern || !t.ops.Has(OpWrite) || t.meta {
				continue
			}
			// the file itself, or a folder above it filled with content
			// (cp -r dotfiles/. ~, tar -x -C ~)
			if !strings.EqualFold(t.path, f) && !(t.rec && t.fills && len(f) > len(t.path) && strings.EqualFold(f[:len(t.path)+1], t.path+"/")) {
				continue
			}
			hit = t.raw
		}
		if hit == "" {
			continue
		}
		s, ok := a.written[f]
		if !ok || s.kind != srcText || strings.ContainsRune(s.text, unknownRune) {
			a.unknown(hit, "the command writes git's global configuration ("+f+") with text the analysis cannot see, whose keys may name commands git runs later", SetRead|setModify)
			continue
		}
		for _, kv := range gitConfigEntries(s.text) {
			if why := gitKeyRunsLater(kv[0], kv[1], false); why != "" {
				a.unknown(hit, why+" (written to "+f+")", SetRead|setModify)
			}
		}
	}
}

// gitConfigEntries reads the KEY, VALUE pairs of a git configuration
// file's text ([section "sub"] headers, `name = value` lines; quotes and
// a trailing comment taken off the value, a bare name a true boolean).
func gitConfigEntries(text string) [][2]string {
	var out [][2]string
	section := ""
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			h := strings.TrimPrefix(line, "[")
			if i := strings.IndexByte(h, ']'); i >= 0 {
				rest := strings.TrimSpace(h[i+1:])
				h = h[:i]
				line = rest
			}
			name, sub, quoted := strings.Cut(strings.TrimSpace(h), " ")
			section = strings.ToLower(name)
			if quoted {
				section += "." + strings.Trim(strings.TrimSpace(sub), `"`)
			}
			if line == "" {
				continue
			}
		}
		name, val, ok := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		if !ok {
			val = "true"
		}
		val = strings.TrimSpace(val)
		if strings.HasPrefix(val, `"`) {
			if j := strings.LastIndexByte(val, '"'); j > 0 {
				val = val[1:j]
			}
		} else if j := strings.IndexAny(val, "#;"); j >= 0 {
			val = strings.TrimSpace(val[:j])
		}
		out = append(out, [2]string{section + "." + name, val})
	}
	return out
}

// toolGitConfig is gitConfigFileWrites for a write or edit tool (Write,
// Edit, a multi-edit): the text it writes to git's global configuration
// is read as its entries; in a fragment without a section header (an
// edit) a key may sit in any section, so `name = !…` is an alias too.
func (m *Matcher) toolGitConfig(an *analysis, args map[string]any) {
	home := strings.TrimSuffix(m.env.Home, "/")
	if home == "" {
		return
	}
	hit := ""
	for _, t := range an.targets {
		if !t.pattern && (strings.EqualFold(t.path, home+"/.gitconfig") || strings.EqualFold(t.path, home+"/.config/git/config")) {
			hit = t.raw
		}
	}
	if hit == "" {
		return
	}
	var texts []string
	var walk func(k string, v any)
	walk = func(k string, v any) {
		switch x := v.(type) {
		case string:
			switch k {
			case "old_string", "oldText", "old_str", "oldString":
				return
			}
			if !contains(pathKeys(), k) {
				texts = append(texts, x)
			}
		case []any:
			for _, e := range x {
				walk(k, e)
			}
		case map[string]any:
			for kk, e := range x {
				walk(kk, e)
			}
		}
	}
	walk("", args)
	for _, text := range texts {
		for _, kv := range gitConfigEntries(text) {
			why := gitKeyRunsLater(kv[0], kv[1], false)
			if sec, name, _ := strings.Cut(kv[0], "."); why == "" && sec == "" && strings.HasPrefix(strings.TrimSpace(kv[1]), "!") {
				why = gitKeyRunsLater("alias."+name, kv[1], false)
			}
			if why != "" {
				an.unknowns = append(an.unknowns, unknownUse{raw: hit, why: why + " (written to " + hit + ")", ops: SetRead | setModify})
				return
			}
		}
	}
}

// gitExtURLs: `git remote add|set-url NAME URL` and `git submodule add URL`
// with git's ext:: transport store a command git runs at a later fetch
// (where protocol.ext.allow lets it).
func (c *cmd) gitExtURLs(i int) {
	for k := i + 1; k < len(c.args); k++ {
		f := c.args[k].f
		if t := strings.TrimSpace(f.text()); strings.HasPrefix(t, "ext::") {
			c.gitScriptField(c.args[k].raw, f)
			c.a.unknown(c.args[k].raw, "git "+optText(c.args[i].f)+" stores an ext:: URL, whose command git runs at a later fetch (in this call or a later one), which pruner cannot check when it runs", SetRead|setModify)
		}
	}
}
