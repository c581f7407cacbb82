package guard

import (
	"strings"
	"sync"
)

// Downloads whose file name the gate cannot read from the command (pass
// 31): a name the server chooses (curl -J, wget --content-disposition or
// --trust-server-names, httpie --download), URLs read from a file or
// computed when the command runs, URL globs, a downloader that writes a
// tree (wget -x, aria2c's torrents). The file written is then any name in
// the folder it writes to: a rule that could match a name there (`.env`,
// anything below `.pi/extensions/`) denies it.

// anyNameIn is the pattern "any name in folder dir" (one segment).
func anyNameIn(dir field) field {
	if dir.s == "" {
		dir = litField(".")
	}
	return joinBase(dir, field{s: unknownStr, unk: true})
}

// serverNamed records that via writes a file under a name the command
// does not give, in folder dir (a relative dir is the working directory's).
func (c *cmd) serverNamed(dir field, via string) {
	where := "the working directory"
	if t := dir.text(); t != "" && t != "." && t != "./" {
		where = showWord(t)
	}
	c.newNames(func() {
		c.a.loadedBy(via+", which writes a file whose name pruner cannot know, in "+where, anyNameIn(dir), setModify)
	})
}

// newNames runs fn, marking the pattern writes it records as names the
// command creates (fills.go): matched against the rules' own paths, not
// only what the disk holds (.claude/settings.json may not exist yet).
func (c *cmd) newNames(fn func()) {
	from := len(c.a.out.targets)
	fn()
	for i := from; i < len(c.a.out.targets); i++ {
		if t := &c.a.out.targets[i]; !t.rec && t.pattern && t.ops.Has(OpWrite) {
			t.fills = true
		}
	}
}

// urlPath returns the part of a URL after its host ("" when it has none)
// and whether it has a scheme.
func urlPath(u string) string {
	rest := u
	if _, r, ok := strings.Cut(u, "://"); ok {
		rest = r
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			return rest[i:]
		}
		return ""
	}
	return rest
}

