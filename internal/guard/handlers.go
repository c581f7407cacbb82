package guard

import (
	"path"
	"slices"
	"strconv"
	"strings"
)

// evalBuiltin: eval joins its arguments and runs them as a script.
func (c *cmd) evalBuiltin() {
	var parts []string
	dyn := false
	raw := ""
	for i := 1; i < len(c.args); i++ {
		c.done[i] = true
		f := c.args[i].f
		raw += c.args[i].raw + " "
		c.a.value(c.args[i].raw, f, SetRead)
		if f.unk || f.dyn {
			dyn = true
		}
		parts = append(parts, f.text())
	}
	if dyn {
		c.a.unknown(strings.TrimSpace(raw), "eval runs a script computed when the command runs", SetRead|setModify)
	}
	c.a.script(strings.Join(parts, " "), strings.TrimSpace(raw), c.in)
}

// sourceBuiltin: `source FILE` runs FILE in this shell.
func (c *cmd) sourceBuiltin() {
	if len(c.args) < 2 {
		return
	}
	f := c.args[1].f
	c.file(1, SetRead)
	if s, ok := c.scriptFrom(f, c.args[1].raw, true); ok {
		c.runScript(c.args[1].raw, s, source{}, "sh")
	}
	for i := 2; i < len(c.args); i++ {
		c.file(i, SetRead)
	}
}

// wrapper handles commands that run another command: sudo, env, timeout,
// nohup, watch, su -c, script -c, flock -c, npx and their kin.
func (c *cmd) wrapper() {
	switch c.name {
	case "env":
		c.envWrapper()
		return
	case "watch":
		p := c.parse(1, opts{short: "nd", long: []string{"--interval", "--differences"}, posix: true})
		c.joinedScript(p.operands)
		return
	case "entr":
		// entr -s 'CMD': $SHELL runs CMD (its flags take no value)
		p := c.parse(1, opts{posix: true})
		if p.has("-s") {
			c.joinedScript(p.operands)
		} else if len(p.operands) > 0 {
			c.wrap(p.operands[0])
		}
		return
	case "su", "runuser", "sg":
		p := c.parse(1, opts{short: "cgGsw", long: []string{"--command", "--group", "--supp-group", "--shell", "--whitelist-environment"}, posix: false})
		for _, v := range p.values("-s", "--shell") {
			// su -s SHELL -c CMD: SHELL runs CMD (fish, csh, python…)
			c.valWord(v)
			if f, ok := c.valField(v); ok {
				c.a.shellVar([]field{f}, v.raw, c.name+" "+v.name)
			}
		}
		login := p.has("-l", "--login")
		for _, i := range p.operands {
			if optText(c.args[i].f) == "-" {
				login = true
			}
		}
		if login && c.name != "sg" {
			// su -, su -l, runuser -l: the command runs in the user's home
			c.a.inDirs([]field{c.a.homeField()}, func() { c.suCommand(p) })
			return
		}
		c.suCommand(p)
		return
	case "chrt":
		// chrt [options] PRIORITY COMMAND…
		p := c.parse(1, opts{short: "p", posix: true})
		if len(p.operands) > 1 {
			c.word(p.operands[0])
			c.wrap(p.operands[1])
		}
		return
	case "script":
		p := c.parse(1, opts{short: "cEIOBTm", long: []string{"--command", "--log-in", "--log-out", "--log-io", "--log-timing", "--echo", "--logging-format"}})
		for _, v := range p.values("-c", "--command") {
			c.a.userShell(v.raw, c.valText(v), "script -c")
			c.valScript(v)
		}
		for _, v := range p.values("-I", "-O", "-B", "-T", "--log-in", "--log-out", "--log-io", "--log-timing") {
			c.valFile(v, setModify)
		}
		for _, i := range p.operands {
			c.file(i, setModify)
		}
		if len(p.values("-c", "--command")) == 0 && (c.in.kind != srcNone || c.in.text != "") {
			c.runScript(c.args[0].raw, c.in, source{}, "sh") // the shell it starts reads stdin
		}
		return
	case "flock":
		// flock [-sexnoFu] [-w SECS] [-E CODE] FILE (-c|--command) CMD, or
		// FILE COMMAND…: -c is not an option, it is the word after FILE
		// (flock /tmp/l -c CMD); -s is --shared, it takes no value
		p := c.parse(1, opts{short: "wE", long: []string{"--timeout", "--wait", "--conflict-exit-code"}, posix: true})
		if len(p.operands) > 0 {
			c.file(p.operands[0], SetRead)
			if len(p.operands) > 1 {
				k := p.operands[1]
				if t := optText(c.args[k].f); t == "-c" || t == "--command" {
					c.done[k] = true
					if k+1 < len(c.args) {
						c.a.userShell(c.args[k+1].raw, optText(c.args[k+1].f), "flock -c")
						c.script(k+1, source{})
					}
					for i := k + 2; i < len(c.args); i++ {
						c.word(i)
					}
				} else {
					c.wrap(k)
				}
			}
		}
		return
	case "busybox":
		if len(c.args) > 1 {
			c.wrap(1)
		}
		return
	case "chroot":
		p := c.parse(1, opts{long: []string{"--userspec", "--groups"}, posix: true})
		if len(p.operands) > 0 {
			c.word(p.operands[0])
			c.newRoot(c.args[p.operands[0]].raw, c.args[p.operands[0]].f, !p.has("--skip-chdir"))
			if len(p.operands) > 1 {
				c.wrap(p.operands[1])
			}
		}
		return
	case "timeout":
		p := c.parse(1, opts{short: "sk", long: []string{"--signal", "--kill-after"}, posix: true})
		if len(p.operands) > 1 {
			c.word(p.operands[0])
			c.wrap(p.operands[1])
		}
		return
	case "strace", "ltrace":
		p := c.parse(1, opts{short: "oepsSEIabPuXU", long: []string{"--output", "--expr", "--attach", "--string-limit"}, posix: true})
		for _, v := range p.values("-o", "--output") {
			if t := c.valText(v); strings.HasPrefix(t, "|") || strings.HasPrefix(t, "!") {
				// -o '|cmd': the trace is piped to a command
				if f, ok := c.valField(v); ok {
					c.scriptField(v.raw, subField(f, 1), dynSource(c.name+"'s trace"))
				}
				if v.vi >= 0 {
					c.done[v.vi] = true
				}
				continue
			}
			c.valFile(v, setModify)
		}
		if len(p.operands) > 0 {
			c.wrap(p.operands[0])
		}
		return
	case "time":
		p := c.parse(1, opts{short: "fo", long: []string{"--format", "--output"}, posix: true})
		for _, v := range p.values("-o", "--output") {
			c.valFile(v, setModify)
		}
		if len(p.operands) > 0 {
			c.wrap(p.operands[0])
		}
		return
	case "direnv":
		if len(c.args) > 2 && optText(c.args[1].f) == "exec" {
			c.word(2)
			c.a.chdir(c.args[2].f)
			c.wrap(3)
		}
		return
	case "npx", "bunx", "pnpx", "uvx", "pipx":
		p := c.parse(1, opts{short: "p", long: []string{"--package", "--call", "--from", "--python", "--with"}, posix: true})
		for _, v := range p.values("-c", "--call") {
			c.valScript(v)
		}
		if len(p.operands) > 0 {
			k := p.operands[0]
			if c.name == "pipx" && optText(c.args[k].f) == "run" && k+1 < len(c.args) {
				c.word(k)
				k++
			}
			c.wrap(k)
		}
		return
	case "op", "doppler", "infisical", "aws-vault", "sops", "dotenv":
		// secret injectors: `op run -- cmd`, `doppler run -- cmd`, `dotenv -e .env -- cmd`
		p := c.parse(1, opts{short: "ec", long: []string{"--env-file", "--config", "--command"}})
		envFiles := p.values("-e", "--env-file")
		for _, v := range envFiles {
			c.valFile(v, SetRead)
		}
		if c.name == "dotenv" && len(envFiles) == 0 {
			c.a.value(c.args[0].raw, litField(".env"), SetRead) // dotenv-cli reads .env by default
		}
		for _, v := range p.values("--command") {
			c.valScript(v)
		}
		for idx, i := range p.operands {
			t := optText(c.args[i].f)
			if idx == 0 && (t == "run" || t == "exec" || t == "read") {
				c.word(i)
				continue
			}
			c.wrap(i)
			break
		}
		return
	}
	// generic wrappers: options, then the command
	var o opts
	switch c.name {
	case "sudo":
		o = opts{short: "ugCDhprtUTcR", long: []string{"--chroot", "--user", "--group", "--close-from", "--chdir", "--host", "--prompt", "--role", "--type", "--other-user", "--command-timeout", "--login-class"}, posix: true}
	case "doas":
		o = opts{short: "uC", posix: true}
	case "nice":
		o = opts{short: "n", long: []string{"--adjustment"}, posix: true}
	case "ionice":
		o = opts{short: "cnpPu", long: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}, posix: true}
	case "stdbuf":
		o = opts{short: "ioe", long: []string{"--input", "--output", "--error"}, posix: true}
	case "taskset":
		o = opts{short: "", posix: true}
	case "numactl":
		o = opts{short: "CNmpPi", posix: true}
	// the options that take their value in the next word (an optional
	// value is given inline: unshare --net=FILE, prlimit -n1024); one
	// that takes none must not be listed (unshare -n sh -c CMD: -n is
	// --net, and sh the program)
	case "unshare":
		o = opts{short: "RwSG", long: []string{"--map-user", "--map-users", "--map-group", "--map-groups", "--propagation", "--setgroups", "--setuid", "--setgid", "--root", "--wd", "--monotonic", "--boottime"}, posix: true}
	case "prlimit":
		o = opts{short: "po", long: []string{"--pid", "--output"}, posix: true}
	case "nsenter":
		o = opts{short: "tSG", long: []string{"--target", "--setuid", "--setgid", "--user-parent"}, posix: true}
	case "systemd-run":
		o = opts{short: "HMEpu", long: []string{"--host", "--machine", "--setenv", "--property", "--unit", "--description", "--slice", "--uid", "--gid", "--nice", "--working-directory", "--service-type", "--on-active", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--timer-property", "--path-property", "--socket-property", "--json", "--capsule"}, posix: true}
	case "xvfb-run":
		o = opts{short: "efnpsw", long: []string{"--error-file", "--auth-file", "--server-num", "--xauth-protocol", "--server-args", "--wait"}, posix: true}
	case "firejail", "valgrind":
		o = opts{posix: true} // --name=VALUE only
	default:
		o = opts{posix: true}
	}
	p := c.parse(1, o)
	for _, v := range p.vals {
		switch v.name {
		case "-D", "--chdir", "--working-directory":
			if f, ok := c.valField(v); ok {
				c.valWord(v)
				c.a.chdir(f)
			}
		case "--log-file":
			c.valFile(v, setModify)
		case "-E", "--setenv", "--env":
			// systemd-run -E/--setenv VAR=VALUE, firejail --env=VAR=VALUE:
			// set for the command, as env's words are
			c.valWord(v)
			if f, ok := c.valField(v); ok && (c.name == "systemd-run" || c.name == "firejail" && v.name == "--env") && strings.Contains(optText(f), "=") && !strings.HasPrefix(optText(f), "=") {
				c.a.envWord(v.raw, f)
				c.a.addCmdEnv(f)
			}
		case "-R", "--root", "--chroot":
			if c.name == "unshare" || c.name == "sudo" {
				c.valWord(v)
				if f, ok := c.valField(v); ok {
					// unshare -R goes to the new root's /, sudo -R keeps the folder
					c.newRoot(v.raw, f, c.name == "unshare" && len(p.values("-w", "--wd")) == 0)
				}
			} else {
				c.valWord(v)
			}
		case "-w", "--wd":
			if c.name == "unshare" {
				if f, ok := c.valField(v); ok {
					c.valWord(v)
					c.a.chdir(f)
				}
			} else {
				c.valWord(v)
			}
		case "-c":
			if c.name == "sudo" {
				c.valWord(v)
			} else {
				c.valWord(v)
			}
		default:
			c.valWord(v)
		}
	}
	switch {
	case c.name == "nsenter" && p.has("-r", "-w", "-W", "--root", "--wd", "--wdns"):
		// the root or working folder of another process (or one given
		// inline): not the folders the command names are read from
		c.a.unknown(c.args[0].raw, "nsenter -r/-w runs the command in another process's root or working folder", SetRead|setModify)
	case c.name == "firejail" && p.has("--chroot"):
		c.a.unknown(c.args[0].raw, "firejail --chroot runs the command under another root folder", SetRead|setModify)
	case c.name == "systemd-run" && !p.has("-d", "--same-dir", "--working-directory") && !p.has("--scope"):
		// a service starts in / (the user's home for --user), not here
		c.a.chdir(litField("/" + unknownSeg))
	}
	if (c.name == "sudo" || c.name == "doas") && p.has("-s", "-i", "--shell", "--login") && len(p.operands) == 0 && (c.in.kind != srcNone || c.in.text != "") {
		// no command: the shell reads stdin (sudo -i in the home)
		run := func() { c.runScript(c.args[0].raw, c.in, source{}, "sh") }
		if c.name == "sudo" && p.has("-i", "--login") {
			c.a.inDirs([]field{c.a.homeField()}, run)
		} else {
			run()
		}
		return
	}
	if (c.name == "sudo" || c.name == "doas") && p.has("-s", "-i", "--shell", "--login") && len(p.operands) > 0 {
		if c.name == "sudo" && p.has("-i", "--login") {
			// sudo -i: a login shell, in the target user's home
			c.a.inDirs([]field{c.a.homeField()}, func() { c.joinedScript(p.operands) })
			return
		}
		c.joinedScript(p.operands)
		return
	}
	if c.name == "taskset" && len(p.operands) > 1 {
		c.word(p.operands[0])
		c.wrap(p.operands[1])
		return
	}
	ops := p.operands
	for len(ops) > 0 && (c.name == "sudo" || c.name == "doas") {
		// sudo VAR=VALUE… CMD: the variables are set for CMD
		k := ops[0]
		if !c.a.envWord(c.args[k].raw, c.args[k].f) {
			break
		}
		c.done[k] = true
		c.a.value(c.args[k].raw, c.args[k].f, SetRead)
		c.a.addCmdEnv(c.args[k].f) // as env's: TMPDIR, CURL_HOME, GOBIN for CMD
		ops = ops[1:]
	}
	if len(ops) > 0 {
		c.wrap(ops[0])
	}
}

// suCommand: what su/runuser/sg run — -c CMD, runuser -u USER COMMAND…, or
// the shell reading stdin.
func (c *cmd) suCommand(p parsed) {
	for _, v := range p.values("-c", "--command") {
		c.a.userShell(v.raw, c.valText(v), c.name+" -c")
		c.valScript(v)
	}
	switch {
	case c.name == "sg" && len(p.operands) > 1:
		c.script(p.operands[1], c.in)
	case c.name == "runuser" && len(p.values("-c", "--command")) == 0 && runuserCommand(c, p) >= 0:
		c.wrap(runuserCommand(c, p)) // runuser -u USER COMMAND…
	case len(p.values("-c", "--command")) == 0 && (c.in.kind != srcNone || c.in.text != ""):
		// no command: the user's shell reads stdin
		c.runScript(c.args[0].raw, c.in, source{}, "sh")
	}
}

// newRoot: a command run under the root folder f (chroot, unshare -R,
// sudo -R). Under / the names are the same, and chdir makes the command
// start at /; under another root every absolute name (and, with chdir,
// every relative one) opens a file below f the analysis does not map:
// unverifiable.
func (c *cmd) newRoot(raw string, f field, chdir bool) {
	if !f.pattern() && path.Clean(f.s) == "/" {
		if chdir {
			c.a.chdir(litField("/"))
		}
		return
	}
	c.a.unknown(raw, c.name+" runs the command under another root folder: the names it opens are not the ones the analysis reads", SetRead|setModify)
}

// runuserCommand is the index of the command runuser -u USER runs (-1:
// none).
func runuserCommand(c *cmd, p parsed) int {
	for k := 1; k < len(c.args); k++ {
		if t := optText(c.args[k].f); t == "-u" || t == "--user" {
			if k+2 < len(c.args) {
				c.word(k + 1)
				return k + 2
			}
			return -1
		}
	}
	return -1
}

// joinedScript runs the operands joined by spaces as a script (watch,
// sudo -s, ssh-like wrappers).
func (c *cmd) joinedScript(operands []int) {
	var parts []string
	raw := ""
	dyn := false
	for _, i := range operands {
		c.done[i] = true
		f := c.args[i].f
		c.a.value(c.args[i].raw, f, SetRead)
		if f.unk || f.dyn {
			dyn = true
		}
		parts = append(parts, f.text())
		raw += c.args[i].raw + " "
	}
	if dyn {
		c.a.unknown(strings.TrimSpace(raw), c.name+" runs a script computed when the command runs", SetRead|setModify)
	}
	if c.name != "watch" {
		// entr -s, sudo -s/-i: $SHELL (the target's shell) runs it; watch
		// runs sh -c
		c.a.userShell(strings.TrimSpace(raw), strings.Join(parts, " "), c.name)
	}
	c.a.script(strings.Join(parts, " "), strings.TrimSpace(raw), c.in)
}

// envWrapper: env [-i] [-u VAR] [-C DIR] [-S STRING] [NAME=VALUE…] [CMD…].
func (c *cmd) envWrapper() {
	i := 1
	for i < len(c.args) {
		f := c.args[i].f
		t := optText(f)
		switch {
		case t == "--":
			c.done[i] = true
			i++
			goto command
		case t == "-S" || t == "--split-string" || strings.HasPrefix(t, "-S") || strings.HasPrefix(t, "--split-string="):
			// -S STRING: the string is split into the command and its arguments
			c.done[i] = true
			var sf field
			raw := c.args[i].raw
			switch {
			case t == "-S" || t == "--split-string":
				if i+1 >= len(c.args) {
					return
				}
				i++
				c.done[i] = true
				sf, raw = c.args[i].f, c.args[i].raw
			case strings.HasPrefix(t, "--split-string="):
				sf = subField(f, len("--split-string="))
			default:
				sf = subField(f, 2)
			}
			c.a.value(raw, sf, SetRead)
			rest := ""
			for k := i + 1; k < len(c.args); k++ {
				c.done[k] = true
				rest += " " + quoteField(c.args[k].f)
			}
			if sf.unk || sf.dyn {
				c.a.unknown(raw, "env -S runs a command line computed when the command runs", SetRead|setModify)
				return
			}
			c.a.script(envSplitText(sf.text())+rest, raw, c.in)
			return
		case t == "-u" || t == "--unset" || t == "-C" || t == "--chdir" || t == "-P":
			c.done[i] = true
			if i+1 < len(c.args) {
				c.word(i + 1)
				if t == "-C" || t == "--chdir" {
					c.a.chdir(c.args[i+1].f)
				}
			}
			i += 2
		case strings.HasPrefix(t, "--chdir=") || (strings.HasPrefix(t, "-C") && len(t) > 2):
			c.done[i] = true
			n := 2
			if strings.HasPrefix(t, "--chdir=") {
				n = len("--chdir=")
			}
			d := subField(f, n)
			c.a.value(c.args[i].raw, d, SetRead)
			c.a.chdir(d)
			i++
		case strings.HasPrefix(t, "-") && len(t) > 1:
			c.done[i] = true
			i++
		case strings.Contains(t, "=") && !strings.HasPrefix(t, "="):
			c.done[i] = true
			c.a.value(c.args[i].raw, f, SetRead)
			c.a.envWord(c.args[i].raw, f)
			c.a.addCmdEnv(f)
			i++
		default:
			goto command
		}
	}
	return
command:
	if i < len(c.args) {
		c.wrap(i)
	}
}

// parentField is the folder of f ("." for a bare name).
func parentField(f field) field {
	s := strings.TrimRight(f.s, "/")
	i := strings.LastIndex(s, "/")
	switch {
	case i < 0:
		return litField(".")
	case i == 0:
		return litField("/")
	}
	out := f
	out.s = s[:i]
	if !f.pattern() {
		out = litField(s[:i])
	}
	return out
}

// addCmdEnv records a NAME=VALUE word a wrapper (env, sudo) sets for
// the command it runs, as a prefix assignment is recorded.
func (a *shellAnalyzer) addCmdEnv(f field) {
	t := optText(f)
	name, _, _ := strings.Cut(t, "=")
	if !f.pattern() {
		a.cmdEnv = append(a.cmdEnv, f.s[len(name)+1:])
	} else {
		a.cmdEnv = append(a.cmdEnv, unknownStr)
	}
	a.cmdEnvNames = append(a.cmdEnvNames, name)
}

// envSplitText turns env -S's escapes into shell syntax: `\_` is a space.
func envSplitText(s string) string {
	return strings.ReplaceAll(s, `\_`, " ")
}

// quoteField renders a field back as one shell word.
func quoteField(f field) string {
	if f.pattern() {
		return shellQuote(unescapeGlob(f.s))
	}
	return shellQuote(f.s)
}

// shellQuote single-quotes s for re-parsing.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// xargs runs a command on items read from stdin: split as GNU xargs
// splits them (blanks and newlines, quotes and backslashes; -0/--null;
// -d DELIM verbatim; -I/-i/--replace: one line each, put in place of the
// replacement string inside the words), in batches (-n, -L, -I: one
// command per batch, walked each; more batches than the analysis walks
// are unknown).
func (c *cmd) xargs() {
	// -i, -l, -e take their value only inline (-i{}, -l2)
	p := c.parse(1, opts{short: "aEdILnPs", long: []string{"--arg-file", "--delimiter", "--eof", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}, posix: true})
	in := c.in
	mode := xargsMode{sep: -1}
	known := true
	end := len(c.args)
	if len(p.operands) > 0 {
		end = p.operands[0]
	}
	for k := 1; k < end; k++ {
		t := optText(c.args[k].f)
		switch {
		case strings.HasPrefix(t, "-i") && len(t) > 2:
			mode.replace = t[2:]
		case strings.HasPrefix(t, "--replace="):
			mode.replace = strings.TrimPrefix(t, "--replace=")
		case strings.HasPrefix(t, "-l") && len(t) > 2:
			n, err := strconv.Atoi(t[2:])
			if err != nil || n < 1 {
				known = false
			}
			mode.lines = n
		case strings.HasPrefix(t, "-e") && len(t) > 2, strings.HasPrefix(t, "--eof="):
			known = false
		}
		if c.args[k].f.pattern() {
			known = false
		}
	}
	for _, v := range p.vals {
		f, ok := c.valField(v)
		text := ""
		if ok && !f.pattern() {
			text = f.s
		} else if v.name != "-a" && v.name != "--arg-file" {
			known = false
		}
		switch v.name {
		case "-a", "--arg-file":
			c.valFile(v, SetRead)
			in = dynSource("a file of names")
			if ok && !f.pattern() {
				n, _ := c.a.norm(f.s, false)
				in = source{kind: srcFile, file: n}
			}
			continue
		case "-d", "--delimiter":
			d, ok := xargsDelim(text)
			if !ok {
				known = false
			}
			mode.sep = d
		case "-I":
			mode.replace = text
		case "-n", "--max-args":
			n, err := strconv.Atoi(text)
			if err != nil || n < 1 {
				known = false
			}
			mode.perCmd = n
		case "-L", "--max-lines":
			n, err := strconv.Atoi(text)
			if err != nil || n < 1 {
				known = false
			}
			mode.lines = n
		case "-E", "--eof":
			if text != "" {
				known = false // an end-of-file string: not modelled
			}
		}
		c.valWord(v)
	}
	if p.has("-0", "--null") {
		mode.sep = 0
	}
	if p.has("-i", "--replace") && mode.replace == "" {
		mode.replace = "{}"
	}
	if p.has("-l") && mode.lines == 0 {
		mode.lines = 1
	}
	var tmpl []arg
	if len(p.operands) == 0 {
		tmpl = []arg{{f: litField("echo"), raw: "echo"}}
	} else {
		for i := p.operands[0]; i < len(c.args); i++ {
			c.done[i] = true
			tmpl = append(tmpl, c.args[i])
		}
	}
	batches := xargsBatches(in, mode, known)
	if len(p.values("-s", "--max-chars")) > 0 && mode.replace == "" && mode.perCmd == 0 && mode.lines == 0 {
		// the line's length limit decides where commands split: positions
		// are unknown
		for _, b := range batches {
			for i := range b {
				b[i].f.multi = true
			}
		}
	}
	for bi, items := range batches {
		if bi >= maxLoopValues {
			items = []arg{{f: dynVal("items read from stdin", false).f, raw: "(stdin)"}}
			c.xargsRun(tmpl, items, mode)
			break
		}
		from := len(c.a.out.targets)
		c.xargsRun(tmpl, items, mode)
		if len(tmpl) > 0 {
			c.a.foundOps(in.found, in.names, from, func(raw string) bool {
				return strings.HasPrefix(raw, "(names from ") || mode.replace != "" && strings.Contains(raw, mode.replace)
			}, "xargs "+baseName(tmpl[0].f))
		}
	}
	if len(batches) == 0 && mode.replace == "" {
		c.a.command(tmpl, source{}) // no input: GNU xargs runs the command once
	}
}

// xargsMode is how xargs reads items and builds commands.
type xargsMode struct {
	sep     int    // -1: blanks and quotes; else the delimiter byte (0 for -0)
	replace string // -I's replacement string
	perCmd  int    // -n
	lines   int    // -L
}

// xargsRun builds and walks one command of xargs.
func (c *cmd) xargsRun(tmpl, items []arg, mode xargsMode) {
	var sub []arg
	if mode.replace != "" {
		item := arg{f: litField(""), raw: "(stdin)"}
		if len(items) > 0 {
			item = items[0]
		}
		for _, t := range tmpl {
			sub = append(sub, arg{f: substField(t.f, mode.replace, item.f), raw: t.raw})
		}
	} else {
		sub = append(append(sub, tmpl...), items...)
	}
	c.a.command(sub, source{})
}

// xargsBatches splits what xargs reads into the items of each command it
// runs.
func xargsBatches(in source, mode xargsMode, known bool) [][]arg {
	unknownItems := func(why string) [][]arg {
		return [][]arg{{{f: dynVal(why, false).f, raw: "(stdin)"}}}
	}
	var items []arg
	switch in.kind {
	case srcText:
		if !known || strings.ContainsRune(in.text, unknownRune) {
			return unknownItems("a name read from stdin")
		}
		words, ok := xargsItems(in.text, mode)
		if !ok {
			return unknownItems("names xargs reads in a way not modelled")
		}
		for _, w := range words {
			items = append(items, arg{f: litField(w), raw: w})
		}
	case srcNames:
		for _, n := range in.names {
			items = append(items, arg{f: n, raw: "(names from " + in.why + ")"})
		}
		if mode.replace != "" || mode.perCmd > 0 || mode.lines > 0 {
			var out [][]arg
			for _, it := range items {
				out = append(out, []arg{it})
			}
			return out
		}
		return [][]arg{items}
	case srcFile, srcDyn:
		return unknownItems("names read from stdin")
	default:
		return nil
	}
	if len(items) == 0 {
		return nil
	}
	per := len(items)
	switch {
	case mode.replace != "":
		per = 1
	case mode.perCmd > 0:
		per = mode.perCmd
	case mode.lines > 0:
		if mode.sep != -1 {
			per = mode.lines
		} else {
			// -L counts input lines: each line's items together
			return xargsLineBatches(in.text, mode)
		}
	}
	var out [][]arg
	for i := 0; i < len(items); i += per {
		out = append(out, items[i:min(i+per, len(items))])
	}
	return out
}

// xargsLineBatches groups the items of each mode.lines input lines.
func xargsLineBatches(text string, mode xargsMode) [][]arg {
	var out [][]arg
	var cur []arg
	n := 0
	for line := range strings.Lines(text) {
		words, ok := xargsItems(line, xargsMode{sep: -1})
		if !ok {
			return [][]arg{{{f: dynVal("names read from stdin", false).f, raw: "(stdin)"}}}
		}
		if len(words) == 0 {
			continue
		}
		for _, w := range words {
			cur = append(cur, arg{f: litField(w), raw: w})
		}
		if n++; n == mode.lines {
			out = append(out, cur)
			cur, n = nil, 0
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// xargsDelim reads -d's value: one character or an escape (\n, \t, \\,
// \xHH, \0NNN).
func xargsDelim(s string) (int, bool) {
	switch {
	case len(s) == 1:
		return int(s[0]), true
	case len(s) == 2 && s[0] == '\\':
		switch s[1] {
		case 'n':
			return '\n', true
		case 't':
			return '\t', true
		case '\\':
			return '\\', true
		case '0':
			return 0, true
		}
	case strings.HasPrefix(s, "\\x"):
		if n, err := strconv.ParseUint(s[2:], 16, 8); err == nil {
			return int(n), true
		}
	case strings.HasPrefix(s, "\\0"):
		if n, err := strconv.ParseUint(s[1:], 8, 8); err == nil {
			return int(n), true
		}
	}
	return 0, false
}

// xargsItems splits xargs's input into items; ok is false for input xargs
// rejects (an unmatched quote) or does not read as text.
func xargsItems(text string, mode xargsMode) ([]string, bool) {
	if mode.sep >= 0 {
		if mode.sep > 0x7f {
			return nil, false
		}
		parts := strings.Split(text, string([]byte{byte(mode.sep)}))
		if len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		return parts, true
	}
	if mode.replace != "" {
		// one item per line, leading blanks dropped, quotes processed
		var out []string
		for line := range strings.Lines(text) {
			line = strings.TrimSuffix(line, "\n")
			line = strings.TrimLeft(line, " \t")
			if line == "" {
				continue
			}
			w, ok := xargsUnquote(line, true)
			if !ok {
				return nil, false
			}
			out = append(out, w...)
		}
		return out, true
	}
	return xargsUnquote(text, false)
}

// xargsUnquote splits text on blanks and newlines (whole: the line is one
// item, blanks kept), with single and double quotes (no escapes inside)
// and backslash escapes outside them.
func xargsUnquote(text string, whole bool) ([]string, bool) {
	var out []string
	var b strings.Builder
	started := false
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case ch == '\'' || ch == '"':
			j := strings.IndexByte(text[i+1:], ch)
			if j < 0 || strings.ContainsRune(text[i+1:i+1+j], '\n') {
				return nil, false // xargs: unmatched quote
			}
			b.WriteString(text[i+1 : i+1+j])
			started = true
			i += j + 1
		case ch == '\\':
			if i+1 < len(text) {
				i++
				b.WriteByte(text[i])
				started = true
			}
		case !whole && (ch == ' ' || ch == '\t' || ch == '\n'):
			if started {
				out = append(out, b.String())
				b.Reset()
				started = false
			}
		default:
			b.WriteByte(ch)
			started = true
		}
	}
	if started {
		out = append(out, b.String())
	}
	return out, true
}

// substField puts value in place of each occurrence of marker inside the
// text of a word (xargs -I, find -exec's {}, parallel's {}): known when
// both are, a pattern built from the parts otherwise.
func substField(t field, marker string, value field) field {
	if marker == "" {
		return t
	}
	text := t.text()
	if !strings.Contains(text, marker) {
		return t
	}
	if t.pattern() {
		return dynVal("a word xargs fills in with a value", false).f
	}
	var fb fieldBuilder
	parts := strings.Split(text, marker)
	for i, part := range parts {
		if i > 0 {
			fb.pat(value)
		}
		fb.lit(part)
	}
	fb.started = true
	return fb.field()
}

// argsFrom returns the arguments a command builds from the names on its
// stdin (xargs, parallel): known words, the names find printed, or one
// value only known when the command runs.
func argsFrom(in source) []arg {
	var inputs []arg
	switch in.kind {
	case srcText:
		for tok := range strings.FieldsSeq(in.text) {
			if len(inputs) >= 256 {
				break
			}
			tok = strings.Trim(tok, `"'`)
			f := litField(tok)
			if strings.ContainsRune(tok, unknownRune) {
				f = dynVal("a name read from stdin", false).f
			}
			inputs = append(inputs, arg{f: f, raw: tok})
		}
	case srcNames:
		for _, n := range in.names {
			inputs = append(inputs, arg{f: n, raw: "(names from " + in.why + ")"})
		}
	case srcFile, srcDyn:
		f := dynVal("names read from stdin", false).f
		inputs = append(inputs, arg{f: f, raw: "(stdin)"})
	}
	return inputs
}

// parallel (GNU parallel) runs a command on arguments: after `:::` (words),
// `::::` or -a/--arg-file (a file of them), else the lines of stdin, as
// xargs does. The command is its first operand (`echo` with none); `{}`
// and its variants stand for the argument.
func (c *cmd) parallel() {
	valued := map[string]bool{"-j": true, "--jobs": true, "-P": true, "--max-procs": true, "-S": true,
		"--sshlogin": true, "--colsep": true, "-C": true, "-d": true, "--delimiter": true, "-E": true,
		"-I": true, "-n": true, "--max-args": true, "-N": true, "-L": true, "--max-lines": true,
		"--tmpdir": true, "--results": true, "--joblog": true, "--halt": true, "--timeout": true,
		"--delay": true, "--retries": true, "--tag-string": true, "--tagstring": true, "--env": true,
		"--workdir": true, "--wd": true, "--block": true, "--block-size": true, "--basefile": true,
		"--bf": true, "--return": true, "--transfer-file": true, "--tf": true, "-s": true, "--max-chars": true,
		"--load": true, "--memfree": true, "--shebang-wrap": true, "--sqlmaster": true, "--sqlworker": true,
		"--sqlandworker": true, "--profile": true, "-J": true}
	in := c.in
	var cmdArgs, words []arg
	var wds []field      // --wd DIR: the jobs run there
	restore := func() {} // (taken away when the walk is done)
	defer func() { restore() }()
	i := 1
	for ; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		if t == ":::" || t == "::::" || t == ":::+" || t == "::::+" || !strings.HasPrefix(t, "-") || t == "-" {
			break
		}
		c.done[i] = true
		name, _, eq := strings.Cut(t, "=")
		switch {
		case name == "-a" || name == "--arg-file" || name == "--basefile" || name == "--bf" || name == "--transfer-file" || name == "--tf" || name == "--sqlmaster" || name == "--sqlworker":
			if !eq && i+1 < len(c.args) {
				i++
				c.file(i, SetRead)
			}
			if name == "-a" || name == "--arg-file" {
				in = dynSource("a file of arguments")
			}
		case name == "--results" || name == "--joblog" || name == "--tmpdir":
			if !eq && i+1 < len(c.args) {
				i++
				c.file(i, setModify)
			}
		case name == "--wd" || name == "--workdir":
			// the jobs run in DIR (`...`: a new folder below ~/.parallel/tmp)
			f := subField(c.args[i].f, len(name)+1)
			if !eq && i+1 < len(c.args) {
				i++
				c.word(i)
				f = c.args[i].f
			}
			if !f.pattern() && f.s == "..." {
				f = field{s: escapeGlob(c.a.homeField().s) + "/.parallel/tmp/" + unknownStr, unk: true}
			}
			wds = append(wds, f)
		case valued[name] && !eq && len(t) == len(name):
			if i+1 < len(c.args) {
				i++
				c.word(i)
			}
		}
	}
	if len(wds) > 0 {
		restore = c.a.pushDirs(wds)
	}
	var groups [][]arg
	linked := false
	optEnd := i
	for ; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		c.done[i] = true
		if t == ":::" || t == ":::+" {
			in = source{kind: srcNone}
			linked = linked || t == ":::+"
			var g []arg
			for i++; i < len(c.args) && !strings.HasPrefix(optText(c.args[i].f), ":::"); i++ {
				c.done[i] = true
				g = append(g, c.args[i])
			}
			groups = append(groups, g)
			i--
			continue
		}
		if t == "::::" || t == "::::+" {
			in = source{kind: srcNone}
			for i++; i < len(c.args) && !strings.HasPrefix(optText(c.args[i].f), ":::"); i++ {
				c.file(i, SetRead)
			}
			groups = append(groups, []arg{{f: dynVal("arguments read from a file", false).f, raw: "::::"}})
			i--
			continue
		}
		cmdArgs = append(cmdArgs, c.args[i])
	}
	if in.kind != srcNone {
		groups = append(groups, argsFrom(in))
	}
	for _, g := range groups {
		words = append(words, g...)
	}
	inputs := words
	for k := 1; k < optEnd; k++ {
		name, _, _ := strings.Cut(optText(c.args[k].f), "=")
		switch name {
		case "-I", "--replace", "-i", "--er", "--extensionreplace", "--bnr", "--basenamereplace", "--dnr",
			"--dirnamereplace", "--bner", "--basenameextensionreplace", "--seqreplace", "--slotreplace", "--rpl", "--plus":
			c.a.unknown(c.args[k].raw, "parallel with replacement strings of its own: not modelled", SetRead|setModify)
			return
		}
	}
	for k := 1; k < optEnd; k++ {
		if t := optText(c.args[k].f); (t == "--pipe" || t == "--pipepart" || t == "--spreadstdin") && len(cmdArgs) > 0 {
			// blocks of stdin become each job's stdin
			c.a.command(cmdArgs, in)
			return
		}
	}
	if len(cmdArgs) == 0 || strings.Contains(cmdArgs[0].f.text(), "{") || cmdArgs[0].f.pattern() {
		// no command, or one whose program is an argument ({} alone runs
		// the argument as a command line): each argument is a command line
		for _, w := range inputs {
			c.scriptField(w.raw, w.f, source{})
		}
		if len(cmdArgs) == 0 {
			return
		}
		if len(inputs) == 0 && in.kind != srcNone {
			c.a.unknown(cmdArgs[0].raw, "parallel runs command lines read from its input, which the analysis cannot see", SetRead|setModify)
		}
	}
	raw := cmdArgs[0].raw
	known := !linked
	for _, a := range append(append([]arg(nil), cmdArgs...), inputs...) {
		if a.f.pattern() || a.f.multi {
			known = false
		}
	}
	for _, fl := range []string{"-n", "-N", "-m", "-X", "--xargs", "-q", "--quote", "--max-args", "--colsep", "-C", "--shellquote", "-L", "--max-lines"} {
		for k := 1; k < optEnd; k++ {
			if optText(c.args[k].f) == fl {
				known = false
			}
		}
	}
	if known {
		// parallel joins the command's words with spaces, puts each job's
		// arguments (quoted) in place of the replacement strings (or after
		// the line) and runs that in a shell
		var line []string
		for _, a := range cmdArgs {
			line = append(line, a.f.s)
		}
		script := strings.Join(line, " ")
		jobs := [][]string{nil}
		for _, g := range groups {
			var next [][]string
			for _, j := range jobs {
				for _, a := range g {
					next = append(next, append(append([]string(nil), j...), a.f.s))
				}
			}
			jobs = next
			if len(jobs) > maxLoopValues {
				c.a.unknown(raw, "parallel runs more jobs than the analysis walks", SetRead|setModify)
				return
			}
		}
		if len(groups) == 0 {
			c.a.script(script, raw, source{}) // sem, or no input: the line as it is
			return
		}
		for n, j := range jobs {
			c.a.script(parallelLine(script, j, n+1), raw, source{})
		}
		return
	}
	// arguments known only as patterns (find's names, stdin): each word
	// holding a replacement string is filled in with the argument
	var sub []arg
	var value field
	switch {
	case len(inputs) == 1:
		value = inputs[0].f
	default:
		value = dynVal("parallel's arguments", false).f
	}
	replaced := false
	for _, a := range cmdArgs {
		if t := a.f.text(); strings.Contains(t, "{") && strings.Contains(t, "}") {
			if t == "{}" && len(inputs) == 1 {
				sub = append(sub, arg{f: value, raw: a.raw})
			} else if t == "{}" {
				sub = append(sub, inputs...)
			} else {
				sub = append(sub, arg{f: dynVal("a word parallel fills in with an argument", false).f, raw: a.raw})
				c.a.value(a.raw, a.f, SetRead)
			}
			replaced = true
			continue
		}
		sub = append(sub, a)
	}
	if !replaced {
		sub = append(sub, inputs...)
	}
	if len(cmdArgs) == 1 && strings.ContainsAny(optText(cmdArgs[0].f), " ;|&<>") {
		c.a.unknown(raw, "parallel runs a command line on arguments only known when it runs", SetRead|setModify)
		return
	}
	c.a.command(sub, source{})
}

