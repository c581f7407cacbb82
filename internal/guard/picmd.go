package guard

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// Commands whose writes are not their operands (newcomer pass 20): pi's
// package subcommands rewrite pi's settings (which load packages as code),
// git clone and git worktree add write a destination folder, chmod and
// its kin change access to everything below a folder, cmake -E, rename,
// ffmpeg, convert and yq -i write files the generic handling read only.
// moreWrites runs before a command's own handler; it only adds targets
// and leaves the fields' roles (c.done) to that handler.
func (c *cmd) moreWrites() {
	switch c.name {
	case "pi":
		c.piPackages()
	case "git":
		c.gitDestination()
	case "chmod", "chown", "chgrp", "chattr", "setfacl", "chcon", "setfattr":
		c.accessOfFolders()
	case "cmake":
		c.cmakeTool()
	case "rename", "file-rename", "prename", "perl-rename":
		c.renameExpr()
	case "ffmpeg", "convert", "magick":
		c.mediaOutputs()
	case "yq":
		c.yqInPlace()
	case "gh":
		c.ghClone()
		c.ghDownload()
	case "install", "ginstall":
		c.installDirMode()
	}
}

// ghClone: gh repo clone REPO [DIR] [-- GITFLAGS] writes DIR (without
// it, the repository's name) in full.
func (c *cmd) ghClone() {
	if len(c.args) < 4 || optText(c.args[1].f) != "repo" || optText(c.args[2].f) != "clone" {
		return
	}
	var ops []int
	for k := 3; k < len(c.args); k++ {
		t := optText(c.args[k].f)
		if t == "--" {
			break
		}
		if t == "-u" || t == "--upstream-remote-name" {
			k++
			continue
		}
		if !strings.HasPrefix(t, "-") || c.args[k].f.onlyUnk {
			ops = append(ops, k)
		}
	}
	via := "gh repo clone (it writes the folder it clones into)"
	switch {
	case len(ops) >= 2:
		c.gitWritesDir("", c.args[ops[1]].raw, c.args[ops[1]].f, via)
	case len(ops) == 1:
		f := c.args[ops[0]].f
		if f.pattern() {
			c.a.unknown(c.args[ops[0]].raw, "gh repo clone writes a folder named after a repository only known when the command runs", setModify)
			return
		}
		u := strings.TrimSuffix(strings.TrimRight(f.s, "/"), ".git")
		if k := strings.LastIndexAny(u, "/:"); k >= 0 {
			u = u[k+1:]
		}
		if u != "" {
			c.gitWritesDir("", c.args[ops[0]].raw, litField(u), via)
		}
	}
}

// installDirMode: install -d with -m, -o or -g sets the mode or owner of
// folders that exist too, as chmod and chown do.
func (c *cmd) installDirMode() {
	dir, mode := false, false
	for _, ar := range c.args[1:] {
		t := optText(ar.f)
		if t == "--directory" || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t, "d") {
			dir = true
		}
		if t == "--mode" || t == "--owner" || t == "--group" || strings.HasPrefix(t, "--mode=") || strings.HasPrefix(t, "--owner=") || strings.HasPrefix(t, "--group=") ||
			strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t, "mog") {
			mode = true
		}
	}
	if !dir || !mode {
		return
	}
	prev := c.a.noContent
	c.a.noContent = true
	defer func() { c.a.noContent = prev }()
	for _, k := range c.nonOptionArgs(1, []string{"-m", "-o", "-g", "--mode", "--owner", "--group", "-t", "-S", "--suffix", "--target-directory", "-Z"}) {
		c.a.addRec(c.args[k].raw, c.args[k].f, setModify, true, nil, c.name+" -d of a folder (it sets who may open everything below it)", followNone)
	}
}

// operandsFrom returns the indexes of the fields from i on that are not
// options (after `--`, every one).
func (c *cmd) operandsFrom(i int) []int { return c.nonOptionArgs(i, nil) }

