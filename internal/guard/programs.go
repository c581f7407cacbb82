package guard

import (
	"strings"
)

// This file models programs by what they do with the folders and files
// they are given: programs the analysis does not know, upload, sync and
// backup tools, and the subcommands of cloud CLIs that copy folders.

// unmodelledVia names, in a reason, a program the analysis does not model.
func unmodelledVia(name string) string {
	return name + " (a program pruner does not model, so a folder given to it counts as read in full)"
}

// unmodelledFolders: a program the analysis does not know may read every
// file below a folder it is given (`foobar .`, `rclone cat .`): each
// operand, and each `--opt=value` value, is also a recursive read. A file
// operand holds nothing below it, so only folders (on the disk, or by the
// rules without it) count.
func (c *cmd) unmodelledFolders() {
	if strings.Trim(c.name, "/.") == "" {
		return // a folder as the command (what is left of a script computed when it runs)
	}
	via := unmodelledVia(c.name)
	for i := 1; i < len(c.args); i++ {
		if c.done[i] {
			continue
		}
		c.folderOperand(i, SetRead, via)
	}
}

// folderOperand records args[i] (or the value after its `=`, for an
// option) as a folder read or written in full, without taking its role:
// the caller still checks it as a word or a file.
func (c *cmd) folderOperand(i int, ops OpSet, via string) {
	f := c.args[i].f
	if f.onlyUnk && !f.posOnly {
		return // checked (unverifiable) as a file by the caller
	}
	t := optText(f)
	if strings.HasPrefix(t, "-") && len(t) > 1 {
		name, _, eq := strings.Cut(t, "=")
		if !eq {
			return
		}
		f = subField(f, len(name)+1)
		if f.s == "" || f.onlyUnk && !f.posOnly {
			return
		}
	}
	c.a.addRec(c.args[i].raw, f, ops, true, nil, via, followAll)
}

// transferTool: upload, sync and backup tools (rclone, restic, borg,
// croc, azcopy, mc, …) read every file below a local folder they are
// given and may write below one (a download, a restore, a sync back): each
// operand and option value is a folder read and written in full, and
// checked as a file.
func (c *cmd) transferTool() {
	via := c.name + " (copies, uploads or backs up folders)"
	for i := 1; i < len(c.args); i++ {
		if c.done[i] {
			continue
		}
		c.folderOperand(i, SetRead|setModify, via)
	}
	c.generic()
}

// cloudCopy handles the subcommands of cloud and cluster CLIs that copy
// local folders (`aws s3 sync . s3://b`, `aws s3 cp --recursive`, `gcloud
// storage cp -r`, `kubectl cp . pod:/x`, `az storage blob upload-batch -s
// .`): their operands and option values are folders read and written in
// full. It reports whether the command is one of those.
func (c *cmd) cloudCopy() bool {
	var words []string
	for i := 1; i < len(c.args) && len(words) < 3; i++ {
		if t := optText(c.args[i].f); !strings.HasPrefix(t, "-") {
			words = append(words, t)
		}
	}
	at := func(k int) string {
		if k < len(words) {
			return words[k]
		}
		return ""
	}
	copies, sub := false, at(0)+" "+at(1)
	switch c.name {
	case "aws":
		copies = at(0) == "s3" && (at(1) == "cp" || at(1) == "sync" || at(1) == "mv")
	case "gcloud":
		copies = at(0) == "storage" && (at(1) == "cp" || at(1) == "rsync" || at(1) == "mv") ||
			at(0) == "compute" && (at(1) == "scp" || at(1) == "copy-files")
	case "kubectl", "oc":
		copies, sub = at(0) == "cp", "cp"
	case "az":
		copies = at(0) == "storage" || at(0) == "webapp" && at(1) == "deploy" || at(0) == "acr" && at(1) == "build"
	}
	if !copies {
		return false
	}
	via := c.name + " " + sub + " (copies folders)"
	for i := 1; i < len(c.args); i++ {
		if c.done[i] {
			continue
		}
		c.folderOperand(i, SetRead|setModify, via)
	}
	return true
}

// isTransferTool reports whether name is an upload, sync, backup or
// file-sharing tool (modelled by transferTool).
func isTransferTool(name string) bool {
	switch name {
	case "rclone", "gsutil", "restic", "rustic", "borg", "borgbackup", "kopia", "duplicity", "duplicacy",
		"rdiff-backup", "tarsnap", "bup", "bupstash", "croc", "wormhole", "magic-wormhole", "azcopy", "mc",
		"s3cmd", "s5cmd", "b2", "unison", "ffsend", "ncftpput", "smbclient", "megaput", "megacopy",
		"gdrive", "dropbox_uploader", "onedrive", "rsnapshot", "syncthing", "git-annex", "dvc", "transfer":
		return true
	}
	return false
}

