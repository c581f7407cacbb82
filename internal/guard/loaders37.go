package guard

import (
	"path"
	"strings"
)

// Pass 37: environment variables that make a program load code before it
// does what its words say (BASH_ENV, ENV, PYTHONSTARTUP, PYTHONPATH,
// NODE_OPTIONS, LD_PRELOAD, …). The analysis reads a command's words; a
// loader runs code the words do not show, so each is read where it can be
// and unverifiable where it cannot:
//
//   - a value computed when the command runs: any file, so any code;
//   - a file the command writes first: its text is read as the code it is
//     (shell, python, js) — native code (LD_PRELOAD) cannot be read;
//   - a file already on the disk is project state, like `bash deploy.sh`
//     (docs/protected-paths.md, Not covered), but the name is still a
//     read (BASH_ENV=.env runs .env, whose values `env` then prints), and
//     PYTHONPATH's folders are where python writes __pycache__.

// loaderVar says what the program does with the variable name's value, for
// a reason, or "" for a variable that loads nothing.
func loaderVar(name string) string {
	switch name {
	case "BASH_ENV":
		return "bash runs that file before the command it is given"
	case "ENV":
		return "sh runs that file when it starts"
	case "PYTHONSTARTUP":
		return "python runs that file when it starts interactively"
	case "NODE_REPL_EXTERNAL_MODULE":
		return "node runs that module instead of its REPL"
	case "PYTHONPATH":
		return "python imports modules from those folders (sitecustomize.py on every start)"
	case "NODE_OPTIONS":
		return "node takes them as options (--require, --import load code)"
	case "LD_PRELOAD", "LD_AUDIT":
		return "every program started loads those libraries"
	}
	return ""
}

// loaderEnv checks the value of a loader variable (see loaderVar), set as
// a prefix, an assignment or a wrapper's NAME=VALUE word.
func (a *shellAnalyzer) loaderEnv(name string, vals []field, raw string) {
	what := loaderVar(name)
	if what == "" {
		return
	}
	for _, v := range vals {
		if v.pattern() {
			a.unknown(raw, "$"+name+" is computed when the command runs, and "+what, SetRead|setModify)
			continue
		}
		switch name {
		case "BASH_ENV", "ENV":
			a.loaderFile(raw, name, v, "sh")
		case "PYTHONSTARTUP":
			a.loaderFile(raw, name, v, "python")
		case "NODE_REPL_EXTERNAL_MODULE":
			a.loaderFile(raw, name, v, "js")
		case "PYTHONPATH":
			for _, dir := range strings.Split(v.s, ":") {
				if dir == "" {
					continue
				}
				a.pythonPathDir(raw, dir)
			}
		case "NODE_OPTIONS":
			if strings.TrimSpace(v.s) != "" {
				// the options as node's own: the node handler reads
				// --require, --import, --env-file and the rest (a
				// module named by path the command wrote is code)
				// (node splits the value at blanks: each word is one
				// option, not shell text)
				from := len(a.out.targets)
				words := append(append([]string{"node"}, strings.Fields(v.s)...), "-e", "0")
				a.script(argvLine(words), raw, source{})
				for i := from; i < len(a.out.targets); i++ {
					if t := &a.out.targets[i]; t.loader != "" {
						t.loader = strings.Replace(t.loader, ", which", " (from $NODE_OPTIONS), which", 1)
					}
				}
			}
		case "LD_PRELOAD", "LD_AUDIT":
			for _, lib := range strings.FieldsFunc(v.s, func(r rune) bool { return r == ':' || r == ' ' }) {
				if _, ok := a.writtenFile(litField(lib)); ok {
					a.unknown(raw, "$"+name+" loads "+lib+", native code the command writes, which pruner cannot read", SetRead|setModify)
				}
			}
		}
	}
}

// loaderFile: a file a loader variable names is code in lang when the
// command wrote it; its text computed when it runs is unverifiable.
func (a *shellAnalyzer) loaderFile(raw, name string, v field, lang string) {
	s, ok := a.writtenFile(v)
	if !ok {
		if !a.onDisk(v) {
			a.unknown(raw, "$"+name+" names "+showWord(v.s)+", neither on the disk nor written by the command, and "+loaderVar(name)+": the analysis cannot see that code", SetRead|setModify)
		}
		return
	}
	if lang == "sh" {
		a.runWritten(raw, s)
		return
	}
	switch {
	case s.kind == srcText && !strings.ContainsRune(s.text, unknownRune):
		a.codeText(s.text, raw, lang)
	case s.kind == srcText:
		a.codeText(strings.ReplaceAll(s.text, unknownStr, " "), raw, lang)
		a.unknown(raw, "$"+name+" names a file the command writes with text computed when it runs, and "+loaderVar(name), SetRead|setModify)
	default:
		a.unknown(raw, "$"+name+" names a file the command writes, whose text the analysis cannot see, and "+loaderVar(name), SetRead|setModify)
	}
}

// pythonPathDir: python imports from dir (sitecustomize.py and
// usercustomize.py on every start, any module the code imports), and
// writes its bytecode below it, in __pycache__.
func (a *shellAnalyzer) pythonPathDir(raw, dir string) {
	a.value(raw, litField(path.Join(dir, "__pycache__")), setModify)
	var ps []string
	for _, cwd := range a.cwds {
		p, _ := joinOrNorm(a, cwd, dir)
		ps = append(ps, strings.TrimSuffix(p, "/")+"/")
	}
	for _, w := range a.writtenPaths() {
		if !strings.HasSuffix(w, ".py") && !strings.HasSuffix(w, ".pth") {
			continue
		}
		for _, p := range ps {
			if strings.HasPrefix(w, p) {
				a.loaderFile(raw, "PYTHONPATH", litField(w), "python")
				break
			}
		}
	}
}

// onDisk reports whether the disk holds the file f names from every
// candidate folder (false without a disk: the file is not known).
func (a *shellAnalyzer) onDisk(f field) bool {
	if a.env.FS == nil || f.pattern() {
		return false
	}
	for _, cwd := range a.cwds {
		if strings.ContainsRune(cwd, unknownRune) || isPatternDir(cwd) {
			return false
		}
		p, _ := joinOrNorm(a, cwd, f.s)
		if _, err := a.env.FS.Lstat(p); err != nil {
			return false
		}
	}
	return true
}

// dotenvPreload: a module node preloads (-r, --import) that loads .env
// (dotenv/config and its kin read it when they are required).
func dotenvPreload(mod string) bool {
	switch mod {
	case "dotenv/config", "dotenv/config.js", "dotenv-flow/config", "dotenv-expand/config", "@dotenvx/dotenvx/config", "dotenvx/config":
		return true
	}
	return false
}
