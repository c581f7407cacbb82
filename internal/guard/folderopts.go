package guard

import (
	"strings"
	"sync"
)

// toolFolderOpts: options by which a package manager, task runner or build
// tool works in another folder (`uv --directory ~ run cat .ssh/id_rsa`,
// `npm --prefix ~ exec …`, `yarn --cwd DIR …`, `mise -C DIR exec …`): the
// program it runs, its scripts and its own relative names start there.
// Short names take their value attached too (-CDIR); long ones with =.
// Built the first time it is read, not at start-up: most runs never read it.
var toolFolderOpts = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"uv":         {"--directory", "--project"},
		"uvx":        {"--directory", "--project"},
		"poetry":     {"-C", "--directory", "-P", "--project"},
		"pnpm":       {"-C", "--dir"},
		"yarn":       {"--cwd"},
		"mise":       {"-C", "--cd"},
		"rtx":        {"-C", "--cd"},
		"npm":        {"-C", "--prefix"},
		"bun":        {"--cwd"},
		"cargo":      {"-C"},
		"just":       {"-d", "--working-directory"},
		"task":       {"-d", "--dir"},
		"nx":         {"--cwd"},
		"turbo":      {"--cwd"},
		"deno":       {"--cwd"},
		"conda":      {"--cwd"},
		"mamba":      {"--cwd"},
		"micromamba": {"--cwd"},
		"pdm":        {"-p", "--project"},
		"devbox":     {"-c", "--config"},
		"ninja":      {"-C"},
		"meson":      {"-C"},
		"terraform":  {"-chdir"},
		"tofu":       {"-chdir"},
	}
})

// toolFolders adds the folders a command's folder options name to the
// folders the command may work in (so relative names are resolved there
// too); a folder computed when the command runs is any folder. The caller
// restores the folders when the command is done.
func (c *cmd) toolFolders(names []string) {
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		if t == "--" {
			return
		}
		for _, n := range names {
			var d field
			switch {
			case t == n:
				if i+1 >= len(c.args) {
					continue
				}
				d = c.args[i+1].f
			case strings.HasPrefix(t, n+"="):
				d = subField(c.args[i].f, len(n)+1)
			case len(n) == 2 && strings.HasPrefix(t, n) && len(t) > 2:
				d = subField(c.args[i].f, 2)
			default:
				continue
			}
			if d.onlyUnk && !d.pattern() || strings.ContainsRune(d.s, unknownRune) && !d.pattern() {
				d = litField("/" + unknownCwd)
			}
			c.a.chdir(d)
		}
	}
}

// containerMount checks a container mount's host side (`docker run -v SRC:DST`,
// `--mount type=bind,src=SRC,…`, a local volume's `device=SRC`): the
// container's program, which the analysis does not see, reads and writes
// every file below SRC (docker run -v ~:/h img cat /h/.ssh/id_rsa). A
// named volume (no slash, not . or ~) names no host path; a source
// computed when the command runs is any folder. A read-only mount (:ro,
// readonly) only reads.
func (c *cmd) containerMount(raw string, f field, kv bool) {
	s := f.s
	var srcs []string
	ops := SetRead | setModify
	if kv {
		bind := false
		var src []string
		for _, part := range strings.Split(s, ",") {
			k, v, _ := strings.Cut(part, "=")
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "type":
				bind = v == "bind"
			case "src", "source":
				src = append(src, v)
			case "readonly", "ro":
				if v == "" || v == "true" || v == "1" {
					ops = SetRead
				}
			case "volume-opt":
				if d, ok := strings.CutPrefix(v, "device="); ok {
					srcs = append(srcs, d)
				}
			}
			if strings.ContainsRune(k, unknownRune) {
				bind = true // a key computed when the command runs
			}
		}
		for _, v := range src {
			if bind || mountPathLike(v) {
				srcs = append(srcs, v)
			}
		}
	} else if v, ok := strings.CutPrefix(s, "device="); ok {
		srcs = append(srcs, v)
	} else {
		v, _, _ := strings.Cut(s, ":")
		if len(v) == 1 && len(s) > 2 && (s[2] == '\\' || s[2] == '/') {
			v, _, _ = strings.Cut(s[2:], ":") // C:\dir:/dst
			v = s[:2] + v
		}
		if mountPathLike(v) {
			srcs = append(srcs, v)
		}
		if parts := strings.Split(s[len(v):], ":"); len(parts) > 2 && contains(strings.Split(parts[2], ","), "ro") {
			ops = SetRead // SRC:DST:ro
		}
	}
	via := c.name + "'s bind mount" // "docker's bind mount reads every file below …"
	for _, v := range srcs {
		if strings.ContainsRune(v, unknownRune) || f.glob && strings.ContainsAny(v, "*?[") {
			c.a.unknown(raw, c.name+" mounts a folder computed when the command runs into a container", SetRead|setModify)
			continue
		}
		p := litField(unescapeGlob(v))
		if !f.pattern() {
			p = litField(v)
		}
		c.fileField(raw, p, ops)
		c.a.addRec(raw, p, ops, true, nil, via, followAll)
	}
}

// mountPathLike: a mount source that is a host path, not a volume's name.
func mountPathLike(v string) bool {
	return strings.ContainsAny(v, `/\`) || strings.HasPrefix(v, ".") || strings.HasPrefix(v, "~") || strings.ContainsRune(v, unknownRune) || v == ""
}
