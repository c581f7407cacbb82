package guard

import (
	"path"
	"strings"
)

// Install folders a package manager takes from its environment (pass 36).
// installDirs reads the options that name them (npm --prefix, pip
// --target, cargo install --root); each has a variable that does the same
// — `GOBIN=~/.pi/agent/bin go install x@latest` puts a program named x
// first on the PATH of pi's bash tool, `npm_config_prefix=~/.pi/agent npm
// i -g x` writes ~/.pi/agent/bin/x and lib/node_modules — so a variable
// the command sets (a prefix assignment, export, declare -x) is its
// option: the folder it names is written below, in full. A value computed
// when the command runs is any folder (unverifiable). The variables of
// the hook's own environment are the user's (not covered), as
// RIPGREP_CONFIG_PATH only makes the analysis stricter.

// installEnvVars are, for each program, the variables naming a folder it
// installs, caches or builds into. Names are compared as the program
// does: npm's and pip's own configuration variables in any case.
var installEnvVars = map[string][]string{
	"go":     {"GOMODCACHE", "GOCACHE"}, // GOBIN and GOPATH: goInstallDirs
	"cargo":  {"CARGO_INSTALL_ROOT", "CARGO_HOME", "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR"},
	"rustup": {"RUSTUP_HOME", "CARGO_HOME"},
	"npm":    {"npm_config_prefix", "npm_config_cache", "PREFIX"},
	"pnpm": {"PNPM_HOME", "npm_config_prefix", "npm_config_global_dir", "npm_config_global_bin_dir",
		"npm_config_store_dir", "npm_config_modules_dir", "npm_config_virtual_store_dir", "npm_config_cache_dir"},
	"yarn":   {"YARN_PREFIX", "YARN_GLOBAL_FOLDER", "YARN_CACHE_FOLDER", "npm_config_prefix", "YARN_MODULES_FOLDER"},
	"pip":    {"PIP_TARGET", "PIP_PREFIX", "PIP_ROOT", "PIP_SRC", "PIP_CACHE_DIR", "PYTHONUSERBASE"},
	"pip3":   {"PIP_TARGET", "PIP_PREFIX", "PIP_ROOT", "PIP_SRC", "PIP_CACHE_DIR", "PYTHONUSERBASE"},
	"pipx":   {"PIPX_HOME", "PIPX_BIN_DIR", "PIPX_MAN_DIR", "PIPX_GLOBAL_HOME", "PIPX_GLOBAL_BIN_DIR"},
	"uv":     {"UV_TOOL_BIN_DIR", "UV_TOOL_DIR", "UV_CACHE_DIR", "UV_PROJECT_ENVIRONMENT", "UV_PYTHON_INSTALL_DIR", "UV_PYTHON_BIN_DIR", "UV_INSTALL_DIR", "VIRTUAL_ENV", "PYTHONUSERBASE"},
	"gem":    {"GEM_HOME"},
	"bun":    {"BUN_INSTALL", "BUN_INSTALL_BIN", "BUN_INSTALL_GLOBAL_DIR", "BUN_INSTALL_CACHE_DIR"},
	"deno":   {"DENO_INSTALL_ROOT", "DENO_DIR"},
	"dotnet": {"DOTNET_CLI_HOME", "NUGET_PACKAGES"},
}

// installEnvFold: the programs whose variables of one prefix are read in
// any case (npm's npm_config_*, pip's PIP_*).
func installEnvFold(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "npm_config_") || strings.HasPrefix(n, "pip_")
}

// installEnvDirs records the folders the command's variables make c's
// install folders.
func (c *cmd) installEnvDirs() {
	if c.name == "go" {
		c.goEnvDirs()
	}
	for _, name := range installEnvVars[c.name] {
		for _, v := range c.envFields(name, installEnvFold(name)) {
			c.installFolder(v.name, v.f, c.name+" $"+v.name+" (installs into it)")
		}
	}
}

// installFolder records that dir (a variable's value) is written below.
func (c *cmd) installFolder(name string, dir field, via string) {
	if dir.s == "" {
		return
	}
	if dir.onlyUnk || dir.unk || strings.HasPrefix(dir.s, "/"+unknownSeg) {
		c.a.unknown("$"+name, c.name+" installs into $"+name+", a folder named when the command runs", setModify)
		return
	}
	c.a.addRec("$"+name+"="+dir.s+" ("+via+")", dir, setModify, true, nil, via, followNone)
}

type envHit struct {
	name string
	f    field
}