// parallelLine is one job's command line: args (one per input source)
// quoted in place of {}, {N}, {.}, {/}, {//}, {/.}, {#}; appended when no
// replacement string is there. A replacement string not modelled ({%},
// {= … =}) is unknown text.
func parallelLine(script string, args []string, job int) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	if strings.Contains(script, "{=") {
		return script + " " + unknownStr // perl expressions: not modelled
	}
	found := false
	repl := func(tok string) string {
		found = true
		inner := tok[1 : len(tok)-1]
		if inner == "#" {
			return strconv.Itoa(job)
		}
		vals := args
		if n, rest := leadingInt(inner); n > 0 {
			if n > len(args) {
				return tok // not a replacement string: stays as written
			}
			vals, inner = args[n-1:n], rest
		}
		var parts []string
		for _, v := range vals {
			switch inner {
			case "":
			case ".":
				v = strings.TrimSuffix(v, path.Ext(v))
			case "/":
				v = path.Base(v)
			case "//":
				v = path.Dir(v)
			case "/.":
				v = strings.TrimSuffix(path.Base(v), path.Ext(path.Base(v)))
			default:
				return unknownStr
			}
			parts = append(parts, shellQuote(v))
		}
		return strings.Join(parts, " ")
	}
	var b strings.Builder
	for i := 0; i < len(script); i++ {
		if script[i] == '{' {
			if j := strings.IndexByte(script[i:], '}'); j > 0 && parallelToken(script[i+1:i+j]) {
				b.WriteString(repl(script[i : i+j+1]))
				i += j
				continue
			}
		}
		b.WriteByte(script[i])
	}
	out := b.String()
	if !found {
		return script + " " + strings.Join(quoted, " ")
	}
	return out
}

// parallelToken reports whether {inner} is one of parallel's
// replacement strings.
func parallelToken(inner string) bool {
	if inner == "#" || inner == "%" || len(inner) >= 2 && inner[0] == '=' && inner[len(inner)-1] == '=' {
		return true
	}
	_, rest := leadingInt(inner)
	switch rest {
	case "", ".", "/", "//", "/.":
		return true
	}
	return false
}