// remoteNames are the names a downloader may give the file of URL u (the
// last segment of its path without and with the query and fragment, each
// percent-decoded too); dirURL says the URL names a folder (no segment).
func remoteNames(u string) (names []string, dirURL bool) {
	p := urlPath(u)
	seen := map[string]bool{}
	add := func(s string) {
		if i := strings.LastIndexByte(s, '/'); i >= 0 {
			s = s[i+1:]
		}
		for _, n := range append([]string{s}, percentDecoded(s)...) {
			if i := strings.LastIndexAny(n, `/\`); i >= 0 {
				n = n[i+1:] // a decoded %2F: a folder part again
			}
			if n != "" && n != "." && n != ".." && !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	noFrag, _, _ := strings.Cut(p, "#")
	noQuery, _, _ := strings.Cut(noFrag, "?")
	if noQuery == "" || strings.HasSuffix(noQuery, "/") {
		dirURL = true
	} else {
		add(noQuery)
	}
	if noFrag != noQuery {
		add(noFrag)
	}
	if p != noFrag {
		add(p)
	}
	return names, dirURL
}

// urlGlobbed reports whether curl expands globs in u's path ({a,b},
// [1-9]): the name written is then one of the expansions.
func urlGlobbed(u string) bool { return strings.ContainsAny(urlPath(u), "{[") }

// curlDownloadOpts finds, in a curl config file, the options that name the
// files a download writes by the URL or the server.
var curlDownloadOpts = lazyRegexp(`(?m)(remote-name|remote-header-name|output-dir|(^|\s)-[A-Za-z]*[OJ])`)

var curlHashRef = lazyRegexp(`#[0-9]`)

// curlOutputField is curl's -o value with its `#N` references (the text a
// URL glob matched) taken as unknown characters.
func curlOutputField(f field) field {
	if f.pattern() || !curlHashRef().MatchString(f.s) {
		return f
	}
	return field{s: oneUnknown(curlHashRef().ReplaceAllLiteralString(escapeGlob(f.s), unknownStr)), unk: true, why: "#N (the text a URL glob matched)"}
}

// oneUnknown merges runs of unknown characters into one (the matcher
// reads two as `**`).
func oneUnknown(s string) string {
	for strings.Contains(s, unknownStr+unknownStr) {
		s = strings.ReplaceAll(s, unknownStr+unknownStr, unknownStr)
	}
	return s
}

// curlRemote records the files curl -O writes: each URL's name in dir (its
// --output-dir), any name there for -J, a URL computed when the command
// runs or a glob.
func (c *cmd) curlRemote(p parsed, dir field) {
	if !p.has("-O", "--remote-name", "--remote-name-all") {
		return
	}
	if p.has("-J", "--remote-header-name") {
		c.serverNamed(dir, "curl -J (the server names the file)")
	}
	globOff := p.has("-g", "--globoff")
	urls := make([]arg, 0, len(p.operands))
	for _, i := range p.operands {
		urls = append(urls, c.args[i])
	}
	for _, v := range p.values("--url") {
		if f, ok := c.valField(v); ok {
			urls = append(urls, arg{raw: v.raw, f: f})
		}
	}
	for _, u := range urls {
		switch {
		case u.f.pattern():
			c.serverNamed(dir, "curl -O with a URL only known when the command runs ("+showWord(u.raw)+")")
		case !globOff && urlGlobbed(u.f.s):
			c.serverNamed(dir, "curl -O with a URL glob ("+showWord(u.raw)+")")
		default:
			names, _ := remoteNames(u.f.s)
			for _, n := range names {
				c.a.value(u.raw, joinBase(dir, litField(n)), setModify)
			}
		}
	}
}

// wgetRC are wgetrc commands (`wget -e CMD`, names without `_` and `-`)
// that write no file and name none.
var wgetRC = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"robots": true, "tries": true, "timeout": true, "wait": true, "waitretry": true, "randomwait": true,
		"useragent": true, "verbose": true, "quiet": true, "checkcertificate": true, "header": true, "limitrate": true,
		"retryconnrefused": true, "noclobber": true, "continue": true, "progress": true, "serverresponse": true,
		"timestamping": true, "dotstyle": true, "inet4only": true, "inet6only": true, "preferfamily": true,
		"dnstimeout": true, "connecttimeout": true, "readtimeout": true, "maxredirect": true, "httpuser": true,
		"httppassword": true, "user": true, "password": true, "cache": true, "cookies": true, "compression": true,
		"httpsonly": true, "secureprotocol": true, "showprogress": true, "spider": true, "debug": true,
		"localencoding": true, "remoteencoding": true, "iri": true, "restrictfilenames": true, "httpkeepalive": true,
		"quota": true, "reclevel": true, "noparent": true, "spanhosts": true, "domains": true, "excludedomains": true,
		"accept": true, "reject": true, "followftp": true, "relativeonly": true, "ignorecase": true,
		"useproxy": true, "httpproxy": true, "httpsproxy": true, "ftpproxy": true, "noproxy": true,
		"pagerequisites": true, "convertlinks": true, "adjustextension": true, "backups": true, "retrysymlinks": true,
	}
})

// wgetState is what wget's options say about the files it writes.
type wgetState struct {
	prefix     field // -P DIR (its folder for every file)
	named      bool  // -O FILE: one file, named
	serverName bool  // --content-disposition, --trust-server-names
	why        string
	tree       bool // -x, -r, -m: a tree of URL paths below prefix
	treeVia    string
	inputs     bool // -i: URLs the command does not show
	defPage    string
}

// wgetExecute reads one `wget -e CMD` (a wgetrc line, `name = value`):
// the commands that choose names or folders change st, the harmless ones
// pass, any other is unverifiable.
func (c *cmd) wgetExecute(v optHit, st *wgetState) {
	f, ok := c.valField(v)
	if !ok {
		return
	}
	if f.pattern() {
		c.a.unknown(v.raw, "wget -e runs a wgetrc command only known when the command runs", SetRead|setModify)
		return
	}
	name, val, _ := strings.Cut(f.s, "=")
	name = strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "", "\t", "").Replace(name))
	val = strings.TrimSpace(val)
	on := val == "1" || strings.EqualFold(val, "on") || strings.EqualFold(val, "yes") || strings.EqualFold(val, "true")
	switch name {
	case "contentdisposition", "trustservernames":
		if on {
			st.serverName, st.why = true, "wget -e "+strings.TrimSpace(f.s)
		}
	case "dirprefix":
		st.prefix = litField(val)
	case "outputdocument":
		st.named = val != "" && val != "-"
		if st.named {
			c.fileField(v.raw, litField(val), setModify)
		} else if val == "-" {
			st.named = true
		}
	case "recursive", "mirror", "dirstruct", "addhostdir", "protocoldirectories", "cutdirs":
		if on || name == "cutdirs" || name == "addhostdir" {
			st.tree, st.treeVia = true, "wget -e "+strings.TrimSpace(f.s)
		}
	case "input":
		st.inputs = true
		c.fileField(v.raw, litField(val), SetRead)
	case "defaultpage":
		st.defPage = val
	default:
		if !wgetRC()[name] {
			c.a.unknown(v.raw, "wget -e runs the wgetrc command "+showWord(name)+", which the analysis does not model", SetRead|setModify)
		}
	}
}

