package guard

import (
	"path"
	"strings"
)

// gitGrepWidens are the git grep options that search more than the files
// git tracks (untracked and ignored files, submodules) or run a command
// (the pager of -O), each with its abbreviations.
var gitGrepWidens = []string{"--untracked", "--no-index", "--no-exclude-standard", "--recurse-submodules", "--open-files-in-pager"}

// gitGrepSafe are long options that are not abbreviations of a widening
// one though they begin like one (an exact name wins in git).
var gitGrepSafe = map[string]bool{"--or": true, "--not": true, "--null": true, "--no-color": true, "--no-recursive": true,
	"--no-textconv": true}

// gitGrep: git grep reads the work-tree files git tracks below the current
// folder (or its pathspecs), hidden names included. With the disk, one
// known working folder and a readable index, only those files count: an
// untracked or ignored .env is not searched, a tracked one is
// (matchTracked). Anything else is the recursive read of the folder it was
// before: no disk, an index or work tree the command may change or move
// (GIT_DIR, GIT_INDEX_FILE, --work-tree, git add earlier), options that
// widen the search (--no-index, --no-exclude-standard,
// --recurse-submodules, their abbreviations; --untracked adds what
// .gitignore surely ignores to the files read, as git add does), an argument computed when it
// runs, trees (revisions: history is not covered) or a pattern after `--`.
// A pager given to -O runs as a shell command with the matching files.
func (c *cmd) gitGrep(i int, roots []field) {
	a := c.a
	wide := a.env.FS == nil || a.ignoresMayChange || a.indexMayChange || len(roots) > 1 ||
		len(a.cwds) != 1 || strings.ContainsRune(a.cwd(), unknownRune)
	via := "git grep"
	untracked := false
	if !wide {
		// outside a repository git may fall back to --no-index
		// (grep.fallbackToNoIndex); with submodules, submodule.recurse
		// makes it search their files too
		root := repositoryOf(a.env.FS, a.cwd())
		if _, err := a.env.FS.Lstat(strings.TrimSuffix(root, "/") + "/.gitmodules"); root == "" || err == nil {
			wide, via = true, "git grep (outside a repository, or with submodules or a .git file: what it searches is not known)"
		}
	}
	icase := strings.Contains(strings.ToUpper(a.src), "ICASE")
	var specs []int // the `--` and the pathspecs after it
	var positional []int
	pattern := false // -e or -f gave the pattern
	for k := i + 1; k < len(c.args); k++ {
		f := c.args[k].f
		t := optText(f)
		if len(specs) > 0 || !f.pattern() && t == "--" {
			specs = append(specs, k)
			continue
		}
		if f.pattern() {
			if f.lead == "" || strings.HasPrefix(f.lead, "-") {
				// may be -OCMD, which runs CMD
				a.unknown(c.args[k].raw, "git grep with an argument computed when it runs (it may be an option, -O runs a command)", SetRead|setModify)
				return
			}
			wide = true // a tree or a path
			positional = append(positional, k)
			continue
		}
		if t == "(" || t == ")" || t == "-" || !strings.HasPrefix(t, "-") {
			if t != "(" && t != ")" {
				positional = append(positional, k)
			}
			continue
		}
		if strings.HasPrefix(t, "--") {
			name, val, eq := strings.Cut(t, "=")
			switch name {
			case "--regexp", "--file", "--max-depth", "--threads", "--max-count", "--after-context", "--before-context", "--context":
				if name == "--regexp" || name == "--file" {
					pattern = true
				}
				if !eq && k+1 < len(c.args) {
					k++
					c.done[k] = name != "--file"
				}
				continue
			}
			if gitGrepSafe[name] {
				continue
			}
			for _, w := range gitGrepWidens {
				if len(name) > 2 && strings.HasPrefix(w, name) {
					if w == "--untracked" {
						untracked = true // and what .gitignore does not ignore
						continue
					}
					wide, via = true, "git grep "+w
					if strings.HasPrefix("--open-files-in-pager", name) && eq {
						c.gitGrepPager(k, val)
					}
				}
			}
			continue
		}
		// a bundle of short options: e, f, A, B, C, m take a value (the
		// rest of the bundle or the next argument), O an attached one
		for j := 1; j < len(t); j++ {
			switch t[j] {
			case 'e', 'f', 'A', 'B', 'C', 'm':
				if t[j] == 'e' || t[j] == 'f' {
					pattern = true
				}
				if j == len(t)-1 && k+1 < len(c.args) {
					k++
					c.done[k] = t[j] != 'f' // a pattern file is a file read
				}
				j = len(t)
			case 'O':
				wide = true
				if j+1 < len(t) {
					c.gitGrepPager(k, t[j+1:])
				}
				j = len(t)
			}
		}
	}
	switch {
	case !pattern && len(positional) > 0:
		c.done[positional[0]] = true // the pattern, not a path
		positional = positional[1:]
	case !pattern && len(specs) > 1:
		// `git grep -- PATTERN [-- PATHSPEC…]`
		c.done[specs[0]], c.done[specs[1]] = true, true
		rest := specs[2:]
		specs = nil
		if len(rest) > 0 && !c.args[rest[0]].f.pattern() && optText(c.args[rest[0]].f) == "--" {
			specs = rest
		} else {
			positional = rest
		}
	}
	for _, k := range positional {
		if strings.HasPrefix(c.args[k].f.s, ":") {
			// a magic pathspec (:/ is the repository's root)
			a.unknown(c.args[k].raw, "a git pathspec with magic the analysis does not model (:/, :(glob), …)", SetRead)
			return
		}
	}
	var paths []int // positional pathspecs: names on the disk, or globs
	if len(positional) > 0 && len(specs) == 0 && !wide && !modifiedBefore(a) {
		// (before a `--` every argument is a revision)
		// without `--` git takes an argument for a path when it is not a
		// revision and names a file (or is a glob); one that names a file
		// and is a revision too is an error: a name on the disk is never a
		// tree. Anything else may be one (history: the recursive read).
		for _, k := range positional {
			f := c.args[k].f
			// (a glob, unless it may be a revision: HEAD^{/fix*} is one)
			glob := strings.ContainsAny(f.s, "*?[") && !strings.ContainsAny(f.s, "^~@{}:")
			if f.pattern() || !glob && !existsOnDisk(a, f.s) {
				paths = nil
				break
			}
			paths = append(paths, k)
		}
		if len(paths) == len(positional) {
			positional = nil
		}
	}
	if len(positional) > 0 {
		// trees (or paths git tells from revisions by itself)
		wide, via = true, "git grep (an argument that names no file may be a revision: its tree is searched)"
	}
	// the folders the pathspecs stay in
	var dirs []field
	if len(specs) > 0 {
		c.done[specs[0]] = true
	}
	for _, k := range append(paths, specs[min(1, len(specs)):]...) {
		c.done[k] = true
		f := c.args[k].f
		c.a.value(c.args[k].raw, f, SetRead)
		r, ok := "", false
		if !f.pattern() {
			r, ok = gitSpecRoot(f.s, icase)
		}
		if !ok {
			a.unknown(c.args[k].raw, "a git pathspec computed when it runs or with magic the analysis does not model (:/, :(glob), …)", SetRead)
			return
		}
		if r != "" {
			dirs = append(dirs, litField(r))
		}
	}
	if len(dirs) == 0 {
		dirs = []field{litField(".")} // none, or excludes only: the current folder
	}
	if wide {
		// an argument git may take for a path is read too (a revision
		// names no folder on the disk)
		for _, k := range positional {
			if f := c.args[k].f; !f.pattern() {
				if r, ok := gitSpecRoot(f.s, icase); ok && r != "" {
					dirs = append(dirs, litField(r))
				}
			}
		}
	}
	for _, r := range dirs {
		switch {
		case wide:
			a.addRec(r.s, r, SetRead, true, nil, via, followNone)
		case untracked:
			// the tracked files and the untracked ones .gitignore does not
			// ignore: git add's recursion (see gitIgnorer)
			a.addRecVCS(r.s, r, SetRead, true, "git grep --untracked")
		default:
			a.addTracked(r.s, r, "git grep (the files git tracks)")
		}
	}
}