func leadingInt(s string) (int, string) {
	j := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	n, _ := strconv.Atoi(s[:j])
	return n, s[j:]
}

// find: paths, then an expression; -exec runs a command on what it finds.
func (c *cmd) find() {
	i := 1
	findFollows := false
	for i < len(c.args) {
		t := optText(c.args[i].f)
		if t == "-L" {
			findFollows = true
		}
		if t == "-H" || t == "-L" || t == "-P" || strings.HasPrefix(t, "-O") || t == "-D" {
			c.done[i] = true
			if t == "-D" {
				i++
				c.word(i)
			}
			i++
			continue
		}
		break
	}
	var roots []int
	for i < len(c.args) {
		t := optText(c.args[i].f)
		if (strings.HasPrefix(t, "-") && len(t) > 1) || t == "(" || t == "!" || t == ")" || t == "," {
			break
		}
		roots = append(roots, i)
		i++
	}
	// the expression: name filters, actions. The names it prints are known
	// only when every branch that may print (split at -o/-or) has a
	// positive name test; a negated one (`!`, -not) says what it leaves
	// out, not what it prints
	names, nameKnown := findNames(c, i)
	del := false
	type execAt struct {
		start, end int
		dir        bool // -execdir, -okdir: run in the folder of each name
	}
	var execs []execAt
	for i < len(c.args) {
		t := optText(c.args[i].f)
		c.done[i] = true
		switch t {
		case "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex":
			// a pattern the names find prints are matched against (see
			// findNames): it names no file find opens
			if i+1 < len(c.args) {
				c.done[i+1] = true
				i += 2
				continue
			}
		case "-name", "-iname", "-lname", "-ilname":
			if i+1 < len(c.args) {
				c.word(i + 1)
				i += 2
				continue
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(c.args) {
				e := optText(c.args[j].f)
				if e == ";" || e == "+" || e == `\;` {
					break
				}
				j++
			}
			execs = append(execs, execAt{i + 1, j, t == "-execdir" || t == "-okdir"})
			for k := i + 1; k <= j && k < len(c.args); k++ {
				c.done[k] = true
			}
			i = j + 1
			continue
		case "-delete":
			del = true
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			c.file(i+1, setModify)
			i += 2
			if t == "-fprintf" {
				c.word(i)
				i++
			}
			continue
		case "-newer", "-anewer", "-cnewer", "-samefile":
			c.file(i+1, SetRead)
			i += 2
			continue
		case "-files0-from":
			c.file(i+1, SetRead)
			i += 2
			continue
		default:
			if i+1 < len(c.args) && findTakesArg(t) {
				c.word(i + 1)
				i += 2
				continue
			}
		}
		i++
	}
	if len(roots) == 0 {
		roots = []int{-1}
	}
	// the names find prints: a pattern under each root
	var found []field
	var searched []foundRoot
	for _, r := range roots {
		var rf field
		if r < 0 {
			rf = litField(".")
		} else {
			c.word(r)
			rf = c.args[r].f
		}
		found = append(found, findOutput(rf, names, nameKnown)...)
		follow := followNone
		if findFollows {
			follow = followAll
		}
		searched = append(searched, foundRoot{raw: rawOf(c, r), f: rf, filter: filterOf(names, nameKnown), follow: follow, hidden: true, via: "find"})
		if del {
			c.a.noContent = true // removing leaves nothing to run
			c.a.addRec(rawOf(c, r), rf, setModify, true, filterOf(names, nameKnown), "find -delete", followNone)
			c.a.noContent = false
		}
	}
	c.out = &source{kind: srcNames, names: found, why: "find", found: searched}
	c.a.registerFound(found, searched)
	for _, e := range execs {
		if e.start >= e.end || e.start >= len(c.args) {
			continue
		}
		// each `{}` (alone or inside a word) is one found name, in its
		// place: the command is walked once per pattern of names (with
		// `+`, all of them at the `{}`); without one the names are added
		// at the end; a content reader reads every file it finds
		plus := e.end < len(c.args) && optText(c.args[e.end].f) == "+"
		hasBrace := false
		for k := e.start; k < e.end && k < len(c.args); k++ {
			if strings.Contains(optText(c.args[k].f), "{}") {
				hasBrace = true
			}
		}
		restore := func() {}
		if e.dir {
			// -execdir runs the command in the folder that holds each
			// name: a starting point's parent, the starting point or any
			// folder below it
			var dirs []field
			for _, r := range roots {
				rf := litField(".")
				if r >= 0 {
					rf = c.args[r].f
				}
				below := field{s: escapeGlob(rf.s) + "/" + unknownSeg, unk: true}
				up := litField(path.Dir(rf.s))
				if rf.pattern() {
					below = rf
					below.s += "/" + unknownSeg
					below.unk = true
					up = rf
					up.s += "/.."
				}
				dirs = append(dirs, up, rf, below)
			}
			restore = c.a.pushDirs(dirs)
		}
		from := len(c.a.out.targets)
		var sub []arg
		switch {
		case !hasBrace:
			sub = append(sub, c.args[e.start:min(e.end, len(c.args))]...)
			for _, f := range found {
				f.multi = true
				sub = append(sub, arg{f: f, raw: "{}"})
			}
			c.a.command(sub, source{})
		default:
			// find prints its starting points too (when they match)
			names := append([]field(nil), found...)
			for _, r := range roots {
				if r >= 0 {
					names = append(names, c.args[r].f)
				} else {
					names = append(names, litField("."))
				}
			}
			for n, f := range names {
				if n >= 16 {
					f = dynVal("the names find prints", false).f
				}
				sub = sub[:0]
				for k := e.start; k < e.end && k < len(c.args); k++ {
					ar := c.args[k]
					switch {
					case plus && optText(ar.f) == "{}":
						for _, g := range names {
							g.multi = true
							sub = append(sub, arg{f: g, raw: "{}"})
						}
					case strings.Contains(optText(ar.f), "{}"):
						sub = append(sub, arg{f: substField(ar.f, "{}", f), raw: ar.raw})
					default:
						sub = append(sub, ar)
					}
				}
				c.a.command(append([]arg(nil), sub...), source{})
				if plus || n >= 16 {
					break
				}
			}
		}
		restore()
		// what the command does to a `{}` it does to each name found
		c.a.foundOps(searched, found, from, func(raw string) bool { return strings.Contains(raw, "{}") }, "find -exec "+baseName(c.args[e.start].f))
		// a recursive content read of each root, limited to the names
		for _, r := range roots {
			rf := litField(".")
			if r >= 0 {
				rf = c.args[r].f
			}
			name := baseName(sub[0].f)
			follow := followFiles
			if findFollows {
				follow = followAll
			}
			if readsContent(name) {
				c.a.addRec(rawOf(c, r), rf, SetRead, true, filterOf(names, nameKnown), "find -exec "+name, follow)
			} else if writesContent(name) {
				c.a.addRec(rawOf(c, r), rf, setModify, true, filterOf(names, nameKnown), "find -exec "+name, follow)
			}
		}
	}
}

// fd [FLAGS] [PATTERN] [PATH…]: lists names below each path (`.` by
// default), hidden ones with -H or -u; -x/--exec and -X/--exec-batch run
// a command on what it finds. The pattern is a regex or glob on the name
// and is not followed: any name may be printed; -e EXT keeps `*.EXT`.
func (c *cmd) fd() {
	valued := map[string]bool{"-e": true, "--extension": true, "-t": true, "--type": true, "-d": true,
		"--max-depth": true, "--min-depth": true, "--exact-depth": true, "-E": true, "--exclude": true,
		"-S": true, "--size": true, "--changed-within": true, "--change-newer-than": true, "--newer": true,
		"--changed-before": true, "--change-older-than": true, "--older": true, "-o": true, "--owner": true,
		"-j": true, "--threads": true, "--max-results": true, "-c": true, "--color": true,
		"--path-separator": true, "--batch-size": true, "--max-buffer-time": true, "--format": true,
		"--and": true, "--search-path": true, "--base-directory": true, "--ignore-file": true}
	hidden, follow := false, followNone
	var roots, exts []field
	var execStart, execEnd []int
	positional, sawPattern, rest := 0, false, false
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		f := c.args[i].f
		if !rest && (t == "-x" || t == "--exec" || t == "-X" || t == "--exec-batch") {
			c.done[i] = true
			j := i + 1
			for j < len(c.args) && optText(c.args[j].f) != ";" && optText(c.args[j].f) != `\;` {
				c.done[j] = true
				j++
			}
			execStart, execEnd = append(execStart, i+1), append(execEnd, j)
			if j < len(c.args) {
				c.done[j] = true
			}
			i = j
			continue
		}
		if !rest && t == "--" {
			c.done[i] = true
			rest = true
			continue
		}
		if !rest && strings.HasPrefix(t, "-") && len(t) > 1 {
			c.done[i] = true
			name, val, eq := t, "", false
			if strings.HasPrefix(t, "--") {
				name, val, eq = strings.Cut(t, "=")
			} else if len(t) > 2 {
				// bundled short flags; a flag that takes a value ends the bundle
				for k := 1; k < len(t); k++ {
					l := "-" + t[k:k+1]
					switch {
					case l == "-H" || l == "-u":
						hidden = true
					case l == "-L":
						follow = followAll
					case valued[l]:
						name, val, eq = l, t[k+1:], k+1 < len(t)
						k = len(t)
					}
				}
				if !valued[name] {
					continue
				}
			}
			switch name {
			case "-H", "--hidden", "-u", "--unrestricted":
				hidden = true
			case "-L", "--follow":
				follow = followAll
			}
			if !valued[name] {
				continue
			}
			var vf field
			if eq {
				vf = litField(val)
				if f.pattern() {
					vf = field{s: val, glob: f.glob, unk: f.unk, dyn: f.dyn, why: f.why}
				}
			} else {
				i++
				if i >= len(c.args) {
					break
				}
				c.done[i] = true
				vf = c.args[i].f
			}
			switch name {
			case "--search-path", "--base-directory":
				c.a.value(c.args[i].raw, vf, SetRead)
				roots = append(roots, vf)
			case "--ignore-file":
				c.fileField(c.args[i].raw, vf, SetRead)
			case "-e", "--extension":
				exts = append(exts, vf)
			}
			continue
		}
		c.done[i] = true
		if positional == 0 && !sawPattern {
			sawPattern = true
			positional++
			continue // the pattern
		}
		positional++
		c.a.value(c.args[i].raw, f, SetRead)
		roots = append(roots, f)
	}
	if len(roots) == 0 {
		roots = []field{litField(".")}
	}
	var names []string
	for _, e := range exts {
		if e.pattern() {
			names = nil
			break
		}
		names = append(names, "*."+escapeGlob(strings.TrimPrefix(e.text(), ".")))
	}
	var found []field
	for _, r := range roots {
		if hidden {
			found = append(found, findOutput(r, names, true)...)
			continue
		}
		base := r.s
		if !r.pattern() {
			base = escapeGlob(r.s)
		}
		base = strings.TrimSuffix(base, "/")
		shown := names
		if len(shown) == 0 {
			shown = []string{"*"}
		}
		for _, n := range shown {
			found = append(found, field{s: base + "/**/" + n, glob: true, why: "fd", unk: r.unk, dyn: r.dyn})
		}
	}
	var searched []foundRoot
	for _, r := range roots {
		searched = append(searched, foundRoot{raw: r.s, f: r, filter: filterOf(names, len(names) > 0), follow: follow, hidden: hidden, via: "fd"})
	}
	c.out = &source{kind: srcNames, names: found, why: "fd", found: searched}
	c.a.registerFound(found, searched)
	for k := range execStart {
		if execStart[k] >= execEnd[k] {
			continue
		}
		var sub []arg
		for j := execStart[k]; j < execEnd[k]; j++ {
			if t := optText(c.args[j].f); t == "{}" || t == "{/}" || t == "{//}" || t == "{.}" || t == "{/.}" {
				continue
			}
			sub = append(sub, c.args[j])
		}
		if len(sub) == 0 {
			continue
		}
		for _, f := range found {
			sub = append(sub, arg{f: f, raw: "{}"})
		}
		c.a.command(sub, source{})
		name := baseName(sub[0].f)
		for _, r := range roots {
			if readsContent(name) {
				c.a.addRec(r.s, r, SetRead, hidden, filterOf(names, len(names) > 0), "fd -x "+name, follow)
			} else if writesContent(name) {
				c.a.addRec(r.s, r, setModify, hidden, filterOf(names, len(names) > 0), "fd -x "+name, follow)
			}
		}
	}
}

func rawOf(c *cmd, i int) string {
	if i < 0 || i >= len(c.args) {
		return "."
	}
	return c.args[i].raw
}

func filterOf(names []string, known bool) []string {
	if !known || len(names) == 0 {
		return nil
	}
	return names
}

// findNames reads find's expression from args[start:]: the name filters
// of the names it may print, and whether they are known. Each top-level
// branch (split at -o/-or, parentheses kept together) that may print —
// one with an action, or any branch when the expression has none (the
// default -print) — must hold a positive name test; a test after `!` or
// -not is negative and does not count; a -prune branch without an action
// prints nothing.
func findNames(c *cmd, start int) ([]string, bool) {
	type branch struct {
		names                 []string
		unknown, print, prune bool
	}
	var brs []branch
	cur := branch{}
	depth, negate, anyAction := 0, false, false
	for i := start; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		switch t {
		case "(", `\(`:
			depth++
			continue
		case ")", `\)`:
			depth--
			continue
		case "-o", "-or":
			if depth == 0 {
				brs = append(brs, cur)
				cur = branch{}
			} else if i < start+2 || !isFindNameTest(optText(c.args[i-2].f)) || i+1 >= len(c.args) || !isFindNameTest(optText(c.args[i+1].f)) {
				// an alternative in parentheses that is not name or name
				// (`\( -name '*.js' -o -type f \)`): any name
				cur.unknown = true
			}
			negate = false
			continue
		case "!", "-not":
			negate = true
			continue
		case "-prune":
			cur.prune = true
		case "-print", "-print0", "-printf", "-fprint", "-fprint0", "-fprintf", "-ls", "-fls", "-delete":
			cur.print, anyAction = true, true
		case "-exec", "-execdir", "-ok", "-okdir":
			cur.print, anyAction = true, true
			for i+1 < len(c.args) {
				i++
				if e := optText(c.args[i].f); e == ";" || e == "+" || e == `\;` {
					break
				}
			}
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname":
			if i+1 < len(c.args) {
				if !negate {
					if n, ok := findName(t, c.args[i+1].f); ok && depth == 0 {
						cur.names = append(cur.names, n)
					} else if ok {
						cur.names = append(cur.names, n) // an alternative in parentheses: one of them
					} else {
						cur.unknown = true
					}
				}
				i++
			}
		default:
			if strings.HasPrefix(t, "-") && i+1 < len(c.args) && findTakesArg(t) {
				i++
			}
		}
		negate = false
	}
	brs = append(brs, cur)
	var names []string
	for _, b := range brs {
		if !b.print && (anyAction || b.prune) {
			continue // prints nothing
		}
		if b.unknown || len(b.names) == 0 {
			return nil, false
		}
		names = append(names, b.names...)
	}
	return names, true
}

func isFindNameTest(t string) bool {
	switch t {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname":
		return true
	}
	return false
}

// findName turns a find test on names (-name, -path and their
// case-insensitive forms) into a name filter: a glob on the file's name,
// or "path:" and a path glob without wildcards. ok is false when the names
// it prints cannot be told: a dynamic pattern, a regex, -lname (it tests
// the link's target, not the name printed), a case-insensitive bracket.
// find's wildcards match a leading `.` and, in -path, `/` too: a -path glob
// with wildcards keeps only what it says of the last name
// (`-path '*/.git/*'` → any name; `-path '*env'` → `*env`).
func findName(test string, f field) (string, bool) {
	if f.pattern() && (f.unk || f.dyn) {
		return "", false
	}
	g := f.text()
	switch test {
	case "-regex", "-iregex", "-lname", "-ilname":
		return "", false
	}
	if strings.HasPrefix(test, "-i") {
		if strings.Contains(g, "[") {
			return "", false
		}
		g = caseFoldGlob(g)
	}
	if !strings.Contains(test, "path") && !strings.Contains(test, "wholename") {
		return g, true
	}
	i := strings.LastIndexAny(g, "*?]")
	if i < 0 {
		return "path:" + g, true
	}
	if j := strings.LastIndexByte(g, '/'); j > i {
		if last := g[j+1:]; last != "" {
			return last, true
		}
		return "", false
	}
	return "*" + g[i+1:], true
}