// wgetWrites records what wget writes for its URL operands, given st.
func (c *cmd) wgetWrites(p parsed, st *wgetState) {
	if st.tree {
		via := st.treeVia
		if via == "" {
			via = "wget -r"
		}
		c.a.addRec(st.prefix.s, st.prefix, setModify, true, nil, via, followNone)
	}
	if st.named {
		return
	}
	if st.serverName {
		c.serverNamed(st.prefix, st.why+" (the server names the file)")
	}
	if st.inputs {
		c.serverNamed(st.prefix, "wget -i (its URLs are read when it runs)")
	}
	for _, i := range p.operands {
		f := c.args[i].f
		if f.pattern() {
			c.serverNamed(st.prefix, "wget with a URL only known when the command runs ("+showWord(c.args[i].raw)+")")
			continue
		}
		names, dirURL := remoteNames(f.s)
		if dirURL {
			page := "index.html"
			if st.defPage != "" {
				page = st.defPage
			}
			names = append(names, page)
		}
		for _, n := range names {
			c.a.value(c.args[i].raw, joinBase(st.prefix, litField(n)), setModify)
		}
	}
}

// optArg reads the value of option name at args[i] (`--name=v`, `--name
// v`, `-Xv` for a one-letter name): the value's field and raw text, the
// index after it, and ok when args[i] is that option.
func (c *cmd) optArg(i int, names ...string) (f field, raw string, next int, ok bool) {
	t := optText(c.args[i].f)
	for _, n := range names {
		switch {
		case t == n:
			c.done[i] = true
			if i+1 < len(c.args) {
				c.done[i+1] = true
				return c.args[i+1].f, c.args[i+1].raw, i + 2, true
			}
			return field{}, "", i + 1, false
		case strings.HasPrefix(n, "--") && strings.HasPrefix(t, n+"="):
			c.done[i] = true
			return subField(c.args[i].f, len(n)+1), c.args[i].raw, i + 1, true
		case len(n) == 2 && n[0] == '-' && n[1] != '-' && len(t) > 2 && strings.HasPrefix(t, n) && !strings.HasPrefix(t, "--"):
			c.done[i] = true
			return subField(c.args[i].f, 2), c.args[i].raw, i + 1, true
		}
	}
	return field{}, "", i, false
}

// aria2cHooks are aria2c's options whose value is a command it runs.
var aria2cHooks = []string{"--on-download-complete", "--on-download-error", "--on-download-pause", "--on-download-start",
	"--on-download-stop", "--on-bt-download-complete"}

