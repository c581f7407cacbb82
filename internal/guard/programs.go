package guard

import "strings"

// This file models programs by what they do with the folders and files
// they are given: programs the analysis does not know, upload, sync,
// backup and deploy tools, file servers, the copying subcommands of cloud
// CLIs, and options of modelled programs that read folders (jar, pax,
// ugrep, ack, curl, sftp, lftp).

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
		switch {
		case eq:
			f = subField(f, len(name)+1)
		case len(t) > 2 && t[1] != '-':
			f = subField(f, 2) // -dDIR: a short option's value written on
		default:
			return
		}
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
		src := SetRead
		if p.has("-l") {
			src |= setModify // pax -rwl links what it copies (links.go)
		}
		if len(ops) == 0 {
			c.stdinNames(src, "pax -rw")
		}
		for _, i := range ops {
			c.rec(i, src, true, nil, "pax -rw", follow)
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

// serveVia names a local file server in a reason.
func serveVia(name string) string {
	return name + " (a file server: anything below the folder it serves can be fetched)"
}

// fileServer: a local file server started in the command serves every
// file below its folder to anyone who asks (`curl localhost:8000/.env`):
// the folder is read in full. The folder is a value of one of its folder
// options, else its operands that are not ports or addresses, else the
// current folder.
func (c *cmd) fileServer(dirOpts ...string) {
	c.readsFolders(serveVia(c.name), dirOpts, 0, nil)
	c.generic()
}

// readsFolders records the folders a server or a deploy reads in full:
// the values of the options dirOpts, the operands after index from that
// are not options, ports or addresses (from < 0: none), the arguments
// extra, else the current folder. Each is recursed with hidden names,
// links followed; it returns the index of the first target it added.
func (c *cmd) readsFolders(via string, dirOpts []string, from int, extra []int) int {
	n := len(c.a.out.targets)
	named := false
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		name, _, eq := strings.Cut(t, "=")
		if contains(dirOpts, name) {
			if eq {
				c.a.addRec(c.args[i].raw, subField(c.args[i].f, len(name)+1), SetRead, true, nil, via, followAll)
			} else if i+1 < len(c.args) {
				c.a.addRec(c.args[i+1].raw, c.args[i+1].f, SetRead, true, nil, via, followAll)
				i++
			}
			named = true
			continue
		}
		if from >= 0 && i > from && !strings.HasPrefix(t, "-") && !isPortOrAddress(t) {
			c.a.addRec(c.args[i].raw, c.args[i].f, SetRead, true, nil, via, followAll)
			named = true
		}
	}
	for _, i := range extra {
		c.a.addRec(c.args[i].raw, c.args[i].f, SetRead, true, nil, via, followAll)
		named = true
	}
	if !named {
		c.recCwd(SetRead, true, nil, via, followAll)
	}
	return n
}

// isPortOrAddress reports whether an operand is a port or a listening
// address (8000, :8000, 0.0.0.0:8000, localhost:8000), not a folder.
func isPortOrAddress(t string) bool {
	if t == "" {
		return false
	}
	if i := strings.LastIndexByte(t, ':'); i >= 0 {
		t = t[i+1:]
	}
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	return t != ""
}

// isFileServer reports whether name is a static file server, and the
// options that name the folder it serves.
func isFileServer(name string) ([]string, bool) {
	switch name {
	case "serve", "http-server", "live-server", "servor", "sfz", "simplehttpserver", "simple-http-server", "darkhttpd", "dufs", "miniserve", "ran":
		return []string{"-d", "--dir", "--directory", "--root", "-r"}, true
	case "httpd", "busybox-httpd":
		return []string{"-h"}, true
	case "static-web-server", "updog", "goshs", "jwebserver", "webfsd":
		return []string{"-d", "--dir", "--directory", "--root", "-r", "--path"}, true
	}
	return nil, false
}

