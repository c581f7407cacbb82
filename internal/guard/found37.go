package guard

// Pass 37: names find prints, given to a command that writes them (`find
// . -name own.ts -exec cp /tmp/x {} \;`, `find . -name '*.ts' | xargs sed
// -i …`). Each name is a pattern below the folder searched with an unknown
// run of folders (findOutput), which the rules do not take to be a
// protected folder by itself and the disk cannot expand: the write passed
// even where .pi/extensions/own.ts was on the disk. What the command does to
// a found name it does to every file find may print, so each searched
// folder is checked as a whole with find's name filter, as the readers
// (find -exec cat) and deleters (-delete, -exec rm) were.

// foundRoot is a folder find searches and the filter of the names it
// prints (nil: any name).
type foundRoot struct {
	raw    string
	f      field
	filter []string
	follow uint8
	hidden bool // it prints hidden names (find; fd -H)
	via    string
}

// registerFound notes the patterns of the names a finder prints (found),
// each standing for a name below one of roots.
func (a *shellAnalyzer) registerFound(found []field, roots []foundRoot) {
	if len(roots) == 0 {
		return
	}
	if a.foundPaths == nil {
		a.foundPaths = map[string][]foundRoot{}
	}
	for _, f := range found {
		p, _ := a.norm(f.s, true)
		if len(a.foundPaths[p]) < 8 {
			a.foundPaths[p] = append(a.foundPaths[p], roots...)
		}
	}
}

// foundWrite: a write of a found name's pattern, however the name got
// there (a loop over $(find …), `while read f`, `sh -c '… > "$1"' _ {}`),
// is a write of every file the finder may print below the folders it
// searched.
func (a *shellAnalyzer) foundWrite(raw, p string, ops OpSet) {
	rs := a.foundPaths[p]
	if len(rs) == 0 {
		return
	}
	saved := a.foundPaths
	a.foundPaths = nil // the folders' own targets are no found names
	for _, r := range rs {
		a.addRec(r.raw, r.f, ops&setModify, r.hidden, r.filter, "a command given the names "+r.via+" prints", r.follow)
	}
	a.foundPaths = saved
}

// foundOps adds, for the targets recorded from from on that stand for
// found names — a raw isFound says is one (`{}`), or the path of one of
// names, however it got there (`sh -c '… > "$1"' _ {}`) — a recursive
// target of each searched folder with the write and edit ops they have.
func (a *shellAnalyzer) foundOps(roots []foundRoot, names []field, from int, isFound func(raw string) bool, via string) {
	if len(roots) == 0 {
		return
	}
	paths := map[string]bool{}
	for _, n := range names {
		p, _ := a.norm(n.s, true)
		paths[p] = true
	}
	var ops OpSet
	for i := from; i < len(a.out.targets); i++ {
		if t := &a.out.targets[i]; isFound(t.raw) || t.pattern && paths[t.path] {
			ops |= t.ops & setModify
		}
	}
	if ops == 0 {
		return
	}
	for _, r := range roots {
		a.addRec(r.raw, r.f, ops, r.hidden, r.filter, via, r.follow)
	}
}
