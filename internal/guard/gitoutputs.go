package guard

import "strings"

// gitOutputs: the files and folders git's output options write (pass 21):
//
//   - --output=FILE / --output FILE of the diff and log family (log, show,
//     diff, rev-list, format-patch, whatchanged, diff-tree, …) and of
//     archive, with git's unique-prefix abbreviations (--outp=FILE);
//     archive's -o FILE, -oFILE;
//   - format-patch -o DIR, -oDIR, --output-directory[=]DIR: patches below
//     DIR;
//   - bundle create FILE;
//   - init [DIR] (and --separate-git-dir DIR): a repository below DIR.
//
// sub is the subcommand at c.args[i].
func (c *cmd) gitOutputs(sub string, i int) {
	file := func(raw string, f field) { c.fileField(raw, f, setModify) }
	dir := func(raw string, f field) {
		c.a.addRec(raw, f, setModify, true, nil, "git "+sub+" writes below it", followNone)
	}
	switch sub {
	case "bundle":
		k := i + 1
		for k < len(c.args) && strings.HasPrefix(optText(c.args[k].f), "-") {
			k++
		}
		if k >= len(c.args) || optText(c.args[k].f) != "create" {
			return
		}
		// create's options (-q, --progress, --version=N) come before FILE
		for k++; k < len(c.args) && strings.HasPrefix(optText(c.args[k].f), "-") && optText(c.args[k].f) != "-"; k++ {
			if optText(c.args[k].f) == "--" {
				k++
				break
			}
		}
		if k < len(c.args) && optText(c.args[k].f) != "-" {
			c.done[k] = true
			file(c.args[k].raw, c.args[k].f)
		}
		return
	case "init":
		var operand = -1
		for k := i + 1; k < len(c.args); k++ {
			t := optText(c.args[k].f)
			name, _, eq := strings.Cut(t, "=")
			switch {
			case t == "--":
				if k+1 < len(c.args) {
					operand = k + 1
				}
				k = len(c.args)
			case gitLongPrefix(name, "--separate-git-dir", 3):
				f, raw, next, ok := c.optValue(k, name, eq)
				k = next
				if ok {
					dir(raw, f)
				}
			case name == "--template" || name == "--object-format" || name == "--ref-format" || name == "--initial-branch" || name == "-b" || name == "--shared" && eq:
				if !eq && name != "--shared" {
					k++
				}
			case strings.HasPrefix(t, "-"):
			default:
				if operand < 0 {
					operand = k
				}
			}
		}
		if operand >= 0 {
			c.done[operand] = true
			dir(c.args[operand].raw, c.args[operand].f)
		} else {
			// the repository in the working folder: `git -C
			// .pi/extensions init` writes .pi/extensions/.git (the
			// folder itself checked, not .git below it: git writing its
			// own .git is project state)
			c.fileField(c.args[i].raw+" (git init writes .git in the working folder)", litField("."), setModify)
		}
		return
	}
	for k := i + 1; k < len(c.args); k++ {
		f := c.args[k].f
		t := optText(f)
		if t == "--" {
			return
		}
		name, _, eq := strings.Cut(t, "=")
		switch {
		case sub == "format-patch" && gitLongPrefix(name, "--output-directory", len("--ou")):
			// --output-directory and its abbreviations (--ou… may be
			// --output too: a folder's writes cover the file's)
			if v, raw, next, ok := c.optValue(k, name, eq); ok {
				k = next
				dir(raw, v)
			}
		case sub == "format-patch" && strings.HasPrefix(t, "-o"):
			if v, raw, next, ok := c.optValue(k, "-o", false); ok && t == "-o" {
				k = next
				dir(raw, v)
			} else if t != "-o" {
				c.done[k] = true
				dir(c.args[k].raw, subField(f, 2))
			}
		case sub == "archive" && strings.HasPrefix(t, "-o"):
			if t == "-o" {
				if v, raw, next, ok := c.optValue(k, "-o", false); ok {
					k = next
					file(raw, v)
				}
			} else {
				c.done[k] = true
				file(c.args[k].raw, subField(f, 2))
			}
		case gitLongPrefix(name, "--output", len("--ou")):
			// --output and its abbreviations (not --output-indicator-*,
			// which is no prefix of --output)
			if v, raw, next, ok := c.optValue(k, name, eq); ok {
				k = next
				file(raw, v)
			}
		}
	}
}

// gitLongPrefix: name is a unique-prefix spelling of the long option opt
// at least min bytes long (git's parse-options accepts abbreviations).
func gitLongPrefix(name, opt string, min int) bool {
	return len(name) >= min && strings.HasPrefix(opt, name)
}
