package guard

import (
	"path"
	"strings"
)

// Pass 21: the options of build and test tools that name what they write
// — a file (tsc --outFile, rollup -o, go test -coverprofile, pytest
// --junitxml) or a folder they fill (tsc --outDir, rollup -d, webpack
// --output-path, jest --coverageDirectory, pytest --basetemp) — and
// formatters that rewrite every file of theirs below a folder operand
// (prettier --write ., gofmt -w ., black ., ruff format .).

// outOpts are a tool's output options: files written, folders filled.
// Names are matched whole (`--outDir DIR`, `--outDir=DIR`; go's and
// tsc's single-dash spellings are listed as such).
type outOpts struct {
	files, dirs []string
	fold        bool // names are matched ignoring case (tsc)
	// attached: the short options of dirs that also take their value
	// joined (cmake -Bbuild)
	attached []string
	// own: the folders hold what the tool writes itself (cmake's build
	// tree, which it reads back), not files to be taken as unknown text
	own bool
}

// buildOutOpts gives the output options of a build or test tool, for the
// subcommand it runs where that matters (go test, go build).
func (c *cmd) buildOutOpts() (outOpts, bool) {
	sub := ""
	if len(c.args) > 1 {
		sub = optText(c.args[1].f)
	}
	switch c.name {
	case "tsc":
		return outOpts{files: []string{"--outFile", "-outFile", "--out", "-out", "--tsBuildInfoFile", "-tsBuildInfoFile"},
			dirs: []string{"--outDir", "-outDir", "--declarationDir", "-declarationDir", "--generateTrace", "-generateTrace"}, fold: true}, true
	case "rollup":
		return outOpts{files: []string{"-o", "--file"}, dirs: []string{"-d", "--dir"}}, true
	case "webpack":
		return outOpts{dirs: []string{"-o", "--output-path"}}, true
	case "vite":
		return outOpts{dirs: []string{"--outDir"}}, true
	case "esbuild":
		return outOpts{dirs: []string{"--outdir"}}, true
	case "jest", "vitest":
		return outOpts{files: []string{"--outputFile"}, dirs: []string{"--coverageDirectory", "--coverage.reportsDirectory"}}, true
	case "pytest":
		return outOpts{files: []string{"--junitxml", "--junit-xml", "--resultlog", "--result-log", "--report-log", "--html", "--json-report-file",
			"--log-file"}, dirs: []string{"--basetemp"}}, true
	case "pip", "pip3":
		// pass 37: the log and report pip writes, its cache; what
		// download and wheel save (install's --target, --prefix, --root
		// are install folders: into.go)
		o := outOpts{files: []string{"--log", "--log-file", "--report"}, dirs: []string{"--cache-dir"}}
		switch sub {
		case "download":
			o.dirs = append(o.dirs, "-d", "--dest")
		case "wheel":
			o.dirs = append(o.dirs, "-w", "--wheel-dir")
		}
		return o, true
	case "javac":
		// classes (-d), generated sources (-s) and headers (-h)
		return outOpts{dirs: []string{"-d", "-s", "-h"}}, true
	case "cmake":
		// the build tree (-B, -Bbuild), --install's prefix, and the
		// files of --graphviz, --trace-redirect, --profiling-output
		return outOpts{files: []string{"--graphviz", "--trace-redirect", "--profiling-output"},
			dirs: []string{"-B", "--install-prefix", "--prefix"}, attached: []string{"-B"}, own: true}, true
	case "node", "nodejs":
		// the reports and profiles node writes (--diagnostic-dir is
		// the default of the others)
		return outOpts{files: []string{"--redirect-warnings"},
			dirs: []string{"--diagnostic-dir", "--report-directory", "--report-dir", "--cpu-prof-dir", "--heap-prof-dir"}}, true
	case "cargo":
		return outOpts{dirs: []string{"--target-dir", "--artifact-dir", "--out-dir"}}, true
	case "c8":
		// programs the analysis does not model otherwise (their other
		// arguments stay possible writes): what the options name is
		return outOpts{dirs: []string{"--reports-dir", "--report-dir", "-o", "--temp-directory"}}, true
	case "nyc":
		return outOpts{dirs: []string{"--report-dir", "--temp-dir", "--temp-directory", "-t"}}, true
	case "coverage":
		// coverage.py: html -d/--directory DIR, xml/json/lcov -o FILE,
		// --data-file FILE
		return outOpts{files: []string{"-o", "--data-file"}, dirs: []string{"-d", "--directory"}}, true
	case "mocha":
		// the reporter's output=FILE (mochawesome, xunit, mocha-junit-
		// reporter's mochaFile) is read by mochaReporterOutputs
		return outOpts{}, true
	case "gradle", "gradlew":
		// caches, and the user home's init scripts and properties
		return outOpts{dirs: []string{"--project-cache-dir", "-g", "--gradle-user-home"}}, true
	case "go":
		switch sub {
		case "test", "build", "install", "vet", "run", "tool":
			// the test binary's flags as go test passes them on
			// (-test.coverprofile) are the same files
			files := []string{"-o", "--o", "-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace",
				"-test.coverprofile", "-test.cpuprofile", "-test.memprofile", "-test.blockprofile", "-test.mutexprofile", "-test.trace",
				"-test.testlogfile", "-test.gocoverdir", "-pgo"}
			if sub == "build" || sub == "install" || sub == "run" {
				files = []string{"-o", "--o"}
			}
			return outOpts{files: files, dirs: []string{"-outputdir", "-test.outputdir", "-test.gocoverdir"}}, true
		}
	}
	return outOpts{}, false
}