// caseFoldGlob makes the ASCII letters of a glob match either case
// (`*ENV` → `*[eE][nN][vV]`), for find's -iname and -ipath.
func caseFoldGlob(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case c == '\\' && i+1 < len(g):
			b.WriteByte(c)
			i++
			b.WriteByte(g[i])
		case 'a' <= c && c <= 'z':
			b.WriteString("[" + string(c) + string(c-'a'+'A') + "]")
		case 'A' <= c && c <= 'Z':
			b.WriteString("[" + string(c-'A'+'a') + string(c) + "]")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func findTakesArg(t string) bool {
	switch t {
	case "-maxdepth", "-mindepth", "-type", "-xtype", "-size", "-mtime", "-atime", "-ctime", "-mmin", "-amin",
		"-cmin", "-perm", "-user", "-group", "-uid", "-gid", "-links", "-inum", "-printf", "-fstype", "-used",
		"-context", "-newerXY", "-regextype":
		return true
	}
	return strings.HasPrefix(t, "-newer")
}

// findOutput returns the names find prints under root: root/<any
// folders>/name for each name filter (a path filter as it is), or anything
// under root. find lists hidden names and enters hidden folders, so the
// folders are unknown (they may be `.git`) and an unfiltered name may be
// `.env`.
func findOutput(root field, names []string, known bool) []field {
	base := root.s
	if !root.pattern() {
		base = escapeGlob(root.s)
	}
	base = strings.TrimSuffix(base, "/")
	if base == "" {
		base = "/"
	}
	if !known || len(names) == 0 {
		return []field{{s: base + "/" + unknownSeg + "/" + unknownStr, unk: true, why: "find", dotOK: true}}
	}
	var out []field
	for _, n := range names {
		if p, ok := strings.CutPrefix(n, "path:"); ok {
			out = append(out, field{s: p, glob: true, why: "find", dotOK: true})
			continue
		}
		out = append(out, field{s: base + "/" + unknownSeg + "/" + n, glob: true, unk: true, why: "find", dotOK: true})
	}
	return out
}

// readsContent reports whether a command reads the content of the files it
// is given (for find -exec and xargs).
func readsContent(name string) bool {
	switch name {
	case "cat", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "rg", "ag", "awk", "sed", "strings",
		"xxd", "od", "hexdump", "base64", "wc", "sort", "uniq", "cut", "tar", "zip", "cp", "rsync", "scp",
		"curl", "nc", "python", "python3", "node", "perl", "ruby", "bash", "sh", "jq", "diff", "cmp",
		"md5sum", "sha256sum", "sha1sum", "file", "bat", "tac", "nl", "paste":
		return true
	}
	return false
}

func writesContent(name string) bool {
	switch name {
	case "rm", "shred", "truncate", "mv", "chmod", "chown", "touch", "tee", "dd", "unlink":
		return true
	}
	return false
}

// shell: sh -c SCRIPT [ARGS], sh -s / no script (stdin), sh FILE [ARGS].
func (c *cmd) shell() {
	p := c.parse(1, opts{short: "oO", long: []string{"--rcfile", "--init-file"}, posix: true})
	for _, v := range p.vals {
		switch v.name {
		case "--rcfile", "--init-file":
			c.valScriptFile(v, "sh")
		default:
			if t := strings.ToLower(c.valText(v)); strings.Contains(t, "dotglob") || strings.Contains(t, "globdots") {
				c.a.dotglob = true
			}
			c.valWord(v)
		}
	}
	if p.has("-c") {
		if len(p.operands) == 0 {
			return
		}
		// a new shell: $0 and $1… are the arguments after the script
		var pos []arg
		if len(p.operands) > 2 {
			for _, i := range p.operands[2:] {
				pos = append(pos, c.args[i])
			}
		}
		bound, known, tail := bindArgs(pos)
		c.a.childShell(bound, known, tail, func() { c.script(p.operands[0], c.in) })
		for _, i := range p.operands[1:] {
			c.file(i, SetRead)
		}
		return
	}
	if p.has("-s") || len(p.operands) == 0 {
		pos, known, tail := bindArgs(c.argsAt(p.operands))
		c.a.childShell(pos, known, tail, func() { c.runScript(c.args[0].raw, c.in, source{}, "sh") })
		for _, i := range p.operands {
			c.file(i, SetRead)
		}
		return
	}
	first := p.operands[0]
	f := c.args[first].f
	c.file(first, SetRead)
	// a new shell: $1… are the arguments after the script
	pos, known, tail := bindArgs(c.argsAt(p.operands[1:]))
	if s, ok := c.scriptFrom(f, c.args[first].raw, true); ok {
		c.a.childShell(pos, known, tail, func() { c.runScript(c.args[first].raw, s, source{}, "sh") })
	}
	c.scriptArgs(first, p.operands[1:])
	if scriptOnDisk(c, f) {
		// a script on the disk is a program the analysis does not read:
		// what it is given may be written
		c.unmodelledFiles(p.operands[1:], "the script "+f.text())
		return
	}
	for _, i := range p.operands[1:] {
		c.file(i, SetRead)
	}
}

// scriptOnDisk reports whether a script operand is a file on the disk the
// analysis does not read: not a stream (-, /dev/stdin), not one the
// command wrote (read where it is run), not a computed name.
func scriptOnDisk(c *cmd, f field) bool {
	if f.pattern() {
		return false
	}
	if t := f.text(); t == "-" || strings.HasPrefix(t, "/dev/") || strings.HasPrefix(t, "/proc/") {
		return false
	}
	_, written := c.a.writtenFile(f)
	return !written
}

// interp: interpreters with inline code options, stdin code or a script.
func (c *cmd) interp(lang string) {
	if lang == "python" {
		c.pythonArchive()
	}
	c.serverCommand() // python -m http.server, php -S, ruby -run -e httpd
	var o opts
	codeOpts := map[string]bool{}
	inplace := false
	switch lang {
	case "python":
		o = opts{short: "cmWXQ", posix: true}
		codeOpts["-c"] = true
	case "js":
		o = opts{short: "erpC", long: []string{"--eval", "--print", "--require", "--import", "--input-type", "--loader", "--experimental-loader", "--conditions", "--env-file", "--config"}, posix: true}
		codeOpts["-e"], codeOpts["--eval"], codeOpts["-p"], codeOpts["--print"] = true, true, true, true
	case "perl":
		// -0 and -l take attached digits and the cluster goes on (-0pi);
		// -i, -x, -C, -d, -D, -F an attached value only
		o = opts{short: "eEIMm", digits: "0l", attached: "iCdDxF", posix: true}
		codeOpts["-e"], codeOpts["-E"] = true, true
	case "ruby":
		o = opts{short: "eIrCE", digits: "0", attached: "iFKx", posix: true}
		codeOpts["-e"] = true
	case "php":
		o = opts{short: "rfBRFEcdz", posix: true}
		codeOpts["-r"], codeOpts["-B"], codeOpts["-R"], codeOpts["-E"] = true, true, true, true
	default:
		o = opts{short: "eElx", long: []string{"--eval"}, posix: true}
		codeOpts["-e"], codeOpts["-E"], codeOpts["--eval"] = true, true, true
		if strings.HasPrefix(lang, "unmodelled:") {
			o.short += "cf" // expect -c CMDS, -f FILE
			codeOpts["-c"] = true
		}
	}
	if lang == "js" && c.name != "deno" {
		c.nodeClusters()
	}
	if c.name == "deno" || c.name == "bun" {
		// deno eval CODE, deno run FILE, bun run FILE, bun -e CODE; bun's
		// flags that take no value (--no-env-file, --bun) and inline ones
		// (--env-file=F) may come before the subcommand
		s := 1
		for c.name == "bun" && s < len(c.args) {
			t := optText(c.args[s].f)
			if t != "--no-env-file" && t != "--bun" && t != "--smol" && t != "--silent" && t != "--hot" && t != "--watch" &&
				!(strings.HasPrefix(t, "--") && strings.Contains(t, "=")) {
				break
			}
			c.word(s)
			s++
		}
		if len(c.args) > s {
			sub := optText(c.args[s].f)
			if sub == "eval" && len(c.args) > s+1 {
				c.word(s)
				k := s + 1
				for k < len(c.args) && strings.HasPrefix(optText(c.args[k].f), "-") {
					c.word(k)
					k++
				}
				c.code(k, "js")
				return
			}
			if c.name == "bun" && sub == "x" {
				c.word(s)
				c.wrap(s + 1) // bun x PROGRAM: a wrapper
				return
			}
			if c.name == "bun" && sub == "exec" && len(c.args) > s+1 {
				c.word(s)
				c.script(s+1, c.in) // bun exec 'CMD': a shell command
				return
			}
			if sub == "run" || sub == "x" || sub == "test" || sub == "exec" {
				if c.name == "deno" {
					// deno's --env-file (and its old name --env) without a
					// value loads ./.env
					for _, w := range c.args[s+1:] {
						if t := optText(w.f); t == "--env-file" || t == "--env" {
							c.a.value(w.raw, litField(".env"), SetRead)
						}
					}
				}
				c.word(s)
				c.generic()
				return
			}
		}
	}
	p := c.parse(1, o)
	hasCode := false
	for _, v := range p.vals {
		switch {
		case codeOpts[v.name]:
			c.valCode(v, lang)
			hasCode = true
		case v.name == "-i" && lang == "perl":
			inplace = true
		case v.name == "-f" && (lang == "php" || strings.HasPrefix(lang, "unmodelled:")):
			c.valScriptFile(v, lang)
			hasCode = true
		case v.name == "-m" && lang == "python":
			c.valWord(v)
			hasCode = true
		case v.name == "--env-file":
			c.valFile(v, SetRead)
		case lang == "js" && (v.name == "-r" || v.name == "--require" || v.name == "--import" || v.name == "--loader" || v.name == "--experimental-loader"),
			lang == "ruby" && v.name == "-r":
			// a module loaded before the script: a path to a file the
			// command wrote, or a stream, is code
			c.valScriptFile(v, lang)
			if lang == "js" && dotenvPreload(c.valText(v)) {
				// node -r dotenv/config loads .env into process.env
				c.dotenvLoads(c.name+" "+v.name+" "+c.valText(v)+", which loads .env into the environment of the code it runs", false)
			}
		case lang == "php" && v.name == "-d":
			if t := c.valText(v); strings.HasPrefix(t, "auto_prepend_file=") || strings.HasPrefix(t, "auto_append_file=") {
				if f, ok := c.valField(v); ok {
					_, file, _ := strings.Cut(t, "=")
					ff := subField(f, len(t)-len(file))
					c.fileField(v.raw, ff, SetRead)
					if s, ok := c.scriptFrom(ff, v.raw, true); ok {
						c.runScript(v.raw, s, source{}, lang)
					}
				}
				if v.vi >= 0 {
					c.done[v.vi] = true
				}
				continue
			}
			c.valWord(v)
		case v.name == "-C" && lang == "ruby":
			if f, ok := c.valField(v); ok {
				c.valWord(v)
				c.a.chdir(f)
			}
		default:
			c.valWord(v)
		}
	}
	if lang == "perl" && (p.has("-i") || inplace) {
		inplace = true
	}
	if lang == "ruby" && p.has("-i") {
		inplace = true
	}
	ops := SetRead
	if inplace {
		ops |= setModify
	}
	// an interpreter that reads code or debugger commands from stdin
	// besides its script or module: python -i / -m code|pdb|asyncio, node
	// -i, perl -d, and code that starts a REPL or debugger
	if why := c.stdinREPL(lang, p); why != "" {
		if c.in.kind == srcText && !strings.ContainsRune(c.in.text, unknownRune) && lang != "perl" {
			c.runScript(c.args[0].raw, c.in, source{}, lang)
		} else if c.in.kind != srcNone || c.in.text != "" {
			c.a.unknown(c.args[0].raw, why+" reads code from stdin, which the analysis cannot read as "+lang, SetRead|setModify)
		}
	}
	if hasCode {
		if mods := p.values("-m"); lang == "python" && len(mods) > 0 {
			// a module the analysis does not read (json.tool IN OUT
			// writes OUT): what it is given may be written
			c.unmodelledFiles(p.operands, c.name+" -m "+c.valText(mods[0]))
			return
		}
		from := len(c.a.out.targets)
		for _, i := range p.operands {
			c.file(i, ops)
		}
		if inplace {
			// the reason says what -i does
			for k := from; k < len(c.a.out.targets); k++ {
				if t := &c.a.out.targets[k]; !t.pattern && !t.rec {
					t.raw = strings.TrimSpace(t.raw) + " (" + c.name + " -i edits it in place)"
				}
			}
		}
		return
	}
	if len(p.operands) == 0 {
		c.runScript(c.args[0].raw, c.in, source{}, lang)
		return
	}
	first := p.operands[0]
	f := c.args[first].f
	c.file(first, SetRead)
	if s, ok := c.scriptFrom(f, c.args[first].raw, true); ok {
		c.runScript(c.args[first].raw, s, source{}, lang)
	}
	c.scriptArgs(first, p.operands[1:])
	if scriptOnDisk(c, f) {
		// a script on the disk is a program the analysis does not read:
		// what it is given may be written
		c.unmodelledFiles(p.operands[1:], "the script "+f.text())
		return
	}
	for _, i := range p.operands[1:] {
		c.file(i, ops)
	}
}

// pythonArchive: `python -m zipfile -c ARCHIVE SRC…` and `-m tarfile -c`
// archive their sources recursively.
func (c *cmd) pythonArchive() {
	for k := 1; k+1 < len(c.args); k++ {
		if optText(c.args[k].f) != "-m" {
			continue
		}
		mod := optText(c.args[k+1].f)
		if mod != "zipfile" && mod != "tarfile" {
			return
		}
		for j := k + 2; j < len(c.args); j++ {
			if t := optText(c.args[j].f); t == "-c" || t == "--create" {
				c.done[j] = true
				for q := j + 2; q < len(c.args); q++ {
					c.rec(q, SetRead, true, nil, "python -m "+mod+" -c", followNone)
				}
				if j+1 < len(c.args) {
					c.file(j+1, setModify)
				}
				return
			}
			if t := optText(c.args[j].f); t == "-e" || t == "--extract" {
				// -e ARCHIVE [DIR]: every file below DIR (the cwd) written
				c.done[j] = true
				if j+1 < len(c.args) {
					c.file(j+1, SetRead)
				}
				if j+2 < len(c.args) {
					c.rec(j+2, setModify, true, nil, "python -m "+mod+" -e", followNone)
				} else {
					c.a.addRec(c.args[j].raw, litField("."), setModify, true, nil, "python -m "+mod+" -e", followNone)
				}
				return
			}
		}
		return
	}
}

// optValue returns the value of the option at args[i] spelt name: after
// its `=` (eq) or the next argument, which it marks done; next is the index
// the caller's loop continues from; ok is false when there is none.
func (c *cmd) optValue(i int, name string, eq bool) (f field, raw string, next int, ok bool) {
	c.done[i] = true
	if eq {
		return subField(c.args[i].f, len(name)+1), c.args[i].raw, i, true
	}
	if i+1 >= len(c.args) {
		return field{}, "", i, false
	}
	c.done[i+1] = true
	return c.args[i+1].f, c.args[i+1].raw, i + 1, true
}

// debugger: gdb -ex/-iex/--eval-command and lldb -o/-O/--one-line run
// debugger commands: `shell CMD`/`!CMD`/`pipe …|CMD` run a shell command,
// `python CODE` runs Python, -x/--command/-s FILE and `source FILE` read a
// file of commands.
func (c *cmd) debugger() {
	// gdb --cd=DIR and a `cd DIR` command move where later shell commands
	// run (gdb -ex 'cd ~' -ex 'shell cat .ssh/id_rsa'): the folders are the
	// command's candidates until the debugger is done
	defer c.a.pushDirs(nil)()
	for i := 1; i < len(c.args); i++ {
		name, _, eq := strings.Cut(optText(c.args[i].f), "=")
		switch name {
		case "--cd", "-cd":
			if f, _, next, ok := c.optValue(i, name, eq); ok {
				c.a.chdir(f)
				i = next
			}
			continue
		case "-ex", "--ex", "-iex", "--iex", "-eval-command", "--eval-command", "-o", "--one-line", "-O", "--one-line-before-file", "-k", "--one-line-on-crash":
		case "-x", "--command", "-command", "-s", "--source", "-source", "-ix", "--init-command":
			if f, raw, next, ok := c.optValue(i, name, eq); ok {
				c.fileField(raw, f, SetRead)
				i = next
			}
			continue
		default:
			continue
		}
		f, raw, next, ok := c.optValue(i, name, eq)
		i = next
		if !ok {
			continue
		}
		if f.pattern() {
			c.a.unknown(raw, "a debugger command computed when the command runs", SetRead|setModify)
			continue
		}
		c.debuggerCommand(strings.TrimSpace(f.s), raw)
	}
	// without -batch a debugger reads its commands from stdin too
	switch {
	case c.in.kind == srcText && !strings.ContainsRune(c.in.text, unknownRune):
		for line := range strings.SplitSeq(c.in.text, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				c.debuggerCommand(line, c.args[0].raw)
			}
		}
	case c.in.kind != srcNone || c.in.text != "":
		c.a.unknown(c.args[0].raw, c.name+" reads debugger commands from stdin, which the analysis cannot see (they may run shell commands)", SetRead|setModify)
	}
	c.finish()
}

// debuggerCommand reads one gdb/lldb command: shell escapes run, python
// is code, source reads a file, other words may name files.
func (c *cmd) debuggerCommand(cmdText, raw string) {
	word, rest, _ := strings.Cut(cmdText, " ")
	switch {
	case strings.HasPrefix(cmdText, "!"):
		c.a.script(cmdText[1:], raw, source{})
	case word == "shell" || word == "platform" || word == "pipe" || word == "|":
		if word == "pipe" || word == "|" {
			if _, sh, ok := strings.Cut(rest, "|"); ok {
				rest = sh
			}
		}
		c.a.script(strings.TrimPrefix(rest, "shell "), raw, source{})
	case word == "python" || word == "py" || word == "python-interactive" || word == "pi" || word == "script":
		c.a.codeText(rest, raw, "python")
	case word == "source":
		c.a.value(raw, litField(strings.TrimSpace(rest)), SetRead)
	case word == "cd":
		c.a.tokens(cmdText, SetRead)
		if d := strings.TrimSpace(rest); d != "" {
			c.a.chdir(litField(d))
		} else {
			c.a.chdir(c.a.homeField())
		}
	default:
		c.a.tokens(cmdText, SetRead)
	}
}

// powershell: -Command CODE…, -EncodedCommand BASE64, -File FILE, stdin.
func (c *cmd) powershell() {
	for i := 1; i < len(c.args); i++ {
		t := strings.ToLower(optText(c.args[i].f))
		switch {
		case t == "-c" || t == "-command" || t == "/c" || t == "-cmd":
			var parts []string
			raw := ""
			for k := i + 1; k < len(c.args); k++ {
				c.done[k] = true
				parts = append(parts, c.args[k].f.text())
				raw += c.args[k].raw + " "
				if c.args[k].f.unk || c.args[k].f.dyn {
					c.a.unknown(c.args[k].raw, "the PowerShell code is computed when the command runs", SetRead|setModify)
				}
			}
			c.done[i] = true
			c.a.codeText(strings.Join(parts, " "), strings.TrimSpace(raw), "pwsh")
			return
		case t == "-e" || t == "-ec" || strings.HasPrefix(t, "-enc"):
			c.done[i] = true
			if i+1 < len(c.args) {
				c.done[i+1] = true
				f := c.args[i+1].f
				if f.pattern() {
					c.a.unknown(c.args[i+1].raw, "the encoded PowerShell command is computed when the command runs", SetRead|setModify)
					return
				}
				if code, ok := decodeUTF16Base64(f.s); ok {
					c.a.codeText(code, c.args[i+1].raw, "pwsh")
				} else {
					c.a.unknown(c.args[i+1].raw, "an encoded PowerShell command that does not decode", SetRead|setModify)
				}
			}
			return
		case t == "-f" || t == "-file":
			c.done[i] = true
			c.file(i+1, SetRead)
			return
		case strings.HasPrefix(t, "-"):
			c.done[i] = true
			if t == "-executionpolicy" || t == "-ep" || t == "-windowstyle" || t == "-outputformat" || t == "-inputformat" || t == "-configurationname" || t == "-workingdirectory" || t == "-wd" {
				c.word(i + 1)
				i++
			}
		default:
			// a bare command: the rest is PowerShell code
			var parts []string
			for k := i; k < len(c.args); k++ {
				c.done[k] = true
				parts = append(parts, c.args[k].f.text())
			}
			c.a.codeText(strings.Join(parts, " "), c.args[i].raw, "pwsh")
			return
		}
	}
	c.runScript(c.args[0].raw, c.in, source{}, "pwsh")
}

// cmdExe: cmd /c COMMAND….
func (c *cmd) cmdExe() {
	for i := 1; i < len(c.args); i++ {
		t := strings.ToLower(optText(c.args[i].f))
		c.done[i] = true
		if t == "/c" || t == "/k" || t == "/r" {
			var parts []string
			for k := i + 1; k < len(c.args); k++ {
				c.done[k] = true
				parts = append(parts, c.args[k].f.text())
			}
			c.a.codeText(strings.Join(parts, " "), c.args[i].raw, "cmd")
			return
		}
	}
}

// awk: the program is the first operand unless -f; then files and var=value.
func (c *cmd) awk() {
	p := c.parse(1, opts{short: "fvFiEelo", long: []string{"--file", "--assign", "--field-separator", "--include", "--source", "--exec", "--load"}})
	prog := true
	inplace := false
	var progs, progRaws []string
	vars := map[string][]field{}
	assignVar := func(f field) {
		if t := optText(f); strings.Contains(t, "=") && !strings.HasPrefix(t, "=") {
			name, _, _ := strings.Cut(t, "=")
			vars[name] = append(vars[name], subField(f, len(name)+1))
		}
	}
	// program files (-f, -E, --include): their text, from the command or
	// the disk (progfiles.go)
	var files []progText
	for _, v := range p.vals {
		switch v.name {
		case "-e", "--source":
			if f, ok := c.valField(v); ok {
				progs, progRaws = append(progs, f.text()), append(progRaws, v.raw)
			}
		case "-v", "--assign":
			if f, ok := c.valField(v); ok {
				assignVar(f)
			}
		case "-f", "--file", "-E", "--exec":
			files = append(files, c.progFileTexts(v, "awk")...)
		case "-i", "--include":
			if c.valText(v) == "inplace" {
				inplace = true
			}
			files = append(files, c.awkIncludeTexts(v)...)
		case "-l", "--load":
			if f, ok := c.valField(v); ok && !f.pattern() {
				c.awkLoad(f.s, v.raw)
			} else if ok {
				c.a.unknown(v.raw, "gawk loads an extension named when the command runs, native code pruner cannot read", SetRead|setModify)
			}
		}
	}
	if prog {
		for _, v := range p.vals {
			if v.name == "-f" || v.name == "--file" || v.name == "-E" || v.name == "--exec" || v.name == "-e" || v.name == "--source" {
				prog = false
			}
		}
	}
	for k, i := range p.operands {
		if k == 0 && prog {
			progs, progRaws = append(progs, c.args[i].f.text()), append(progRaws, c.args[i].raw)
		} else {
			assignVar(c.args[i].f)
		}
	}
	// what the programs @include, then the files' texts
	inline := make([]progText, 0, len(progs))
	for k := range progs {
		inline = append(inline, progText{progs[k], progRaws[k]})
	}
	files = append(files, c.awkDirectives(append(inline, files...))...)
	for _, t := range files {
		progs, progRaws = append(progs, t.text), append(progRaws, t.raw)
	}
	writesOperands, suffixes := c.awkOutputs(progs, progRaws, vars)
	for _, t := range files {
		c.a.codeText(t.text, t.raw, "awk")
	}
	prog = true
	for _, v := range p.vals {
		switch v.name {
		case "-f", "--file", "-E", "--exec":
			prog = false
		case "-i", "--include":
		case "-e", "--source":
			c.valCode(v, "awk")
			prog = false
		default:
			c.valWord(v)
		}
	}
	ops := SetRead
	if inplace || writesOperands {
		ops |= setModify
	}
	for k, i := range p.operands {
		if k == 0 && prog {
			c.code(i, "awk")
			continue
		}
		if t := optText(c.args[i].f); strings.Contains(t, "=") && !strings.HasPrefix(t, "=") && !strings.Contains(t[:strings.Index(t, "=")], "/") {
			c.word(i)
			continue
		}
		c.awkSuffixed(i, suffixes)
		c.file(i, ops)
	}
}

// sed: the script is the first operand unless -e/-f; -i writes the files.
func (c *cmd) sed() {
	p := c.parse(1, opts{short: "efl", long: []string{"--expression", "--file", "--line-length", "--in-place"}})
	script := true
	inplace := p.has("-i", "--in-place")
	for _, v := range p.vals {
		switch v.name {
		case "-e", "--expression":
			c.valCode(v, "sed")
			script = false
		case "-f", "--file":
			for _, t := range c.progFileTexts(v, "sed") {
				c.a.codeText(t.text, t.raw, "sed")
			}
			script = false
		case "--in-place":
			inplace = true
			c.valWord(v)
		default:
			c.valWord(v)
		}
	}
	ops := SetRead
	if inplace {
		ops |= setModify
	}
	for k, i := range p.operands {
		if k == 0 && script {
			c.code(i, "sed")
			continue
		}
		c.file(i, ops)
	}
}