// piPackages: pi install/remove/uninstall/update/config change the
// packages pi loads as code, recorded in pi's settings.json (the agent
// dir's, or with -l the project's .pi/settings.json); update also
// rewrites the installed packages, config both scopes' enabled resources.
func (c *cmd) piPackages() {
	sub, at := "", 0
	for k := 1; k < len(c.args); k++ {
		if t := optText(c.args[k].f); !strings.HasPrefix(t, "-") || c.args[k].f.pattern() {
			sub, at = t, k
			break
		}
	}
	if at == 0 {
		return
	}
	if c.args[at].f.pattern() {
		sub = "" // a subcommand named when it runs: any of them
	}
	if !piPackageSub[sub] && sub != "" {
		// an option's value may come first (pi --flag VALUE install …)
		sub = ""
		for k := at + 1; k < len(c.args); k++ {
			if t := optText(c.args[k].f); piPackageSub[t] {
				sub, at = t, k
				break
			}
		}
		if sub == "" {
			return
		}
	}
	local := false
	for _, ar := range c.args[at+1:] {
		if t := optText(ar.f); t == "-l" || t == "--local" || ar.f.pattern() && strings.HasPrefix(t, "-") {
			local = true
		}
	}
	what := "pi " + sub
	if sub == "" {
		what = "pi (a subcommand named when it runs)"
	}
	global := sub == "update" || sub == "config" || sub == "" || !local
	if global {
		dir, known := c.piAgentDir()
		c.a.loadedBy(what+", which registers the packages pi loads as code in pi's settings", litField(dir+"/settings.json"), setModify)
		if sub == "update" || sub == "" {
			c.a.addRec(dir, litField(dir), setModify, true, nil, what+" (it rewrites the installed packages)", followNone)
		}
		if !known {
			c.a.unknown(c.args[0].raw, what+" writes pi's settings.json in its agent dir ($PI_CODING_AGENT_DIR, ~/.pi/agent by default), which the gate protects whatever it is", setModify)
		}
	}
	if local || sub == "config" || sub == "update" || sub == "" {
		c.a.loadedBy(what+" -l, which registers the packages pi loads as code in the project's pi settings", litField(".pi/settings.json"), setModify)
	}
}

// piPackageSub are pi's subcommands that change the packages it loads.
var piPackageSub = map[string]bool{"install": true, "remove": true, "uninstall": true, "update": true, "config": true}

// piAgentDir is pi's agent dir as the command sets it
// (PI_CODING_AGENT_DIR=… pi, or a variable of the script), ~/.pi/agent
// by default; known is false when the environment may set it elsewhere.
func (c *cmd) piAgentDir() (string, bool) {
	if v, ok := c.a.cmdEnvValue("PI_CODING_AGENT_DIR"); ok {
		if strings.ContainsRune(v, unknownRune) {
			return "~/.pi/agent", false
		}
		return strings.TrimSuffix(v, "/"), true
	}
	if v, ok := c.a.vars["PI_CODING_AGENT_DIR"]; ok && v.known && !v.f.pattern() {
		return strings.TrimSuffix(v.f.s, "/"), true
	}
	// the environment may set it (the gate's rule then names that dir)
	return "~/.pi/agent", false
}