// jar: `jar c…`/`u…` (or --create/--update) archives its operands,
// folders recursively; `x` extracts below the current folder (-C DIR:
// the next operand is below DIR). Old-style letters f, m, e take the next
// operands in order (`jar cfm x.jar manifest.txt .`).
func (c *cmd) jar() {
	mode := byte(0)
	var takes []byte // old-style letters' values, in order
	start := 1
	if len(c.args) > 1 {
		if t := optText(c.args[1].f); t != "" && !strings.HasPrefix(t, "-") {
			c.word(1)
			start = 2
			for k := 0; k < len(t); k++ {
				switch t[k] {
				case 'c', 'u', 'x', 't':
					if mode == 0 {
						mode = t[k]
					}
				case 'f', 'm', 'e':
					takes = append(takes, t[k])
				}
			}
		}
	}
	p := c.parse(start, opts{short: "fmeCp", long: []string{"--file", "--manifest", "--main-class", "--module-version", "--release", "--module-path", "--hash-modules", "--date"}})
	for _, f := range []string{"-c", "--create", "-u", "--update"} {
		if p.flags[f] {
			mode = 'c'
		}
	}
	for _, f := range []string{"-x", "--extract"} {
		if p.flags[f] {
			mode = 'x'
		}
	}
	if mode == 'u' {
		mode = 'c'
	}
	archiveOps := SetRead
	if mode == 'c' {
		archiveOps = SetRead | setModify
	}
	var dirs []field
	for _, v := range p.vals {
		switch v.name {
		case "-f", "--file":
			c.valFile(v, archiveOps)
		case "-m", "--manifest":
			c.valFile(v, SetRead)
		case "-C":
			if f, ok := c.valField(v); ok {
				c.valWord(v)
				dirs = append(dirs, f)
			}
		default:
			c.valWord(v)
		}
	}
	operands := p.operands
	for _, l := range takes {
		if len(operands) == 0 {
			break
		}
		switch l {
		case 'f':
			c.file(operands[0], archiveOps)
		case 'm':
			c.file(operands[0], SetRead)
		default:
			c.word(operands[0])
		}
		operands = operands[1:]
	}
	switch mode {
	case 'c':
		for _, d := range dirs {
			c.a.addRec("-C "+d.text(), d, SetRead, true, nil, "jar -C", followAll)
		}
		for _, i := range operands {
			c.rec(i, SetRead, true, nil, "jar c", followAll)
		}
	case 'x':
		c.recCwd(setModify, true, nil, "jar x", followNone)
		for _, i := range operands {
			c.file(i, setModify)
		}
	default:
		for _, i := range operands {
			c.word(i)
		}
	}
}

// pax: -w writes an archive of its operands (folders recursively; without
// operands, of the names on stdin); -r reads one and extracts it below
// the current folder; -r -w copies the operands into the last, a folder.
func (c *cmd) pax() {
	p := c.parse(1, opts{short: "bfsoxpTUGB", long: nil})
	write, read := p.has("-w"), p.has("-r")
	for _, v := range p.vals {
		switch v.name {
		case "-f":
			ops := SetRead
			if write && !read {
				ops = setModify
			}
			c.valFile(v, ops)
		default:
			c.valWord(v)
		}
	}
	follow := followNone
	if p.has("-L", "-H") {
		follow = followAll
	}
	ops := p.operands
	switch {
	case write && read:
		if len(ops) > 0 {
			last := ops[len(ops)-1]
			c.rec(last, setModify, true, nil, "pax -rw", followNone)
			ops = ops[:len(ops)-1]
		}
		if len(ops) == 0 {
			c.stdinNames(SetRead, "pax -rw")
		}
		for _, i := range ops {
			c.rec(i, SetRead, true, nil, "pax -rw", follow)
		}
	case write:
		if len(ops) == 0 {
			c.stdinNames(SetRead, "pax -w")
		}
		for _, i := range ops {
			c.rec(i, SetRead, true, nil, "pax -w", follow)
		}
	case read:
		c.recCwd(setModify, true, nil, "pax -r", followNone)
		for _, i := range ops {
			c.word(i) // patterns of the members to extract
		}
	default:
		for _, i := range ops {
			c.word(i)
		}
	}
}