// buildOutputs records what a build or test tool's output options write:
// a file written (a folder with a trailing `/` filled), a folder filled.
func (c *cmd) buildOutputs() {
	o, ok := c.buildOutOpts()
	if !ok {
		return
	}
	eq := func(a, b string) bool {
		if o.fold {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		if t == "--" {
			break
		}
		if !strings.HasPrefix(t, "-") {
			continue
		}
		name, _, hasEq := strings.Cut(t, "=")
		for _, n := range o.attached {
			if len(t) > len(n) && strings.HasPrefix(t, n) && !hasEq {
				c.outputDir(c.args[i].raw, subField(c.args[i].f, len(n)), !o.own, c.name+" "+n)
			}
		}
		for k, names := range [][]string{o.files, o.dirs} {
			for _, n := range names {
				if !eq(name, n) {
					continue
				}
				var f field
				raw := ""
				switch {
				case hasEq:
					f, raw = subField(c.args[i].f, len(name)+1), c.args[i].raw
				case i+1 < len(c.args):
					f, raw = c.args[i+1].f, c.args[i+1].raw
				default:
					continue
				}
				if c.name == "go" && k == 0 && (n == "-o" || n == "--o") && optText(c.args[1].f) == "build" {
					if d, ok := c.goChdir(); ok {
						// go build -C DIR: -o and the packages are DIR's
						// (go build -C .pi -o . ./settings.json wrote
						// .pi/settings.json)
						c.a.inDirs([]field{d}, func() { c.goBuildOut(raw, f) })
					} else {
						c.goBuildOut(raw, f)
					}
					continue
				}
				if k == 1 && o.own {
					c.outputDir(raw, f, false, c.name+" "+n)
					continue
				}
				c.outputTo(raw, f, k == 1 || strings.HasSuffix(f.s, "/"), c.name+" "+n)
			}
		}
	}
	if c.name == "pytest" {
		c.pytestCovReports()
	}
	if c.name == "mocha" {
		c.mochaReporterOutputs()
	}
}

// mochaReporterOutputs: mocha's --reporter-option(s)/-O K=V[,K=V…] gives
// the reporter its options; output= (xunit, mochawesome's reportDir,
// mocha-junit-reporter's mochaFile) names what it writes.
func (c *cmd) mochaReporterOutputs() {
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		var f field
		raw := ""
		switch {
		case t == "--":
			return
		case t == "--reporter-option" || t == "--reporter-options" || t == "-O":
			if i+1 >= len(c.args) {
				continue
			}
			f, raw = c.args[i+1].f, c.args[i+1].raw
		case strings.HasPrefix(t, "--reporter-option=") || strings.HasPrefix(t, "--reporter-options="):
			_, v, _ := strings.Cut(t, "=")
			f, raw = subField(c.args[i].f, len(t)-len(v)), c.args[i].raw
		default:
			continue
		}
		if f.pattern() {
			c.a.unknown(raw, "mocha's reporter options are computed when the command runs (output= names the file the reporter writes)", setModify)
			continue
		}
		for part := range strings.SplitSeq(f.s, ",") {
			k, v, ok := strings.Cut(part, "=")
			switch strings.TrimSpace(k) {
			case "output", "mochaFile", "reportDir", "reportFilename":
			default:
				continue
			}
			if !ok || v == "" {
				continue
			}
			dir := strings.TrimSpace(k) == "reportDir"
			c.outputTo(raw, litField(v), dir || strings.HasSuffix(v, "/"), "mocha --reporter-option "+strings.TrimSpace(k))
		}
	}
}

