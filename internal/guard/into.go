package guard

import (
	"io/fs"
	"path"
	"strings"
	"sync"
)

// placed records what cp, mv, install and ln write for each source
// besides the destination operand itself: a destination that is (or may
// be: the disk does not say) a folder receives DEST/basename(SRC), so
// `cp evil settings.json .claude/` writes .claude/settings.json; a source
// that is (or may be) a folder, when srcDirs, is written there in full,
// and so is the destination itself when it may not be a folder (`mv dir
// .claude` makes .claude what dir holds). A source whose name is only
// known when the command runs may be any name: every file below the
// destination may be written. Fails closed: without the disk a name is
// taken to be either.
//
// link (ln): the sources are link targets, never copied; a destination
// that is not surely a folder (a link to one, with -n, is replaced) is
// replaced whatever the source, and a single operand is a link made in
// the current folder under the source's name.
func (c *cmd) placed(o opts, srcDirs bool, via string, link bool) {
	if link {
		defer c.a.markFillsFrom(len(c.a.out.targets))
	}
	saved := append([]bool(nil), c.done...)
	p := c.parse(1, o)
	copy(c.done, saved) // parse marks `--`; the roles are runSpec's
	var dest field
	var destRaw string
	var srcs []int
	isDir := 0 // 1: a folder, -1: not one, 0: not known
	if t := p.values("-t", "--target-directory"); len(t) > 0 {
		f, ok := c.valField(t[len(t)-1])
		if !ok {
			return
		}
		dest, destRaw, srcs, isDir = f, t[len(t)-1].raw, p.operands, 1
	} else {
		if len(p.operands) == 1 && link {
			if base, ok := fieldBase(c.args[p.operands[0]].f); ok {
				c.a.value(base.s+" ("+via+" makes it in the current folder)", base, setModify)
			} else {
				c.a.addRec(c.args[p.operands[0]].raw, litField("."), setModify, true, nil, via+" (a link named when the command runs)", followNone)
			}
			return
		}
		if len(p.operands) < 2 {
			return
		}
		last := p.operands[len(p.operands)-1]
		dest, destRaw, srcs = c.args[last].f, c.args[last].raw, p.operands[:len(p.operands)-1]
		if p.has("--no-target-directory") || p.has("-T") && c.name != "rsync" && c.name != "scp" {
			isDir = -1 // (rsync's -T is its temp folder)
		}
	}
	remote := c.name == "rsync" || c.name == "scp"
	if remote {
		dest = localPart(dest)
	}
	if dest.onlyUnk || dest.s == "" {
		return // reported as unknown where the destination is opened
	}
	if isDir == 0 && strings.HasSuffix(dest.s, "/") {
		isDir = 1
	}
	if isDir == 0 && !dest.pattern() && !link {
		// ln's link name is not read from the disk: ln -n replaces a
		// link to a folder, and what the name is when ln runs may not
		// be what it is now; `DIR/` says it is a folder
		isDir = c.a.dirKind(dest.s)
	}
	keep := c.keepsSourcePath(p)
	backup, bsuf := c.backupSuffix(p)
	if backup && isDir != 1 {
		c.a.value(dest.s+" ("+via+" backs it up)", withSuffix(dest, bsuf), setModify)
	}
	for _, i := range srcs {
		src := c.args[i].f
		if remote {
			src = remoteNamed(src, localPart(src))
		}
		srcDir := srcDirs
		if srcDir && !link && !src.pattern() && c.a.dirKind(src.s) == -1 {
			srcDir = false // a file on disk
		}
		if isDir != 1 && srcDir {
			// DEST becomes the source folder: everything below it written
			c.a.addRec(destRaw, dest, setModify, true, nil, via, followNone)
		}
		if isDir == -1 {
			continue
		}
		base, ok := fieldBase(src)
		if keep {
			base, ok = sourcePath(src, c.name == "rsync")
		}
		if !ok {
			c.a.addRec(destRaw, dest, setModify, true, nil, via+" (a source named when the command runs)", followNone)
			continue
		}
		into := joinBase(dest, base)
		raw := into.s
		if !into.pattern() {
			raw = into.s + " (" + via + " puts " + base.s + " into folder " + dest.text() + ")"
			if keep {
				raw = into.s + " (" + via + " " + keepFlag(c.name) + " puts " + base.s + ", its path as given, into folder " + dest.text() + ")"
			}
		}
		if backup {
			c.a.value(raw+" (backed up)", withSuffix(into, bsuf), setModify)
		}
		if srcDir && !link {
			c.a.addRec(raw, into, setModify, true, nil, via+" into folder "+dest.text(), followNone)
		} else {
			n := len(c.a.out.targets)
			c.a.value(raw, into, setModify)
			c.a.markNamedFrom(n, into)
		}
	}
}