// serverCommand finds a file server an interpreter or a program starts
// from its arguments: python -m http.server (SimpleHTTPServer,
// uploadserver; --directory/-d), php -S (-t docroot), ruby -run -e httpd
// [DIR], caddy file-server (--root), twistd web (--path), browser-sync
// --server [DIR].
func (c *cmd) serverCommand() {
	var words []string
	for _, ar := range c.args[1:] {
		words = append(words, optText(ar.f))
	}
	has := func(w ...string) int {
		for k, x := range words {
			for _, y := range w {
				if x == y {
					return k + 1
				}
			}
		}
		return -1
	}
	serveFrom := func(dirOpts []string, after int) {
		if after <= 0 {
			after = -1
		}
		c.readsFolders(serveVia(c.name), dirOpts, after, nil)
	}
	if lang := interpLang(c.name); lang != "" || c.name == "ruby" || c.name == "go" {
		// code that starts a static file server on the current folder
		for _, ar := range c.args[1:] {
			t := ar.f.text()
			for _, api := range []string{"SimpleHTTPRequestHandler", "http.server", "SimpleHTTPServer", "WEBrick", "serve-static",
				"express.static", "StaticFiles", "http.FileServer", "FileServer(", "serveDir", "serveFile", "Deno.serve", "Bun.file(", "file_server"} {
				if strings.Contains(t, api) && strings.ContainsAny(t, "(.:") && len(t) > len(api) ||
					api == "serve-static" && strings.Contains(t, "express") && strings.Contains(t, ".static(") {
					c.recCwd(SetRead, true, nil, serveVia(c.name), followAll)
					break
				}
			}
		}
	}
	switch {
	case interpLang(c.name) == "python" || c.name == "py" || c.name == "uv" || c.name == "uvx":
		for _, mod := range []string{"http.server", "SimpleHTTPServer", "uploadserver", "RangeHTTPServer", "twisted", "pyftpdlib", "wsgidav"} {
			if k := has(mod); k > 0 && k >= 2 && words[k-2] == "-m" || has("-m"+mod) > 0 {
				// pyftpdlib serves the cwd (-d DIR) over FTP, wsgidav
				// --root DIR over WebDAV
				serveFrom([]string{"--directory", "-d", "--path", "--root", "-r"}, -1)
				return
			}
		}
	case c.name == "php":
		if has("-S") > 0 {
			serveFrom([]string{"-t"}, -1)
		}
	case interpLang(c.name) == "ruby" || c.name == "ruby":
		if has("-run", "-run") > 0 && (has("httpd") > 0 || has("-ehttpd") > 0) {
			k := has("httpd")
			if k < 0 {
				k = has("-ehttpd")
			}
			serveFrom([]string{"--document-root"}, k)
		}
	case c.name == "caddy":
		if has("file-server") > 0 {
			serveFrom([]string{"--root", "-r"}, -1)
		}
	case c.name == "ngrok":
		// ngrok http file:///DIR serves DIR to the internet
		for i := 1; i < len(c.args); i++ {
			if f, w := c.args[i].f, optText(c.args[i].f); len(w) > 5 && strings.EqualFold(w[:5], "file:") {
				d := strings.TrimPrefix(strings.TrimPrefix(w[5:], "//localhost"), "//")
				if d == "" || f.pattern() {
					d = "."
				}
				c.a.addRec(c.args[i].raw, litField(d), SetRead, true, nil, serveVia(c.name), followAll)
			}
		}
	case c.name == "twistd":
		if has("web") > 0 {
			serveFrom([]string{"--path"}, -1)
		}
	case c.name == "browser-sync":
		if has("--server", "-s") > 0 {
			c.recCwd(SetRead, true, nil, serveVia(c.name), followAll)
			serveFrom([]string{"--ss", "--serveStatic"}, -1)
		}
	}
}

