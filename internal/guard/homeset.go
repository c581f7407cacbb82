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
	if a.homeSet {
		return ""
	}
	return a.env.Home
}

// homeWhy is the text for an unknown home: the plain `~`, or homeSetWhy.
func (a *shellAnalyzer) homeWhy() string {
	if a.homeSet {
		return homeSetWhy
	}
	return "~"
}

// homeSetCwd is where `cd`, `cd ~…` lead once the command assigned HOME:
// any folder, a protected one included (a glob, not an unknown run, which
// the matcher takes for folders that hold no protected name).
func homeSetCwd() field { return field{s: "/**", glob: true} }

// cdHomeSet: a cd to the home (no operand, or one the raw text starts
// with `~`) after the command assigned HOME.
func (a *shellAnalyzer) cdHomeSet(c *cmd, operands []int) bool {
	if !a.homeSet {
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