// outputTo records one output: the file written, and for a folder (or
// what may be one) everything below it.
func (c *cmd) outputTo(raw string, f field, dir bool, via string) {
	if f.s == "" {
		return
	}
	if dir {
		c.outputDir(raw, f, true, via)
		return
	}
	c.fileField(raw, f, setModify)
}

// outputDir records a folder a tool writes below; fill: what it holds
// after is text the analysis does not know (fills.go), not the tool's own
// build tree.
func (c *cmd) outputDir(raw string, f field, fill bool, via string) {
	if f.s == "" {
		return
	}
	if !fill {
		// the tool's own files: no script text a later reader would run
		meta := c.a.noContent
		c.a.noContent = true
		defer func() { c.a.noContent = meta }()
	}
	c.fileField(raw, f, setModify)
	n := len(c.a.out.targets)
	c.a.addRec(raw, f, setModify, true, nil, via, followNone)
	if fill {
		c.a.markFillsFrom(n)
	}
}

// pytestCovReports: pytest-cov's --cov-report=TYPE:DEST writes DEST, a
// file (xml, lcov, json, markdown) or a folder (html, annotate).
func (c *cmd) pytestCovReports() {
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		var f field
		raw := ""
		switch {
		case strings.HasPrefix(t, "--cov-report="):
			f, raw = subField(c.args[i].f, len("--cov-report=")), c.args[i].raw
		case t == "--cov-report" && i+1 < len(c.args):
			f, raw = c.args[i+1].f, c.args[i+1].raw
		default:
			continue
		}
		kind, _, ok := strings.Cut(f.s, ":")
		if !ok || strings.ContainsRune(kind, unknownRune) {
			if strings.ContainsRune(f.s, unknownRune) {
				c.outputTo(raw, f, true, "pytest --cov-report")
			}
			continue
		}
		dest := subField(f, len(kind)+1)
		c.outputTo(raw, dest, kind == "html" || kind == "annotate", "pytest --cov-report "+kind)
	}
}

// formatterFilter is what a formatter rewrites below a folder operand:
// its languages' files; nil for those that take any file their plugins
// or config accept (prettier, eslint, biome, dprint, shfmt by shebang).
func formatterFilter(name string) []string {
	switch name {
	case "gofmt", "goimports":
		return []string{"*.go"}
	case "black", "ruff", "autopep8", "yapf", "isort":
		return []string{"*.py", "*.pyi", "*.ipynb"}
	case "rustfmt":
		return []string{"*.rs"}
	case "stylua":
		return []string{"*.lua", "*.luau"}
	}
	return nil
}

