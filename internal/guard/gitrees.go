package guard

import (
	"path"
	"strings"
)

// Pass 33: git as a write primitive. A git command that writes files into
// the work tree writes them from one of two places:
//
//   - the index (git checkout -- PATHS, git restore PATHS, checkout-index,
//     sparse-checkout): the index on the disk says which files, checked
//     by matchTracked — unless a git command earlier in the same command
//     may have changed it (update-index, add, read-tree, …), when what it
//     holds is not known;
//   - a commit or tree (merge, pull, rebase, cherry-pick, revert, reset
//     --hard, checkout BRANCH, switch, stash pop, read-tree -u, bisect,
//     submodule update): its files are in objects pruner does not read,
//     and an agent can make such a commit itself. Denied in every
//     repository, unless pathspecs limit what is written (git checkout
//     REV -- src/a.go): then each pathspec is checked as a folder that
//     may hold anything.
//
// gitTrees records what git subcommand sub (at c.args[i]) writes so;
// keeps reports that it leaves the index as it is (a new branch where
// HEAD is, the index's own files written out), so a later git command
// still reads the index on the disk.
func (c *cmd) gitTrees(sub string, i int, roots []field) (keeps bool) {
	switch sub {
	case "checkout", "switch", "restore", "reset", "stash", "read-tree", "checkout-index", "bisect",
		"pull", "merge", "rebase", "cherry-pick", "revert", "am", "filter-branch", "submodule", "sparse-checkout":
	default:
		return false
	}
	valued := map[string]bool{}
	switch sub {
	case "checkout":
		valued = map[string]bool{"-b": true, "-B": true, "--orphan": true}
	case "switch":
		valued = map[string]bool{"-c": true, "-C": true, "--create": true, "--force-create": true, "--orphan": true}
	case "restore":
		valued = map[string]bool{"-s": true, "--source": true}
	case "checkout-index":
		valued = map[string]bool{"--prefix": true}
	case "read-tree":
		valued = map[string]bool{"--prefix": true, "--index-output": true, "--exclude-per-directory": true}
	case "stash":
		valued = map[string]bool{"-m": true, "--message": true}
	}
	var flags []string
	vals := map[string]field{}
	var pre, post []int // operands before and after `--`
	dd := -1
	for k := i + 1; k < len(c.args); k++ {
		f := c.args[k].f
		t := optText(f)
		switch {
		case dd < 0 && t == "--":
			dd = k
		case dd < 0 && strings.HasPrefix(t, "-") && t != "-" && !f.onlyUnk:
			name, _, eq := strings.Cut(t, "=")
			flags = append(flags, name)
			if valued[name] {
				if eq {
					vals[name] = subField(f, len(name)+1)
				} else if k+1 < len(c.args) {
					k++
					vals[name] = c.args[k].f
				}
			}
		case dd >= 0:
			post = append(post, k)
		default:
			pre = append(pre, k)
		}
	}
	has := func(names ...string) bool {
		for _, fl := range flags {
			for _, n := range names {
				if fl == n || len(n) == 2 && !strings.HasPrefix(fl, "--") && strings.ContainsRune(fl[1:], rune(n[1])) {
					return true
				}
			}
		}
		return false
	}
	first := ""
	if len(pre) > 0 {
		first = optText(c.args[pre[0]].f)
	}
	all := append(append([]int{}, pre...), post...)
	raw := c.args[i].raw
	tree := func(what string) {
		c.a.unknown(raw, "git "+sub+" writes the files of "+what+" pruner cannot read into the work tree; they may add .claude/settings.json, .pi/settings.json or any protected file; run it outside the agent", setModify)
	}
	switch sub {
	case "checkout":
		switch {
		case has("-p", "--patch") && len(all) == 0 && !has("-b", "-B", "--orphan"):
			c.gitIndexWrite(sub, i, nil, roots) // hunks of the index
			keeps = true
		case dd >= 0 && len(pre) == 0:
			c.gitIndexWrite(sub, i, post, roots)
			keeps = true
		case dd >= 0:
			c.gitRevPaths(sub, i, post, roots)
		case has("-b", "-B") && len(pre) == 0, has("--orphan") && len(pre) == 0:
			// a new branch where HEAD is: the work tree stays (--orphan
			// keeps it too)
			keeps = true
		case len(pre) == 0:
			if has("-f", "--force", "-m", "--merge") {
				tree("HEAD's commit")
			}
		case has("-b", "-B", "--orphan", "--detach", "-t", "--track", "--guess") || c.args[pre[0]].f.pattern() || gitMayBeRev(first):
			if len(pre) == 1 || has("-b", "-B", "--orphan", "--detach", "-t", "--track") {
				c.a.unknown(raw, "git checkout "+showWord(first)+" may switch to a branch or commit, whose files pruner cannot read; they may add .claude/settings.json or any protected file (for a file from the index write `git checkout -- FILE`); run it outside the agent", setModify)
				break
			}
			// REV PATHS…, or PATHS… from the index when the first is no revision
			c.gitRevPaths(sub, i, pre[1:], roots)
			c.gitIndexWrite(sub, i, pre, roots)
		default:
			c.gitIndexWrite(sub, i, pre, roots)
			keeps = true
		}
	case "switch":
		switch {
		case has("-c", "-C", "--create", "--force-create") && len(pre) == 0:
			keeps = true
		case has("--orphan"):
		case len(pre) == 0 && !has("--detach", "-d", "-f", "--force", "--discard-changes", "-m", "--merge"):
			// no branch: git refuses
		default:
			tree("a branch or commit")
		}
	case "restore":
		if has("--staged", "-S") && !has("--worktree", "-W") {
			break // the index only
		}
		if _, ok := vals["--source"]; ok || has("-s", "--staged", "-S") {
			c.gitRevPaths(sub, i, all, roots) // from a commit (--staged --worktree: HEAD)
			break
		}
		c.gitIndexWrite(sub, i, all, roots)
		keeps = true
	case "reset":
		if has("--hard", "--merge", "--keep") {
			tree("a commit (HEAD's or the one named)")
		}
	case "stash":
		switch s2 := first; s2 {
		case "list", "show", "drop", "clear", "create", "store":
		case "", "push", "save":
			// the work tree goes back to HEAD's files: only the paths
			// named after `--` when there are
			if len(post) > 0 {
				c.gitRevPaths(sub, i, post, roots)
				break
			}
			if s2 == "push" && len(pre) > 1 {
				c.gitRevPaths(sub, i, pre[1:], roots)
				break
			}
			tree("HEAD's commit (it sets the work tree back to it)")
		default:
			tree("a stash (a commit made earlier)")
		}
	case "read-tree":
		if has("-u") {
			tree("a tree")
		}
	case "checkout-index":
		keeps = true
		if has("-n", "--no-create") {
			break
		}
		if p, ok := vals["--prefix"]; ok {
			// the index's files written below PREFIX
			if p.pattern() {
				c.a.unknown(raw, "git checkout-index --prefix writes below a folder computed when it runs", setModify)
				break
			}
			// the reason names the prefix, not the subcommand
			d := litField(path.Dir(p.s + "x"))
			c.a.addRec(p.s, d, setModify, true, nil, "git checkout-index --prefix (writes the index's files below it)", followNone)
			break
		}
		if has("--stdin") {
			c.a.unknown(raw, "git checkout-index --stdin writes the files named on its input", setModify)
			break
		}
		if has("-a", "--all") || len(all) == 0 {
			c.gitIndexWrite(sub, i, nil, roots)
			break
		}
		c.gitIndexWrite(sub, i, all, roots)
	case "bisect":
		switch first {
		case "log", "visualize", "view", "help", "terms":
		default:
			tree("the commits it visits")
		}
	case "pull", "merge", "rebase", "cherry-pick", "revert", "am", "filter-branch":
		if has("--quit", "--show-current-patch", "--help") {
			break
		}
		if sub == "am" && !has("--abort", "--skip") {
			return false // the patches' files (read by the apply/am case)
		}
		tree("commits")
	case "submodule":
		if first == "update" {
			tree("the submodules' commits")
		}
	case "sparse-checkout":
		switch first {
		case "list", "check-rules", "":
		default:
			// index entries skipped until now are written
			c.gitIndexWrite(sub, i, nil, roots)
		}
	}
	return keeps
}