// keepsSourcePath reports whether the copy writes each source under its
// path as given rather than its last name: `cp --parents a/b/c DIR`
// writes DIR/a/b/c, and so do `rsync -R`/`--relative` and rsync
// `--files-from` (which implies -R). Long options are taken in any
// unique prefix, as getopt takes them (`--pa`, `--rel`).
func (c *cmd) keepsSourcePath(p parsed) bool {
	has := func(opt string, min int) bool {
		for name := range p.flags {
			if strings.HasPrefix(name, "--") && len(name) >= min && strings.HasPrefix(opt, name) {
				return true
			}
		}
		return false
	}
	switch c.name {
	case "cp", "gcp":
		return has("--parents", len("--pa"))
	case "rsync":
		if has("--no-relative", len("--no-rel")) || p.has("--no-R") {
			return false
		}
		return p.has("-R") || has("--relative", len("--rel")) || has("--files-from", len("--fi"))
	}
	return false
}

// keepFlag names the option that keeps a source's path, for a reason.
func keepFlag(name string) string {
	if name == "rsync" {
		return "-R"
	}
	return "--parents"
}

// sourcePath is the part of a source's path a path-keeping copy puts
// below its destination: the path as given without its leading `/`, and
// for rsync the part after its first `/./` (rsync -R /src/./a/b DIR
// writes DIR/a/b); `./` segments are dropped. A path with nothing left
// (`.`, `/`) is no name the analysis can tell: false.
func sourcePath(f field, rsync bool) (field, bool) {
	if f.onlyUnk {
		return field{}, false
	}
	s := f.s
	if rsync {
		if i := strings.Index(s, "/./"); i >= 0 {
			s = s[i+3:]
		}
	}
	s = strings.TrimLeft(s, "/")
	var segs []string
	for seg := range strings.SplitSeq(s, "/") {
		if seg != "" && seg != "." {
			segs = append(segs, seg)
		}
	}
	if len(segs) == 0 {
		return field{}, false
	}
	s = strings.Join(segs, "/")
	if !f.pattern() {
		return litField(s), true
	}
	if f.dyn && strings.Trim(s, unknownStr+"/") == "" {
		return field{}, false
	}
	out := f
	out.s, out.lead, out.onlyUnk = s, "", false
	return out, true
}

// dirKind says whether a path names a folder on the disk: 1 a folder (not
// a link to one), -1 something else that exists, 0 not known (no disk,
// absent, a link, an unknown part).
func (a *shellAnalyzer) dirKind(s string) int {
	if a.env.FS == nil || strings.ContainsRune(s, unknownRune) {
		return 0
	}
	p, _ := a.norm(s, false)
	info, err := a.env.FS.Lstat(strings.TrimSuffix(p, "/"))
	if err != nil || info.Mode()&fs.ModeSymlink != 0 {
		return 0
	}
	if info.IsDir() {
		return 1
	}
	return -1
}

// fieldBase is the last segment of a field (of its pattern, when it is
// one), false when that segment is not pinned by a literal.
func fieldBase(f field) (field, bool) {
	s := strings.TrimRight(f.s, "/")
	if s == "" || f.onlyUnk {
		return field{}, false
	}
	b := path.Base(s)
	if b == "." || b == ".." || b == "/" {
		return field{}, false
	}
	if !f.pattern() {
		return litField(b), true
	}
	if f.dyn && strings.ContainsRune(b, unknownRune) && strings.Trim(b, unknownStr) == "" {
		return field{}, false
	}
	out := f
	out.s, out.lead, out.onlyUnk = b, "", false
	return out, true
}