// envFields is envField for a name compared in any case when fold (the
// variables of that name the command sets, each once).
func (c *cmd) envFields(name string, fold bool) []envHit {
	if !fold {
		if f, ok := c.envField(name); ok {
			return []envHit{{name, f}}
		}
		return nil
	}
	seen := map[string]bool{}
	var out []envHit
	try := func(n string) {
		if seen[n] || !strings.EqualFold(n, name) {
			return
		}
		seen[n] = true
		if f, ok := c.envField(n); ok {
			out = append(out, envHit{n, f})
		}
	}
	for _, n := range c.a.cmdEnvNames {
		try(n)
	}
	for n := range c.a.vars {
		try(n)
	}
	return out
}

// goEnvDirs: go install writes $GOBIN/NAME, or the first GOPATH entry's
// bin/NAME when GOBIN is not set (goInstall takes NAME in any folder when
// neither is the command's); every go command may fill the module cache
// below each GOPATH entry (pkg/mod). `go env -w GOBIN=DIR` (GOPATH,
// GOMODCACHE, GOCACHE) makes DIR where later go commands write: it counts
// as a write below DIR now.
func (c *cmd) goEnvDirs() {
	if gp, ok := c.envField("GOPATH"); ok {
		if gp.pattern() {
			c.installFolder("GOPATH", gp, "go $GOPATH (installs into it)")
		} else {
			for _, e := range strings.Split(gp.s, ":") {
				if e != "" {
					c.installFolder("GOPATH", litField(path.Join(e, "pkg", "mod")), "go $GOPATH (fills its module cache, pkg/mod)")
				}
			}
		}
	}
	if len(c.args) < 3 || optText(c.args[1].f) != "env" {
		return
	}
	w := false
	for k := 2; k < len(c.args); k++ {
		t := optText(c.args[k].f)
		if t == "-w" {
			w = true
			continue
		}
		if !w || strings.HasPrefix(t, "-") {
			continue
		}
		key, _, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		if strings.ContainsRune(key, unknownRune) {
			c.a.unknown(c.args[k].raw, "go env -w sets a variable named when the command runs", setModify)
			continue
		}
		switch key {
		case "GOBIN", "GOPATH", "GOMODCACHE", "GOCACHE":
			v := subField(c.args[k].f, len(key)+1)
			if !v.pattern() && key == "GOPATH" {
				for _, e := range strings.Split(v.s, ":") {
					if e != "" {
						c.installFolder(key, litField(e), "go env -w "+key+" (later go commands write below it)")
					}
				}
				continue
			}
			c.installFolder(key, v, "go env -w "+key+" (later go commands write below it)")
		}
	}
}

// goInstallDir is where go install puts its programs when the command
// sets GOBIN or GOPATH: the folder, and whether it is the only one (GOBIN
// set; with GOPATH alone a GOBIN from the environment still wins).
func (c *cmd) goInstallDir() (dirs []field, only bool) {
	if f, ok := c.envField("GOBIN"); ok && f.s != "" {
		return []field{f}, true
	}
	if f, ok := c.envField("GOPATH"); ok && f.s != "" {
		if f.pattern() {
			return []field{f}, false
		}
		e, _, _ := strings.Cut(f.s, ":")
		if e != "" {
			return []field{litField(path.Join(e, "bin"))}, false
		}
	}
	return nil, false
}

// historyFile: bash's `history -w|-a [FILE]` writes the history to FILE
// ($HISTFILE without one), `-r|-n [FILE]` reads it in (and `history`
// then prints it): `history -w .pi/settings.json`, `history -r .env;
// history` (pass 36; the builtin's words were taken as words only).
func (c *cmd) historyFile() {
	var ops OpSet
	file := -1
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		if strings.HasPrefix(t, "-") && len(t) > 1 && file < 0 && !strings.HasPrefix(t, "--") {
			if strings.ContainsAny(t, "wa") {
				ops |= setModify
			}
			if strings.ContainsAny(t, "rn") {
				ops |= SetRead
			}
			if strings.Contains(t, "s") || strings.Contains(t, "p") {
				return // -s ARGS, -p ARGS: words
			}
			continue
		}
		if file < 0 {
			file = i
		}
	}
	if ops == 0 {
		return
	}
	if file >= 0 {
		c.file(file, ops)
		return
	}
	if f, ok := c.envField("HISTFILE"); ok {
		c.fileField("$HISTFILE", f, ops)
	}
}