// gitMayBeRev reports whether a checkout operand may name a branch, tag or
// commit: not ".", "..", a name with a component starting with "." or
// ending in "/" (no ref has those), which git takes for a path.
func gitMayBeRev(s string) bool {
	if s == "" || s == "." || s == ".." || strings.HasSuffix(s, "/") || strings.HasPrefix(s, "/") {
		return false
	}
	for seg := range strings.SplitSeq(s, "/") {
		if strings.HasPrefix(seg, ".") || seg == "" {
			return false
		}
	}
	return true
}

// gitIndexWrite records files git writes from the index: the paths at
// ks (nil: every file below each root). When a git command earlier in
// the command may have changed the index, or git is pointed at another
// index, repository or work tree, what it holds is not known.
func (c *cmd) gitIndexWrite(sub string, i int, ks []int, roots []field) {
	via := "git " + sub + " (it writes the files of the index)"
	if c.a.indexMayChange {
		c.a.unknown(c.args[i].raw, "git "+sub+" writes the files of an index a git command earlier in the command may have changed (update-index, add, read-tree, …), which pruner cannot read", setModify)
		return
	}
	if c.gitElsewhere(i) {
		// another repository's index: every file below may be written
		for _, r := range append([]field{litField(".")}, roots...) {
			c.a.addRec(r.s, r, setModify, true, nil, via+" (in a repository or work tree set elsewhere)", followNone)
		}
		return
	}
	if len(ks) == 0 {
		for _, r := range roots {
			c.a.addTrackedWrite(r.s, r, via, true)
		}
		return
	}
	for _, k := range ks {
		f := c.args[k].f
		if t := optText(f); strings.HasPrefix(t, ":") || strings.ContainsAny(t, "*?[") || f.pattern() {
			f = litField(".")
		}
		c.a.addTrackedWrite(c.args[k].raw, f, via, false)
	}
}