// grep: pattern (unless -e/-f), then files; -r/-R read folders.
func (c *cmd) grep() {
	s := &spec{opts: opts{short: "efmABCdDX", long: []string{"--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context", "--include", "--exclude", "--exclude-dir", "--exclude-from", "--color", "--colour", "--directories", "--devices", "--label", "--binary-files", "--group-separator"}},
		files:   map[string]OpSet{"-f": SetRead, "--file": SetRead, "--exclude-from": SetRead},
		filters: []string{"--include"}, skip: 1, noSkip: []string{"-e", "--regexp", "-f", "--file"},
		patterns: []string{"--exclude", "--exclude-dir"},
		rec:      []string{"-r", "-R", "--recursive", "--dereference-recursive"}, dflt: true,
		follows: []string{"-R", "--dereference-recursive"}}
	if c.name == "zgrep" || c.name == "zegrep" || c.name == "zfgrep" {
		s.rec = nil
	}
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		if t == "-drecurse" || t == "--directories=recurse" || (t == "-d" && i+1 < len(c.args) && optText(c.args[i+1].f) == "recurse") {
			s.recAll = true
		}
	}
	n := len(c.a.out.targets)
	c.excludeFrom(n, c.grepExcludes(c.runSpec(s, 1)))
}

// rg: recursive by default; hidden files only with --hidden or -uu.
func (c *cmd) rg() {
	s := &spec{opts: opts{short: "efgtTmABCjMrEdM", long: []string{"--regexp", "--file", "--glob", "--iglob", "--type", "--type-not", "--max-count", "--after-context", "--before-context", "--context", "--threads", "--max-columns", "--replace", "--encoding", "--max-depth", "--pre", "--pre-glob", "--type-add", "--color", "--colors", "--sort", "--sortr", "--ignore-file", "--max-filesize", "--path-separator", "--context-separator", "--field-match-separator", "--engine", "--dfa-size-limit", "--regex-size-limit"}},
		files:   map[string]OpSet{"-f": SetRead, "--file": SetRead, "--ignore-file": SetRead},
		scripts: []string{"--pre"},
		filters: []string{"-g", "--glob", "--iglob"}, skip: 1, noSkip: []string{"-e", "--regexp", "-f", "--file", "--files", "--type-list"},
		recAll: true, dflt: true, hideDots: true, hidden: []string{"--hidden", "-."},
		follows: []string{"-L", "--follow"}}
	// -uu (or -u -u, --unrestricted twice) searches hidden files too
	us := 0
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		switch {
		case t == "--unrestricted":
			us++
		case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--"):
			us += strings.Count(t, "u")
		}
	}
	if us >= 2 || c.a.rgConfig || c.a.env.RipgrepConfig {
		s.hidden = append(s.hidden, "-u", "--unrestricted")
	}
	if c.a.rgConfig || c.a.env.RipgrepConfig {
		// a config file may add --hidden: every spelling is hidden
		s.hideDots = false
	}
	n := len(c.a.out.targets)
	p := c.runSpec(s, 1)
	if !c.a.rgConfig && !c.a.env.RipgrepConfig { // a config file may add globs
		c.excludeFrom(n, c.rgExcludes(p))
	}
}

// searcher: ag, ack and similar recursive searchers.
func (c *cmd) searcher() {
	s := &spec{opts: opts{short: "GgmABCfp", long: []string{"--file-search-regex", "--max-count", "--after", "--before", "--context", "--ignore", "--ignore-dir", "--path-to-ignore", "--depth", "--pager"}},
		files: map[string]OpSet{"-p": SetRead, "--path-to-ignore": SetRead}, skip: 1,
		recAll: true, dflt: true, hideDots: true, hidden: []string{"--hidden", "-u", "--unrestricted", "-a", "--all-types", "-uu"},
		follows: []string{"-f", "--follow"}}
	c.runSpec(s, 1)
}

// tar: create (reads sources), extract (writes under -C), list.
func (c *cmd) tar() {
	mode := byte(0)
	i := 1
	// old-style bundled first argument: `tar czf out.tgz src`
	if len(c.args) > 1 {
		t := optText(c.args[1].f)
		if !strings.HasPrefix(t, "-") && len(t) > 0 && strings.Trim(t, "cxtrudAzjJvfpPkKhOwmWSGC") == "" {
			c.args[1].f = litField("-" + t)
		}
	}
	p := c.parse(1, opts{short: "fCTXbIHLVgKNF", long: []string{"--file", "--directory", "--files-from", "--exclude-from", "--exclude", "--use-compress-program", "--to-command", "--checkpoint-action", "--format", "--owner", "--group", "--mode", "--transform", "--xform", "--label", "--newer", "--after-date", "--listed-incremental", "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command", "--blocking-factor", "--record-size", "--index-file", "--suffix", "--backup", "--add-file"}})
	for _, f := range []string{"-c", "--create"} {
		if p.flags[f] {
			mode = 'c'
		}
	}
	for _, f := range []string{"-x", "--extract", "--get"} {
		if p.flags[f] {
			mode = 'x'
		}
	}
	for _, f := range []string{"-r", "--append", "-u", "--update", "-A", "--concatenate", "--catenate"} {
		if p.flags[f] {
			mode = 'c'
		}
	}
	for _, f := range []string{"-t", "--list", "-d", "--diff", "--compare"} {
		if p.flags[f] && mode == 0 {
			mode = 't'
		}
	}
	dir := litField(".")
	var dirs []field // every -C: GNU tar's -C is positional (-C ~ a -C /tmp b)
	stdinList := false
	var addFiles []optHit
	for _, v := range p.vals {
		switch v.name {
		case "-f", "--file":
			ops := SetRead
			if mode == 'c' {
				ops = setModify
			}
			c.valFile(v, ops)
		case "-C", "--directory":
			if f, ok := c.valField(v); ok {
				c.valWord(v)
				dir = f
				dirs = append(dirs, f)
			}
		case "-T", "--files-from":
			if c.valText(v) == "-" {
				stdinList = true
				continue
			}
			c.valFile(v, SetRead)
			if mode == 'c' {
				c.a.unknown(v.raw, "tar archives the files named in a list the analysis cannot see", SetRead)
			}
		case "--exclude":
			c.patternValue(v) // a name pattern, not opened
		case "--add-file":
			addFiles = append(addFiles, v) // an operand, even one starting with -
		case "-X", "--exclude-from", "--listed-incremental", "--index-file":
			c.valFile(v, SetRead)
		case "--to-command":
			// runs for each member, the member's content on its stdin
			if f, ok := c.valField(v); ok {
				c.scriptField(v.raw, f, dynSource("a member tar extracts"))
			}
			if v.vi >= 0 {
				c.done[v.vi] = true
			}
		case "-I", "--use-compress-program", "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command", "-F":
			c.valScript(v)
		case "--checkpoint-action":
			if t := c.valText(v); strings.HasPrefix(t, "exec=") {
				f, _ := c.valField(v)
				c.scriptField(v.raw, subField(f, 5), source{})
			} else if t == "" {
				c.a.unknown(v.raw, "a tar checkpoint action computed when the command runs", SetRead|setModify)
			}
		default:
			c.valWord(v)
		}
	}
	// several -C, or one computed when the command runs: a relative name
	// may be below any of them (or the cwd)
	manyDirs := len(dirs) > 1 || len(dirs) == 1 && dirs[0].pattern()
	if stdinList {
		// tar -T - reads names, and options such as -C DIR, from stdin;
		// the names are below the -C folders
		if c.in.kind == srcText {
			for line := range strings.FieldsFuncSeq(c.in.text, func(r rune) bool { return r == '\n' || r == 0 }) {
				if strings.HasPrefix(strings.TrimSpace(line), "-") {
					c.a.unknown(c.args[0].raw, "tar -T - reads options (-C DIR) from its list of names", SetRead)
					break
				}
			}
		}
		c.a.inDirs(dirs, func() { c.stdinNames(SetRead, "tar -T -") })
	}
	switch mode {
	case 'c':
		follow := followNone
		if p.has("-h", "--dereference") {
			follow = followAll
		}
		for _, v := range addFiles {
			if f, ok := c.valField(v); ok {
				c.valWord(v)
				n := len(c.a.out.targets)
				c.a.addRec(v.raw, f, SetRead, true, nil, "tar --add-file", follow)
				c.excludeFrom(n, c.tarExcludes(p, v.oi))
			}
		}
		for _, i := range p.operands {
			// GNU tar's --exclude is positional: it applies to the names after it
			defer c.excludeFrom(len(c.a.out.targets), c.tarExcludes(p, i))
			f := c.args[i].f
			if manyDirs && !isAbsNorm(f.s) {
				c.a.inDirs(dirs, func() { c.rec(i, SetRead, true, nil, "tar -c", follow) })
				continue
			}
			if t := dir.text(); t != "." && !dir.pattern() && !f.pattern() && !isAbsNorm(f.s) {
				// -C DIR: the names are below DIR
				c.done[i] = true
				c.a.value(c.args[i].raw, f, SetRead)
				j := litField(path.Join(t, f.s))
				if strings.HasPrefix(t, "/dev/") || strings.HasPrefix(t, "/proc/") {
					// not cleaned: /dev/fd/.. is /proc/self (see procSpelling)
					j = litField(strings.TrimSuffix(t, "/") + "/" + f.s)
				}
				c.a.value(c.args[i].raw, j, SetRead)
				c.a.addRec(c.args[i].raw, j, SetRead, true, nil, "tar -c", follow)
				continue
			}
			c.rec(i, SetRead, true, nil, "tar -c", follow)
		}
	case 'x':
		if p.has("-O", "--to-stdout", "--to-command") {
			// members go to stdout (or a command), not to files: the
			// operands are member names
			for _, i := range p.operands {
				c.word(i)
			}
			c.out = &source{kind: srcDyn, why: "the members tar prints"}
			break
		}
		if c.tarExtractNames(p, dirs, dir) {
			break
		}
		if manyDirs {
			// members written below any of the -C folders
			if len(p.operands) == 0 {
				for _, d := range dirs {
					c.a.addRec(".", d, setModify, true, nil, "tar -x", followNone)
				}
			}
			c.a.inDirs(dirs, func() {
				for _, i := range p.operands {
					c.done[i] = true
					c.fileField(c.args[i].raw, c.args[i].f, setModify)
				}
			})
			break
		}
		if len(p.operands) == 0 {
			c.a.addRec(".", dir, setModify, true, nil, "tar -x", followNone)
		}
		for _, i := range p.operands {
			// a member name: written under dir
			c.done[i] = true
			f := c.args[i].f
			m := f
			if !f.pattern() {
				m = litField(path.Join(dir.text(), f.s))
			}
			c.fileField(c.args[i].raw, m, setModify)
			c.a.value(c.args[i].raw, f, SetRead)
		}
	default:
		for _, i := range p.operands {
			c.word(i)
		}
	}
	_ = i
}

// zip OUT FILES…: reads the files (recursively with -r), writes OUT.
func (c *cmd) zip() {
	// -T (test) takes no value; -TT CMD does (below)
	p := c.parse(1, opts{short: "xiIbnOPtZsAeUDGQ", long: []string{"--exclude", "--include", "--out", "--password", "--temp-path", "--unzip-command", "--suffixes", "--split-size", "--compression-method"}})
	for _, v := range p.vals {
		switch v.name {
		case "-O", "--out":
			c.valFile(v, setModify)
		case "-TT", "--unzip-command":
			c.valScript(v)
		case "-x", "--exclude":
			// handled by zipExcludes
		default:
			c.valWord(v)
		}
	}
	ex, exArgs := c.zipExcludes(p)
	for i := 1; i < len(c.args); i++ {
		if t := optText(c.args[i].f); t == "-TT" && i+1 < len(c.args) {
			c.script(i+1, source{})
		}
	}
	rec := p.has("-r", "--recurse-paths")
	if p.has("-R", "--recurse-patterns") {
		// -R: the operands are patterns matched against every file below
		// the current folder (a `*` matches hidden names)
		var filter []string
		for k, i := range p.operands {
			if k == 0 {
				continue
			}
			f := c.args[i].f
			c.word(i)
			if f.onlyUnk || f.unk || f.dyn {
				filter = nil
				break
			}
			filter = append(filter, f.text())
		}
		if len(filter) == 0 {
			filter = nil
		}
		c.recCwd(SetRead, true, filter, "zip -R", followAll)
	}
	if p.has("-@", "--names-stdin") {
		c.a.unknown(c.args[0].raw, "zip archives files named on stdin", SetRead)
	}
	for k, i := range p.operands {
		if exArgs[i] {
			continue
		}
		if k == 0 {
			c.file(i, SetRead|setModify)
			continue
		}
		if rec {
			follow := followAll
			if p.has("-y", "--symlinks") {
				follow = followNone
			}
			n := len(c.a.out.targets)
			c.rec(i, SetRead, true, nil, "zip -r", follow)
			if t := c.args[i].f; !t.pattern() && (t.s == "." || t.s == "./") {
				c.excludeFrom(n, ex) // names are stored as found below .
			}
		} else {
			c.file(i, SetRead)
		}
	}
}

// extract: unzip, 7z, cpio, ar: extraction writes under a folder.
func (c *cmd) extract() {
	switch c.name {
	case "unzip", "unrar":
		p := c.parse(1, opts{short: "dxP", long: nil})
		dir := litField(".")
		for _, v := range p.vals {
			if v.name == "-d" {
				if f, ok := c.valField(v); ok {
					dir = f
				}
			}
			c.valWord(v)
		}
		toStdout := p.has("-p", "-c", "-l", "-t", "-v", "-Z", "-z")
		for k, i := range p.operands {
			if k == 0 {
				c.file(i, SetRead)
				continue
			}
			c.word(i)
			if !toStdout {
				f := c.args[i].f
				if !f.pattern() {
					c.fileField(c.args[i].raw, litField(path.Join(dir.text(), f.s)), setModify)
				}
			}
		}
		if !toStdout && len(p.operands) <= 1 {
			c.a.addRec(".", dir, setModify, true, nil, c.name, followNone)
		}
		if !toStdout {
			c.unzipNames(p, dir)
		}
	case "7z", "7za", "7zr":
		if len(c.args) < 2 {
			return
		}
		sub := optText(c.args[1].f)
		c.word(1)
		dir := litField(".")
		var rest []int
		for i := 2; i < len(c.args); i++ {
			t := optText(c.args[i].f)
			if strings.HasPrefix(t, "-o") {
				c.done[i] = true
				dir = subField(c.args[i].f, 2)
				continue
			}
			if strings.HasPrefix(t, "-") {
				c.word(i)
				continue
			}
			rest = append(rest, i)
		}
		switch sub {
		case "x", "e":
			for _, i := range rest {
				c.file(i, SetRead)
			}
			c.a.addRec(".", dir, setModify, true, nil, "7z x", followNone)
		case "a", "u":
			for k, i := range rest {
				if k == 0 {
					c.file(i, setModify)
				} else if f := c.args[i].f; !f.pattern() && strings.ContainsAny(f.s, "*?") {
					// 7z expands its own wildcards, hidden names included
					c.word(i)
					c.recCwd(SetRead, true, []string{f.s}, "7z a", followAll)
				} else {
					c.rec(i, SetRead, true, nil, "7z a", followAll)
				}
			}
		default:
			for _, i := range rest {
				c.word(i)
			}
		}
	case "cpio", "bsdcpio", "pax":
		p := c.parse(1, opts{short: "DFEHIORM", long: []string{"--directory", "--file", "--pattern-file", "--format", "--rsh-command"}})
		dir := litField(".")
		for _, v := range p.vals {
			if v.name == "-D" || v.name == "--directory" {
				if f, ok := c.valField(v); ok {
					dir = f
				}
			}
			c.valWord(v)
		}
		switch {
		case p.has("-i", "--extract", "-r"):
			c.a.addRec(".", dir, setModify, true, nil, c.name+" -i", followNone)
		case p.has("-o", "--create", "-w", "-p", "--pass-through"):
			// the names on stdin are below -D DIR; -p copies them into
			// the folder it is given
			ops := SetRead
			if p.has("-p", "--pass-through") && p.has("-l", "--link") {
				ops |= setModify // cpio -pl links the names it is given (links.go)
			}
			c.a.inDirs([]field{dir}, func() { c.stdinNames(ops, c.name+" -o") })
			if p.has("-p", "--pass-through") {
				for _, i := range p.operands {
					c.done[i] = true
					c.a.addRec(c.args[i].raw, c.args[i].f, setModify, true, nil, c.name+" -p", followNone)
				}
			}
		}
		for _, i := range p.operands {
			c.word(i)
		}
	case "ar":
		if len(c.args) > 1 {
			t := optText(c.args[1].f)
			c.word(1)
			for i := 2; i < len(c.args); i++ {
				c.file(i, SetRead)
			}
			if strings.Contains(t, "x") {
				c.recCwd(setModify, true, nil, "ar x", followNone)
			}
		}
	}
}

// stdinNames checks the file names a command reads from stdin (cpio -o,
// rsync --files-from=-, tar -T -).
func (c *cmd) stdinNames(ops OpSet, via string) {
	switch c.in.kind {
	case srcText:
		if strings.ContainsRune(c.in.text, unknownRune) {
			c.a.unknown(c.args[0].raw, via+" reads file names computed when the command runs", ops)
		}
		c.a.tokens(c.in.text, ops)
	case srcNames:
		for _, n := range c.in.names {
			c.a.addRec("(names from stdin)", n, ops, true, nil, via, followNone)
		}
	case srcFile, srcDyn:
		c.a.unknown(c.args[0].raw, via+" reads file names from stdin, which the analysis cannot see", ops)
	}
}

// copyDest: `cp -r SRC DST` writes SRC's names under DST.
func (c *cmd) copyDest() {
	rec := false
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		if t == "-r" || t == "-R" || t == "-a" || t == "--recursive" || t == "--archive" || (strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t, "rRa")) {
			rec = true
		}
	}
	if !rec {
		return
	}
	// the last operand (or -t DIR) receives names the analysis does not list
	last := -1
	for i := len(c.args) - 1; i > 0; i-- {
		if t := optText(c.args[i].f); !strings.HasPrefix(t, "-") {
			last = i
			break
		}
	}
	if last > 1 {
		c.a.addRec(c.args[last].raw, c.args[last].f, setModify, true, nil, "cp -r", followNone)
	}
}

// ln: links give write access to their targets; later words through the
// link reach the target.
func (c *cmd) ln() {
	p := c.parse(1, opts{short: "tS", long: []string{"--target-directory", "--suffix", "--backup"}})
	dirOpt := -1
	for _, v := range p.values("-t", "--target-directory") {
		c.valFile(v, setModify)
		if v.vi >= 0 {
			dirOpt = v.vi
		}
	}
	ops := p.operands
	if len(ops) == 0 {
		return
	}
	targets, link := ops, -1
	if dirOpt < 0 && len(ops) >= 2 {
		targets, link = ops[:len(ops)-1], ops[len(ops)-1]
	}
	for _, i := range targets {
		c.file(i, SetRead|setModify)
	}
	if link < 0 {
		return
	}
	c.file(link, setModify)
	lf := c.args[link].f
	if len(targets) != 1 {
		return
	}
	tf := c.args[targets[0]].f
	if lf.pattern() {
		// a link whose name is computed when it runs ($d/l after d=$(mktemp
		// -d)): a recursion of a computed folder may be through it
		if !tf.pattern() {
			lp, _ := c.a.norm(lf.s, true)
			to := tf.s
			if p.has("-s", "--symbolic") && !isAbsNorm(to) {
				to = path.Join(path.Dir(lp), to)
			}
			tp, _ := c.a.norm(to, false)
			c.a.links[lp] = tp
		}
		return
	}
	lp, _ := c.a.norm(lf.s, false)
	if tf.pattern() {
		// a target computed when it runs: a process's working folder
		// (/proc/$$/cwd) is the shell's, anything else may be any folder
		if pid, view, rest, ok := procView(tf.s); ok && view == "cwd" && (pid == "self" || pid == "thread-self" || strings.ContainsRune(pid, unknownRune)) && !strings.ContainsRune(rest, unknownRune) {
			tp, _ := joinOrNorm(c.a, c.a.cwd(), "./"+rest)
			c.a.links[lp] = tp
		} else if tf.glob && !tf.unk && !tf.dyn {
			// a glob: the link is to one of its matches (`ln -s .p* l`)
			to := tf.s
			if p.has("-s", "--symbolic") && !isAbsNorm(to) {
				to = escapeGlob(path.Dir(lp)) + "/" + to
			}
			tp, _ := c.a.norm(to, true)
			c.a.links[lp] = tp
		} else {
			c.a.links[lp] = "/" + unknownSeg
		}
		return
	}
	to := tf.s
	if p.has("-s", "--symbolic") && !isAbsNorm(to) {
		to = path.Join(path.Dir(lp), to) // relative to the link's folder
	}
	tp, _ := c.a.norm(to, false)
	c.a.links[lp] = tp
}