// ack searches every text file below its folders, hidden ones included
// (its defaults skip version-control folders and a few names, not
// dotfiles) and reads a project .ackrc: a recursion with hidden names that
// skips only the version-control folders.
func (c *cmd) ack() {
	s := &spec{opts: opts{short: "gmABCt", long: []string{"--max-count", "--after-context", "--before-context", "--context", "--type", "--ignore-dir", "--ignore-directory", "--noignore-dir", "--ignore-file", "--type-add", "--type-set", "--type-del", "--output", "--pager", "--ackrc", "--files-from", "--match", "--color-match", "--color-filename", "--color-lineno", "--range-start", "--range-end"}},
		files:   map[string]OpSet{"--ackrc": SetRead, "--files-from": SetRead},
		scripts: []string{"--pager"}, skip: 1, noSkip: []string{"--match", "-f"},
		recAll: true, dflt: true, follows: []string{"--follow"}}
	n := len(c.a.out.targets)
	c.runSpec(s, 1)
	for i := n; i < len(c.a.out.targets); i++ {
		if c.a.out.targets[i].rec {
			c.a.out.targets[i].vcsAware = true // .git, .svn, … are skipped; .gitignore is not read
		}
	}
}

// sftp: the host is a word; -b FILE (a file written in the command, else
// unverifiable unless it is stdin) and stdin hold the batch commands,
// read by transferCommands. -F/-i files are read, -S runs a program.
func (c *cmd) sftp() {
	p := c.parse(1, opts{short: "bBcDFiloPRsSJX"})
	batch := false
	for _, v := range p.vals {
		switch v.name {
		case "-F", "-i":
			c.valFile(v, SetRead)
		case "-S", "-D":
			c.valScript(v)
		case "-o":
			c.sshOption(v)
		case "-b":
			batch = true
			f, ok := c.valField(v)
			if !ok {
				continue
			}
			if t := f.text(); !f.pattern() && (t == "-" || t == "/dev/stdin") {
				c.valWord(v)
				c.transferCommands(v.raw, c.in, false)
				continue
			}
			c.valFile(v, SetRead)
			if w, ok := c.a.writtenFile(f); ok {
				c.transferCommands(v.raw, w, false)
			} else {
				c.a.unknown(v.raw, "sftp runs batch commands from a file the analysis cannot read, which may upload or download any local file", SetRead|setModify)
			}
		default:
			c.valWord(v)
		}
	}
	for _, i := range p.operands {
		c.word(i)
		c.sftpFetch(i)
	}
	if !batch {
		c.transferCommands(c.args[0].raw, c.in, false)
	}
}

// lftp: -c/-e COMMANDS and -f FILE (or stdin) hold lftp commands, read by
// transferCommands; the operand is the site.
func (c *cmd) lftp() {
	p := c.parse(1, opts{short: "cefpuU", long: []string{"--rcfile", "--norc"}})
	script := false
	for _, v := range p.vals {
		switch v.name {
		case "-c", "-e":
			script = true
			c.valWord(v)
			f, ok := c.valField(v)
			if !ok {
				continue
			}
			if f.pattern() {
				c.a.unknown(v.raw, "lftp runs commands computed when the command runs", SetRead|setModify)
				continue
			}
			c.transferCommands(v.raw, source{kind: srcText, text: f.s}, true)
		case "-f", "--rcfile":
			script = true
			c.valFile(v, SetRead)
			f, ok := c.valField(v)
			if !ok {
				continue
			}
			if w, ok := c.a.writtenFile(f); ok {
				c.transferCommands(v.raw, w, true)
			} else {
				c.a.unknown(v.raw, "lftp runs commands from a file the analysis cannot read, which may upload or download any local file", SetRead|setModify)
			}
		default:
			c.valWord(v)
		}
	}
	for _, i := range p.operands {
		c.word(i)
	}
	if !script {
		c.transferCommands(c.args[0].raw, c.in, true)
	}
}

