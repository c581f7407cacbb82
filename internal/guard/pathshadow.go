package guard

import (
	"path"
	"path/filepath"
	"strings"
)

// PathRulesSource names the rules of PathRules.
const PathRulesSource = "the folders searched for pruner before the running one (PATH; built in, always applied)"

// PathRules keeps a tool call from shadowing the pruner the hook runs:
// pi's protect extension and Claude Code's `"command": "pruner hook"`
// look `pruner` up on PATH at each call, so a `pruner` (a copy of
// /bin/true, a script, a link) made in a folder searched before the real
// one's turns the gate off for every later call. It returns a write and
// edit rule for the hook's name (`pruner`, and the running binary's own
// name when it differs) in each folder of pathEnv (the hook's PATH, in
// the OS's list form) up to and including the folder of exe, the running
// binary (os.Executable, links resolved). When exe's folder is not on the
// PATH (the hook was run by its full path, or a link elsewhere), every
// folder of the PATH gets the rule: it is not known which one a later
// call finds. An empty or relative entry (`.`, `""`, `bin`) is searched
// relative to the working folder, which changes: it gets a bare-name
// rule (`pruner`), denying a write of that name in any folder.
// Making the binary unrunnable (chmod -x) is not denied: the hook then
// fails to start, and a hook that cannot run denies every call.
//
// resolve, when not nil, resolves a PATH folder's links (the caller's
// file system; the guard package does no IO), so a folder that is a link
// to the binary's is known to be it.
func PathRules(exe, pathEnv string, resolve func(string) string) *Rules {
	r := &Rules{Source: PathRulesSource}
	if pathEnv == "" && exe == "" {
		return r
	}
	names := []string{"pruner"}
	exeDir := ""
	if exe != "" {
		exe = strings.ReplaceAll(exe, `\`, "/")
		exeDir = path.Clean(path.Dir(exe))
		if b := path.Base(exe); b != "pruner" && b != "." && b != "/" {
			names = append(names, b)
		}
		if b := path.Base(exe); strings.HasSuffix(strings.ToLower(b), ".exe") && !strings.EqualFold(b, "pruner.exe") {
			names = append(names, "pruner.exe")
		}
	}
	var dirs []string
	for _, d := range filepath.SplitList(pathEnv) {
		d = strings.ReplaceAll(d, `\`, "/")
		if d == "" {
			d = "."
		}
		rel := !strings.HasPrefix(d, "/") && !(len(d) >= 3 && d[1] == ':' && d[2] == '/')
		if rel {
			dirs = append(dirs, "")
			continue
		}
		d = path.Clean(d)
		dirs = append(dirs, d)
		if exeDir != "" && (d == exeDir || strings.EqualFold(d, exeDir) && len(d) >= 2 && d[1] == ':') {
			break
		}
		if exeDir != "" && resolve != nil && path.Clean(strings.ReplaceAll(resolve(d), `\`, "/")) == exeDir {
			break
		}
	}
	// the binary's folder not found: every folder of the PATH was taken
	seen := map[string]bool{}
	for _, d := range dirs {
		for _, n := range names {
			p := n
			if d != "" {
				p = strings.TrimSuffix(d, "/") + "/" + n
			}
			if seen[p] || p == exe || hasGlobMeta(p) {
				// the binary itself is a gate rule (GateRules)
				continue
			}
			seen[p] = true
			r.Entries = append(r.Entries, Entry{Path: p, Deny: SetWrite | SetEdit, Index: len(r.Entries), Source: PathRulesSource, File: true})
		}
	}
	return r
}