// rsync: sources read (recursively with -r/-a), the destination written.
func (c *cmd) rsync() {
	s := &spec{opts: opts{short: "eBfTM", long: []string{"--rsh", "--filter", "--exclude", "--include", "--files-from", "--exclude-from", "--include-from", "--temp-dir", "--log-file", "--password-file", "--rsync-path", "--chmod", "--chown", "--backup-dir", "--compare-dest", "--copy-dest", "--link-dest", "--partial-dir", "--suffix", "--bwlimit", "--timeout", "--port", "--max-size", "--min-size", "--out-format", "--log-file-format", "--write-batch", "--read-batch", "--only-write-batch", "--info", "--debug", "--usermap", "--groupmap", "--sockopts", "--outbuf", "--remote-option"}},
		files:   map[string]OpSet{"--files-from": SetRead, "--exclude-from": SetRead, "--include-from": SetRead, "--log-file": setModify, "--password-file": SetRead, "--write-batch": setModify, "--only-write-batch": setModify, "--read-batch": SetRead},
		scripts: []string{"-e", "--rsh", "--rsync-path"}, patterns: []string{"--exclude", "--include", "--filter"},
		last: setModify, rec: []string{"-r", "-a", "--recursive", "--archive", "-d", "--dirs"}, recOps: SetRead,
		follows: []string{"-L", "--copy-links", "--copy-unsafe-links", "-k", "--copy-dirlinks"}}
	for i := 1; i < len(c.args); i++ {
		if t := optText(c.args[i].f); t == "--files-from=-" || t == "--files-from" && i+1 < len(c.args) && optText(c.args[i+1].f) == "-" {
			// the names are below the source folders (every operand but
			// the last)
			var srcs []field
			for k := 1; k < len(c.args); k++ {
				if u := optText(c.args[k].f); !strings.HasPrefix(u, "-") && (k == 1 || optText(c.args[k-1].f) != "--files-from") {
					srcs = append(srcs, c.args[k].f)
				}
			}
			var dest []field
			if len(srcs) > 0 {
				dest = []field{localPart(srcs[len(srcs)-1])}
				srcs = srcs[:len(srcs)-1]
			}
			c.a.inDirs(srcs, func() { c.stdinNames(SetRead, "rsync --files-from=-") })
			// each name is written below the destination under its path
			// as given (--files-from implies -R): `echo
			// .pi/settings.json | rsync --files-from=- /tmp/evil/ .`
			if len(dest) == 1 && !dest[0].onlyUnk && dest[0].s != "" {
				c.a.inDirs(dest, func() { c.stdinNames(setModify, "rsync --files-from=- (writes each name below the destination)") })
			} else if len(dest) == 1 {
				c.a.unknown(c.args[0].raw, "rsync --files-from=- writes the names it reads below a destination named when the command runs", setModify)
			}
		} else if strings.HasPrefix(t, "--files-from=") || t == "--files-from" {
			c.a.unknown(c.args[i].raw, "rsync copies the files named in a list the analysis cannot see", SetRead)
		}
	}
	n := len(c.a.out.targets)
	p := c.runSpec(s, 1)
	c.rsyncLinkDest(p)
	for _, v := range p.values("--backup-dir", "--temp-dir", "-T", "--partial-dir") {
		// folders rsync writes into: the backups of the files it replaces
		// (under their paths), its temporary and partial files (pass 36)
		if f, ok := c.valField(v); ok {
			c.valWord(v)
			if f.onlyUnk {
				c.a.unknown(v.raw, "rsync "+v.name+" writes into a folder named when the command runs", setModify)
				continue
			}
			c.a.addRec(v.raw, f, setModify, true, nil, "rsync "+v.name+" (writes into it)", followNone)
			// a relative one is the receiver's: below the destination
			// (and the folder of a file destination)
			if len(p.operands) > 1 && !f.pattern() && !strings.HasPrefix(f.s, "/") && !strings.HasPrefix(f.s, "~") {
				d := localPart(c.args[p.operands[len(p.operands)-1]].f)
				if !d.onlyUnk && d.s != "" {
					for _, base := range []field{d, parentField(d)} {
						c.a.addRec(v.raw+" (below the destination)", joinBase(base, f), setModify, true, nil, "rsync "+v.name+" (writes into it)", followNone)
					}
				}
			}
		}
	}
	c.excludeFrom(n, c.rsyncExcludes(p))
	for _, v := range p.values("--filter", "-f") {
		// merge/dir-merge/. FILE, : FILE read filter rules from FILE
		t := c.valText(v)
		for _, pre := range []string{"merge ", "dir-merge ", ". ", ": ", "merge,", "dir-merge,", ".,", ":,"} {
			if strings.HasPrefix(t, pre) {
				name := strings.TrimSpace(t[len(pre):])
				if j := strings.IndexAny(name, " "); j >= 0 && strings.HasPrefix(pre, "merge,") {
					name = name[j+1:]
				}
				c.fileField(v.raw, litField(name), SetRead)
			}
		}
		if t == "" {
			c.a.unknown(v.raw, "an rsync filter rule computed when the command runs", SetRead)
		}
	}
	if p.has("-r", "-a", "--recursive", "--archive", "-d", "--dirs") && len(p.operands) > 1 {
		last := p.operands[len(p.operands)-1]
		c.a.addRec(c.args[last].raw, c.args[last].f, setModify, true, nil, "rsync -r", followNone)
	} else {
		c.placed(s.opts, false, "rsync", false) // rsync FILE DIR/ writes DIR/FILE
	}
}

// patch writes the file named on its command line or, without one, the
// files named inside the patch.

// patchText returns a patch's text when the analysis knows it: text on a
// stream, or a file the command wrote with known text.
func (c *cmd) patchText(s source) (string, bool) {
	switch s.kind {
	case srcText:
		return s.text, !strings.ContainsRune(s.text, unknownRune)
	case srcFile:
		if w, ok := c.a.writtenFile(litField(s.file)); ok && w.kind == srcText {
			return w.text, !strings.ContainsRune(w.text, unknownRune)
		}
	}
	return "", false
}
func (c *cmd) patch() {
	p := c.parse(1, opts{short: "ioBdDFprVYzg", long: []string{"--input", "--output", "--prefix", "--directory", "--ifdef", "--fuzz", "--strip", "--reject-file", "--version-control", "--basename-prefix", "--suffix", "--get", "--quoting-style", "--backup-if-mismatch"}})
	in := c.in
	dry := p.has("--dry-run", "-C", "--check")
	for _, v := range p.vals {
		switch v.name {
		case "-i", "--input":
			c.valFile(v, SetRead)
			in = dynSource("a patch file")
			if f, ok := c.valField(v); ok {
				if s, ok := c.scriptFrom(f, v.raw, true); ok {
					in = s // written in the command, or a stream
				}
			}
		case "-o", "--output", "-r", "--reject-file":
			c.valFile(v, setModify)
		case "-d", "--directory":
			if f, ok := c.valField(v); ok {
				c.valWord(v)
				c.a.chdir(f)
			}
		default:
			c.valWord(v)
		}
	}
	ops := setModify
	if dry {
		ops = SetRead
	}
	if len(p.operands) > 0 {
		c.file(p.operands[0], SetRead|ops)
		if len(p.operands) > 1 {
			c.file(p.operands[1], SetRead)
		}
		return
	}
	if dry {
		return
	}
	if text, ok := c.patchText(in); ok {
		for _, name := range patchFiles(text) {
			c.a.value("(patch)", litField(name), ops)
		}
		return
	}
	c.a.addRec(".", litField("."), setModify, true, nil, "patch (files named inside the patch)", followNone)
}

// patchFiles returns the files a unified diff or apply_patch text names.
func patchFiles(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		for _, pre := range []string{"--- ", "+++ ", "*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: ", "rename from ", "rename to ", "copy from ", "copy to "} {
			if rest, ok := strings.CutPrefix(line, pre); ok {
				rest, _, _ = strings.Cut(rest, "\t")
				rest = strings.TrimSpace(rest)
				if rest == "" || rest == "/dev/null" {
					continue
				}
				out = append(out, rest)
				// a/ and b/ prefixes of git diffs
				if strings.HasPrefix(rest, "a/") || strings.HasPrefix(rest, "b/") {
					out = append(out, rest[2:])
				}
			}
		}
		if rest, ok := strings.CutPrefix(line, "diff --git "); ok {
			for f := range strings.FieldsSeq(rest) {
				out = append(out, f)
				if strings.HasPrefix(f, "a/") || strings.HasPrefix(f, "b/") {
					out = append(out, f[2:])
				}
			}
		}
	}
	return out
}

// git: -C DIR moves; -c key=value may set a command; a few subcommands write
// files named inside a patch or delete untracked files.
func (c *cmd) git() {
	i := 1
	var workTrees []field
	aliases := map[string]string{} // -c alias.NAME=VALUE (no `!`)
	for i < len(c.args) {
		t := optText(c.args[i].f)
		switch {
		case t == "-C":
			c.done[i] = true
			if i+1 < len(c.args) {
				c.word(i + 1)
				c.a.chdir(c.args[i+1].f)
			}
			i += 2
			continue
		case t == "-c":
			c.done[i] = true
			if i+1 < len(c.args) {
				c.gitConfigValue(i + 1)
				if k, v, ok := strings.Cut(optText(c.args[i+1].f), "="); ok && strings.HasPrefix(strings.ToLower(k), "alias.") && !strings.HasPrefix(strings.TrimSpace(v), "!") {
					aliases[strings.ToLower(k[len("alias."):])] = v
				}
				if kv := strings.ToLower(optText(c.args[i+1].f)); strings.HasPrefix(kv, "core.worktree=") {
					workTrees = append(workTrees, subField(c.args[i+1].f, len("core.worktree=")))
					c.a.ignoresMayChange = true
				} else if strings.HasPrefix(kv, "core.hookspath=") {
					// hooks the command wrote into that folder run
					_, v, _ := strings.Cut(optText(c.args[i+1].f), "=")
					c.a.writtenScripts(c.args[i+1].raw, v)
				} else if k, _, _ := strings.Cut(kv, "="); k == "include.path" || strings.HasPrefix(k, "includeif.") {
					// the file's keys run in this command (pass 33)
					if eq := strings.IndexByte(c.args[i+1].f.s, '='); eq >= 0 {
						c.a.gitConfigSource(c.args[i+1].raw, subField(c.args[i+1].f, eq+1), "git -c "+k)
					}
				}
			}
			i += 2
			continue
		case t == "--config-env" || strings.HasPrefix(t, "--config-env="):
			// --config-env=KEY=VAR: KEY's value is $VAR
			c.done[i] = true
			spec := strings.TrimPrefix(t, "--config-env=")
			if t == "--config-env" {
				i++
				spec = ""
				if i < len(c.args) {
					c.done[i] = true
					spec = optText(c.args[i].f)
				}
			}
			if key, v, ok := strings.Cut(spec, "="); !ok || gitCommandKey(key) {
				if val, known := c.a.vars[v]; known && val.known && (strings.EqualFold(key, "include.path") || strings.HasPrefix(strings.ToLower(key), "includeif.")) {
					c.a.gitConfigSource(c.args[i].raw, val.f, "git --config-env "+key)
				} else if known && val.known {
					c.a.script(val.f.s, c.args[i].raw, source{})
				} else {
					c.a.unknown(c.args[i].raw, "git takes a command for "+key+" from $"+v+", which the analysis cannot see", SetRead|setModify)
				}
			}
			i++
			continue
		case t == "--work-tree" || strings.HasPrefix(t, "--work-tree=") || t == "--git-dir" || strings.HasPrefix(t, "--git-dir="):
			// git on another repository or work tree: add -A, stash -u and
			// clean reach that folder, and its ignores are not the cwd's
			name, _, eq := strings.Cut(t, "=")
			f, raw, next, _ := c.optValue(i, name, eq)
			i = next
			c.fileField(raw, f, SetRead)
			c.a.ignoresMayChange = true
			if name == "--work-tree" {
				workTrees = append(workTrees, f)
			} else {
				// git writes its repository (init creates it, add and
				// status write the index, fetch the refs)
				c.fileField(raw, f, setModify)
			}
			i++
			continue
		case t == "--namespace" || t == "--exec-path" || t == "--super-prefix":
			c.done[i] = true
			c.file(i+1, SetRead)
			i += 2
			continue
		case strings.HasPrefix(t, "--exec-path="):
			c.done[i] = true
			name, _, _ := strings.Cut(t, "=")
			c.fileField(c.args[i].raw, subField(c.args[i].f, len(name)+1), SetRead)
			i++
			continue
		case strings.HasPrefix(t, "-"):
			c.done[i] = true
			i++
			continue
		}
		break
	}
	if i >= len(c.args) {
		return
	}
	sub := optText(c.args[i].f)
	c.word(i)
	if v, ok := aliases[strings.ToLower(sub)]; ok {
		// an alias this command sets: git runs `git VALUE ARGS…`, read as
		// that command (pass 33: `git -c alias.co=merge co evil`)
		if c.args[i].f.pattern() || strings.ContainsAny(v, "$`") {
			c.a.unknown(c.args[i].raw, "git runs an alias whose command is computed when it runs", SetRead|setModify)
		} else {
			line := "git " + v
			for _, ar := range c.args[i+1:] {
				line += " " + ar.raw
			}
			c.a.script(line, c.args[i].raw, source{})
		}
	} else {
		c.gitDiskAlias(sub, i)
	}
	gitExpandAbbrev(c.args[i+1:])
	rest := c.args[i+1:]
	c.gitOutputs(sub, i)
	// the folders git add -A, stash -u and clean reach: the cwd's work tree
	// and any other one the command names
	roots := append([]field{litField(".")}, workTrees...)
	roots = append(roots, c.a.gitWorkTrees...)
	recRoots := func(ops OpSet, ignores bool, via string) {
		for _, r := range roots {
			c.a.addRecVCS(r.s, r, ops, ignores, via)
		}
	}
	has := func(flags ...string) bool {
		for _, ar := range rest {
			t := optText(ar.f)
			for _, f := range flags {
				if t == f {
					return true
				}
			}
		}
		return false
	}
	c.gitArgs(sub, i, workTrees)
	c.gitCreates(sub, i)
	keeps := false
	defer func() {
		// after this git command the index may hold other paths (git add,
		// checkout, read-tree, stash pop, merge, …): a later ls-files is
		// not read from the index on the disk
		if keeps {
			return
		}
		switch sub {
		case "status", "log", "show", "diff", "ls-files", "grep", "blame", "annotate", "rev-parse", "describe",
			"shortlog", "cat-file", "ls-tree", "rev-list", "config", "remote", "fetch", "version", "help", "whatchanged":
		default:
			c.a.indexMayChange = true
		}
	}()
	// what git writes into the work tree from the index or a commit
	// (gitrees.go), after the subcommand's own checks (which name what
	// they find) and before the index is taken to have changed
	defer func() { keeps = c.gitTrees(sub, i, roots) }()
	switch sub {
	case "apply", "am":
		if !has("--check", "--stat", "--numstat", "--summary", "--show-files") {
			var texts []string
			known := true
			files := 0
			for k := i + 1; k < len(c.args); k++ {
				if t := optText(c.args[k].f); !strings.HasPrefix(t, "-") {
					c.file(k, SetRead)
					files++
					// a patch file the command wrote (or a stream) is known
					s, ok := c.scriptFrom(c.args[k].f, c.args[k].raw, true)
					text, tok := c.patchText(s)
					known = known && ok && tok
					texts = append(texts, text)
				}
			}
			if files == 0 {
				text, ok := c.patchText(c.in)
				known = ok
				texts = append(texts, text)
			}
			if known {
				for _, text := range texts {
					for _, name := range patchFiles(text) {
						c.a.value("(patch)", litField(name), setModify)
					}
				}
			} else {
				c.a.addRec(".", litField("."), setModify, true, nil, "git "+sub+" (files named inside the patch)", followNone)
			}
		}
	case "diff-tree", "diff-index", "diff-files", "range-diff":
		// plumbing diffs: a patch with -p (range-diff prints patches)
		c.gitPrintsTracked(sub, i, roots)
	case "cat-file", "fast-export", "archive", "unpack-file", "checkout-index", "bundle":
		// plumbing that prints or copies the contents git tracks: blobs
		// named by hash, by stdin (cat-file --batch, ls-tree | …) or all of
		// them (--batch-all-objects, fast-export, archive, bundle create,
		// checkout-index -a, unpack-file)
		if c.gitDumpsObjects(sub, i) {
			if specs := c.gitArchivePaths(sub, i); len(specs) > 0 {
				for _, k := range specs {
					c.a.addTracked(c.args[k].raw, c.args[k].f, "git "+sub)
				}
				break
			}
			for _, r := range roots {
				c.a.addTracked(r.s, r, "git "+sub)
			}
		}
	case "reflog", "request-pull", "instaweb":
		// git reflog [show] -p is git log -g -p; request-pull -p prints
		// a patch; instaweb serves the history and every tracked blob
		switch k, s2 := c.gitSubOperand(i + 1); {
		case sub == "instaweb":
			if !has("--stop", "--restart") {
				for _, r := range roots {
					c.a.addTracked(r.s, r, "git instaweb (a web server of the repository's history)")
				}
			}
		case sub == "request-pull":
			c.gitPrintsTracked("log", i, roots)
		case sub == "reflog" && (s2 == "" || s2 == "show" || k < 0):
			c.gitPrintsTracked("log", i, roots)
		}
	case "diff", "show", "log", "whatchanged", "format-patch":
		if sub != "diff" || !has("--no-index") {
			c.gitPrintsTracked(sub, i, roots)
		}
		if sub != "diff" {
			break
		}
		// git diff --no-index A B compares two folders recursively, hidden
		// names included; so does a git diff of two paths one of which lies
		// outside the work tree (git drops to --no-index by itself)
		var ops []int
		for k := i + 1; k < len(c.args); k++ {
			if t := optText(c.args[k].f); t != "--" && !strings.HasPrefix(t, "-") {
				ops = append(ops, k)
			}
		}
		outside := false
		for _, k := range ops {
			t := optText(c.args[k].f)
			if strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~") || t == ".." || strings.HasPrefix(t, "../") || c.args[k].f.pattern() {
				outside = true
			}
		}
		if has("--no-index") || (len(ops) == 2 && outside) {
			for _, k := range ops {
				c.rec(k, SetRead, true, nil, "git diff --no-index", followNone)
			}
		}
	case "add":
		// git add copies the files of its pathspecs (-A: the work tree)
		// into the index, where `git diff --cached` or a commit shows them;
		// it skips .git and, without -f, what .gitignore ignores
		if has("-n", "--dry-run", "-u", "--update", "-p", "--patch", "-i", "--interactive", "-e", "--edit", "-N", "--intent-to-add", "--refresh") {
			break
		}
		force := has("-f", "--force")
		var specs []int
		for k := i + 1; k < len(c.args); k++ {
			t := optText(c.args[k].f)
			if t == "--" || (strings.HasPrefix(t, "-") && len(specs) == 0 && !c.args[k].f.pattern()) {
				c.done[k] = true
				continue
			}
			specs = append(specs, k)
		}
		// exclude pathspecs (`:!.env`) leave a path out: not a path
		// read, and honoured on the recursion when the analysis is sure
		// (specExcludeFrom); with only excludes git adds the work tree
		var ex []excludePat
		var pos []int
		for _, k := range specs {
			f := c.args[k].f
			if e, isExcl, ok := gitExcludeSpec(optText(f)); !f.pattern() && isExcl && ok {
				c.done[k] = true
				ex = append(ex, e)
				continue
			}
			pos = append(pos, k)
		}
		n := len(c.a.out.targets)
		if len(pos) == 0 && (len(specs) > 0 || has("-A", "--all", "--no-ignore-removal")) {
			recRoots(SetRead, !force, "git add -A")
		}
		specs = pos
		defer func() {
			if len(roots) == 1 {
				c.specExcludeFrom(n, ex)
			}
		}()
		for _, k := range specs {
			c.done[k] = true
			c.a.value(c.args[k].raw, c.args[k].f, SetRead)
			f := c.args[k].f
			if t := optText(f); strings.HasPrefix(t, ":") || strings.ContainsAny(t, "*?[") || f.pattern() {
				// pathspec magic (`:/`, `:(glob)…`) or a glob git expands
				// itself (its `*` matches `.env` and crosses `/`): the work tree
				f = litField(".")
			}
			c.a.addRecVCS(c.args[k].raw, f, SetRead, !force, "git add")
		}
	case "stash":
		// git stash -u / -a stores the untracked files (-a: ignored ones
		// too) and removes them from the work tree
		act := ""
		if i+1 < len(c.args) {
			act = optText(c.args[i+1].f)
		}
		switch k, s2 := c.gitSubOperand(i + 1); s2 {
		case "show":
			c.gitPrintsTracked("stash show", k, roots)
		case "list":
			c.gitPrintsTracked("log", k, roots)
		}
		if act == "" || act == "push" || act == "save" || strings.HasPrefix(act, "-") {
			switch {
			case has("-a", "--all"):
				recRoots(SetRead|setModify, false, "git stash --all")
			case has("-u", "--include-untracked"):
				recRoots(SetRead|setModify, true, "git stash -u")
			}
		}
	case "clean":
		// git clean removes untracked files, hidden ones included (not
		// .git); -x also ignored ones, -X only ignored ones; -e PATTERN
		// (not a path: nothing opens it) makes what it matches ignored,
		// so kept (not with -X), unless a `!` pattern takes one back
		o := parseCleanOpts(rest)
		for _, k := range o.values {
			c.done[i+1+k] = true
		}
		ex, exOK := o.cleanExcludes()
		ignored := o.x || o.bigX || !exOK && (len(o.excl) > 0 || o.unsure)
		if !o.dry {
			n := len(c.a.out.targets)
			if specs, ok := cleanPathspecs(rest, o.values); ok && len(roots) == 1 {
				// only below the pathspecs (one that does not exist removes nothing)
				for _, ar := range specs {
					c.a.addRecVCS(ar.raw, ar.f, setModify, !ignored, "git clean")
				}
			} else {
				recRoots(setModify, !ignored, "git clean")
			}
			c.excludeFrom(n, ex)
			if exOK {
				for k := n; k < len(c.a.out.targets); k++ {
					c.a.out.targets[k].hint = hintGitClean
				}
			}
		}
	case "rm", "mv":
		for k := i + 1; k < len(c.args); k++ {
			if t := optText(c.args[k].f); !strings.HasPrefix(t, "-") {
				c.file(k, SetRead|setModify)
			}
		}
	case "config":
		// git config KEY VALUE: a command-valued key runs later (gitconfig.go)
		c.gitConfig(i)
	case "remote":
		c.gitExtURLs(i)
	case "ls-files":
		c.gitLsFiles(i)
	case "grep":
		c.gitGrep(i, roots)
	case "submodule", "worktree", "checkout", "restore", "reset", "switch", "pull", "merge", "rebase", "cherry-pick", "revert", "filter-branch", "difftool", "mergetool":
		// these write the work tree themselves (a .gitignore too); explicit
		// paths are words; some take a command to run
		c.a.ignoresMayChange = true
		c.gitCommands(sub, i)
		if sub == "submodule" {
			c.gitExtURLs(i)
		}
		if sub == "checkout" || sub == "restore" {
			c.gitWritesPaths(sub, i)
		}
	}
	c.embedded()
}

