package guard

import (
	"path"
	"strings"
)

// Copies that link (pass 22). `cp -l` makes hard links and `cp -s`
// symbolic links in place of copies, `rsync --link-dest=DIR` hard-links
// the destination's unchanged files to DIR's, `pax -rwl` and `cpio -pl`
// link what they would copy, `lndir FROM` fills a folder with symbolic
// links to FROM's files. Like `ln`, each gives write access to its
// sources: writing the new name writes the protected file (a hard link
// cannot even be told from the file later, on the disk). Each source is
// therefore checked as read and written, everything below it when the
// copy recurses (`cp -al .pi /tmp/z` links .pi/settings.json).

// cpLinks reports whether cp's flags make links instead of copies: -l,
// -s, --link, --symbolic-link, or a unique abbreviation of those (getopt
// accepts --li, --sym).
func cpLinks(p parsed) bool {
	if p.has("-l", "-s") {
		return true
	}
	for name := range p.flags {
		if gitLongPrefix(name, "--link", 3) || gitLongPrefix(name, "--symbolic-link", 4) {
			return true
		}
	}
	return false
}

// cpLinkSources: with cpLinks, every source operand (all but the last,
// every one with -t DIR) is read and written, recursively with -r/-R/-a.
func (c *cmd) cpLinkSources(o opts) {
	saved := append([]bool(nil), c.done...)
	p := c.parse(1, o)
	copy(c.done, saved) // the roles are runSpec's
	if !cpLinks(p) {
		return
	}
	srcs := p.operands
	if !p.has("-t", "--target-directory") && len(srcs) > 1 {
		srcs = srcs[:len(srcs)-1]
	}
	rec := p.has("-r", "-R", "-a", "--recursive", "--archive")
	for _, i := range srcs {
		c.linkSource(c.args[i].raw, c.args[i].f, rec, c.name+" making links")
	}
}

// linkSource checks one source a command links to: read and written,
// everything below it when rec.
func (c *cmd) linkSource(raw string, f field, rec bool, via string) {
	c.a.value(raw, f, SetRead|setModify)
	if rec {
		// read and written as two recursions, so that the reason says which
		// (a folder the rules let it read is still written through the links)
		c.a.addRec(raw, f, SetRead, true, nil, via, followNone)
		c.a.addRec(raw, f, setModify, true, nil, via+" (a write through its links writes their targets)", followNone)
	}
}

// rsyncLinkDest: --link-dest=DIR hard-links the destination's unchanged
// files to DIR's, so everything below DIR is written. A relative DIR is
// relative to the destination folder (rsync's rule); it is checked there
// and in the working folder.
func (c *cmd) rsyncLinkDest(p parsed) {
	var dest *field
	if n := len(p.operands); n >= 2 {
		d := c.args[p.operands[n-1]].f
		dest = &d
	}
	for _, v := range p.values("--link-dest") {
		f, ok := c.valField(v)
		if !ok {
			continue
		}
		c.linkSource(v.raw, f, true, "rsync --link-dest")
		if dest != nil && !f.pattern() && !dest.pattern() && !isAbsNorm(f.s) && !strings.HasPrefix(f.s, "~") && !strings.Contains(dest.s, ":") {
			j := litField(path.Join(dest.s, f.s))
			c.linkSource(v.raw, j, true, "rsync --link-dest")
		}
	}
}

// lndir FROM [TO]: TO (the working folder without it) is filled with
// symbolic links to everything below FROM.
func (c *cmd) lndir() {
	p := c.parse(1, opts{short: "", long: nil})
	ops := p.operands
	if len(ops) == 0 {
		return
	}
	c.done[ops[0]] = true
	c.linkSource(c.args[ops[0]].raw, c.args[ops[0]].f, true, "lndir")
	if len(ops) > 1 {
		c.done[ops[1]] = true
		c.a.value(c.args[ops[1]].raw, c.args[ops[1]].f, setModify)
		c.a.addRec(c.args[ops[1]].raw, c.args[ops[1]].f, setModify, true, nil, "lndir", followNone)
	} else {
		c.recCwd(setModify, true, nil, "lndir", followNone)
	}
	for _, i := range ops[min(2, len(ops)):] {
		c.word(i)
	}
}
