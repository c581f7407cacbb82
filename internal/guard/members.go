package guard

import (
	"path"
	"strings"
)

// Archive members named on the command line (pass 22). A member operand
// of `tar -x` is a name in the archive, and a folder member brings
// everything below it: `tar -xf a.tar .pi` writes .pi/extensions/evil.ts
// when the archive holds it, so the operand is written recursively, not
// as one file. A member pattern (`unzip a.zip '.pi/*'`, `tar -xf a.tar
// --wildcards 'x/*'`; unzip's and tar's `*` match `/` too) may be any
// name below the folder written before its first wildcard. Options that
// rename the members (`--strip-components`, `--transform`/`--xform`,
// bsdtar's `-s`; `unzip -j`, which drops their folders) make every name
// below the extraction folder possible; ones that keep absolute names and
// `..` (`tar -P`/`--absolute-names`, bsdtar `--insecure`, `unzip -:`)
// let a member land anywhere, which the analysis cannot check.

// memberPrefix is the part of a member operand that is surely a folder
// the member is written in or below: the whole literal name, or for a
// pattern the folders before its first wildcard ("" for the extraction
// folder itself). anchored false (tar --no-anchored): a member may match
// at any depth, so "".
func memberPrefix(f field, anchored bool) string {
	if !anchored {
		return ""
	}
	t := f.s
	if f.pattern() {
		t = f.lead
	}
	if k := strings.IndexAny(t, "*?["); k >= 0 || f.pattern() {
		if k >= 0 {
			t = t[:k]
		}
		if j := strings.LastIndexByte(t, '/'); j >= 0 {
			return t[:j]
		}
		return ""
	}
	return t
}

// memberWild reports whether a member operand is a pattern.
func memberWild(f field) bool {
	return f.pattern() || strings.ContainsAny(f.s, "*?[")
}

// extractBelow records that every name below dir/prefix may be written
// (a fill: the rules' own paths there count, not only the disk's).
func (c *cmd) extractBelow(raw string, dir field, prefix, via string) {
	n := len(c.a.out.targets)
	defer c.a.markFillsFrom(n)
	if dir.pattern() {
		c.a.addRec(raw, dir, setModify, true, nil, via, followNone)
		return
	}
	c.a.addRec(raw, litField(path.Join(dir.text(), prefix)), setModify, true, nil, via, followNone)
}

// tarRenames: an option that renames the members as tar extracts them.
func tarRenames(p parsed) string {
	if p.has("-s") {
		return "-s"
	}
	for name := range p.flags {
		switch {
		case gitLongPrefix(name, "--strip-components", 5):
			return "--strip-components"
		case gitLongPrefix(name, "--transform", 4):
			return "--transform"
		case gitLongPrefix(name, "--xform", 3):
			return "--xform"
		}
	}
	return ""
}

// tarAnywhere: an option that keeps the members' absolute names and `..`.
func tarAnywhere(p parsed) string {
	if p.has("-P") {
		return "-P"
	}
	for name := range p.flags {
		switch {
		case gitLongPrefix(name, "--absolute-names", 5):
			return "--absolute-names"
		case gitLongPrefix(name, "--absolute-paths", 12):
			return "--absolute-paths"
		case name == "--insecure":
			return "--insecure"
		}
	}
	return ""
}

// tarExtractNames handles the tar -x options and operands that decide the
// names written beyond a plain member name (see above); done reports that
// nothing more is to be checked for the members.
func (c *cmd) tarExtractNames(p parsed, dirs []field, dir field) (done bool) {
	if opt := tarAnywhere(p); opt != "" {
		c.a.unknown(c.args[0].raw, "tar -x "+opt+" keeps the members' absolute names and `..`, so a member may be written anywhere; pruner cannot see the archive's names", SetRead|setModify)
		return true
	}
	if len(dirs) == 0 {
		dirs = []field{dir}
	}
	if opt := tarRenames(p); opt != "" {
		for _, d := range dirs {
			c.extractBelow(".", d, "", "tar -x "+opt+" (the members are renamed)")
		}
		for _, i := range p.operands {
			c.word(i)
		}
		return true
	}
	anchored := !p.has("--no-anchored")
	for _, i := range p.operands {
		f := c.args[i].f
		via := "tar -x (a folder member brings everything below it)"
		if memberWild(f) || !anchored {
			via = "tar -x (a member pattern)"
		}
		for _, d := range dirs {
			c.extractBelow(c.args[i].raw, d, memberPrefix(f, anchored), via)
		}
	}
	return false
}

// unzipNames: unzip -j writes every member in the folder itself; -: lets
// `../` names out of it; a member pattern may be any name below its
// literal folders.
func (c *cmd) unzipNames(p parsed, dir field) {
	if p.has("-:") {
		c.a.unknown(c.args[0].raw, "unzip -: keeps the members' `../`, so a member may be written anywhere; pruner cannot see the archive's names", SetRead|setModify)
		return
	}
	if p.has("-j") {
		c.extractBelow(".", dir, "", "unzip -j (the members' folders are dropped)")
		return
	}
	for k, i := range p.operands {
		if k == 0 {
			continue
		}
		if f := c.args[i].f; memberWild(f) {
			c.extractBelow(c.args[i].raw, dir, memberPrefix(f, true), "unzip (a member pattern)")
		}
	}
}