// gitDestination: git clone URL [DIR] and git worktree add DIR write the
// folder DIR (clone: the URL's last segment without .git), relative to
// every -C before the subcommand.
func (c *cmd) gitDestination() {
	dir := ""
	i := 1
	for i < len(c.args) {
		t := optText(c.args[i].f)
		switch {
		case t == "-C":
			if i+1 < len(c.args) {
				d := optText(c.args[i+1].f)
				if c.args[i+1].f.pattern() {
					return // git's handler says the folder is unknown
				}
				if strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~") || dir == "" {
					dir = d
				} else {
					dir = dir + "/" + d
				}
			}
			i += 2
			continue
		case t == "-c" || t == "--namespace" || t == "--exec-path" || t == "--super-prefix" || t == "--git-dir" || t == "--work-tree" || t == "--config-env":
			i += 2
			continue
		case strings.HasPrefix(t, "-"):
			i++
			continue
		}
		break
	}
	if i >= len(c.args) {
		return
	}
	sub := optText(c.args[i].f)
	var dest []int
	via := ""
	switch sub {
	case "clone":
		ops := c.nonOptionArgs(i+1, []string{"-o", "--origin", "-b", "--branch", "-u", "--upload-pack", "--template", "-c", "--config", "--depth", "--shallow-since", "--shallow-exclude", "--reference", "--reference-if-able", "--separate-git-dir", "-j", "--jobs", "--filter", "--server-option", "--bundle-uri", "--ref-format"})
		via = "git clone (it writes the folder it clones into)"
		switch len(ops) {
		case 0:
			return
		case 1:
			u := strings.TrimRight(optText(c.args[ops[0]].f), "/")
			if c.args[ops[0]].f.pattern() {
				c.a.unknown(c.args[ops[0]].raw, "git clone writes a folder named after a URL only known when the command runs", setModify)
				return
			}
			if k := strings.LastIndexAny(u, "/:"); k >= 0 {
				u = u[k+1:]
			}
			u = strings.TrimSuffix(u, ".git")
			if u == "" {
				return
			}
			c.gitWritesDir(dir, c.args[ops[0]].raw, litField(u), via)
			return
		default:
			dest = ops[len(ops)-1:]
		}
	case "worktree":
		if i+1 >= len(c.args) || optText(c.args[i+1].f) != "add" && optText(c.args[i+1].f) != "move" && !c.args[i+1].f.pattern() {
			return
		}
		ops := c.nonOptionArgs(i+2, []string{"-b", "-B", "--reason", "--orphan"})
		via = "git worktree " + optText(c.args[i+1].f) + " (it checks a branch out into the folder)"
		if len(ops) == 0 {
			return
		}
		if optText(c.args[i+1].f) == "move" {
			dest = ops[len(ops)-1:]
		} else {
			dest = ops[:1]
		}
	case "submodule":
		if i+1 >= len(c.args) || optText(c.args[i+1].f) != "add" {
			return
		}
		ops := c.nonOptionArgs(i+2, []string{"-b", "--branch", "--name", "--reference", "--depth"})
		via = "git submodule add (it clones into the folder)"
		switch len(ops) {
		case 0:
			return
		case 1:
			u := strings.TrimSuffix(strings.TrimRight(optText(c.args[ops[0]].f), "/"), ".git")
			if c.args[ops[0]].f.pattern() {
				c.a.unknown(c.args[ops[0]].raw, "git submodule add writes a folder named after a URL only known when the command runs", setModify)
				return
			}
			if k := strings.LastIndexAny(u, "/:"); k >= 0 {
				u = u[k+1:]
			}
			if u != "" {
				c.gitWritesDir(dir, c.args[ops[0]].raw, litField(u), via)
			}
			return
		default:
			dest = ops[1:2]
		}
	default:
		return
	}
	for _, k := range dest {
		c.gitWritesDir(dir, c.args[k].raw, c.args[k].f, via)
	}
}

// nonOptionArgs lists the operands from i on, skipping the value of each
// option in valued (as a separate field).
func (c *cmd) nonOptionArgs(i int, valued []string) []int {
	var out []int
	dd := false
	for k := i; k < len(c.args); k++ {
		t := optText(c.args[k].f)
		switch {
		case !dd && t == "--":
			dd = true
		case !dd && contains(valued, t):
			k++
		case !dd && strings.HasPrefix(t, "-") && len(t) > 1 && !c.args[k].f.onlyUnk:
		default:
			out = append(out, k)
		}
	}
	return out
}