// transferCommands reads sftp or lftp commands (one a line; lftp also
// splits at `;`, `&&`, `||`): uploads (put, mput, reput, mirror -R) read
// their local paths in full (the cwd when mirror -R names none),
// downloads (get, mget, reget, pget, mirror) write below their local
// destination (the cwd by default), `!CMD` runs a shell command; lcd,
// source, local and any command not modelled are unverifiable. A stream
// the analysis cannot see is unverifiable.
func (c *cmd) transferCommands(raw string, in source, lftp bool) {
	unknown := func(why string) {
		c.a.unknown(raw, c.name+" "+why+", which the analysis does not model", SetRead|setModify)
	}
	switch in.kind {
	case srcNone:
		return
	case srcText:
		if strings.ContainsRune(in.text, unknownRune) {
			unknown("runs commands computed when the command runs")
			return
		}
	case srcFile:
		if w, ok := c.a.written[in.file]; ok && w.kind == srcText {
			in = w
			break
		}
		unknown("runs commands from a file the analysis cannot read")
		return
	default:
		unknown("runs commands read from a pipe")
		return
	}
	text := in.text
	if lftp {
		text = strings.NewReplacer("&&", "\n", "||", "\n", ";", "\n").Replace(text)
	}
	via := c.name + " (uploads or downloads folders)"
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-@"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "!") {
			c.a.script(line[1:], raw, source{})
			continue
		}
		words := strings.Fields(line)
		name := words[0]
		var paths []string
		reverse := false
		for _, w := range words[1:] {
			if strings.HasPrefix(w, "-") {
				if w == "-R" || w == "--reverse" {
					reverse = true
				}
				continue
			}
			paths = append(paths, strings.Trim(w, `"'`))
		}
		rec := func(p string, ops OpSet) {
			c.a.addRec(raw, litField(p), ops, true, nil, via, followAll)
			c.a.value(raw, litField(p), ops)
		}
		switch name {
		case "put", "mput", "reput":
			for k, p := range paths {
				if k == 0 || name == "mput" {
					rec(p, SetRead)
				}
			}
		case "get", "mget", "reget", "pget":
			if name == "mget" || len(paths) < 2 {
				rec(".", setModify)
			} else {
				rec(paths[1], setModify)
			}
		case "mirror":
			local, ops := ".", setModify
			if reverse {
				ops = SetRead
				if len(paths) > 0 {
					local = paths[0]
				}
			} else if len(paths) > 1 {
				local = paths[1]
			}
			rec(local, ops)
		case "ls", "dir", "cd", "pwd", "lpwd", "lls", "mkdir", "rmdir", "rm", "rename", "chmod", "chown", "chgrp",
			"ln", "symlink", "df", "help", "?", "version", "quit", "exit", "bye", "progress", "open", "user", "set",
			"debug", "cls", "find", "du", "cat", "more", "zcat", "echo", "close", "lmkdir", "lumask", "umask", "wait", "mkdir -p":
		default:
			unknown("runs the command `" + clip(line, 40) + "`")
		}
	}
}

// listOrFolder: an option value that is a folder read in full (diff
// --from-file=DIR compares DIR with each operand), or a file of names
// the command reads (sort --files0-from=F; `-` reads them on stdin).
func (c *cmd) listOrFolder(v optHit, list bool) {
	f, ok := c.valField(v)
	if !ok {
		return
	}
	if !list {
		c.a.addRec(v.raw, f, SetRead, true, nil, c.name+" "+v.name, followAll)
		return
	}
	if t := f.text(); !f.pattern() && t == "-" {
		c.stdinNames(SetRead, c.name+" "+v.name+"=-")
		return
	}
	c.a.unknown(v.raw, c.name+" reads the files named in a list the analysis cannot see", SetRead)
}

// manPager: man -P/--pager CMD and -H/--html=BROWSER run a command.
func (c *cmd) manPager() {
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		name, _, eq := strings.Cut(t, "=")
		switch {
		case name == "-P" || name == "--pager" || name == "--html" || name == "-H" && eq:
			f, raw, next, ok := c.optValue(i, name, eq)
			if ok {
				c.scriptField(raw, f, source{})
			}
			i = next
		case strings.HasPrefix(t, "-P") && len(t) > 2:
			c.done[i] = true
			c.scriptField(c.args[i].raw, subField(c.args[i].f, 2), source{})
		}
	}
}