// joinBase is DEST/BASE as a field: a pattern when either is one.
func joinBase(dest, base field) field {
	d := strings.TrimRight(dest.s, "/")
	if !dest.pattern() && base.pattern() {
		d = escapeGlob(d)
	}
	b := base.s
	if dest.pattern() && !base.pattern() {
		b = escapeGlob(b)
	}
	out := base
	if dest.pattern() {
		out = dest
		out.glob = dest.glob || base.glob
		out.unk = dest.unk || base.unk
		out.dyn = dest.dyn || base.dyn
	}
	out.s = d + "/" + b
	out.lead, out.onlyUnk = "", false
	if !out.pattern() {
		out = litField(d + "/" + b)
	}
	return out
}

// flagged reports whether any of names is given, leaving c.done as it was.
func (c *cmd) flagged(o opts, names ...string) bool {
	saved := append([]bool(nil), c.done...)
	p := c.parse(1, o)
	copy(c.done, saved)
	return p.has(names...)
}

// removesSources says how a command deletes the files it reads (its
// sources), "" when it does not: rsync --remove-source-files, tar
// --remove-files, zip -m, 7z -sdel.
func removesSources(name string, args []arg) string {
	for i := 1; i < len(args); i++ {
		f := args[i].f
		t := optText(f)
		if f.pattern() && (strings.HasPrefix(t, "-") || f.onlyUnk) {
			// an option computed when it runs may be any of them
			switch name {
			case "rsync", "tar", "gtar", "bsdtar", "zip", "7z", "7za", "7zr":
				return name + " (an option computed when it runs may delete its sources)"
			}
		}
		if t == "--" {
			break
		}
		switch name {
		case "rsync":
			if t == "--remove-source-files" || t == "--remove-sent-files" {
				return "rsync " + t
			}
		case "tar", "gtar", "bsdtar":
			if t == "--remove-files" {
				return "tar " + t
			}
		case "zip":
			if t == "--move" || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsRune(t, 'm') {
				return "zip -m"
			}
		case "7z", "7za", "7zr":
			if strings.HasPrefix(t, "-sdel") {
				return "7z -sdel"
			}
		}
	}
	return ""
}

// deletesRead makes every path the command reads (the targets recorded
// from from on) a write too: the command deletes its sources.
func (c *cmd) deletesRead(from int, how string) {
	ts := c.a.out.targets
	for i := from; i < len(ts); i++ {
		t := &ts[i]
		if t.ops&SetRead == 0 || t.ops.Has(OpWrite) {
			continue
		}
		t.ops |= setModify
		t.meta = false
		if t.rec {
			t.via = how + " (deletes what it reads)"
		} else {
			t.raw = strings.TrimSpace(t.raw) + " (" + how + " deletes it)"
		}
	}
}

// unmodelledFiles records operands of a program the analysis does not
// model (a module, a script on the disk) as files it may read or write,
// the reason naming the program.
func (c *cmd) unmodelledFiles(operands []int, prog string) {
	from := len(c.a.out.targets)
	for _, i := range operands {
		c.file(i, SetRead|setModify)
	}
	for i := from; i < len(c.a.out.targets); i++ {
		c.a.out.targets[i].unmodelled = prog
	}
}

// compressSuffix is the suffix a compressor adds by default.
// Built the first time it is read, not at start-up: most runs never read it.
var compressSuffix = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"gzip": ".gz", "gunzip": ".gz", "bzip2": ".bz2", "bunzip2": ".bz2", "xz": ".xz", "unxz": ".xz",
		"zstd": ".zst", "unzstd": ".zst", "lz4": ".lz4", "compress": ".Z", "uncompress": ".Z",
		// pass 22: lzip, lzma, lzop, brotli and the parallel gzip/bzip2
		"lzip": ".lz", "lunzip": ".lz", "plzip": ".lz", "lzma": ".lzma", "unlzma": ".lzma", "lzop": ".lzo",
		"brotli": ".br", "unbrotli": ".br", "pigz": ".gz", "unpigz": ".gz", "pbzip2": ".bz2", "lbzip2": ".bz2",
		"unlz4": ".lz4", "bzip3": ".bz3", "bunzip3": ".bz3",
	}
})