// aria2c names the file after the URL or the server's Content-Disposition,
// and a torrent or metalink it downloads (followed by default) writes a
// tree of names the server gives: every file below its folder (-d) may be
// written, unless both are not followed (then any name there, or -o's).
func (c *cmd) aria2c() {
	dir := litField(".")
	var out *field
	input := false
	torrent, metalink := "true", "true"
	for i := 1; i < len(c.args); {
		if c.done[i] {
			i++
			continue
		}
		if f, _, next, ok := c.optArg(i, "-d", "--dir"); ok {
			dir, i = f, next
			continue
		}
		if f, _, next, ok := c.optArg(i, "-o", "--out"); ok {
			g := f
			out, i = &g, next
			continue
		}
		if f, raw, next, ok := c.optArg(i, aria2cHooks...); ok {
			c.scriptField(raw, f, source{})
			i = next
			continue
		}
		if f, raw, next, ok := c.optArg(i, "--follow-torrent", "--follow-metalink"); ok {
			if strings.HasPrefix(optText(c.args[i].f), "--follow-torrent") {
				torrent = f.text()
			} else {
				metalink = f.text()
			}
			c.a.value(raw, f, SetRead)
			i = next
			continue
		}
		if f, raw, next, ok := c.optArg(i, "-i", "--input-file", "-T", "--torrent-file", "-M", "--metalink-file"); ok {
			c.fileField(raw, f, SetRead)
			input = true
			i = next
			continue
		}
		i++
	}
	switch {
	case torrent != "false" || metalink != "false" || input:
		c.a.addRec(dir.s, dir, setModify, true, nil, "aria2c (a torrent or metalink it follows writes files the server names)", followNone)
	case out != nil:
		c.newNames(func() { c.fileField(out.s, joinBase(dir, *out), setModify) })
	default:
		c.serverNamed(dir, "aria2c (Content-Disposition names the file)")
	}
	c.genericOps(SetRead|setModify, c.name)
}