// gitSpecRoot is the folder a git pathspec stays in: the spec up to its
// first segment with a wildcard (git's pathspecs are globs), "." for a
// case-insensitive match, "" for an exclude (:!x, :^x, :(exclude)x);
// false for other magic.
func gitSpecRoot(s string, icase bool) (string, bool) {
	if strings.HasPrefix(s, ":") {
		switch {
		case strings.HasPrefix(s, ":!"), strings.HasPrefix(s, ":^"), strings.HasPrefix(s, ":(exclude)"):
			return "", true
		}
		return "", false
	}
	if icase || s == "" {
		return ".", true
	}
	segs := strings.Split(s, "/")
	for n, seg := range segs {
		if strings.ContainsAny(seg, "*?[\\") {
			if n == 0 {
				return ".", true
			}
			return strings.Join(segs[:n], "/"), true
		}
	}
	return s, true
}

// gitGrepPager: git grep -O/--open-files-in-pager=CMD runs `sh -c 'CMD
// "$@"'` with the matching files.
func (c *cmd) gitGrepPager(k int, cmdText string) {
	f := litField(cmdText + ` "$@"`)
	c.a.childShell(nil, false, false, func() { c.scriptField(c.args[k].raw, f, source{}) })
}

// repositoryOf is the root of the git repository dir lies in, when its
// `.git` is a folder ("" otherwise: none, or a `.git` file that points
// elsewhere).
func repositoryOf(fsys FS, dir string) string {
	for d := dir; ; d = path.Dir(d) {
		if fi, err := fsys.Lstat(strings.TrimSuffix(d, "/") + "/.git"); err == nil {
			if fi.IsDir() {
				return d
			}
			return ""
		}
		if d == path.Dir(d) || d == "" || d == "." {
			return ""
		}
	}
}

// modifiedBefore reports whether the command changed any file (or may
// have) before this point: what the disk shows may not be what git sees.
func modifiedBefore(a *shellAnalyzer) bool {
	for i := range a.out.targets {
		if a.out.targets[i].ops&setModify != 0 {
			return true
		}
	}
	return false
}

// existsOnDisk reports whether p (relative to the one working folder)
// names something on the disk.
func existsOnDisk(a *shellAnalyzer, p string) bool {
	if a.env.FS == nil || len(a.cwds) != 1 {
		return false
	}
	env := a.env
	env.Cwd = a.cwds[0]
	n, pat := normalize(env, p, spellShell, false)
	if pat {
		return false
	}
	_, err := a.env.FS.Lstat(n)
	return err == nil
}