// decompressSuffixes are the suffixes a decompressor strips, longest
// first within a program's own (.tgz gives .tar).
var decompressSuffixes = []struct{ suf, repl string }{
	{".tgz", ".tar"}, {".taz", ".tar"}, {".tbz2", ".tar"}, {".tbz", ".tar"}, {".txz", ".tar"}, {".tzst", ".tar"},
	{".gz", ""}, {"-gz", ""}, {".z", ""}, {"-z", ""}, {"_z", ""}, {".Z", ""}, {".bz2", ""}, {".bz", ""},
	{".xz", ""}, {".lzma", ""}, {".zst", ""}, {".lz4", ""},
	{".tlz", ".tar"}, {".lz", ""}, {".lzo", ""}, {".br", ""}, {".bz3", ""},
}

// derivedOutputs records the files a command writes under names derived
// from its operands: a compressor's FILE.gz and a decompressor's FILE
// without its suffix (gunzip settings.json.gz writes settings.json), the
// PREFIX… pieces of split and csplit.
func (c *cmd) derivedOutputs(o opts) {
	saved := append([]bool(nil), c.done...)
	p := c.parse(1, o)
	copy(c.done, saved)
	switch c.name {
	case "split", "csplit":
		prefix, suffix := litField("x"), ""
		if c.name == "csplit" {
			prefix = litField("xx")
		}
		if v := p.values("-f", "--prefix"); len(v) > 0 {
			if f, ok := c.valField(v[len(v)-1]); ok {
				prefix = f
			}
		} else if c.name == "split" && len(p.operands) >= 2 {
			prefix = c.args[p.operands[1]].f
		}
		if v := p.values("--additional-suffix"); c.name == "split" && len(v) > 0 {
			if f, ok := c.valField(v[len(v)-1]); ok && !f.pattern() {
				suffix = f.s
			} else {
				suffix = "*"
			}
		} else if c.name == "csplit" && (p.has("-b") || p.has("--suffix-format")) {
			suffix = "*" // a printf format: any text
		}
		if prefix.onlyUnk {
			c.a.unknown(c.args[0].raw, c.name+" writes pieces named after a prefix computed when it runs", setModify)
			return
		}
		out := prefix
		s := prefix.s
		if !prefix.pattern() {
			s = escapeGlob(s)
		}
		if suffix != "*" {
			suffix = escapeGlob(suffix)
		}
		out.s, out.glob, out.lead = s+"*"+suffix, true, ""
		c.a.value(out.s+" ("+c.name+" writes its pieces under this name)", out, setModify)
	case "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "compress", "uncompress", "lzip", "lunzip", "plzip", "lzma", "unlzma", "lzop", "brotli", "unbrotli", "pigz", "unpigz", "pbzip2", "lbzip2", "unlz4", "bzip3", "bunzip3":
		if p.has("-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list") {
			return
		}
		if c.name == "zstd" || c.name == "unzstd" {
			c.zstdOutDir() // extractors.go
		}
		dec := strings.HasPrefix(c.name, "un") || c.name == "gunzip" || c.name == "bunzip2" || c.name == "lunzip" || c.name == "bunzip3" || p.has("-d", "--decompress", "--uncompress")
		suf := compressSuffix()[c.name]
		custom := ""
		if v := p.values("-S", "--suffix"); len(v) > 0 {
			if f, ok := c.valField(v[len(v)-1]); ok {
				if f.pattern() {
					custom = "*"
				} else {
					custom = f.s
				}
			}
		}
		ops := p.operands
		if c.name == "lz4" && len(ops) == 2 {
			return // lz4 IN OUT: OUT is an operand (written)
		}
		for _, i := range ops {
			f := c.args[i].f
			if f.onlyUnk || optText(f) == "-" {
				continue
			}
			var out field
			if !dec {
				s := custom
				if s == "" {
					s = suf
				}
				if s == "*" {
					out = f
					if !f.pattern() {
						out.s = escapeGlob(f.s)
					}
					out.s, out.glob = out.s+"*", true
				} else if f.pattern() {
					out = f
					out.s += escapeGlob(s)
				} else {
					out = litField(f.s + s)
				}
			} else {
				out = stripSuffix(f, custom)
			}
			out.lead = ""
			c.a.value(out.s+" ("+c.name+" writes it from "+f.text()+")", out, setModify)
		}
	}
}