// gitWritesDir records a folder git writes in full, below dir (-C).
func (c *cmd) gitWritesDir(dir, raw string, f field, via string) {
	if dir != "" && !f.pattern() && !strings.HasPrefix(f.s, "/") && !strings.HasPrefix(f.s, "~") {
		f = litField(strings.TrimSuffix(dir, "/") + "/" + f.s)
	} else if dir != "" && f.pattern() && !strings.HasPrefix(f.s, "/") {
		f.s = escapeGlob(strings.TrimSuffix(dir, "/")) + "/" + f.s
		f.lead = ""
	}
	name, _, _ := strings.Cut(via, " (")
	c.a.value(raw+" ("+name+" writes this folder)", f, setModify)
	c.a.addRec(raw, f, setModify, true, nil, via, followNone)
}

// accessOfFolders: chmod 000 .claude (chown, chattr +i, setfacl on it)
// changes who may open everything below the folder, not only the folder:
// a folder operand holding a protected path is a change of that path.
func (c *cmd) accessOfFolders() {
	// a change of metadata: it leaves no content to run
	prev := c.a.noContent
	c.a.noContent = true
	defer func() { c.a.noContent = prev }()
	first := 1
	switch c.name {
	case "chmod", "chown", "chgrp", "chcon":
		// the mode, owner or context comes first (not with --reference)
		ref := false
		for _, ar := range c.args[1:] {
			if strings.HasPrefix(optText(ar.f), "--reference") {
				ref = true
			}
		}
		if !ref {
			for k := 1; k < len(c.args); k++ {
				t := optText(c.args[k].f)
				if !strings.HasPrefix(t, "-") || c.name == "chmod" && len(t) > 1 && strings.Trim(t[1:], "rwxXstugo,+-=0123456789") == "" && !strings.HasPrefix(t, "--") {
					first = k + 1
					break
				}
			}
		}
	}
	var skipNext bool
	for k := first; k < len(c.args); k++ {
		t := optText(c.args[k].f)
		if skipNext {
			skipNext = false
			continue
		}
		switch {
		case t == "--":
			continue
		case c.name == "setfacl" && (t == "-m" || t == "-x" || t == "-M" || t == "-X" || t == "--modify" || t == "--remove" || t == "--set" || t == "--modify-file" || t == "--remove-file" || t == "--set-file"),
			c.name == "setfattr" && (t == "-n" || t == "-v" || t == "-x" || t == "--name" || t == "--value" || t == "--remove" || t == "--restore"):
			skipNext = true
			continue
		case c.name == "chattr" && (strings.HasPrefix(t, "+") || strings.HasPrefix(t, "=")),
			strings.HasPrefix(t, "-") && len(t) > 1 && !c.args[k].f.onlyUnk:
			continue
		}
		ar := c.args[k]
		if c.a.dirKind(ar.f.s) == -1 {
			continue // a file: its own rule applies
		}
		c.a.addRec(ar.raw, ar.f, setModify, true, nil, c.name+" of a folder (it changes who may open everything below it)", followNone)
	}
}