// rewritesBelow records a formatter's rewrite of every file of its below a
// folder operand (a file operand is that file, a folder on the disk is
// searched): files changed in place, none created, so the disk decides
// (not a fill: fills.go).
func (c *cmd) rewritesBelow(i int) { c.rewritesIn(c.args[i].raw, c.args[i].f, c.name) }

func (c *cmd) rewritesIn(raw string, f field, name string) {
	meta := c.a.noContent
	c.a.noContent = true // no fill, no link followed
	n := len(c.a.out.targets)
	c.a.addRec(raw, f, setModify, true, formatterFilter(name), name+" (it rewrites the files below it)", followNone)
	c.a.noContent = meta
	for k := n; k < len(c.a.out.targets); k++ {
		c.a.out.targets[k].meta = meta
	}
}

// formatsCwd: eslint --fix, standard --fix, biome format/check/lint
// --write and dprint fmt with no path rewrite the current folder's files.
func (c *cmd) formatsCwd(operands []int) {
	paths := 0
	for _, i := range operands {
		t := optText(c.args[i].f)
		if c.name == "biome" && (t == "format" || t == "check" || t == "lint" || t == "ci") || c.name == "dprint" && t == "fmt" {
			continue
		}
		paths++
	}
	switch c.name {
	case "eslint", "standard", "biome", "dprint":
		if paths == 0 {
			c.rewritesIn(c.name+" (the current folder)", litField("."), c.name)
		}
	}
}

// ruffWrites: ruff format (not --check/--diff) and ruff check --fix (or
// the bare ruff --fix) rewrite the Python files below their operands.
func (c *cmd) ruffWrites() {
	if c.name != "ruff" {
		return
	}
	p := c.parse(1, opts{long: []string{"--config", "--target-version", "--line-length", "--select", "--ignore", "--extend-select",
		"--extend-ignore", "--exclude", "--extend-exclude", "--per-file-ignores", "--output-format", "--cache-dir", "--stdin-filename", "-o", "--output-file"}})
	if p.has("--diff", "--check") && !p.has("--fix") {
		return
	}
	if ops := p.operands; len(ops) > 0 {
		sub := optText(c.args[ops[0]].f)
		if !(sub == "format" || p.has("--fix", "--unsafe-fixes")) {
			return
		}
		if sub == "format" || sub == "check" {
			ops = ops[1:]
		}
		for _, i := range ops {
			c.file(i, setModify)
			c.rewritesBelow(i)
		}
		if len(ops) > 0 {
			return
		}
	} else if !p.has("--fix", "--unsafe-fixes") {
		return
	}
	// no path: the current folder
	c.rewritesIn("ruff (the current folder)", litField("."), "ruff")
}

// goBuildOut: go build -o OUT writes the file OUT or, when OUT is a folder
// (one on the disk, or written OUT/), OUT/NAME for each main package, NAME
// the last element of its import path (a .go file's name without .go):
// `go build -o .pi ./settings.json` writes .pi/settings.json. Without the
// disk OUT may be either.
func (c *cmd) goBuildOut(raw string, f field) {
	if f.s == "" {
		return
	}
	kind := 1
	if !strings.HasSuffix(f.s, "/") {
		kind = c.a.dirKind(f.s)
	}
	if kind != 1 {
		c.fileField(raw, f, setModify)
	}
	if kind == -1 || f.onlyUnk {
		return
	}
	for _, name := range c.goMainNames() {
		into := joinBase(f, name)
		r := into.s
		if !name.pattern() {
			r = into.s + " (go build writes " + name.s + " into folder " + f.text() + ")"
		}
		c.a.value(r, into, setModify)
	}
}