// stripSuffix is a decompressor's output name for f: f without a suffix
// it knows (or custom); for a pattern that does not end in one, any name
// its literal prefix starts (a prefix of a name the pattern matches).
func stripSuffix(f field, custom string) field {
	t := f.s
	sufs := decompressSuffixes
	if custom != "" && custom != "*" {
		sufs = append([]struct{ suf, repl string }{{custom, ""}}, sufs...)
	}
	if custom != "*" {
		for _, s := range sufs {
			if strings.HasSuffix(t, s.suf) && len(t) > len(s.suf) {
				out := f
				out.s = t[:len(t)-len(s.suf)] + s.repl
				return out
			}
		}
	}
	if !f.pattern() && custom != "*" {
		return f // no known suffix: the decompressor leaves it
	}
	s := f.s
	if !f.pattern() {
		s = escapeGlob(s)
	}
	if i := strings.IndexAny(s, "*?[{\\"); i >= 0 {
		s = s[:i]
	}
	out := f
	out.s, out.glob = s+"*", true
	return out
}

// addTrackedWrite records a git command that rewrites the files git
// tracks below a folder (or the file itself).
func (a *shellAnalyzer) addTrackedWrite(raw string, f field, via string, repoWide bool) {
	n := len(a.out.targets)
	a.addRec(raw, f, setModify, true, nil, via, followNone)
	for i := n; i < len(a.out.targets); i++ {
		a.out.targets[i].tracked = true
		a.out.targets[i].repoWide = repoWide
		// what git writes there is what it tracks (pulled, merged): a
		// program run later from it is not taken to be written content
		a.out.targets[i].meta = true
	}
}

// backupSuffix says whether cp, mv, install or ln back up what they
// replace (-b, --backup, -S/--suffix) and with which suffix: "" when it
// is not known (numbered backups NAME.~N~, $SIMPLE_BACKUP_SUFFIX, a
// computed value), which any name that starts with the file's may be.
func (c *cmd) backupSuffix(p parsed) (bool, string) {
	sufs := p.values("-S", "--suffix")
	if !p.has("-b", "--backup") && len(sufs) == 0 {
		for _, v := range p.vals {
			if strings.HasPrefix(v.name, "--backup") {
				return true, ""
			}
		}
		return false, ""
	}
	if len(sufs) == 0 {
		return true, ""
	}
	f, ok := c.valField(sufs[len(sufs)-1])
	if !ok || f.pattern() {
		return true, ""
	}
	for _, v := range p.values("--backup") {
		if t := c.valText(v); t == "numbered" || t == "t" || t == "existing" || t == "nil" {
			return true, ""
		}
	}
	return true, f.s
}

// withSuffix is f with suf appended, or any text ("*") when suf is "".
func withSuffix(f field, suf string) field {
	out := f
	s := f.s
	if !f.pattern() {
		s = escapeGlob(s)
	}
	if suf == "" {
		out.s, out.glob, out.lead, out.onlyUnk = s+"*", true, "", false
		return out
	}
	if !f.pattern() {
		return litField(f.s + suf)
	}
	out.s, out.lead = s+escapeGlob(suf), ""
	return out
}

