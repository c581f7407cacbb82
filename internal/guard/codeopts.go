package guard

import (
	"path"
	"strings"
)

// codeOptions: programs outside the interpreter tables that run code given
// in an option, a subcommand's operand or stdin — REPLs and evaluators
// (iex -e, hy -c, ghc -e, crystal eval, nim --eval:, zx -e, dotnet script
// eval, nix eval --expr, nix-instantiate -E, sage -c, matlab -batch,
// wolframscript -code), framework shells (python manage.py shell -c,
// django-admin shell, php artisan tinker --execute, rails console and
// flask shell on stdin), commands run by nix-shell --run and nix develop
// -c, and SQL engines that open files (clickhouse local -q: not modelled).
// Without this their code was a word, and names the code joins at run
// time (".e" <> "nv") went unseen.
func (c *cmd) codeOptions() {
	switch c.name {
	case "php", "iex", "hy", "ocaml", "utop", "lein", "clj", "ghc", "dotnet", "nix", "nix-instantiate", "nix-build", "nix-shell",
		"crystal", "nim", "zx", "sage", "matlab", "wolframscript", "wolfram", "clickhouse-local", "clickhouse", "manage.py",
		"django-admin", "django-admin.py", "artisan", "rails", "flask", "gomplate", "jsonnet",
		"tex", "latex", "pdflatex", "xelatex", "lualatex", "luatex", "pdftex", "etex", "xetex", "latexmk":
	default:
		if !pythonFamily(c.name) {
			return
		}
	}
	n := len(c.args)
	words := make([]string, n)
	for i, ar := range c.args {
		words[i] = optText(ar.f)
	}
	// flag: the word after one of names (or NAME=CODE, NAME:CODE) is code
	flag := func(from int, lang string, names ...string) bool {
		found := false
		for i := from; i < n; i++ {
			w := words[i]
			if w == "--" {
				break
			}
			for _, nm := range names {
				switch {
				case w == nm && i+1 < n:
					c.code(i+1, lang)
					found = true
				case len(w) > len(nm) && strings.HasPrefix(w, nm) && (w[len(nm)] == '=' || w[len(nm)] == ':') && strings.HasPrefix(nm, "--"):
					c.done[i] = true
					c.codeField(c.args[i].raw, subField(c.args[i].f, len(nm)+1), lang)
					found = true
				}
			}
		}
		return found
	}
	stdin := func(lang string) {
		if c.in.kind != srcNone || c.in.text != "" {
			c.runScript(c.args[0].raw, c.in, source{}, lang)
		}
	}
	// operand: the first word from `from` on that is not an option
	operand := func(from int) int {
		for i := from; i < n; i++ {
			if !strings.HasPrefix(words[i], "-") {
				return i
			}
		}
		return -1
	}
	name := c.name
	k := 1
	if pythonFamily(name) || name == "php" {
		// python manage.py …, php artisan …: the script's name
		if i := operand(1); i > 0 {
			name, k = path.Base(words[i]), i+1
			if name == "-m" || name == "django" {
				name = ""
			}
		}
		for i := 1; i+1 < n; i++ {
			if words[i] == "-m" && words[i+1] == "django" {
				name, k = "django-admin", i+2
			}
		}
	}
	switch name {
	case "iex":
		if !flag(1, "generic", "-e", "--eval") {
			stdin("generic")
		}
	case "hy":
		if !flag(1, "generic", "-c") && operand(1) < 0 {
			stdin("generic")
		}
	case "ocaml", "utop", "lein", "clj", "ghc", "dotnet", "nix", "nix-instantiate", "nix-build", "nix-shell":
		switch {
		case name == "ocaml" || name == "utop":
			if operand(1) < 0 {
				stdin("generic")
			}
		case name == "lein" || name == "clj":
			if i := operand(1); i > 0 && words[i] == "repl" || name == "clj" && i < 0 {
				stdin("generic")
			}
			flag(1, "generic", "-e", "--eval")
		case name == "ghc":
			flag(1, "generic", "-e")
		case name == "dotnet":
			if i := operand(1); i > 0 && words[i] == "script" && i+1 < n && words[i+1] == "eval" {
				c.code(i+2, "generic")
			} else if i > 0 && words[i] == "fsi" && operand(i+1) < 0 {
				stdin("generic")
			}
		case name == "nix":
			i := operand(1)
			if i > 0 && (words[i] == "eval" || words[i] == "build" || words[i] == "run" || words[i] == "shell" || words[i] == "develop") {
				flag(i+1, "generic", "--expr", "-E")
			}
			if i > 0 && words[i] == "repl" {
				stdin("generic")
			}
			if i > 0 && (words[i] == "develop" || words[i] == "shell") {
				for j := i + 1; j < n; j++ {
					if words[j] == "-c" || words[j] == "--command" {
						c.done[j] = true
						c.wrap(j + 1) // nix develop -c CMD ARGS…
						break
					}
				}
			}
		default: // nix-instantiate, nix-build, nix-shell
			flag(1, "generic", "-E", "--expr")
			if name == "nix-shell" {
				for j := 1; j+1 < n; j++ {
					if words[j] == "--run" || words[j] == "--command" {
						c.done[j] = true
						c.script(j+1, c.in)
					}
				}
			}
		}
	case "crystal":
		if i := operand(1); i > 0 && words[i] == "eval" {
			if i+1 < n {
				c.code(i+1, "generic")
			} else {
				stdin("generic")
			}
		}
	case "nim":
		flag(1, "generic", "--eval")
	case "zx":
		if !flag(1, "js", "-e", "--eval") && operand(1) < 0 {
			stdin("js")
		}
	case "sage":
		flag(1, "python", "-c")
	case "matlab":
		flag(1, "generic", "-batch", "-r")
	case "wolframscript", "wolfram":
		flag(1, "generic", "-code", "-c")
	case "clickhouse-local", "clickhouse":
		if name == "clickhouse-local" || operand(1) > 0 && words[operand(1)] == "local" {
			for i := 1; i < n; i++ {
				if w := words[i]; w == "-q" || w == "--query" || strings.HasPrefix(w, "--query=") || w == "--queries-file" {
					c.a.unknown(c.args[i].raw, "clickhouse local runs SQL whose table functions (file, url) open files, which the analysis does not model", SetRead|setModify)
				}
			}
			if c.in.kind != srcNone || c.in.text != "" {
				c.a.unknown(c.args[0].raw, "clickhouse local runs SQL from stdin, which the analysis does not model", SetRead|setModify)
			}
		}
	case "gomplate":
		// templates compute the names they read (file.Read (print ".e" "nv"))
		flag(1, "unmodelled:gomplate", "-i", "--in")
	case "jsonnet":
		flag(1, "generic", "-e", "--exec")
	case "tex", "latex", "pdflatex", "xelatex", "lualatex", "luatex", "pdftex", "etex", "xetex", "latexmk":
		// TeX code on the command line (`\input{…}`, macros build names;
		// \write18 runs commands): not modelled
		for i := 1; i < n; i++ {
			if w := words[i]; strings.HasPrefix(w, "\\") || strings.HasPrefix(w, "&") || c.args[i].f.pattern() && strings.HasPrefix(c.args[i].f.lead, "\\") {
				c.code(i, "unmodelled:tex")
			}
		}
	case "manage.py", "django-admin", "django-admin.py":
		if i := operand(k); i > 0 && (words[i] == "shell" || words[i] == "shell_plus") {
			if !flag(i+1, "python", "-c", "--command") {
				stdin("python")
			}
		}
	case "artisan":
		if i := operand(k); i > 0 && words[i] == "tinker" {
			if !flag(i+1, "php", "--execute") {
				stdin("php")
			}
		}
	case "rails":
		if i := operand(1); i > 0 && (words[i] == "console" || words[i] == "c") {
			stdin("ruby")
		}
	case "flask":
		if i := operand(1); i > 0 && words[i] == "shell" {
			stdin("python")
		}
	}
}
