package guard

// Links made by other programs than ln: cp -l/--link (hard links),
// cp -s/--symbolic-link (symbolic links), with -r/-a for every file of a
// folder, and X's lndir (a tree of symbolic links to a folder's files).
// A link to a protected file, or a folder of links to a folder holding
// one, lets a later write go through the link, so — as with ln — making
// the link counts as a write of its target: each source is read and
// written (in full when it is a folder), the destination written.

// cpOpts are cp's options that take a value.
var cpOpts = opts{short: "tS", long: []string{"--target-directory", "--suffix", "--backup", "--reflink", "--sparse", "--preserve", "--no-preserve"}}

// copyLinks handles cp when it makes links instead of copies; it reports
// false for a plain copy.
func (c *cmd) copyLinks() bool {
	if !c.flagged(cpOpts, "-l", "--link", "-s", "--symbolic-link") {
		return false
	}
	a := c.a
	a.noContent = true // a link holds what its target holds
	defer func() { a.noContent = false }()
	c.runSpec(&spec{opts: cpOpts,
		files: map[string]OpSet{"-t": setModify, "--target-directory": setModify},
		ops:   SetRead | setModify, last: setModify,
		rec: []string{"-r", "-R", "-a", "--recursive", "--archive"}, recOps: SetRead | setModify}, 1)
	c.placed(cpOpts, c.flagged(cpOpts, "-r", "-R", "-a", "--recursive", "--archive"), c.name, true)
	return true
}

// lndir FROMDIR [TODIR]: symbolic links in TODIR (default the working
// folder) to every file below FROMDIR, under the names they have there.
// FROMDIR is read and written in full; TODIR too, as the names it gets
// are FROMDIR's (which the gate does not list).
func (c *cmd) lndir() {
	a := c.a
	a.noContent = true
	defer func() { a.noContent = false }()
	p := c.parse(1, opts{})
	ops := p.operands
	if len(ops) == 0 {
		return
	}
	c.rec(ops[0], SetRead|setModify, true, nil, c.name, followAll)
	if len(ops) == 1 {
		c.recCwd(setModify, true, nil, c.name+" (it makes the links in the current folder)", followNone)
		return
	}
	for _, i := range ops[1:] {
		c.rec(i, setModify, true, nil, c.name, followNone)
	}
}