// installDirs records the folders a package manager installs into when an
// option names one (npm --prefix, pnpm --dir, yarn --cwd, pip --target,
// --prefix and --root, gem --install-dir, cargo install --root): every
// file below may be written.
func (c *cmd) installDirs() {
	var names []string
	switch c.name {
	case "npm":
		names = []string{"--prefix", "-C"}
	case "pnpm":
		names = []string{"--dir", "-C", "--prefix", "--global-dir", "--modules-dir"}
	case "yarn":
		names = []string{"--cwd", "--modules-folder", "--prefix", "--global-folder"}
	case "pip", "pip3", "uv":
		names = []string{"--target", "-t", "--prefix", "--root", "--src", "--user-base"}
	case "gem":
		names = []string{"--install-dir", "-i", "--bindir", "-n"}
	case "go":
		c.goInstall()
		c.programArgs()
		return
	case "cargo":
		c.programArgs()
		names = []string{"--root", "--target-dir"}
	default:
		return
	}
	for k := 1; k < len(c.args); k++ {
		t := optText(c.args[k].f)
		for _, n := range names {
			var f field
			raw := c.args[k].raw
			switch {
			case t == n && k+1 < len(c.args):
				f, raw = c.args[k+1].f, c.args[k+1].raw
			case strings.HasPrefix(n, "--") && strings.HasPrefix(t, n+"="):
				f = subField(c.args[k].f, len(n)+1)
			default:
				continue
			}
			if f.onlyUnk {
				c.a.unknown(raw, c.name+" installs into a folder named when the command runs", setModify)
				continue
			}
			c.a.addRec(raw, f, setModify, true, nil, c.name+" "+n+" (installs into it)", followNone)
		}
	}
}

// goInstall: go install PKG writes a program named after the package's
// last element into $GOBIN (or $GOPATH/bin, ~/go/bin), a folder of the
// environment the analysis does not see: that name in any folder.
func (c *cmd) goInstall() {
	if len(c.args) < 2 || optText(c.args[1].f) != "install" {
		return
	}
	for k := 2; k < len(c.args); k++ {
		f := c.args[k].f
		t := optText(f)
		if strings.HasPrefix(t, "-") {
			if t == "-o" && k+1 < len(c.args) {
				k++
			}
			continue
		}
		if f.pattern() {
			c.a.unknown(c.args[k].raw, "go install writes a program named after a package computed when it runs", setModify)
			continue
		}
		pkg, _, _ := strings.Cut(t, "@")
		pkg = strings.TrimSuffix(pkg, "/...")
		base := path.Base(pkg)
		if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
			base = path.Base(path.Dir(pkg)) // example.com/x/v2 installs x
		}
		if base == "." || base == "/" || base == "" || base == "..." {
			c.a.unknown(c.args[k].raw, "go install writes programs whose names the analysis does not read", setModify)
			continue
		}
		dirs, only := c.goInstallDir() // installenv36.go
		for _, d := range dirs {
			if d.onlyUnk || d.unk || strings.HasPrefix(d.s, "/"+unknownSeg) {
				c.a.unknown(c.args[k].raw, "go install writes into $GOBIN, a folder named when the command runs", setModify)
				continue
			}
			c.a.value(c.args[k].raw+" (go install writes "+base+" into folder "+d.text()+")", joinBase(d, litField(base)), setModify)
		}
		if only {
			continue
		}
		out := field{s: "/" + unknownSeg + "/" + escapeGlob(base), dyn: true, why: "$GOBIN", envDir: true}
		c.a.value(c.args[k].raw+" (go install writes $GOBIN/"+base+")", out, setModify)
	}
}

// localPart is the path of an rsync or scp operand: HOST:PATH's PATH (a
// host may be this machine), the operand itself when it names no host.
func localPart(f field) field {
	t := f.s
	i := strings.IndexByte(t, ':')
	if i <= 0 || strings.ContainsRune(t[:i], '/') || strings.HasPrefix(t[i:], "://") {
		return f
	}
	out := subField(f, i+1)
	if out.s == "" {
		out = litField(".") // HOST: is the home there
	}
	return out
}

