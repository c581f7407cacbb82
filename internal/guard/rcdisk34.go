package guard

import "strings"

// curl's and wget's configuration files already on the disk (pass 34): a
// `~/.curlrc` with `output = .pi/settings.json` written by an earlier
// call makes a later plain `curl URL` write that file; `curl -K FILE`,
// `CURL_HOME=DIR curl`, `wget --config FILE`, `WGETRC=FILE wget` name
// the file. With the disk the file is read and analysed as the command's
// options (as one the command writes is: programs.go curlConfig,
// servernames.go rcDownloads); one named by the command that cannot be
// read (no disk, a computed name, an unreadable file) is unverifiable. The
// default locations are read when the disk holds them; without the disk
// they are not known, and a plain curl stays allowed.

// diskRC reads configuration file f of prog from the disk. ok is false
// when there is nothing to analyse (the file is missing, or it is a
// default location pruner cannot consult); an unreadable file the command
// names (named) is recorded as unverifiable.
func (c *cmd) diskRC(raw string, f field, named bool) (source, bool) {
	what := c.name + " reads its configuration from " + showWord(raw)
	if f.pattern() {
		if named {
			c.a.unknown(raw, what+", a file only known when the command runs", SetRead|setModify)
		}
		return source{}, false
	}
	if c.a.env.FS == nil {
		if named {
			c.a.unknown(raw, what+", which pruner cannot read (the disk is not consulted)", SetRead|setModify)
		}
		return source{}, false
	}
	a := c.a
	var text strings.Builder
	found := false
	for _, cwd := range a.cwds {
		p, _ := joinOrNorm(a, cwd, f.s)
		if strings.ContainsRune(p, unknownRune) || globCwd(p) {
			if named {
				a.unknown(raw, what+", whose folder is only known when the command runs", SetRead|setModify)
			}
			return source{}, false
		}
		if r, changed, ok := resolveLinks(a.env.FS, p, false); !ok {
			a.unknown(raw, what+", whose links cannot be resolved", SetRead|setModify)
			return source{}, false
		} else if changed {
			p = r
		}
		b, exists, ok := readSmallFile(a.env.FS, p, maxScriptBytes)
		switch {
		case !exists:
			continue
		case !ok:
			a.unknown(raw, what+", which is not a regular file pruner can read", SetRead|setModify)
			return source{}, false
		}
		found = true
		text.Write(b)
		text.WriteByte('\n')
	}
	if !found {
		return source{}, false
	}
	return source{kind: srcText, text: text.String()}, true
}

// curlRCText analyses a curl configuration's text: the names in its
// options are read and written (output = FILE, dump-header, cookie-jar,
// config), and options that name files after the URLs are unverifiable.
func (c *cmd) curlRCText(raw, text string) {
	if strings.ContainsRune(text, unknownRune) {
		c.a.unknown(raw, "curl reads options computed when the command runs", SetRead|setModify)
	}
	c.a.tokens(strings.NewReplacer("=", " ", "@", " ", "<", " ", ":", " ", `"`, " ", "'", " ").Replace(text), SetRead|setModify)
	if curlDownloadOpts().MatchString(text) {
		c.a.unknown(raw, "curl reads download options (-O, -J, --output-dir) from a config file, whose file names pruner does not model", SetRead|setModify)
	}
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimLeft(strings.TrimSpace(line), "-")
		if name, _, _ := strings.Cut(line, " "); name == "config" || name == "K" || strings.HasPrefix(line, "config=") || strings.HasPrefix(line, "config:") {
			c.a.unknown(raw, "curl's configuration reads another configuration file, which pruner does not follow", SetRead|setModify)
			return
		}
	}
}

// defaultRCs checks the configuration curl or wget reads by itself, from
// the folders the command's environment names or the home folder.
func (c *cmd) defaultRCs() {
	type rc struct {
		raw   string
		f     field
		named bool
	}
	var rcs []rc
	envFile := func(name, rel string) bool {
		vf, ok := c.envField(name)
		if !ok {
			return false
		}
		if vf.pattern() {
			c.a.unknown("$"+name, c.name+" reads its configuration from a folder only known when the command runs", SetRead|setModify)
			return true
		}
		v := vf.s
		if v == "" {
			return false
		}
		p := v
		if rel != "" {
			p = strings.TrimSuffix(v, "/") + "/" + rel
		}
		rcs = append(rcs, rc{name + "=" + v, litField(p), true})
		return true
	}
	switch c.name {
	case "curl":
		if len(c.args) > 1 {
			if t := optText(c.args[1].f); t == "-q" || t == "--disable" {
				return
			}
		}
		envFile("CURL_HOME", ".curlrc")
		if !envFile("XDG_CONFIG_HOME", "curlrc") {
			rcs = append(rcs, rc{"~/.config/curlrc", c.homePath(".config/curlrc"), false})
		}
		rcs = append(rcs, rc{"~/.curlrc", c.homePath(".curlrc"), false})
	case "wget", "wget2":
		for _, ar := range c.args[1:] {
			if optText(ar.f) == "--no-config" {
				return
			}
		}
		if !envFile("WGETRC", "") {
			rcs = append(rcs, rc{"~/.wgetrc", c.homePath(".wgetrc"), false})
		}
	default:
		return
	}
	for _, r := range rcs {
		s, ok := c.a.writtenFile(r.f)
		if ok && s.kind != srcText {
			c.a.unknown(r.raw, c.name+" reads a configuration the command writes, whose text the analysis cannot see", SetRead|setModify)
			continue
		}
		if !ok {
			if s, ok = c.diskRC(r.raw, r.f, r.named); !ok {
				continue
			}
		}
		if c.name == "curl" {
			c.curlRCText(r.raw, s.text)
		} else {
			c.rcDownloads(r.raw, s)
		}
	}
}

// envField is the value of environment variable name for the program the
// command runs: set before it on its line (X=v prog), or assigned (and
// maybe exported) earlier in the command; a value not known is the
// variable's field (a pattern). ok is false when the command sets none.
func (c *cmd) envField(name string) (field, bool) {
	if v, ok := c.a.cmdEnvValue(name); ok {
		if strings.ContainsRune(v, unknownRune) {
			return field{s: "/" + unknownSeg, unk: true}, true
		}
		return litField(v), true
	}
	if v, ok := c.a.vars[name]; ok {
		if v.known {
			return litField(v.f.s), true
		}
		if v.f.s == "" {
			return field{s: "/" + unknownSeg, unk: true}, true
		}
		return v.f, true
	}
	return field{}, false
}
