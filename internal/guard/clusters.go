package guard

import "strings"

// Clustered short flags of programs whose own parsers take them one letter
// at a time (pass 21): `node -pe CODE`, `ex -sc CMD`, `vim -esc CMD`. The
// handlers read their options one argument at a time; splitCluster turns
// the cluster into one argument per letter first, so `-pe` is `-p -e`
// and `-esc` is `-e -s -c`.

// isLetterCluster: -XY… with two or more ASCII letters and nothing else
// (no digits, no `=`, no long option), known text.
func isLetterCluster(f field) bool {
	t := optText(f)
	if f.pattern() || len(t) < 3 || t[0] != '-' || t[1] == '-' {
		return false
	}
	for i := 1; i < len(t); i++ {
		if ch := t[i]; !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z') {
			return false
		}
	}
	return true
}

// splitCluster replaces args[i] (a letter cluster) by one argument per
// letter kept (keep: letter, whether it is the cluster's last).
func (c *cmd) splitCluster(i int, keep func(ch byte, last bool) bool) {
	t := optText(c.args[i].f)
	raw := c.args[i].raw
	var repl []arg
	for j := 1; j < len(t); j++ {
		if keep == nil || keep(t[j], j == len(t)-1) {
			repl = append(repl, arg{f: litField("-" + string(t[j])), raw: raw})
		}
	}
	args := append(append(append([]arg(nil), c.args[:i]...), repl...), c.args[i+1:]...)
	done := append(append(make([]bool, 0, len(args)), c.done[:i]...), make([]bool, len(repl))...)
	done = append(done, c.done[i+1:]...)
	c.args, c.done = args, done
}

// nodeClusters: node reads -p (--print) as a flag that evaluates the
// next argument unless -e gives the code; `-pe CODE`, `-ep CODE`, `-p -e
// CODE` are `-e CODE`, printed. Clusters before the script are split, a
// -p next to -e dropped (its value is -e's).
func (c *cmd) nodeClusters() {
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		if t == "--" || !strings.HasPrefix(t, "-") || t == "-" || c.args[i].f.onlyUnk {
			return
		}
		if isLetterCluster(c.args[i].f) && strings.ContainsAny(t, "ep") {
			hasE := strings.IndexByte(t[1:], 'e') >= 0
			c.splitCluster(i, func(ch byte, _ bool) bool { return !(ch == 'p' && hasE) })
			t = optText(c.args[i].f)
		}
		if t == "-p" && i+1 < len(c.args) {
			if n := optText(c.args[i+1].f); n == "-e" || n == "--eval" || strings.HasPrefix(n, "--eval=") {
				c.done[i] = true
				c.args = append(c.args[:i:i], c.args[i+1:]...)
				c.done = append(c.done[:i:i], c.done[i+1:]...)
				i--
				continue
			}
		}
		switch t {
		case "-e", "-p", "-r", "-C", "--eval", "--print", "--require", "--import", "--input-type", "--loader", "--experimental-loader", "--conditions", "--env-file", "--config":
			i++ // the value
		}
	}
}

// vimClusters: vim takes its flags a letter at a time; a letter that takes
// an argument (-c, -S, -u, -s outside Ex mode, …) ends the cluster and
// takes the next one. `ex -sc CMD`, `vim -esc CMD`, `nvim -es -c CMD`:
// the cluster is split; an `s` before the last letter is Ex mode's silent
// flag (vim rejects `-s FILE` inside a cluster), never a script file.
func (c *cmd) vimClusters() {
	takes := map[string]bool{"-c": true, "--cmd": true, "-S": true, "-u": true, "-U": true, "-s": true, "-T": true, "-w": true, "-W": true, "-i": true, "-t": true, "-q": true}
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		if t == "--" {
			return
		}
		if i > 1 && takes[optText(c.args[i-1].f)] {
			continue // a value (`-c -abc`)
		}
		if isLetterCluster(c.args[i].f) {
			c.splitCluster(i, func(ch byte, last bool) bool { return ch != 's' || last })
		}
	}
}