// goMainNames are the names go build gives the programs of its package
// operands: the last element of each import path (example.com/x/v2 is
// x), a .go file's name; a name it cannot read (., a pattern with ...,
// a computed operand) is any name.
func (c *cmd) goMainNames() []field {
	valued := map[string]bool{"-o": true, "-p": true, "-tags": true, "-ldflags": true, "-gcflags": true, "-asmflags": true, "-mod": true,
		"-modfile": true, "-overlay": true, "-pgo": true, "-toolexec": true, "-covermode": true, "-coverpkg": true, "-C": true,
		"-buildmode": true, "-compiler": true, "-gccgoflags": true, "-installsuffix": true, "-pkgdir": true, "-exec": true, "--o": true}
	anyName := field{s: unknownStr, unk: true, why: "go build"}
	var out []field
	for k := 2; k < len(c.args); k++ {
		f := c.args[k].f
		t := optText(f)
		if strings.HasPrefix(t, "-") {
			if valued[t] && !strings.Contains(t, "=") {
				k++
			}
			continue
		}
		if f.pattern() {
			return []field{anyName}
		}
		if strings.HasSuffix(t, ".go") {
			// files: one package, named after the first
			return []field{litField(strings.TrimSuffix(path.Base(t), ".go"))}
		}
		pkg := strings.TrimSuffix(t, "/")
		switch pkg {
		case "all", "std", "cmd", "tool", "work":
			// a meta-package: packages of any module, any name
			out = append(out, anyName)
			continue
		}
		if strings.Contains(pkg, "...") {
			out = append(out, c.goWildcardNames(pkg, anyName)...)
			continue
		}
		base := path.Base(pkg)
		if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" && strings.Contains(pkg, ".") {
			base = path.Base(path.Dir(pkg)) // example.com/x/v2 builds x
		}
		if base == "." || base == ".." || base == "/" || strings.HasPrefix(base, ".") {
			out = append(out, anyName)
			continue
		}
		out = append(out, litField(base))
	}
	if len(out) == 0 {
		out = append(out, anyName) // the current folder's package
	}
	return out
}

// goWildcardNames are the names go build gives the programs a `DIR/...`
// pattern matches: a folder the wildcard walks into is never one whose
// name begins with `.` or `_`, nor testdata (the go tool ignores those),
// so the program of each folder below DIR has a name without a leading
// dot — the glob `*`, which never matches one (.env, .mcp.json) — and
// DIR's own program is named after DIR's last element (for `./...` the
// working folder's, or the module path's, which never begins with a dot).
// A `...` anywhere else, a computed DIR or working folder: any name.
func (c *cmd) goWildcardNames(pkg string, anyName field) []field {
	root, ok := strings.CutSuffix(pkg, "/...")
	if pkg == "..." {
		root, ok = ".", true
	}
	if !ok || strings.Contains(root, "...") || root == "" {
		return []field{anyName}
	}
	out := []field{{s: "*", glob: true, why: "go build"}}
	var bases []string
	switch path.Clean(root) {
	case ".":
		for _, cwd := range c.a.cwds {
			if strings.ContainsRune(cwd, unknownRune) || globCwd(cwd) {
				return []field{anyName}
			}
			bases = append(bases, path.Base(cwd))
		}
	case "..", "/":
		return []field{anyName}
	default:
		bases = append(bases, path.Base(path.Clean(root)))
	}
	for _, b := range bases {
		if strings.HasPrefix(b, ".") {
			out = append(out, litField(b)) // `*` does not stand for it
		}
	}
	return out
}

// goChdir is the folder of a go command's -C flag (go build -C DIR,
// -C=DIR, --C): go changes to it before it reads any other flag or
// package.
func (c *cmd) goChdir() (field, bool) {
	for i := 2; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		switch {
		case t == "-C" || t == "--C":
			if i+1 < len(c.args) {
				return c.args[i+1].f, true
			}
		case strings.HasPrefix(t, "-C=") || strings.HasPrefix(t, "--C="):
			return subField(c.args[i].f, strings.Index(t, "=")+1), true
		}
	}
	return field{}, false
}
