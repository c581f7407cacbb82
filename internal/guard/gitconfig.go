package guard

import (
	"strings"
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
// line, analysed as one. `git -c core.hooksPath=DIR` runs DIR's hooks in
// this command: unverifiable unless DIR is /dev/null (no hooks).

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
		c.a.unknown(c.args[ki].raw, "git config "+kf.s+" rewrites URLs to git's ext:: transport, whose command git runs later", SetRead|setModify)
	}
	later := func(what string) {
		c.a.unknown(c.args[vi].raw, "git config "+kf.s+" "+what+" at a later git command (in this call or a later one), which pruner cannot check when it runs", SetRead|setModify)
	}
	switch {
	case key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path"):
		// git reads that file as more configuration, now and in every
		// later git command: its keys may run commands
		c.a.unknown(c.args[vi].raw, "git config "+key+" makes git read a file as configuration, whose keys may run commands", SetRead|setModify)
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
		if vf.pattern() || !noHooks(vf.s) {
			later("makes git run the hooks in that folder")
		}
	case strings.HasPrefix(key, "alias."):
		name := "`git " + kf.s[len("alias."):] + "`"
		if !vf.pattern() && !strings.HasPrefix(strings.TrimSpace(vf.s), "!") {
			// a git command line: `git x` runs `git VALUE`
			c.done[vi] = true
			c.a.value(c.args[vi].raw, vf, SetRead)
			c.a.script("git "+vf.s, c.args[vi].raw, source{})
			if !safeGitAlias(vf.s) {
				later("makes " + name + " run a git command that may run other commands (-c, --exec, a subcommand that runs one)")
			}
			return
		}
		c.gitScript(vi)
		later("runs a shell command (`!…`) as " + name)
	case gitCommandKey(key) || key == "init.templatedir" || key == "core.worktree":
		c.gitScript(vi)
		if !vf.pattern() && safeGitValue(key, vf.s) {
			return
		}
		switch key {
		case "init.templatedir":
			later("copies that folder's hooks into the repositories git init and clone make, which run them")
		case "core.worktree":
			later("moves the work tree git checks out and cleans")
		default:
			later("names a command git runs")
		}
	}
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
	optsOnly := func(progs ...string) bool {
		if strings.ContainsAny(v, "|;&$`<>(){}\\\"'*?[") {
			return false
		}
		ok := false
		for _, p := range progs {
			ok = ok || words[0] == p
		}
		for _, w := range words[1:] {
			ok = ok && strings.HasPrefix(w, "-") && !strings.ContainsAny(w, "/+")
		}
		return ok
	}
	last := key[strings.LastIndexByte(key, '.')+1:]
	switch {
	case last == "fsmonitor" || strings.HasPrefix(key, "pager."):
		switch strings.ToLower(v) {
		case "true", "false", "yes", "no", "on", "off", "0", "1":
			return true
		}
	}
	switch {
	case last == "pager" || strings.HasPrefix(key, "pager."):
		return optsOnly("less", "more", "most", "cat", "delta", "bat", "diff-so-fancy")
	case last == "editor":
		return optsOnly("vi", "vim", "nvim", "nano", "emacs", "emacsclient", "code", "code-insiders", "subl", "micro", "hx", "kak", "ed", "mg", "joe", "mate", "gedit", "kate")
	case last == "helper" && strings.HasPrefix(key, "credential."):
		return optsOnly("store", "cache", "osxkeychain", "libsecret", "manager", "manager-core", "wincred", "gnome-keyring")
	case key == "core.sshcommand":
		// ssh with its options and their values (-i KEY, -o Name=value),
		// none that runs a command or reads another configuration
		l := strings.ToLower(v)
		return words[0] == "ssh" && !strings.ContainsAny(v, "|;&$`<>(){}\\\"'*?[") && !strings.Contains(l, "command") && !strings.Contains(" "+l, " -f")
	case last == "program" && strings.HasPrefix(key, "gpg."):
		return optsOnly("gpg", "gpg2", "gpgsm", "ssh-keygen")
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

// gitAliasSubs are the git subcommands an alias without `!` may run (the
// everyday ones: none runs a command its arguments name, as long as no
// option of gitAliasOpts is given).
var gitAliasSubs = map[string]bool{
	"status": true, "log": true, "diff": true, "show": true, "commit": true, "checkout": true, "switch": true,
	"branch": true, "add": true, "reset": true, "restore": true, "stash": true, "push": true, "pull": true,
	"fetch": true, "merge": true, "rebase": true, "cherry-pick": true, "revert": true, "tag": true, "remote": true,
	"blame": true, "grep": true, "ls-files": true, "rev-parse": true, "describe": true, "shortlog": true,
	"reflog": true, "worktree": true, "mv": true, "rm": true, "clone": true, "init": true, "whatchanged": true,
	"rev-list": true, "ls-tree": true, "cat-file": true, "show-branch": true, "range-diff": true, "notes": true,
}

// gitAliasOpts are options of those subcommands that run a command or
// change what git runs.
var gitAliasOpts = []string{"-c", "--config-env", "--exec-path", "--exec", "-x", "--upload-pack", "--receive-pack",
	"-u", "--ext-diff", "--textconv", "--template", "--separate-git-dir"}

// safeGitAlias reports whether a git alias (no `!`) runs an everyday
// subcommand with plain words and no option that runs a command.
func safeGitAlias(v string) bool {
	words := strings.Fields(v)
	if len(words) == 0 || strings.ContainsAny(v, "|;&$`<>(){}\\\"'*?[!") || !gitAliasSubs[words[0]] {
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