// httpie (http, https) and xh: --download (-d) writes a file the server
// names (Content-Disposition, else the URL's) unless -o names it.
func (c *cmd) httpie() {
	download, named := false, false
	for i := 1; i < len(c.args); {
		t := optText(c.args[i].f)
		if f, raw, next, ok := c.optArg(i, "-o", "--output"); ok {
			c.fileField(raw, f, setModify)
			named, i = true, next
			continue
		}
		if f, raw, next, ok := c.optArg(i, "--session", "--session-read-only"); ok {
			if strings.ContainsAny(f.text(), `/\`) || f.pattern() {
				c.fileField(raw, f, SetRead|setModify)
			}
			i = next
			continue
		}
		if t == "--download" || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t, "d") && !strings.ContainsAny(t, "=:") {
			download = true
			c.done[i] = true
		}
		i++
	}
	if download && !named {
		c.serverNamed(litField("."), c.name+" --download (the server names the file)")
	}
	c.generic()
}

// ytdlpTypes are the file types yt-dlp's -o and -P may prefix ("TYPE:").
var ytdlpTypes = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"subtitle": true, "thumbnail": true, "description": true, "annotation": true,
		"infojson": true, "link": true, "pl_thumbnail": true, "pl_description": true, "pl_infojson": true,
		"chapter": true, "pl_video": true, "home": true, "temp": true}
})

var ytdlpField = lazyRegexp(`%(\([^)]*\))?[-#0 +]*[0-9.*]*[diouxXeEfFgGcrsqBjlhDSUp]`)

// ytdlpTemplate is an output template as a field: each %(…)s a name
// part the server gives (yt-dlp keeps `/` out of it), then any suffix (.part,
// .EXT, the subtitles' .LANG.vtt).
func ytdlpTemplate(t string) field {
	if k, rest, ok := strings.Cut(t, ":"); ok && ytdlpTypes()[k] {
		t = rest
	}
	parts := strings.Split(t, "%%")
	for k, p := range parts {
		parts[k] = ytdlpField().ReplaceAllLiteralString(escapeGlob(p), unknownStr)
	}
	return field{s: oneUnknown(strings.Join(parts, "%") + unknownStr), unk: true}
}

// ytdlp: yt-dlp and youtube-dl write below -P's folders, under names from
// the -o templates (by default the title); --exec runs a command.
func (c *cmd) ytdlp() {
	var homes []field
	var temps []field
	templates := []field{}
	for i := 1; i < len(c.args); {
		if f, raw, next, ok := c.optArg(i, "-o", "--output"); ok {
			templates = append(templates, f)
			c.a.value(raw, f, SetRead)
			i = next
			continue
		}
		if f, raw, next, ok := c.optArg(i, "-P", "--paths"); ok {
			t := f.text()
			if k, rest, ok := strings.Cut(t, ":"); ok && ytdlpTypes()[k] && !f.pattern() {
				if k == "home" {
					homes = append(homes, litField(rest))
				} else {
					temps = append(temps, litField(rest))
				}
			} else {
				homes = append(homes, f)
			}
			c.a.value(raw, f, SetRead)
			i = next
			continue
		}
		if f, raw, next, ok := c.optArg(i, "--exec", "--exec-before-download"); ok {
			if k, rest, ok := strings.Cut(f.text(), ":"); ok && !f.pattern() && !strings.ContainsAny(k, " /") {
				f = litField(rest) // WHEN:CMD
			}
			c.scriptField(raw, f, source{})
			i = next
			continue
		}
		i++
	}
	if len(homes) == 0 {
		homes = []field{litField(".")}
	}
	if len(templates) == 0 {
		templates = []field{litField("%(title)s [%(id)s].%(ext)s")}
	}
	for _, h := range homes {
		for _, t := range templates {
			if t.pattern() {
				c.serverNamed(h, c.name+" with an output template only known when the command runs")
				c.a.addRec(h.s, h, setModify, true, nil, c.name+" -o (a template only known when the command runs)", followNone)
				continue
			}
			c.newNames(func() {
				c.a.loadedBy(c.name+", which names the files it writes after the video ("+showWord(t.s)+")", joinBase(h, ytdlpTemplate(t.s)), setModify)
			})
		}
	}
	for _, d := range temps {
		c.serverNamed(d, c.name+" -P temp: (its partial files)")
	}
	c.genericOps(SetRead|setModify, c.name)
}

// rcDownloads checks a curl or wget configuration the command wrote before
// the program reads it (~/.curlrc, ~/.wgetrc, wget --config): options
// that choose the names of the files written are not paired with the
// URLs (unverifiable), nor is any wgetrc command not known to be harmless.
func (c *cmd) rcDownloads(raw string, s source) {
	if c.name != "curl" && c.name != "wget" && c.name != "wget2" {
		return
	}
	if s.kind != srcText || strings.ContainsRune(s.text, unknownRune) {
		c.a.unknown(raw, c.name+" reads a configuration the command writes, whose text the analysis cannot see", SetRead|setModify)
		return
	}
	if c.name == "curl" {
		if curlDownloadOpts().MatchString(s.text) {
			c.a.unknown(raw, "curl reads download options (-O, -J, --output-dir) from a config file, whose file names pruner does not model", SetRead|setModify)
		}
		return
	}
	for line := range strings.SplitSeq(s.text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, _, _ := strings.Cut(line, "=")
		name = strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "", "\t", "").Replace(name))
		if !wgetRC()[name] {
			c.a.unknown(raw, "wget reads the wgetrc command "+showWord(name)+" from a file the command writes, which the analysis does not model", SetRead|setModify)
			return
		}
	}
}

// remoteNamed is the path of a remote source of scp or rsync (local, its
// part after HOST:) as the names it brings: the remote shell expands its
// globs, braces, `~` and `$…` (`scp 'host:/x/*' .`), so a last segment
// holding one is any name.
func remoteNamed(orig, local field) field {
	if local.s == orig.s || local.pattern() {
		return local
	}
	dir, base := "", local.s
	if i := strings.LastIndexByte(strings.TrimSuffix(local.s, "/"), '/'); i >= 0 {
		dir, base = local.s[:i], local.s[i+1:]
	}
	if !strings.ContainsAny(base, "*?[{$`~\\") {
		return local
	}
	if dir == "" {
		dir = "."
	}
	return field{s: escapeGlob(dir) + "/" + unknownStr, unk: true, why: "a name the remote side expands"}
}

// sftpFetch: `sftp HOST:PATH` downloads PATH into the working directory
// (every file a remote glob matches: any name).
func (c *cmd) sftpFetch(i int) {
	f := c.args[i].f
	local := localPart(f)
	if local.s == f.s || local.s == "." || strings.HasSuffix(local.s, "/") {
		return // a host, or a folder sftp changes into
	}
	if local.pattern() || strings.ContainsAny(local.s, "*?[{$`~\\") {
		c.serverNamed(litField("."), "sftp HOST:PATH with a remote glob ("+showWord(c.args[i].raw)+")")
		return
	}
	base := local.s[strings.LastIndexByte(local.s, '/')+1:]
	c.a.value(c.args[i].raw+" (sftp downloads "+base+")", litField(base), setModify)
}

// ghDownload: `gh release download` writes the release's assets under
// their names on GitHub (any name in -D DIR or the working directory;
// with -p PATTERN, names PATTERN matches) unless -O FILE names the file;
// `gh run download` writes a folder per artifact below -D.
func (c *cmd) ghDownload() {
	if len(c.args) < 3 {
		return
	}
	sub := optText(c.args[1].f) + " " + optText(c.args[2].f)
	if sub != "release download" && sub != "run download" {
		return
	}
	dir, named := litField("."), false
	var pats []field
	for k := 3; k < len(c.args); {
		if f, raw, next, ok := c.optArg(k, "-D", "--dir"); ok {
			dir, k = f, next
			c.a.value(raw, f, SetRead)
			continue
		}
		if f, raw, next, ok := c.optArg(k, "-O", "--output"); ok {
			if f.text() != "-" {
				c.fileField(raw, f, setModify)
			}
			named, k = true, next
			continue
		}
		if f, raw, next, ok := c.optArg(k, "-p", "--pattern", "-n", "--name"); ok {
			c.a.value(raw, f, SetRead)
			pats = append(pats, f)
			k = next
			continue
		}
		k++
	}
	switch {
	case sub == "run download":
		c.a.addRec(dir.s, dir, setModify, true, nil, "gh run download (a folder per artifact, named by the run)", followNone)
	case named:
	case len(pats) > 0:
		for _, pt := range pats {
			g := pt
			if !pt.pattern() {
				g = field{s: pt.s, glob: strings.ContainsAny(pt.s, "*?["), unk: !strings.ContainsAny(pt.s, "*?[")}
			}
			c.newNames(func() {
				c.a.loadedBy("gh release download -p (assets named as on GitHub)", joinBase(dir, g), setModify)
			})
		}
	default:
		c.serverNamed(dir, "gh release download (its assets keep their names on GitHub)")
	}
}

// downloaders that name the file after the server's answer unless told a
// name: lwp-download URL [LOCAL], axel [-o PATH] URL, gdown [-O PATH] URL
// (a PATH ending in / or --folder: any name there).
func (c *cmd) namedDownload() {
	dir, named := litField("."), false
	var ops []int
	for k := 1; k < len(c.args); {
		if f, raw, next, ok := c.optArg(k, "-o", "--output", "-O"); ok && c.name != "lwp-download" {
			c.fileField(raw, f, setModify)
			if strings.HasSuffix(f.text(), "/") || c.name == "axel" {
				dir = f // axel's -o may be a folder
			} else {
				named = true
			}
			k = next
			continue
		}
		if t := optText(c.args[k].f); !strings.HasPrefix(t, "-") {
			ops = append(ops, k)
		}
		k++
	}
	if c.name == "lwp-download" && len(ops) >= 2 {
		last := c.args[ops[len(ops)-1]]
		c.fileField(last.raw, last.f, setModify)
		dir = last.f // a folder: the server's name in it
	}
	if c.name == "gdown" {
		for _, ar := range c.args[1:] {
			if optText(ar.f) == "--folder" {
				c.a.addRec(dir.s, dir, setModify, true, nil, "gdown --folder (names from the drive)", followNone)
			}
		}
	}
	if !named {
		c.serverNamed(dir, c.name+" (the server names the file)")
	}
	c.generic()
}