// cmakeTool: cmake -E COMMAND ARGS… is a portable cp, mv, rm, touch,
// mkdir, ln and tar: copy and copy_if_different put each source into a
// destination folder (or onto a file), rename replaces its destination,
// rm, remove and remove_directory delete, copy_directory writes a folder
// in full. Any other -E command's operands are writes too (fails closed).
func (c *cmd) cmakeTool() {
	e := -1
	for k := 1; k+1 < len(c.args); k++ {
		if optText(c.args[k].f) == "-E" {
			e = k
			break
		}
	}
	if e < 0 {
		return
	}
	sub := optText(c.args[e+1].f)
	via := "cmake -E " + sub
	ops := c.operandsFrom(e + 2)
	switch sub {
	case "echo", "echo_append", "env", "environment", "capabilities", "sleep", "true", "false", "time", "compare_files", "sha256sum", "sha1sum", "md5sum", "sha512sum", "cat", "chdir":
		return // prints, compares or runs a command (cmake's own handling)
	case "copy", "copy_if_different", "copy_if_newer", "copy_directory", "copy_directory_if_different", "create_symlink", "create_hardlink", "rename":
		for k := e + 2; k+1 < len(c.args); k++ {
			if optText(c.args[k].f) == "-t" {
				// copy -t DEST FILE…: every operand is a source
				d := c.args[k+1]
				c.a.value(d.raw, d.f, setModify)
				c.a.addRec(d.raw, d.f, setModify, true, nil, via+" -t (it copies into the folder)", followNone)
			}
		}
		if len(ops) < 2 {
			break
		}
		dst := c.args[ops[len(ops)-1]]
		c.a.value(dst.raw+" ("+via+" writes its destination)", dst.f, setModify)
		for _, k := range ops[:len(ops)-1] {
			if base, ok := fieldBase(c.args[k].f); ok && !strings.HasPrefix(sub, "create_") && sub != "rename" && !strings.HasPrefix(sub, "copy_directory") {
				c.a.value(dst.raw+" ("+via+" puts "+base.s+" into folder "+dst.f.s+")", joinBase(dst.f, base), setModify)
			}
		}
		if strings.HasPrefix(sub, "copy_directory") || sub == "rename" {
			c.a.addRec(dst.raw, dst.f, setModify, true, nil, via, followNone)
		}
		if sub == "rename" {
			c.a.value(c.args[ops[0]].raw+" ("+via+" removes its source)", c.args[ops[0]].f, setModify)
		}
		return
	}
	for _, k := range ops {
		c.a.value(c.args[k].raw+" ("+via+" writes it)", c.args[k].f, setModify)
		if sub == "rm" || sub == "remove_directory" || sub == "remove" || sub == "tar" || !strings.HasPrefix(sub, "make_directory") && !strings.HasPrefix(sub, "touch") {
			c.a.addRec(c.args[k].raw, c.args[k].f, setModify, true, nil, via, followNone)
		}
	}
}

// renameExpr: rename (perl's: rename EXPR FILE…; util-linux's: rename
// FROM TO FILE…) computes each new name, which may be any name in the
// file's folder (or, with a slash in it, below): a file operand whose
// folder holds a protected path is a possible write of it.
func (c *cmd) renameExpr() {
	ops := c.nonOptionArgs(1, []string{"-e", "-E"})
	if len(ops) < 2 {
		return
	}
	for _, k := range ops[1:] {
		f := c.args[k].f
		c.a.value(c.args[k].raw+" ("+c.name+" renames it)", f, setModify)
		dir := "."
		if !f.pattern() {
			dir = path.Dir(strings.TrimRight(f.s, "/"))
		} else if i := strings.LastIndexByte(f.lead, '/'); i >= 0 {
			dir = f.lead[:i+1]
		}
		c.a.addRec(dir, litField(dir), setModify, true, nil, c.name+" (it computes the new names of "+c.args[k].raw+", which may be any name in its folder)", followNone)
	}
}

// mediaOutputs: ffmpeg writes every operand that is not an input (-i
// FILE); convert and magick write their last operand (and -write FILE).
func (c *cmd) mediaOutputs() {
	if c.name == "ffmpeg" {
		for k := 1; k < len(c.args); k++ {
			t := optText(c.args[k].f)
			if t == "-i" {
				k++
				continue
			}
			if !strings.HasPrefix(t, "-") || c.args[k].f.onlyUnk {
				c.a.value(c.args[k].raw+" (ffmpeg writes every operand but its -i inputs)", c.args[k].f, setModify)
			}
		}
		return
	}
	ops := c.operandsFrom(1)
	for k := 1; k+1 < len(c.args); k++ {
		if optText(c.args[k].f) == "-write" {
			c.a.value(c.args[k+1].raw+" ("+c.name+" -write writes it)", c.args[k+1].f, setModify)
		}
	}
	if len(ops) >= 2 {
		k := ops[len(ops)-1]
		c.a.value(c.args[k].raw+" ("+c.name+" writes its last operand)", c.args[k].f, setModify)
	}
}