// gitElsewhere: git is pointed at another repository, index or work
// tree (GIT_DIR=…, --git-dir, --work-tree, -c core.worktree=…) or its
// options are computed when the command runs.
func (c *cmd) gitElsewhere(i int) bool {
	if c.a.gitElsewhere {
		return true
	}
	for k := 1; k < i; k++ {
		t := strings.ToLower(optText(c.args[k].f))
		if strings.HasPrefix(t, "--git-dir") || strings.HasPrefix(t, "--work-tree") || strings.HasPrefix(t, "core.worktree=") ||
			strings.HasPrefix(t, "--config-env") || c.args[k].f.pattern() {
			return true
		}
	}
	return false
}

// gitRevPaths records the pathspecs of a git command that writes them
// from a commit or tree (git checkout REV -- PATHS, git restore --source):
// what the commit holds there is not known, so each is a folder that may
// hold any file; a glob or pathspec magic may match any path.
func (c *cmd) gitRevPaths(sub string, i int, ks []int, roots []field) {
	via := "git " + sub + " (writes a commit's files there, which pruner cannot read)"
	if len(ks) > 0 && c.gitElsewhere(i) {
		// the paths are the other work tree's: any file below may be written
		for _, r := range append([]field{litField(".")}, roots...) {
			c.a.addRec(r.s, r, setModify, true, nil, via+" (in a repository or work tree set elsewhere)", followNone)
		}
		return
	}
	for _, k := range ks {
		f := c.args[k].f
		c.done[k] = true
		if t := optText(f); strings.HasPrefix(t, ":") || strings.ContainsAny(t, "*?[") || f.pattern() {
			c.a.unknown(c.args[k].raw, "git "+sub+" writes a commit's files the pathspec "+showWord(t)+" matches, which may be any path, a protected one included; pruner cannot read the commit", setModify)
			continue
		}
		c.a.addRec(c.args[k].raw, f, setModify, true, nil, via, followNone)
	}
}

