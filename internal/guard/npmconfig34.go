package guard

import (
	"strings"
	"sync"
)

// npm's, pnpm's and yarn's configuration that names a program they run
// later (pass 34): `npm config set script-shell /tmp/e.sh && npm test`
// runs /tmp/e.sh for every script, as `npm test --script-shell
// /tmp/e.sh` does (commands.go: that option's program is analysed). Set
// by `npm config set`/`npm set`/`pnpm config set`/`yarn config set`, by
// an `npm_config_*` variable, or by a line of an .npmrc (.yarnrc,
// .yarnrc.yml) the command writes or the disk holds, the program is not
// known at the call that runs it: unverifiable.

// npmCommandKeys are configuration keys (lower case, without `-` and
// `_`) whose value is a program or code the package manager runs or
// loads, or another configuration file.
var npmCommandKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"scriptshell": true, "shell": true, "nodeoptions": true, "git": true, "editor": true, "browser": true,
		"viewer": true, "initmodule": true, "onloadscript": true, "nodegyp": true, "yarnpath": true,
		"pnpmfile": true, "globalpnpmfile": true, "userconfig": true, "globalconfig": true, "npmpath": true,
		"nodelinker": false, "plugins": true, "injectenvironmentfiles": true,
	}
})

func npmKey(k string) string {
	k = strings.ToLower(strings.TrimSpace(k))
	k = strings.TrimPrefix(k, "--")
	return strings.NewReplacer("-", "", "_", "").Replace(k)
}

// npmConfig records the configuration of npm, pnpm or yarn that runs a
// program later; words are the command's words as text.
func (c *cmd) npmConfig(words []string) {
	switch c.name {
	case "npm", "pnpm", "yarn":
	default:
		return
	}
	deny := func(raw, key, where string) {
		c.a.unknown(raw, c.name+" "+where+" sets "+key+", a program or code "+c.name+" runs at a later command, which pruner cannot check when it runs", SetRead|setModify)
	}
	// npm config set KEY VALUE / KEY=VALUE …; npm set …
	for i := 1; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") {
			continue
		}
		var rest []string
		switch {
		case w == "set" && c.name == "npm":
			rest = words[i+1:]
		case w == "config" && i+1 < len(words) && (words[i+1] == "set" || words[i+1] == "edit"):
			if words[i+1] == "edit" {
				rest = nil
			} else {
				rest = words[i+2:]
			}
		}
		// KEY VALUE pairs and KEY=VALUE words, after leaving out the
		// options (-g, --location=project, --global)
		var kv []string
		for j := 0; j < len(rest); j++ {
			switch r := rest[j]; {
			case r == "--location" || r == "-L" || r == "--userconfig" || r == "--globalconfig" || r == "--workspace" || r == "-w" || r == "--dir" || r == "-C":
				j++ // the option's value
			case !strings.HasPrefix(r, "-"):
				kv = append(kv, r)
			}
		}
		for k := 0; k < len(kv); k++ {
			r := kv[k]
			key, _, eq := strings.Cut(r, "=")
			if !eq {
				k++ // its value is the next word
			}
			if strings.ContainsRune(key, unknownRune) || npmCommandKeys()[npmKey(key)] {
				deny(r, showWord(key), "config set")
				return
			}
		}
		break
	}
	// npm_config_KEY=… npm …
	for i, n := range c.a.cmdEnvNames {
		if strings.HasPrefix(strings.ToLower(n), "npm_config_") && npmCommandKeys()[npmKey(n[len("npm_config_"):])] && i < len(c.a.cmdEnv) {
			deny(n+"="+c.a.cmdEnv[i], n, "("+n+")")
			return
		}
	}
	// .npmrc, .yarnrc, .yarnrc.yml: the project's and the user's
	files := []string{".npmrc", ".yarnrc", ".yarnrc.yml"}
	var fields []field
	for _, f := range files {
		fields = append(fields, litField(f), c.homePath(f))
	}
	if v, ok := c.a.cmdEnvValue("NPM_CONFIG_USERCONFIG"); ok {
		fields = append(fields, litField(v))
	}
	for _, f := range fields {
		s, ok := c.a.writtenFile(f)
		if !ok {
			s, ok = c.diskRC(f.s, f, false)
		}
		if !ok {
			continue
		}
		if s.kind != srcText {
			deny(f.s, "its configuration", "reads "+showWord(f.s)+", whose text the analysis cannot see, and")
			return
		}
		for line := range strings.SplitSeq(s.text, "\n") {
			line = strings.TrimSpace(line)
			if line == "" || line[0] == '#' || line[0] == ';' {
				continue
			}
			key, _, ok := strings.Cut(line, "=")
			if !ok {
				key, _, _ = strings.Cut(line, ":")
			}
			if strings.ContainsRune(key, unknownRune) || npmCommandKeys()[npmKey(key)] {
				deny(f.s, showWord(strings.TrimSpace(key)), "reads "+showWord(f.s)+", which")
				return
			}
		}
	}
}