// yqInPlace: yq -i (--inplace) writes the files it reads.
func (c *cmd) yqInPlace() {
	inplace := false
	for _, ar := range c.args[1:] {
		t := optText(ar.f)
		if t == "-i" || t == "--inplace" || strings.HasPrefix(t, "--inplace=") || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t, "i") && len(t) <= 4 {
			inplace = true
		}
	}
	if !inplace {
		return
	}
	for _, k := range c.operandsFrom(1) {
		c.a.value(c.args[k].raw+" (yq -i rewrites the files it reads)", c.args[k].f, setModify)
	}
}

// copyIntoCall matches a copy or move call of two string literals:
// shutil.copy/copy2/move/copytree, os.rename/replace, fs.copyFileSync,
// fs.cpSync, fs.renameSync and their async forms, FileUtils.cp/mv,
// File.Copy, PHP's copy/rename, Perl's File::Copy copy/move.
var copyIntoCall = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(` + copyFuncs + `)\s*\(\s*` + copyArg + `\s*\)?\s*,\s*` + copyArg)
}) // compiled when first used, not at every start-up

// copyFuncs are the copy and move calls' names; copyArg is one string
// literal argument, maybe by keyword (dst="…") or wrapped in a call
// (os.path.expanduser("~/x"), Path("x")).
const (
	copyFuncs = `copy2?|copyfile|copyfilesync|copytree|move|mv|cp|cpsync|rename|renamesync|replace|copy_file|copyto`
	copyArg   = `(?:\w+\s*=\s*)?(?:[\w.]+\s*\(\s*)?(?:[rbuf]{1,2})?("[^"\\]*"|'[^'\\]*'|` + "`[^`\\\\$]*`" + `)`
)

// copyAnyIntoCall is copyIntoCall with a source the code computes (a
// variable, an expression): it may be any name.
var copyAnyIntoCall = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(` + copyFuncs + `)\s*\(\s*([^,()'"` + "`" + `]+)\s*,\s*` + copyArg)
})

// codeCopiesInto: code that copies or moves a file to a destination that
// is (or may be) a folder writes DEST/basename(SRC) there, as cp does
// (`shutil.copy("/tmp/settings.json", ".claude")`); a folder copied
// (copytree, cpSync recursive) or moved is written in full.
func (a *shellAnalyzer) codeCopiesInto(code, raw, lang string) {
	if lang == "sed" || lang == "awk" || lang == "jq" {
		return
	}
	for _, m := range copyIntoCall().FindAllStringSubmatch(code, 32) {
		src, dst := m[2][1:len(m[2])-1], m[3][1:len(m[3])-1]
		if src == "" || dst == "" || strings.ContainsAny(dst+src, "{}%") {
			continue
		}
		if a.dirKind(dst) == -1 {
			continue // a file: the literal itself is the write
		}
		fn := strings.ToLower(m[1])
		base, ok := fieldBase(litField(src))
		if ok {
			a.value(dst+" ("+m[1]+" puts "+base.s+" into folder "+dst+")", joinBase(litField(dst), base), setModify)
		}
		if fn == "copytree" || fn == "cpsync" || fn == "cp" || fn == "move" || fn == "mv" || fn == "rename" || fn == "renamesync" || fn == "replace" {
			a.addRec(dst, litField(dst), setModify, true, nil, m[1]+" in code (it writes what it copies or moves into the folder)", followNone)
		}
	}
	for _, m := range copyAnyIntoCall().FindAllStringSubmatch(code, 32) {
		dst := m[3][1 : len(m[3])-1]
		if dst == "" || a.dirKind(dst) == -1 {
			continue
		}
		a.addRec(dst, litField(dst), setModify, true, nil, m[1]+" in code (a source named when the code runs may have any name in the folder)", followNone)
	}
}