// stdinREPL says which option or code makes an interpreter read code from
// stdin as well as from its script, module or -c/-e code ("" for none).
func (c *cmd) stdinREPL(lang string, p parsed) string {
	switch lang {
	case "python":
		if p.has("-i") {
			return "python -i"
		}
		for _, v := range p.values("-m") {
			switch m := c.valText(v); m {
			case "code", "pdb", "asyncio", "IPython", "ipdb", "idlelib", "bdb", "pudb", "ptpython", "bpython":
				return "python -m " + m
			}
		}
	case "js":
		if p.has("-i") || p.has("--interactive") || p.has("--inspect-brk") {
			return "node -i"
		}
	case "perl":
		if p.has("-d") {
			return "perl -d (the debugger)"
		}
	}
	for _, v := range p.vals {
		t := c.valText(v)
		for _, w := range []string{"interact(", "InteractiveConsole", "InteractiveInterpreter", "runsource", "set_trace(", "breakpoint(", "repl", "binding.irb", "binding.pry", "IRB.start", "Pry.start", "$DB::", "eval <>", "eval(<>)", "eval <STDIN>"} {
			if strings.Contains(t, w) {
				return "code that starts a REPL or debugger (" + strings.TrimRight(w, "(") + ")"
			}
		}
	}
	return ""
}

// gitLongOpts are the long options of git's subcommands the analysis
// reads. git's option parser takes any unambiguous prefix of a long option
// (`git add --forc`, `git stash --al`).
var gitLongOpts = []string{"--force", "--all", "--include-untracked", "--only-untracked", "--no-index", "--cached",
	"--staged", "--upload-pack", "--receive-pack", "--exec", "--to-cmd", "--cc-cmd", "--header-cmd",
	"--sendmail-cmd", "--smtp-server", "--config", "--template", "--pathspec-from-file", "--pathspec-file-nul", "--stdin-paths",
	"--stdin", "--no-ignore-removal", "--ignore-removal", "--update", "--patch", "--extcmd", "--tool", "--exclude",
	"--work-tree", "--git-dir", "--output", "--stat", "--name-only", "--name-status", "--numstat", "--shortstat",
	"--check", "--summary", "--show-files", "--others", "--ignored", "--killed", "--recurse-submodules",
	"--untracked", "--keep-index", "--dry-run", "--quiet", "--interactive", "--message", "--directory"}

// gitExpandAbbrev rewrites abbreviated long options to the option they
// stand for, so the analysis reads `--forc` as `--force`. A prefix of
// several of them is taken for the first (git refuses an ambiguous one).
func gitExpandAbbrev(args []arg) {
	for k := range args {
		f := &args[k].f
		if f.pattern() || !strings.HasPrefix(f.s, "--") || len(f.s) < 3 {
			continue
		}
		name, val, eq := strings.Cut(f.s, "=")
		if slices.Contains(gitLongOpts, name) || name == "--cc" || name == "--to" {
			// a whole option of its own is no abbreviation: log's and
			// diff's --cc (a combined patch), format-patch's --to/--cc
			// addresses, not send-email's --cc-cmd/--to-cmd
			continue
		}
		for _, full := range gitLongOpts {
			if strings.HasPrefix(full, name) {
				if f.s = full; eq {
					f.s += "=" + val
				}
				break
			}
		}
	}
}

// gitWritesPaths: `git checkout REV -- PATHS` and `git restore PATHS`
// write the named files with the repository's content, which the disk
// does not show yet (a script checked out and then run).
func (c *cmd) gitWritesPaths(sub string, i int) {
	after := false
	for k := i + 1; k < len(c.args); k++ {
		t := optText(c.args[k].f)
		switch {
		case t == "--":
			after = true
		case strings.HasPrefix(t, "-"):
			if sub == "restore" && (t == "-s" || t == "--source") {
				k++ // the source tree, not a path
			}
		case after || sub == "restore":
			c.a.value(c.args[k].raw, c.args[k].f, setModify)
		}
	}
}

// gitArgs checks what any git subcommand may run or read beyond its
// operands: options whose value is a command (--upload-pack, -u of
// clone/fetch/ls-remote/pull, --receive-pack, archive's --exec,
// send-email's --to-cmd…), clone's --config/-c and --template hooks, the
// ext:: transport's command, names read on stdin (hash-object
// --stdin-paths, update-index --stdin, checkout-index --stdin,
// --pathspec-from-file), and a git-SUB program or hook the command wrote.
func (c *cmd) gitArgs(sub string, i int, workTrees []field) {
	cmdOpts := map[string]bool{"--upload-pack": true, "--receive-pack": true, "--exec": true, "--to-cmd": true,
		"--cc-cmd": true, "--header-cmd": true, "--sendmail-cmd": true, "--smtp-server": true}
	if sub == "clone" || sub == "fetch" || sub == "ls-remote" || sub == "pull" {
		cmdOpts["-u"] = true
	}
	for k := i + 1; k < len(c.args); k++ {
		t := optText(c.args[k].f)
		name, _, eq := strings.Cut(t, "=")
		switch {
		case cmdOpts[name] && (eq || k+1 < len(c.args)):
			f, raw, next, _ := c.optValue(k, name, eq)
			c.scriptField(raw, f, source{})
			k = next
		case (sub == "clone" || sub == "init") && (name == "--config" || name == "-c") && (eq || k+1 < len(c.args)):
			c.done[k] = true
			if !eq {
				k++
				c.done[k] = true
			}
			c.gitConfigValue(k)
		case (sub == "clone" || sub == "init") && name == "--template":
			dir := ""
			if eq {
				dir = t[len(name)+1:]
			} else if k+1 < len(c.args) {
				dir = optText(c.args[k+1].f)
			}
			c.a.writtenScripts(c.args[k].raw, dir+"/hooks")
		case strings.HasPrefix(t, "ext::"):
			// ext::CMD ARGS: git runs CMD (`% ` is a space, `%%` a %)
			cmdline := strings.NewReplacer("% ", " ", "%%", "%", "%s", "x", "%S", "x", "%G", "x", "%V", "x").Replace(t[len("ext::"):])
			if c.args[k].f.pattern() {
				c.a.unknown(c.args[k].raw, "git's ext:: transport runs a command computed when the command runs", SetRead|setModify)
			} else {
				c.a.script(cmdline, c.args[k].raw, source{})
			}
		case t == "--stdin-paths" || (t == "--stdin" && (sub == "update-index" || sub == "checkout-index")):
			c.stdinNames(SetRead, "git "+sub+" "+t)
		case t == "--pathspec-from-file=-" || t == "--pathspec-from-file" && k+1 < len(c.args) && optText(c.args[k+1].f) == "-":
			if !eq {
				k++
				c.done[k] = true
			}
			c.gitPathspecStdin(sub)
		case strings.HasPrefix(t, "--pathspec-from-file=") || t == "--pathspec-from-file" && k+1 < len(c.args):
			f := subField(c.args[k].f, len("--pathspec-from-file="))
			if !eq {
				k++
				c.done[k] = true
				f = c.args[k].f
			}
			c.fileField(c.args[k].raw, f, SetRead)
			c.a.unknown(c.args[k].raw, "git "+sub+" reads its pathspecs from a file the analysis cannot see", SetRead)
		}
	}
	// a git-SUB program the command wrote (GIT_EXEC_PATH=., --exec-path, PATH)
	c.a.writtenScripts(c.args[i].raw, "git-"+sub)
	// hooks the command wrote: core.hooksPath given here, or .git/hooks
	// (denied as a write), or a folder named hooks
	c.a.writtenHooks(c.args[i].raw)
}

// gitPathspecStdin: --pathspec-from-file=- reads pathspecs from stdin, one
// a line (C-quoted when they start with `"`: "\056env" is .env) or
// NUL-separated with --pathspec-file-nul. They are pathspecs, not names: a
// glob (`*env` matches .env) or magic (`:/`, `:(glob)…`) reaches any file
// below the work tree, which is then read in full.
func (c *cmd) gitPathspecStdin(sub string) {
	via := "git " + sub + " --pathspec-from-file=-"
	if c.in.kind != srcText {
		c.stdinNames(SetRead, via)
		return
	}
	if strings.ContainsRune(c.in.text, unknownRune) {
		c.a.unknown(c.args[0].raw, via+" reads pathspecs computed when the command runs", SetRead)
	}
	nul := false
	for _, ar := range c.args {
		if optText(ar.f) == "--pathspec-file-nul" {
			nul = true
		}
	}
	sep := "\n"
	if nul {
		sep = "\x00"
	}
	whole := false
	for rec := range strings.SplitSeq(c.in.text, sep) {
		rec = strings.TrimSuffix(rec, "\r")
		if rec == "" || strings.ContainsRune(rec, unknownRune) {
			continue
		}
		c.a.value("(pathspecs from stdin)", litField(rec), SetRead)
		c.a.tokens(rec, SetRead)
		if !nul && strings.HasPrefix(rec, `"`) {
			c.a.unknown("(pathspecs from stdin)", via+" reads a C-quoted pathspec (\\056 is a dot) the analysis does not decode", SetRead)
			continue
		}
		if strings.HasPrefix(rec, ":") || strings.ContainsAny(rec, "*?[\\") {
			whole = true
		}
	}
	if whole {
		c.a.addRec("(pathspecs from stdin)", litField("."), SetRead, true, nil, via+" (a pathspec with wildcards or magic)", followNone)
	}
}

// gitLsFiles: `git ls-files` prints the paths git tracks below the cwd
// (relative to it): with the disk they are read from the repository's
// index, so `git ls-files | xargs grep x` checks each; others, ignored
// ones, a computed cwd or an index it cannot read leave them unknown.
func (c *cmd) gitLsFiles(i int) {
	fsys := c.a.env.FS
	cwd := c.a.cwd()
	for k := i + 1; k < len(c.args); k++ {
		// -x/--exclude PATTERN names what to leave out: nothing opens it
		switch t := optText(c.args[k].f); {
		case c.args[k].f.pattern():
		case t == "-x" || t == "--exclude":
			if k+1 < len(c.args) && !c.args[k+1].f.pattern() {
				c.done[k], c.done[k+1] = true, true
			}
		case strings.HasPrefix(t, "-x") || strings.HasPrefix(t, "--exclude="):
			c.done[k] = true
		}
	}
	if fsys == nil || strings.ContainsRune(cwd, unknownRune) || len(c.a.cwds) != 1 || c.a.indexMayChange || c.a.ignoresMayChange {
		return
	}
	for k := i + 1; k < len(c.args); k++ {
		switch t := optText(c.args[k].f); {
		case t == "-o" || t == "--others" || t == "-i" || t == "--ignored" || t == "-k" || t == "--killed" ||
			strings.HasPrefix(t, "--with-tree") || t == "--recurse-submodules" || strings.HasPrefix(t, "-x") ||
			strings.HasPrefix(t, "--exclude") || strings.HasPrefix(t, "-X") || c.args[k].f.pattern():
			return
		}
	}
	g := newGitIgnorer(fsys)
	root := g.repo(cwd)
	if root == "" {
		return
	}
	x := g.index(root)
	if !x.ok || len(x.paths) > 4096 {
		return
	}
	prefix := strings.TrimSuffix(cwd, "/") + "/"
	var names []field
	for _, rel := range x.paths {
		p := strings.TrimSuffix(root, "/") + "/" + rel
		if strings.HasPrefix(p, prefix) {
			names = append(names, litField(strings.TrimPrefix(p, prefix)))
		}
	}
	why := "git ls-files"
	for k := i + 1; k < len(c.args); k++ {
		if t := optText(c.args[k].f); strings.HasPrefix(t, "-") && t != "-c" && t != "--cached" {
			why = "git ls-files " + t // -z, -s, --format…: not one name a line
		}
	}
	c.out = &source{kind: srcNames, names: names, why: why}
}

// gitCommands checks the commands git subcommands run: rebase -x/--exec,
// difftool/mergetool -x/--extcmd, filter-branch's filters, submodule
// foreach (in each submodule: relative paths are also read under any
// folder).
func (c *cmd) gitCommands(sub string, i int) {
	var valued []string
	switch sub {
	case "rebase":
		valued = []string{"-x", "--exec"}
	case "difftool", "mergetool":
		valued = []string{"-x", "--extcmd"}
	case "filter-branch":
		valued = []string{"--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter",
			"--commit-filter", "--tag-name-filter", "--setup"}
	case "submodule":
		for k := i + 1; k < len(c.args); k++ {
			if optText(c.args[k].f) == "foreach" {
				if k+1 < len(c.args) {
					var parts []string
					for j := k + 1; j < len(c.args); j++ {
						c.done[j] = true
						if t := optText(c.args[j].f); !strings.HasPrefix(t, "--") || j > k+1 {
							parts = append(parts, quoteField(c.args[j].f))
						}
					}
					script := strings.Join(parts, " ")
					if len(parts) == 1 {
						script = c.args[len(c.args)-1].f.text()
					}
					c.a.script(script, c.args[k+1].raw, source{})
					c.a.codeText(script, c.args[k+1].raw, "generic") // its paths under any folder
				}
				return
			}
		}
		return
	}
	for k := i + 1; k < len(c.args); k++ {
		t := optText(c.args[k].f)
		for _, v := range valued {
			switch {
			case t == v && k+1 < len(c.args):
				c.done[k], c.done[k+1] = true, true
				c.scriptField(c.args[k+1].raw, c.args[k+1].f, source{})
				k++
			case strings.HasPrefix(t, v+"=") && strings.HasPrefix(v, "--"):
				c.done[k] = true
				c.scriptField(c.args[k].raw, subField(c.args[k].f, len(v)+1), source{})
			}
		}
	}
}

// gitPrintsTracked: git diff, show, log -p and the like print the content
// of files git tracks; a protected file in the index may be printed (with
// the disk; repository history is otherwise not covered). Options that
// print no content (--stat, --name-only, …) and log without a patch print
// none; pathspecs after `--` narrow it.
func (c *cmd) gitPrintsTracked(sub string, i int, roots []field) {
	patch := sub != "log" && sub != "whatchanged" && !strings.HasPrefix(sub, "diff-")
	var specs []int
	fullDiff := false
	for k := i + 1; k < len(c.args); k++ {
		t := optText(c.args[k].f)
		if len(specs) > 0 || t == "--" {
			specs = append(specs, k)
			continue
		}
		if t == "--full-diff" {
			fullDiff = true // the whole commit's patch, whatever the pathspecs
		}
		switch {
		case t == "-p" || t == "-u" || t == "--patch" || strings.HasPrefix(t, "-L") || t == "--full-diff" || t == "--cc" || t == "-c" || t == "--word-diff" || strings.HasPrefix(t, "--word-diff="),
			// options that imply a patch
			t == "--patch-with-stat" || t == "--patch-with-raw" || t == "--color-words" || strings.HasPrefix(t, "--color-words=") ||
				t == "-W" || t == "--function-context" || t == "--binary" || strings.HasPrefix(t, "--unified") ||
				len(t) > 2 && t[:2] == "-U" || t == "--remerge-diff" || t == "--dd" || t == "-m" && sub != "stash show" ||
				strings.HasPrefix(t, "--diff-merges="):
			patch = true
		case t == "--stat" || strings.HasPrefix(t, "--stat=") || t == "--name-only" || t == "--name-status" || t == "--numstat" ||
			t == "--shortstat" || t == "--summary" || t == "-s" || t == "--no-patch" || t == "--quiet" || t == "--raw" ||
			strings.HasPrefix(t, "--dirstat") || t == "--check":
			patch = false
		}
	}
	if !patch {
		return
	}
	via := "git " + sub
	if len(specs) > 1 && !fullDiff {
		for _, k := range specs[1:] {
			c.a.addTracked(c.args[k].raw, c.args[k].f, via)
		}
		return
	}
	for _, r := range roots {
		c.a.addTracked(r.s, r, via)
	}
}

// gitDumpsObjects: a git plumbing command sub (args after i) that may
// print or copy the contents of any blob git tracks.
func (c *cmd) gitDumpsObjects(sub string, i int) bool {
	var ops []field
	flags := map[string]bool{}
	for k := i + 1; k < len(c.args); k++ {
		f := c.args[k].f
		t := optText(f)
		if strings.HasPrefix(t, "-") && !f.pattern() {
			name, _, _ := strings.Cut(t, "=")
			flags[name] = true
			continue
		}
		ops = append(ops, f)
	}
	switch sub {
	case "cat-file":
		if flags["-t"] || flags["-s"] || flags["-e"] {
			return false
		}
		if flags["--batch"] || flags["--batch-command"] {
			return true // object names on stdin, or every object
		}
		if flags["--batch-check"] {
			return false // type and size only
		}
		// an object by hash or computed may be any blob (REV:PATH names
		// its path, read as a word)
		for _, f := range ops {
			if f.pattern() || f.unk || f.dyn || isHexObject(f.s) {
				return true
			}
		}
		return false
	case "fast-export":
		return !flags["--no-data"]
	case "checkout-index":
		return flags["-a"] || flags["--all"] || flags["--stdin"]
	case "bundle":
		return len(ops) > 0 && optText(c.args[i+1].f) == "create"
	}
	return true // archive, unpack-file
}

// gitArchivePaths: the paths after git archive's tree-ish (nil: all).
func (c *cmd) gitArchivePaths(sub string, i int) []int {
	if sub != "archive" {
		return nil
	}
	var ops []int
	for k := i + 1; k < len(c.args); k++ {
		f := c.args[k].f
		t := optText(f)
		switch {
		case t == "--":
			continue
		case t == "-o" || t == "--output" || t == "--format" || t == "--prefix" || t == "--remote" || t == "--exec":
			k++
		case strings.HasPrefix(t, "-") && !f.pattern():
		default:
			ops = append(ops, k)
		}
	}
	if len(ops) > 1 {
		return ops[1:]
	}
	return nil
}

// isHexObject: an abbreviated or full object hash.
func isHexObject(s string) bool {
	if len(s) < 4 || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return true
}

func (c *cmd) gitConfigValue(i int) {
	c.done[i] = true
	f := c.args[i].f
	t := optText(f)
	c.a.value(c.args[i].raw, f, SetRead)
	key, _, ok := strings.Cut(t, "=")
	if base, ok := extInsteadOf(key); ok {
		// url.ext::CMD.insteadOf=x: — URLs starting x: run CMD (git's ext::
		// transport)
		if strings.ContainsRune(base, unknownRune) {
			c.a.unknown(c.args[i].raw, "a URL rewritten to git's ext:: transport runs a command computed when the command runs", SetRead|setModify)
		} else {
			c.gitScriptField(c.args[i].raw, litField(base))
		}
	}
	if ok && gitCommandKey(key) {
		v := subField(f, len(key)+1)
		if strings.HasPrefix(strings.ToLower(key), "alias.") && !v.pattern() && strings.HasPrefix(v.s, "!") {
			// git runs `sh -c 'CMD "$@"' CMD ARGS…`: the alias's arguments,
			// unknown here, are its positional parameters
			v.s += ` "$@"`
			c.a.childShell(nil, false, false, func() { c.gitScriptField(c.args[i].raw, v) })
			return
		}
		c.gitScriptField(c.args[i].raw, v)
	}
}

func (c *cmd) gitScript(i int) {
	c.done[i] = true
	c.gitScriptField(c.args[i].raw, c.args[i].f)
}

func (c *cmd) gitScriptField(raw string, f field) {
	if !f.pattern() {
		f.s = strings.TrimPrefix(f.s, "!")
		if strings.HasPrefix(f.s, "ext::") {
			// git's ext:: transport: a command, "% " a space
			f.s = strings.ReplaceAll(strings.TrimPrefix(f.s, "ext::"), "% ", " ")
		}
	}
	c.scriptField(raw, f, source{})
}