// ugrep (ug): recursive with -r/-R (and, without operands, of the current
// folder); hidden names with -./--hidden, or a -g/--glob/--include glob
// that matches them; `ug` and --config read a configuration file (which
// may turn on hidden names) — a configuration given, or `ug`'s, makes
// every hidden name reachable. --filter, --pager and --view run commands.
func (c *cmd) ugrep() {
	s := &spec{opts: opts{short: "efgtOMNmABCKJdDQ", long: []string{"--regexp", "--file", "--glob", "--iglob", "--include", "--exclude", "--include-dir", "--exclude-dir", "--include-from", "--exclude-from", "--file-type", "--file-extension", "--file-magic", "--max-count", "--after-context", "--before-context", "--context", "--filter", "--filter-magic-label", "--pager", "--view", "--format", "--save-config", "--index", "--tag", "--separator", "--group-separator", "--color", "--colors", "--encoding", "--label", "--jobs", "--max-files", "--depth", "--range", "--replace", "--sort", "--width", "--tabs", "--hexdump", "--binary-files", "--devices", "--directories", "--fuzzy", "--neg-regexp", "--and", "--andnot", "--not", "--ignore-files"}},
		files:   map[string]OpSet{"-f": SetRead, "--file": SetRead, "--include-from": SetRead, "--exclude-from": SetRead, "--save-config": setModify},
		scripts: []string{"--filter", "--pager", "--view"},
		filters: []string{"-g", "--glob", "--iglob", "--include"}, skip: 1,
		noSkip: []string{"-e", "--regexp", "-f", "--file", "--and", "--not", "--andnot", "-N", "--neg-regexp"},
		rec:    []string{"-r", "-R", "--recursive", "--dereference-recursive"}, dflt: true,
		hideDots: true, hidden: []string{"--hidden", "-."},
		follows: []string{"-R", "--dereference-recursive", "-S", "--dereference-files"}}
	if c.name == "ug" {
		s.hideDots = false // ug reads .ugrep (cwd, then home), which may say hidden
	}
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		if strings.HasPrefix(t, "--config") || strings.HasPrefix(t, "---") {
			s.hideDots = false // a configuration file may say hidden
			if v := strings.TrimPrefix(strings.TrimPrefix(t, "--config"), "---"); strings.HasPrefix(v, "=") {
				c.done[i] = true
				c.a.value(c.args[i].raw, c.args[i].f, SetRead)
				c.fileField(c.args[i].raw, subField(c.args[i].f, len(t)-len(v)+1), SetRead)
			}
		}
		if t == "-d" && i+1 < len(c.args) && optText(c.args[i+1].f) == "recurse" || t == "--directories=recurse" {
			s.recAll = true
		}
	}
	c.runSpec(s, 1)
}

// curlUpload: -T FILE uploads FILE; curl expands its own globs in it
// (`{a,b}`, `[1-3]`), each a file read; `-` and `.` are stdin.
func (c *cmd) curlUpload(v optHit) {
	f, ok := c.valField(v)
	if !ok {
		return
	}
	t := f.text()
	if !f.pattern() && (t == "-" || t == ".") {
		c.valWord(v)
		return
	}
	c.valFile(v, SetRead)
	if f.onlyUnk || !strings.ContainsAny(t, "{[") {
		return
	}
	if names, ok := curlSets(t); ok {
		for _, n := range names {
			c.a.value(v.raw, litField(n), SetRead)
		}
		return
	}
	c.a.candidate(v.raw, curlGlob(t), true, SetRead)
}

// curlSets expands curl's `{a,b}` sets (not nested, no `[…]` ranges) into
// the names they make; ok is false when it cannot (then any name).
func curlSets(t string) ([]string, bool) {
	out := []string{""}
	for t != "" {
		i := strings.IndexAny(t, "{[]}")
		if i < 0 {
			for k := range out {
				out[k] += t
			}
			break
		}
		if t[i] != '{' {
			return nil, false
		}
		j := strings.IndexByte(t[i:], '}')
		if j < 0 || strings.ContainsAny(t[i+1:i+j], "{[") {
			return nil, false
		}
		alts := strings.Split(t[i+1:i+j], ",")
		var next []string
		for _, o := range out {
			for _, a := range alts {
				next = append(next, o+t[:i]+a)
			}
		}
		if len(next) > 64 {
			return nil, false
		}
		out, t = next, t[i+j+1:]
	}
	return out, true
}

// curlFormFiles: a form part's file (`-F 'f=@a.txt;type=text/plain'`,
// `-F 'f=@a.txt,b.txt'`) ends at its `;` and `,`; --variable
// NAME@FILE reads FILE. from is the index after the `@` or `<`.
func (c *cmd) curlFormFiles(raw string, f field, from int, opt string) {
	t := optText(f)
	if from > len(t) || f.pattern() {
		return
	}
	rest := t[from:]
	if opt == "-F" || opt == "--form" {
		for part := range strings.SplitSeq(rest, ",") {
			name, _, _ := strings.Cut(strings.Trim(part, `"`), ";")
			if name != "" && name != rest {
				c.fileField(raw, litField(name), SetRead)
			}
		}
	}
}