// deployCommand: deploy CLIs upload a folder, hidden files included
// (vercel sends .env; only its .env.local forms are left out): `vercel
// [deploy] [DIR]`, `netlify deploy [--dir DIR]`, `wrangler pages deploy
// DIR`, `fly deploy [DIR]` (its build context), `firebase deploy`, `surge
// [DIR]`. The folder (the cwd by default) is read in full, without the
// version-control folders.
func (c *cmd) deployCommand() {
	var words []int
	for i := 1; i < len(c.args); i++ {
		if t := optText(c.args[i].f); !strings.HasPrefix(t, "-") {
			words = append(words, i)
		}
	}
	word := func(k int) string {
		if k < len(words) {
			return optText(c.args[words[k]].f)
		}
		return ""
	}
	var dirs []int
	deploys := false
	dirOpts := []string{"--dir", "-d", "--cwd", "--project-dir"}
	switch c.name {
	case "vercel":
		switch word(0) {
		case "", "deploy":
			deploys = true
			if word(0) == "deploy" {
				dirs = words[1:]
			}
		default:
			// vercel DIR deploys DIR; vercel SUBCOMMAND does something else
			if f := c.args[words[0]].f; !f.pattern() && (strings.ContainsAny(f.s, "./") || c.a.env.FS != nil && isDirOnDisk(c, f)) {
				deploys, dirs = true, words[:1]
			}
		}
	case "netlify":
		deploys = word(0) == "deploy"
	case "wrangler":
		deploys = word(0) == "pages" && (word(1) == "deploy" || word(1) == "publish")
		if deploys {
			dirs = words[2:]
		}
	case "fly", "flyctl":
		deploys = word(0) == "deploy"
		if deploys {
			dirs = words[1:]
		}
	case "firebase", "serverless", "sls", "eb":
		deploys = word(0) == "deploy"
	case "railway":
		deploys = word(0) == "up"
		if deploys {
			dirs = words[1:]
		}
	case "now", "surge":
		deploys = word(0) == "" || word(0) == "deploy" || c.name == "surge"
		if deploys && c.name == "surge" {
			dirs = words[:min(1, len(words))] // surge [PROJECT [DOMAIN]]
		}
	case "gcloud":
		// app deploy, run deploy --source, functions deploy --source,
		// builds submit [SOURCE]: the source folder (cwd by default) is
		// uploaded; .gcloudignore is not read
		switch word(0) + " " + word(1) {
		case "app deploy", "functions deploy":
			deploys = true
		case "run deploy":
			deploys = !hasOpt(c, "--image")
		case "builds submit":
			deploys, dirs = true, words[2:]
		}
		dirOpts = append(dirOpts, "--source")
	case "az":
		deploys = (word(0) == "webapp" || word(0) == "containerapp" || word(0) == "staticwebapp") && word(1) == "up"
		dirOpts = append(dirOpts, "--source", "--app-location")
	}
	if !deploys {
		return
	}
	n := c.readsFolders(c.name+" deploy (uploads a folder, hidden files included)", dirOpts, -1, dirs)
	for i := n; i < len(c.a.out.targets); i++ {
		c.a.out.targets[i].vcsAware = true // .git is left out; .gitignore is not read
	}
}

// isDirOnDisk reports whether f names a folder on the disk.
func isDirOnDisk(c *cmd, f field) bool {
	p, _ := c.a.norm(f.s, false)
	fi, err := c.a.env.FS.Lstat(p)
	return err == nil && fi.IsDir()
}

// scriptArgs: a script on the disk is a program the analysis does not read
// (see unmodelledFolders): a folder given to it counts as read in full.
// The arguments of a script the command wrote, pipes in or computes are
// followed where the script uses them (or the script is unverifiable).
func (c *cmd) scriptArgs(script int, args []int) {
	f := c.args[script].f
	if f.pattern() {
		return
	}
	if t := f.text(); t == "-" || t == "/dev/stdin" || t == "/proc/self/fd/0" {
		return
	}
	if _, ok := c.a.writtenFile(f); ok {
		return
	}
	via := baseName(f) + " (a script pruner does not read, so a folder given to it counts as read in full)"
	for _, i := range args {
		c.folderOperand(i, SetRead, via)
	}
}

// hasOpt reports whether the command has the option name (alone or
// with =VALUE).
func hasOpt(c *cmd, name string) bool {
	for _, ar := range c.args[1:] {
		if t := optText(ar.f); t == name || strings.HasPrefix(t, name+"=") {
			return true
		}
	}
	return false
}