// gitCreates records the folder git clone, git submodule add and git
// worktree add fill: DIR when given, else (clone, submodule add) the
// repository's name from its URL in the current folder. Every file below
// it is written.
func (c *cmd) gitCreates(sub string, i int) {
	valued := map[string]bool{}
	from := i + 1
	want := 2 // URL [DIR]
	switch sub {
	case "clone":
		for _, o := range []string{"-o", "--origin", "-b", "--branch", "-u", "--upload-pack", "--reference", "--reference-if-able",
			"--separate-git-dir", "--depth", "-c", "--config", "--template", "-j", "--jobs", "--filter", "--shallow-since",
			"--shallow-exclude", "--server-option", "--bundle-uri", "--ref-format"} {
			valued[o] = true
		}
	case "submodule", "worktree":
		k := from
		for k < len(c.args) && strings.HasPrefix(optText(c.args[k].f), "-") {
			k++
		}
		if k >= len(c.args) || optText(c.args[k].f) != "add" {
			return
		}
		from = k + 1
		for _, o := range []string{"-b", "--branch", "--name", "--reference", "--depth", "-B", "--reason"} {
			valued[o] = true
		}
		if sub == "worktree" {
			want = 1 // PATH [COMMIT]
		}
	default:
		return
	}
	var ops []int
	for k := from; k < len(c.args); k++ {
		t := optText(c.args[k].f)
		if strings.HasPrefix(t, "-") && t != "-" && !c.args[k].f.onlyUnk {
			name, _, eq := strings.Cut(t, "=")
			if name == "--separate-git-dir" {
				f := c.args[k].f
				raw := c.args[k].raw
				if eq {
					f = subField(f, len(name)+1)
				} else if k+1 < len(c.args) {
					f, raw = c.args[k+1].f, c.args[k+1].raw
				}
				c.a.addRec(raw, f, setModify, true, nil, "git "+sub+" --separate-git-dir", followNone)
			}
			if valued[name] && !eq {
				k++
			}
			continue
		}
		ops = append(ops, k)
	}
	via := "git " + sub + " (fills the folder)"
	if sub == "worktree" {
		if len(ops) > 0 {
			c.a.addRec(c.args[ops[0]].raw, c.args[ops[0]].f, setModify, true, nil, via, followNone)
		}
		return
	}
	if len(ops) >= want {
		c.a.addRec(c.args[ops[1]].raw, c.args[ops[1]].f, setModify, true, nil, via, followNone)
		return
	}
	if len(ops) == 0 {
		return
	}
	u := c.args[ops[0]].f
	if u.pattern() {
		c.a.unknown(c.args[ops[0]].raw, "git "+sub+" makes a folder named after a URL computed when it runs", setModify)
		return
	}
	name := strings.TrimRight(u.s, "/")
	name = strings.TrimSuffix(name, "/.git")
	name = strings.TrimSuffix(name, ".git")
	if j := strings.LastIndexAny(name, "/:"); j >= 0 {
		name = name[j+1:]
	}
	if name == "" || name == "." || name == ".." {
		c.a.unknown(c.args[ops[0]].raw, "git "+sub+" makes a folder whose name the analysis does not read from the URL", setModify)
		return
	}
	c.a.addRec(c.args[ops[0]].raw, litField(name), setModify, true, nil, via+" "+name, followNone)
}

// programArgs: the arguments go run and cargo run pass to the program
// they build, which the analysis does not read: what it is given may be
// written (go run PKG ARGS…, cargo run … -- ARGS…).
func (c *cmd) programArgs() {
	if len(c.args) < 2 || optText(c.args[1].f) != "run" {
		return
	}
	var rest []int
	switch c.name {
	case "go":
		valued := map[string]bool{"-tags": true, "-ldflags": true, "-gcflags": true, "-asmflags": true, "-mod": true, "-modfile": true,
			"-overlay": true, "-pgo": true, "-exec": true, "-C": true, "-p": true, "-toolexec": true, "-covermode": true, "-coverpkg": true}
		k := 2
		for k < len(c.args) {
			t := optText(c.args[k].f)
			if !strings.HasPrefix(t, "-") {
				break
			}
			if valued[t] {
				k++
			}
			k++
		}
		for k < len(c.args) && strings.HasSuffix(optText(c.args[k].f), ".go") {
			k++ // go run a.go b.go ARGS
		}
		if k < len(c.args) && !strings.HasSuffix(optText(c.args[k-1].f), ".go") {
			k++ // the package
		}
		for ; k < len(c.args); k++ {
			rest = append(rest, k)
		}
	case "cargo":
		for k := 2; k < len(c.args); k++ {
			if optText(c.args[k].f) == "--" {
				for q := k + 1; q < len(c.args); q++ {
					rest = append(rest, q)
				}
				break
			}
		}
	}
	c.unmodelledFiles(rest, "the program "+c.name+" run builds")
}