// gitConfigSource: git reads the file f as configuration for this
// command (-c include.path=FILE, GIT_CONFIG_GLOBAL=FILE, GIT_CONFIG=FILE,
// GIT_CONFIG_VALUE_n of include.path): its aliases, pagers, editors and
// hooks run. A file the command wrote is read as it writes it
// (writtenConfig); one on the disk is read and each key checked as `git
// config KEY VALUE` is (gitKeyRunsLater); one pruner cannot read — no
// disk, a name computed when the command runs, too big — is denied. A
// file that does not exist is no configuration.
func (a *shellAnalyzer) gitConfigSource(raw string, f field, via string) {
	if _, ok := a.writtenFile(f); ok {
		a.writtenConfig(raw, f)
		return
	}
	if f.pattern() {
		a.unknown(raw, via+" makes git read configuration from a file named when the command runs, whose keys may run commands", SetRead|setModify)
		return
	}
	if f.s == "" || noHooks(f.s) {
		return
	}
	home := a.home()
	var ps []string
	for _, cwd := range a.cwds {
		p, _ := joinOrNorm(a, cwd, f.s)
		if home != "" && (p == home+"/.gitconfig" || p == home+"/.config/git/config") {
			continue // git's own global configuration, read anyway
		}
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return
	}
	fsys := a.env.FS
	if fsys == nil {
		a.unknown(raw, via+" makes git read configuration from "+showWord(f.s)+", which pruner cannot read without the disk (its keys may run commands)", SetRead|setModify)
		return
	}
	for _, p := range ps {
		if strings.ContainsRune(p, unknownRune) || globCwd(p) {
			a.unknown(raw, via+" makes git read configuration from "+showWord(f.s)+" in a folder named when the command runs, which pruner cannot read", SetRead|setModify)
			return
		}
		b, exists, ok := readSmallFile(fsys, p, 1<<20)
		if !exists {
			continue
		}
		if !ok {
			a.unknown(raw, via+" makes git read configuration from "+p+", which pruner cannot read", SetRead|setModify)
			return
		}
		for _, kv := range gitConfigEntries(string(b)) {
			if why := gitKeyRunsLater(kv[0], kv[1], false); why != "" {
				a.unknown(raw, via+" makes git read configuration from "+p+", which sets "+kv[0]+": "+why, SetRead|setModify)
				return
			}
		}
	}
}

// gitConfigPathLike says whether a GIT_CONFIG_VALUE_n value may name a
// configuration file (include.path's): a path, not a word like true.
func gitConfigPathLike(v string) bool {
	return strings.ContainsAny(v, "/.~")
}

// gitDiskAlias: `git NAME` where the repository's configuration or git's
// global one (read from the disk) defines alias.NAME runs that alias: `git
// VALUE ARGS…`, or with `!` a shell command, read as that command (pass
// 33: an alias for merge written by an earlier call). git's own
// subcommands win over aliases, so reading one that shadows a subcommand
// only adds checks. The shell's depth limit ends an alias loop.
func (c *cmd) gitDiskAlias(sub string, i int) {
	fsys := c.a.env.FS
	if fsys == nil || c.args[i].f.pattern() || sub == "" || strings.HasPrefix(sub, "-") {
		return
	}
	var files []string
	if home := c.a.home(); home != "" {
		files = append(files, home+"/.gitconfig", home+"/.config/git/config")
	}
	for _, cwd := range c.a.cwds {
		if strings.ContainsRune(cwd, unknownRune) || globCwd(cwd) {
			continue
		}
		for d := cwd; d != "" && d != "/"; d = path.Dir(d) {
			if fi, err := fsys.Lstat(d + "/.git"); err == nil && fi.IsDir() {
				files = append(files, d+"/.git/config")
				break
			}
		}
	}
	want := "alias." + strings.ToLower(sub)
	for _, f := range files {
		b, exists, ok := readSmallFile(fsys, f, 1<<20)
		if !exists || !ok {
			continue
		}
		for _, kv := range gitConfigEntries(string(b)) {
			if strings.ToLower(kv[0]) != want {
				continue
			}
			v := strings.TrimSpace(kv[1])
			if cmdText, bang := strings.CutPrefix(v, "!"); bang {
				c.a.script(cmdText, c.args[i].raw, source{})
				continue
			}
			if first, _, _ := strings.Cut(v, " "); first == sub {
				continue // git refuses an alias of itself
			}
			line := "git " + v
			for _, ar := range c.args[i+1:] {
				line += " " + ar.raw
			}
			c.a.script(line, c.args[i].raw, source{})
		}
	}
}