// gitCommandKey reports whether a git config key holds a command git runs.
func gitCommandKey(k string) bool {
	k = strings.ToLower(k)
	switch {
	case strings.HasPrefix(k, "alias."), strings.HasPrefix(k, "pager."):
		return true
	case strings.HasPrefix(k, "submodule.") && strings.HasSuffix(k, ".update"):
		// submodule.NAME.update=!CMD: git submodule update runs CMD
		return true
	}
	for _, suf := range []string{".pager", ".editor", ".sshcommand", ".fsmonitor", ".external", ".helper", ".program", ".textconv", ".command", ".cmd", ".clean", ".smudge", ".process", ".askpass", ".hookspath", ".uploadpack", ".receivepack", ".proxy", ".gitproxy", ".tool", ".path",
		// merge drivers, instaweb's httpd, ssh signing's key command, add -p's
		// filter, send-email's programs, hooks git runs
		".driver", ".httpd", ".defaultkeycommand", ".difffilter", ".smtpserver", ".sendmailcmd", ".tocmd", ".cccmd",
		".headercmd", ".packobjectshook",
		// the command that lists an alternate's refs, imap-send's tunnel
		".alternaterefscommand", ".tunnel"} {
		if strings.HasSuffix(k, suf) {
			return true
		}
	}
	return false
}

// curl: output, upload, data and config files; file:// URLs read files.
func (c *cmd) curl() {
	c.defaultRCs()
	p := c.parse(1, opts{short: "odTFKbcDHwXuAeErQmxUC", long: []string{"--output", "--upload-file", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--data-raw", "--json", "--form", "--form-string", "--config", "--cookie", "--cookie-jar", "--dump-header", "--cacert", "--cert", "--key", "--netrc-file", "--header", "--trace", "--trace-ascii", "--stderr", "--libcurl", "--write-out", "--output-dir", "--request", "--user", "--user-agent", "--referer", "--proxy", "--max-time", "--connect-timeout", "--retry", "--url", "--etag-save", "--etag-compare", "--hsts", "--alt-svc", "--capath", "--crlfile", "--pinnedpubkey", "--proxy-cacert", "--proxy-cert", "--proxy-key", "--unix-socket", "--abstract-unix-socket", "--range", "--limit-rate", "--resolve", "--connect-to", "--variable", "--expand-url"}})
	// --output-dir holds -o's files too (and -O's)
	outDir, hasDir := litField("."), false
	for _, v := range p.values("--output-dir") {
		if f, ok := c.valField(v); ok {
			outDir, hasDir = f, true
		}
	}
	for _, v := range p.vals {
		switch v.name {
		case "-o", "--output":
			if f, ok := c.valField(v); ok && c.valText(v) != "-" {
				c.valFile(v, setModify)
				if o := curlOutputField(f); hasDir || o.s != f.s {
					c.newNames(func() { c.fileField(v.raw, joinBase(outDir, o), setModify) })
				}
			}
		case "-c", "--cookie-jar", "-D", "--dump-header", "--trace", "--trace-ascii", "--stderr", "--libcurl", "--etag-save", "--hsts", "--alt-svc":
			if c.valText(v) != "-" {
				c.valFile(v, setModify)
			}
		case "-T", "--upload-file":
			c.curlUpload(v)
		case "-K", "--config":
			c.valFile(v, SetRead)
			c.curlConfig(v)
		case "--cacert", "--cert", "--key", "--netrc-file", "--etag-compare", "--capath", "--crlfile", "--proxy-cacert", "--proxy-cert", "--proxy-key":
			c.valFile(v, SetRead)
		case "-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--json", "-F", "--form", "-H", "--header", "-w", "--write-out", "-b", "--cookie", "--variable":
			f, ok := c.valField(v)
			if !ok {
				continue
			}
			c.valWord(v)
			t := optText(f)
			// @file, <file, name=@file, name=<file
			for _, sep := range []string{"@", "<"} {
				if j := strings.Index(t, sep); j >= 0 && (j == 0 || t[j-1] == '=' || v.name == "--data-urlencode" || v.name == "--variable") {
					c.fileField(v.raw, subField(f, j+1), SetRead)
					c.curlFormFiles(v.raw, f, j+1, v.name)
				}
			}
			if (v.name == "-b" || v.name == "--cookie") && !strings.Contains(t, "=") {
				c.valFile(v, SetRead)
			}
		case "--output-dir":
			c.valWord(v)
		case "--url":
			c.valFile(v, SetRead)
		default:
			c.valWord(v)
		}
	}
	for _, i := range p.operands {
		c.word(i)
	}
	c.curlRemote(p, outDir)
}

// wget: -O FILE, -P DIR, -i FILE, --post-file FILE; writes the URL's name,
// or one the server chooses (servernames.go).
func (c *cmd) wget() {
	c.defaultRCs()
	p := c.parse(1, opts{short: "OoaPiUeBTtQlwADRIX", long: []string{"--output-document", "--output-file", "--append-output", "--directory-prefix", "--input-file", "--post-file", "--body-file", "--load-cookies", "--save-cookies", "--user-agent", "--header", "--post-data", "--body-data", "--method", "--user", "--password", "--tries", "--timeout", "--wait", "--level", "--accept", "--reject", "--domains", "--include-directories", "--exclude-directories", "--ca-certificate", "--certificate", "--private-key", "--config", "--use-askpass", "--execute", "--default-page", "--cut-dirs", "--base"}})
	st := &wgetState{prefix: litField(".")}
	for _, v := range p.vals {
		switch v.name {
		case "-O", "--output-document":
			if c.valText(v) != "-" {
				c.valFile(v, setModify)
			}
			st.named = true
		case "-o", "--output-file", "-a", "--append-output", "--save-cookies":
			c.valFile(v, setModify)
		case "-i", "--input-file":
			c.valFile(v, SetRead)
			st.inputs = true
		case "--post-file", "--body-file", "--load-cookies", "--ca-certificate", "--certificate", "--private-key":
			c.valFile(v, SetRead)
		case "--config":
			c.valFile(v, SetRead)
			if f, ok := c.valField(v); ok {
				if s, ok := c.a.writtenFile(f); ok {
					c.rcDownloads(v.raw, s)
				} else if s, ok := c.diskRC(v.raw, f, true); ok {
					c.rcDownloads(v.raw, s)
				}
			}
		case "-P", "--directory-prefix":
			if f, ok := c.valField(v); ok {
				st.prefix = f
			}
			c.valWord(v)
		case "--use-askpass":
			c.valScript(v)
		case "-e", "--execute":
			c.wgetExecute(v, st)
			c.valWord(v)
		case "--default-page":
			st.defPage = c.valText(v)
			c.valWord(v)
		case "--cut-dirs":
			st.tree = true
			c.valWord(v)
		default:
			c.valWord(v)
		}
	}
	switch {
	case p.has("-r", "--recursive", "-m", "--mirror"):
		st.tree, st.treeVia = true, "wget -r"
	case p.has("-x", "--force-directories", "--protocol-directories"):
		st.tree, st.treeVia = true, "wget -x (a folder per URL path)"
	case st.tree && st.treeVia == "":
		st.treeVia = "wget --cut-dirs"
	}
	if p.has("--content-disposition", "--trust-server-names") {
		st.serverName, st.why = true, "wget --content-disposition"
		if p.has("--trust-server-names") {
			st.why = "wget --trust-server-names"
		}
	}
	for _, i := range p.operands {
		c.word(i)
	}
	c.wgetWrites(p, st)
}

// ssh: key and config files are read; ProxyCommand runs locally.
func (c *cmd) ssh() {
	p := c.parse(1, opts{short: "iFEoLRDlpJbcemOQSWwBI", long: nil, posix: true})
	for _, v := range p.vals {
		switch v.name {
		case "-i", "-F":
			c.valFile(v, SetRead)
		case "-E":
			c.valFile(v, setModify)
		case "-S":
			c.valFile(v, SetRead|setModify) // with -M, the control socket is made there
		case "-o":
			c.sshOption(v)
		default:
			c.valWord(v)
		}
	}
	if len(p.operands) > 1 && loopback(optText(c.args[p.operands[0]].f)) {
		// ssh to this machine: the remote command runs here, in the home
		// directory
		var parts []string
		for _, i := range p.operands[1:] {
			c.word(i)
			parts = append(parts, c.args[i].f.text())
			if f := c.args[i].f; f.pattern() && (f.unk || f.dyn) {
				c.a.unknown(c.args[i].raw, "ssh runs a command computed when the command runs on this machine", SetRead|setModify)
			}
		}
		cwds := c.a.cwds
		if h := c.a.env.Home; h != "" {
			c.a.cwds = append(append([]string(nil), cwds...), cleanCwd(Env{Cwd: h, Home: h}))
		}
		c.a.userShell(c.args[p.operands[1]].raw, strings.Join(parts, " "), "ssh to this machine")
		c.a.script(strings.Join(parts, " "), c.args[p.operands[1]].raw, c.in)
		c.a.cwds = cwds
	}
	for _, i := range p.operands {
		c.word(i) // the host and the remote command run elsewhere; their words are still checked
	}
}

// sshOption reads ssh's -o KEY=VALUE (also scp's and sftp's): command
// options run locally, file options are read.
func (c *cmd) sshOption(v optHit) {
	t := c.valText(v)
	key, val, _ := strings.Cut(t, "=")
	if val == "" {
		key, val, _ = strings.Cut(t, " ")
	}
	switch strings.ToLower(strings.TrimSpace(key)) {
	case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
		c.a.script(val, v.raw, source{})
	case "identityfile", "certificatefile", "identityagent":
		c.a.value(v.raw, litField(strings.TrimSpace(val)), SetRead)
	case "userknownhostsfile", "controlpath":
		// ssh adds a new host's key to its known-hosts files and makes
		// its control socket at ControlPath (pass 36): written; a list
		// of files, space-separated
		for f := range strings.FieldsSeq(val) {
			c.a.value(v.raw, litField(f), SetRead|setModify)
		}
	}
	if t == "" {
		c.a.unknown(v.raw, "an ssh option computed when the command runs", SetRead|setModify)
	}
	c.valWord(v)
}

// loopback reports whether an ssh destination is this machine.
func loopback(dest string) bool {
	if _, h, ok := strings.Cut(dest, "@"); ok {
		dest = h
	}
	dest = strings.TrimPrefix(strings.TrimPrefix(dest, "ssh://"), "[")
	if i := strings.IndexAny(dest, "]:/"); i >= 0 && !strings.HasPrefix(dest, "::") {
		dest = dest[:i]
	}
	d := strings.ToLower(dest)
	return d == "localhost" || strings.HasPrefix(d, "localhost.") || d == "ip6-localhost" || d == "ip6-loopback" ||
		strings.HasPrefix(d, "127.") || d == "::1" || strings.HasPrefix(d, "::1]") || d == "0.0.0.0" || d == "0"
}

// docker: bind mounts, env files, Dockerfiles and `docker cp` touch local
// files; the container's own command runs inside it (its words are checked).
// `docker compose config` prints the configuration with the values of .env
// substituted.
func (c *cmd) docker() {
	build := false
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		switch {
		case t == "build" || t == "image" && i+1 < len(c.args) && optText(c.args[i+1].f) == "build":
			build = true
		case build && (t == "-" || t == "-f-" || t == "--file=-" || (t == "-f" || t == "--file") && i+1 < len(c.args) && optText(c.args[i+1].f) == "-"):
			// docker build -f - / docker build -: the Dockerfile (COPY,
			// RUN) comes from stdin, in a language not modelled
			c.a.unknown(c.args[i].raw, c.name+" build reads a Dockerfile (COPY and RUN of the build context) from stdin, which the analysis does not model", SetRead|setModify)
		}
	}
	for i := 1; i+1 < len(c.args); i++ {
		if optText(c.args[i].f) == "compose" {
			// docker compose [OPTIONS] config|convert [OPTIONS]
			for k := i + 1; k < len(c.args); k++ {
				if t := optText(c.args[k].f); t == "config" || t == "convert" {
					c.a.loadedBy(c.args[0].raw+" compose "+t+", which prints the configuration with .env's values in it", litField(".env"), SetRead)
					break
				} else if !strings.HasPrefix(t, "-") && (k == i+1 || !strings.HasPrefix(optText(c.args[k-1].f), "-")) {
					break
				}
			}
			break
		}
	}
	for i := 1; i < len(c.args); i++ {
		if t := optText(c.args[i].f); t == "--volumes-from" || strings.HasPrefix(t, "--volumes-from=") {
			// the other container's mounts, host folders among them, which
			// the command does not show
			c.a.unknown(c.args[i].raw, c.name+" --volumes-from mounts another container's volumes and bind mounts, whose host folders the analysis cannot see (name the folders with -v SRC:DST)", SetRead|setModify)
		}
	}
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		switch {
		case t == "-v" || t == "--volume" || t == "--mount":
			c.done[i] = true
			if i+1 < len(c.args) {
				c.done[i+1] = true
				c.containerMount(c.args[i+1].raw, c.args[i+1].f, t == "--mount")
				i++
			}
		case strings.HasPrefix(t, "--volume=") || strings.HasPrefix(t, "--mount="):
			c.done[i] = true
			name, _, _ := strings.Cut(t, "=")
			c.containerMount(c.args[i].raw, subField(c.args[i].f, len(name)+1), name == "--mount")
		case strings.HasPrefix(t, "-v") && len(t) > 2 && t[2] != '-':
			// -vSRC:DST, -v=SRC:DST
			c.done[i] = true
			n := 2
			if t[2] == '=' {
				n = 3
			}
			c.containerMount(c.args[i].raw, subField(c.args[i].f, n), false)
		case t == "-o" || t == "--opt" || t == "--driver-opt":
			// docker volume create -o device=DIR -o o=bind: a named volume
			// bound to a host folder
			c.done[i] = true
			if i+1 < len(c.args) {
				c.done[i+1] = true
				if strings.HasPrefix(optText(c.args[i+1].f), "device=") || c.args[i+1].f.onlyUnk {
					c.containerMount(c.args[i+1].raw, c.args[i+1].f, false)
				} else {
					c.word(i + 1)
				}
				i++
			}
		case strings.HasPrefix(t, "--opt=device=") || strings.HasPrefix(t, "-odevice=") || strings.HasPrefix(t, "-o=device="):
			c.done[i] = true
			_, v, _ := strings.Cut(t, "device=")
			c.containerMount(c.args[i].raw, subField(c.args[i].f, len(t)-len(v)-len("device=")), false)
		case t == "--env-file" || t == "-f" || t == "--file" || t == "--config" || t == "--secret" || t == "--label-file" || t == "--cidfile" || t == "--iidfile":
			c.done[i] = true
			if i+1 < len(c.args) {
				ops := SetRead
				if t == "--cidfile" || t == "--iidfile" {
					ops = setModify
				}
				c.file(i+1, ops)
				i++
			}
		case strings.HasPrefix(t, "--env-file=") || strings.HasPrefix(t, "--file="):
			c.done[i] = true
			name, _, _ := strings.Cut(t, "=")
			c.a.value(c.args[i].raw, c.args[i].f, SetRead|setModify)
			c.fileField(c.args[i].raw, subField(c.args[i].f, len(name)+1), SetRead)
		case t == "cp":
			c.word(i)
			for k := i + 1; k < len(c.args); k++ {
				tt := optText(c.args[k].f)
				if strings.HasPrefix(tt, "-") {
					c.word(k)
					continue
				}
				c.folderOperand(k, SetRead|setModify, c.name+" cp")
				c.file(k, SetRead|setModify)
			}
			return
		}
	}
	c.embedded()
}

// editor: editors read and write their file operands; -c and +CMD run
// editor commands (which may read or write other files).
func (c *cmd) editor() {
	vimLike := false
	switch c.name {
	case "vi", "vim", "nvim", "ex", "view", "vimdiff", "gvim":
		vimLike = true
	}
	emacs := c.name == "emacs" || c.name == "emacsclient"
	exMode := c.name == "ex" || c.name == "ed" || c.name == "red"
	stdinText := false // `-`: stdin is the text to edit, not commands
	if vimLike {
		c.vimClusters()
		// one -c writes (`-c w`): the files the others name (`-c 'e F'`)
		// may be what it writes
		var all []string
		for i := 1; i < len(c.args); i++ {
			t := optText(c.args[i].f)
			if (t == "-c" || t == "--cmd") && i+1 < len(c.args) {
				all = append(all, optText(c.args[i+1].f))
			} else if strings.HasPrefix(t, "+") {
				all = append(all, t[1:])
			}
		}
		prev := c.a.exWriting
		c.a.exWriting = exWrites(strings.Join(all, "\n"))
		defer func() { c.a.exWriting = prev }()
	}
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		switch {
		case emacs && (t == "--eval" || t == "-e" || t == "-f" || t == "--funcall" || strings.HasPrefix(t, "--eval=")):
			// Emacs Lisp: not modelled
			c.done[i] = true
			if v, ok := strings.CutPrefix(t, "--eval="); ok {
				c.codeField(c.args[i].raw, subField(c.args[i].f, len(t)-len(v)), "unmodelled:emacs")
			} else if i+1 < len(c.args) {
				c.code(i+1, "unmodelled:emacs")
				i++
			}
		case emacs && (t == "-l" || t == "--load" || t == "--script" || t == "-x"):
			c.done[i] = true
			if i+1 < len(c.args) {
				c.scriptFileArg(i+1, "unmodelled:emacs")
				i++
			}
		case t == "-c" || t == "--cmd":
			c.done[i] = true
			if i+1 < len(c.args) {
				c.code(i+1, "vim")
				i++
			}
		case t == "-S" || t == "-u" || t == "-U":
			c.done[i] = true
			if i+1 < len(c.args) {
				if n := optText(c.args[i+1].f); n == "NONE" || n == "NORC" || n == "NOPLUGIN" || n == "DEFAULTS" {
					c.word(i + 1)
				} else {
					c.scriptFileArg(i+1, "vim")
				}
				i++
			}
		case c.name == "nvim" && t == "-l":
			// nvim -l SCRIPT: Lua, with the rest as its arguments
			c.done[i] = true
			if i+1 < len(c.args) {
				c.scriptFileArg(i+1, "unmodelled:nvim -l")
				for k := i + 2; k < len(c.args); k++ {
					c.file(k, SetRead)
				}
			}
			return
		case vimLike && t == "-s" && !exMode:
			// -s FILE: Normal-mode keystrokes read from FILE
			c.done[i] = true
			if i+1 < len(c.args) {
				c.scriptFileArg(i+1, "unmodelled:vim -s")
				i++
			}
		case (c.name == "ed" || c.name == "red") && t == "-p":
			c.done[i] = true
			c.word(i + 1)
			i++
		case vimLike && strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t[1:], "eE"):
			c.done[i] = true
			exMode = true // -e, -E, -es: Ex mode, commands from stdin
		case strings.HasPrefix(t, "+") && len(t) > 1:
			c.done[i] = true
			c.codeField(c.args[i].raw, subField(c.args[i].f, 1), "vim")
		case t == "-":
			c.done[i] = true
			stdinText = true
		case strings.HasPrefix(t, "-") && len(t) > 1:
			c.done[i] = true
		default:
			c.file(i, SetRead|setModify)
		}
	}
	if !exMode || stdinText {
		return
	}
	lang := "vim"
	if c.name == "ed" || c.name == "red" {
		lang = "ed"
	}
	// Ex mode reads its commands from stdin
	if c.in.kind == srcDyn || c.in.kind == srcNames {
		c.a.unknown(c.args[0].raw, c.name+" runs editor commands read from a pipe", SetRead|setModify)
		return
	}
	c.runScript("(stdin)", c.in, source{}, lang)
}

// scriptFileArg gives args[i] the role of a file of commands in lang: a
// file read, and the commands read when the command wrote it or it is a
// stream (see scriptFrom).
func (c *cmd) scriptFileArg(i int, lang string) {
	if i < 0 || i >= len(c.args) {
		return
	}
	ar := c.args[i]
	c.file(i, SetRead)
	if s, ok := c.scriptFrom(ar.f, ar.raw, true); ok {
		c.runScript(ar.raw, s, source{}, lang)
	}
}

// jqNamedFiles: --slurpfile/--rawfile NAME FILE take two values.
func (c *cmd) jqNamedFiles() {
	for i := 1; i+2 < len(c.args); i++ {
		switch optText(c.args[i].f) {
		case "--slurpfile", "--rawfile":
			c.file(i+2, SetRead)
		}
	}
}

// extInsteadOf: a url.BASE.insteadOf (or pushInsteadOf) key whose BASE is
// an ext:: URL (a command git runs), and BASE.
func extInsteadOf(key string) (string, bool) {
	l := strings.ToLower(key)
	if !strings.HasPrefix(l, "url.") {
		return "", false
	}
	for _, suf := range []string{".insteadof", ".pushinsteadof"} {
		if strings.HasSuffix(l, suf) {
			base := key[len("url.") : len(key)-len(suf)]
			if strings.HasPrefix(strings.ToLower(base), "ext::") {
				return base, true
			}
		}
	}
	return "", false
}

// gitSubOperand is the first word from k on that is not an option, and
// its index (-1, "": none): a git subcommand's own subcommand (stash show,
// reflog show).
func (c *cmd) gitSubOperand(k int) (int, string) {
	for ; k < len(c.args); k++ {
		if t := optText(c.args[k].f); !strings.HasPrefix(t, "-") {
			return k, t
		}
	}
	return -1, ""
}
