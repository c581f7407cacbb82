package guard

import "strings"

// Pass 37: project scaffolders write a new project's files into the folder
// they are given (`cargo new .pi/extensions/x`, `poetry new DIR`, `uv init
// DIR`, `rails new DIR`), or into the working folder (`npm init -y` writes
// package.json, `go mod init` go.mod, `cargo init`), and an initializer
// package (`npm create vite DIR`, `npm init react-app DIR`) is a program
// the gate does not model, run on what it is given. Each passed: a folder
// operand was taken as read, and a write in the working folder was not
// seen, so `cd .pi/extensions && npm init -y` wrote an extension package
// pi loads.

// scaffold describes one scaffolding subcommand: the options that take a
// value (their value is no operand), and what is written with no folder
// operand (a file in the working folder; "" for the folder itself).
type scaffold struct {
	valued []string
	cwd    string
	files  bool // the operand folder's files, not only the folder (new, init DIR)
}

func scaffoldOf(prog, sub string) (scaffold, bool) {
	switch prog + " " + sub {
	case "cargo new", "cargo init":
		return scaffold{valued: []string{"--name", "--vcs", "--edition", "--registry", "--config", "-Z"}, cwd: "Cargo.toml", files: true}, true
	case "poetry new":
		return scaffold{valued: []string{"--name", "--readme", "--python", "--dependency", "--dev-dependency"}, files: true}, true
	case "poetry init":
		return scaffold{valued: []string{"--name", "--description", "--author", "--python", "--dependency", "--dev-dependency", "--license"}, cwd: "pyproject.toml"}, true
	case "uv init":
		return scaffold{valued: []string{"--name", "--python", "-p", "--vcs", "--build-backend", "--author-from", "--description", "--directory", "--project"}, cwd: "pyproject.toml", files: true}, true
	case "uv venv":
		return scaffold{valued: []string{"--python", "-p", "--prompt", "--index-url", "--directory"}, cwd: ".venv", files: true}, true
	case "go mod":
		return scaffold{cwd: "go.mod"}, true
	case "rails new", "mix new", "bundle gem", "composer create-project":
		return scaffold{valued: []string{"-d", "--database", "-j", "--javascript", "-m", "--template", "--app", "--module", "--sup"}, files: true}, true
	}
	return scaffold{}, false
}

// scaffolds records what a project scaffolder writes (see above).
func (c *cmd) scaffolds() {
	if len(c.args) < 2 {
		return
	}
	sub := optText(c.args[1].f)
	first := 2
	if c.name == "go" {
		// go [-C DIR] mod init: go.mod in the working folder (or DIR)
		k, dirs := 1, []field(nil)
		if t := optText(c.args[1].f); (t == "-C" || t == "--C") && len(c.args) > 2 {
			k, dirs = 3, []field{c.args[2].f}
		} else if strings.HasPrefix(t, "-C=") || strings.HasPrefix(t, "--C=") {
			k, dirs = 2, []field{subField(c.args[1].f, strings.Index(t, "=")+1)}
		}
		if k+1 >= len(c.args) || optText(c.args[k].f) != "mod" || optText(c.args[k+1].f) != "init" {
			return
		}
		write := func() {
			c.fileField(c.args[k+1].raw+" (go mod init writes go.mod here)", litField("go.mod"), setModify)
		}
		if dirs != nil {
			c.a.inDirs(dirs, write)
		} else {
			write()
		}
		return
	}
	switch c.name {
	case "npm", "pnpm", "yarn":
		c.npmInit(sub)
		return
	}
	sc, ok := scaffoldOf(c.name, sub)
	if !ok {
		return
	}
	var ops []int
	for k := first; k < len(c.args); k++ {
		t := optText(c.args[k].f)
		name, _, eq := strings.Cut(t, "=")
		switch {
		case t == "--":
			for k++; k < len(c.args); k++ {
				ops = append(ops, k)
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for _, v := range sc.valued {
				if name == v && !eq {
					k++
					break
				}
			}
		default:
			ops = append(ops, k)
		}
	}
	via := c.name + " " + sub + " writes a project's files below it"
	if len(ops) == 0 {
		if sc.cwd != "" {
			c.fileField(c.args[1].raw+" ("+via+": "+sc.cwd+")", litField(sc.cwd), setModify)
		}
		return
	}
	if c.name == "composer" {
		ops = ops[1:] // composer create-project PACKAGE [DIR [VERSION]]
		if len(ops) == 0 {
			return // a folder named after the package, in the working folder
		}
		ops = ops[:1]
	}
	for _, k := range ops {
		c.a.addRec(c.args[k].raw, c.args[k].f, setModify, true, nil, via, followNone)
	}
}

// npmInit: `npm init` (and pnpm's, yarn's) with no initializer writes
// package.json in the working folder; `npm init X` and `npm create X` run
// the package create-X, a program the gate does not model, on the words
// after it.
func (c *cmd) npmInit(sub string) {
	if sub != "init" && sub != "create" && !(c.name == "yarn" && sub == "create") {
		return
	}
	var ops []int
	for k := 2; k < len(c.args); k++ {
		if t := optText(c.args[k].f); t == "--" || !strings.HasPrefix(t, "-") {
			ops = append(ops, k)
		}
	}
	if sub == "init" && len(ops) == 0 {
		c.fileField(c.args[1].raw+" (writes package.json here)", litField("package.json"), setModify)
		return
	}
	if len(ops) > 0 {
		c.unmodelledFiles(ops[1:], c.name+" "+sub+" "+optText(c.args[ops[0]].f))
	}
}
