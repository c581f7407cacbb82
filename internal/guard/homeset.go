package guard

import "strings"

// homeSetWhy names the unknown a `~` (or a bare `cd`) stands for once the
// command assigned HOME in any form (HOME=…;, export/declare/typeset/
// readonly/local HOME=…, a `HOME=… cmd` prefix, env HOME=…, read HOME,
// printf -v HOME): bash expands `~` from $HOME as the command runs.
const homeSetWhy = "~ (the command sets HOME; pruner cannot tell what ~ names)"

// homeChanged: the command assigned HOME. From here on `~`, `~/…` and a
// bare `cd` lead to an unknown home: a path written there is
// unverifiable, so it is denied where a rule denies the operation. $HOME
// itself keeps the value the analysis tracks (a.vars), as other variables
// do.
func (a *shellAnalyzer) homeChanged() { a.homeSet = true }

// home is the folder `~` expands to: "" (unknown) once the command
// assigned HOME. (a.env.Home stays the user's: the checks of start-up
// files moved by HOME=… compare with it.)
func (a *shellAnalyzer) home() string {
	if a.homeSetNow() {
		return ""
	}
	return a.env.Home
}

// homeSetNow: the command assigned HOME — noted by homeChanged, or HOME
// holds a value the command gave it (a for/select loop variable,
// ${HOME:=…}, getopts, mapfile, …: every assignment lands in a.vars or
// a.arrays).
func (a *shellAnalyzer) homeSetNow() bool {
	if a.homeSet {
		return true
	}
	_, v := a.vars["HOME"]
	_, arr := a.arrays["HOME"]
	return v || arr
}

// homeWhy is the text for an unknown home: the plain `~`, or homeSetWhy.
func (a *shellAnalyzer) homeWhy() string {
	if a.homeSetNow() {
		return homeSetWhy
	}
	return "~"
}

// homeSetCwd is where `cd`, `cd ~…` lead once the command assigned HOME:
// any folder, a protected one included (a glob, which a read below it is
// matched against, and for what is written there unknownCwd: chdir adds
// it for this why).
func homeSetCwd() field { return field{s: "/**", glob: true, why: homeSetWhy} }

// cdHomeSet: a cd to the home (no operand, or one the raw text starts
// with `~`) after the command assigned HOME.
func (a *shellAnalyzer) cdHomeSet(c *cmd, operands []int) bool {
	if !a.homeSetNow() {
		return false
	}
	if len(operands) == 0 || strings.HasPrefix(c.args[operands[0]].raw, "~") {
		a.chdir(homeSetCwd())
		a.cdOther = true
		return true
	}
	return false
}

// globCwd: a candidate folder a `cd` into a glob left (`cd /tmp/*/.p*`,
// or homeSetCwd): a word joined to it is a pattern too, not the literal
// text of the glob (a folder whose name holds `*`, `?` or `[` is taken
// for a glob: a wider match, never a narrower one).
func globCwd(cwd string) bool { return strings.ContainsAny(cwd, "*?[") }

// homeByName: builtins that set a variable named by an argument (read,
// mapfile, readarray, getopts, printf -v, let, declare/typeset/local/
// export/readonly, a nameref `declare -n r=HOME`) given HOME: the
// command may set it whatever the analysis models of the builtin.
func (c *cmd) homeByName() {
	declare := false
	switch c.name {
	case "declare", "typeset", "local", "export", "readonly":
		declare = true
	case "read", "mapfile", "readarray", "getopts", "printf", "let":
	default:
		return
	}
	for _, ar := range c.args[1:] {
		t := optText(ar.f)
		switch {
		case strings.HasPrefix(t, "HOME=") || strings.HasPrefix(t, "HOME+=") || strings.HasPrefix(t, "HOME["):
			c.a.homeChanged()
		case t == "HOME" && !declare:
			c.a.homeChanged()
		case declare && strings.HasSuffix(t, "=HOME"):
			c.a.homeChanged() // declare -n r=HOME: r is HOME
		}
	}
}