// curlConfig: curl -K FILE reads options from FILE (`-` stdin): a config
// the command wrote or pipes in has its words checked as paths (they may
// be upload-file = .env, data = @.env, output = …, read and written); one
// from a pipe the analysis cannot see is unverifiable.
func (c *cmd) curlConfig(v optHit) {
	f, ok := c.valField(v)
	if !ok {
		return
	}
	in := source{}
	if t := f.text(); !f.pattern() && (t == "-" || t == "/dev/stdin") {
		in = c.in
	} else if w, ok := c.a.writtenFile(f); ok {
		in = w
	} else if d, ok := c.diskRC(v.raw, f, true); ok {
		c.curlRCText(v.raw, d.text) // a config file on the disk: state from an earlier call
		return
	} else {
		return
	}
	switch in.kind {
	case srcText:
		if strings.ContainsRune(in.text, unknownRune) {
			c.a.unknown(v.raw, "curl reads options computed when the command runs", SetRead|setModify)
		}
		c.a.tokens(strings.NewReplacer("=", " ", "@", " ", "<", " ", ":", " ").Replace(in.text), SetRead|setModify)
		if curlDownloadOpts().MatchString(in.text) {
			// -O/-J/--output-dir with the URLs there: names the analysis
			// does not pair (servernames.go)
			c.a.unknown(v.raw, "curl reads download options (-O, -J, --output-dir) from a config file, whose file names pruner does not model", SetRead|setModify)
		}
	case srcNone:
	default:
		c.a.unknown(v.raw, "curl reads options from a pipe, which the analysis cannot see", SetRead|setModify)
	}
}

// runnerSubcommand: package managers' and environment managers'
// subcommands that run another program (`npm exec -- serve .`, `pnpm dlx
// serve`, `uv run foobar .`, `poetry run …`, `bundle exec …`, `mise exec
// -- …`) are wrappers: the program is analysed as a command; npm exec
// -c/--call runs a shell command. It reports whether it found one.
func (c *cmd) runnerSubcommand() bool {
	subs := map[string][]string{
		"npm": {"exec", "x"}, "pnpm": {"exec", "dlx"}, "yarn": {"exec", "dlx"}, "uv": {"run"}, "poetry": {"run"},
		"pipenv": {"run"}, "pdm": {"run"}, "hatch": {"run"}, "rye": {"run"}, "conda": {"run"}, "mamba": {"run"},
		"micromamba": {"run"}, "pixi": {"run", "exec"}, "bundle": {"exec"}, "mise": {"exec", "x"}, "asdf": {"exec"},
		"devbox": {"run"}, "rtx": {"exec", "x"}, "volta": {"run"}, "fnm": {"exec"}, "nvm": {"exec", "run"},
	}
	valueOpts := map[string]bool{"--with": true, "--python": true, "-p": true, "--from": true, "--package": true,
		"-n": true, "--name": true, "--prefix": true, "--env": true, "-e": true, "--directory": true, "--project": true,
		"--environment": true, "--with-requirements": true, "--node": true, "--group": true, "--extra": true}
	names, ok := subs[c.name]
	if !ok {
		return false
	}
	k := -1
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		if strings.HasPrefix(t, "-") {
			if valueOpts[t] || contains(toolFolderOpts()[c.name], t) {
				i++
			}
			continue
		}
		if contains(names, t) {
			k = i
		}
		break
	}
	if k < 0 {
		return false
	}
	c.word(k)
	for i := k + 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		name, _, eq := strings.Cut(t, "=")
		switch {
		case t == "--":
			c.done[i] = true
			c.wrap(i + 1)
			return true
		case (name == "-c" || name == "--call") && c.name == "npm":
			f, raw, next, ok := c.optValue(i, name, eq)
			if ok {
				c.scriptField(raw, f, source{})
			}
			i = next
		case strings.HasPrefix(t, "-"):
			c.word(i)
			if (valueOpts[name] || contains(toolFolderOpts()[c.name], name)) && !eq && i+1 < len(c.args) {
				i++
				c.word(i)
			}
		default:
			c.wrap(i)
			return true
		}
	}
	return true
}
