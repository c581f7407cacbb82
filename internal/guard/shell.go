package guard

import (
	"fmt"
	"github.com/bmatcuk/doublestar/v4"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// Limits that keep the analysis of hostile input bounded. Reaching one is
// never an allow: the call becomes unverifiable.
const (
	maxLoopPasses  = 4    // nested for loops read twice (what one pass wrote, the next runs)
	maxScriptDepth = 12   // nested `bash -c`, `eval`, here-doc scripts, interpreter strings
	maxTargets     = 8192 // paths collected from one call
	maxCwds        = 16   // candidate working directories after `cd`
	maxScriptBytes = 1 << 20
	maxLoopValues  = 64 // a loop body is walked once per value, up to this many
)

// ParseError is returned by AnalyzeBash when a command does not parse as
// bash (nor as zsh). In hook mode it denies the call (fail closed).
type ParseError struct {
	Err error
}

func (e *ParseError) Error() string { return "bash command does not parse: " + e.Err.Error() }

func (e *ParseError) Unwrap() error { return e.Err }

// BashPath is one path a bash command touches, as found by AnalyzeBash.
type BashPath struct {
	// Word is the shell word as written in the command (or script fragment).
	Word string
	// Path is the normalised absolute path; a Pattern path is a doublestar
	// glob (literal metacharacters escaped) that may match several files.
	Path    string
	Pattern bool
	// Ops are the ops the command implies for the path (read, or write and
	// edit for redirect targets, tee/cp/mv/sed -i targets…).
	Ops OpSet
	// Recursive: the command reads or writes everything below Path.
	Recursive bool
}

// AnalyzeBash parses a bash command and returns every path its words may
// name (see the package documentation for what is followed). Parts it
// cannot resolve are not returned here; Matcher.Check reports them. A
// command that does not parse returns a *ParseError.
func AnalyzeBash(env Env, command string) ([]BashPath, error) {
	an := analyzeShell(env, command)
	out := make([]BashPath, 0, len(an.targets))
	for _, t := range an.targets {
		out = append(out, BashPath{Word: t.raw, Path: t.path, Pattern: t.pattern, Ops: t.ops, Recursive: t.rec})
	}
	return out, an.parseErr
}

// target is one path a call touches.
type target struct {
	raw     string // as written in the call
	path    string // normalised absolute path or pattern
	pattern bool
	ops     OpSet // read, write, edit implied (bash is added for bash calls)
	dotOK   bool  // globs and recursion reach hidden names
	rec     bool  // everything below path (filtered by filter)
	filter  []string
	// naming, for a name search's glob matched as a pattern: only the
	// entries whose name it could match count (see searchTargets)
	naming string
	via    string // for rec: the command that recurses ("grep -r")
	// loader: the program that reads the path by itself, as a phrase
	// ("bun, which loads the folder's .env files …"; selfloads.go), for
	// the reason; raw is then the file's name
	loader string
	// unmodelled: the program the path is an argument of, one the
	// analysis does not model (it may write the path: writes are added)
	unmodelled string
	// vcsAware, for rec: the recursion skips version-control folders and
	// what .gitignore surely ignores (git add, Claude Code's Grep); without
	// the disk it is taken to skip hidden names (see gitIgnorer)
	vcsAware bool
	// gitIgnores, with vcsAware: what .gitignore ignores is skipped (not
	// by git add -f, git stash --all)
	gitIgnores bool
	// lists, for rec: a name search (find, Glob) that lists names and
	// reads a protected folder's listing, not every file's content
	lists bool
	// tracked, for rec: prints the content of what git tracks below path
	// (its index), not every file (git diff, git show, git log -p)
	tracked bool
	// repoWide, for tracked: the whole work tree of the repository path
	// is in (git checkout BRANCH in a sub folder switches every file)
	repoWide bool
	follow   uint8 // for rec: which symlinks inside the folder it follows
	// exclude, for rec: what the recursion surely skips (tar --exclude,
	// zip -x, rsync --exclude, grep --exclude, rg -g '!…'; see excluded)
	exclude []excludePat
	// shellGlob, for rec: path is a shell glob, whose wildcards match a
	// leading `.` only literally (dotOK is then about what lies below)
	shellGlob bool
	// meta: the write changes no file's content (chmod, touch, mkdir, rm)
	meta bool
	// fills, for rec: the write fills or replaces the folder (a recursive
	// copy, move, link, clone or extraction into it): it may create any
	// path below it, so the rules' own paths count, not only the disk's
	// (see fills.go)
	fills bool
	// physical is the path joined but not cleaned, when it has `..`: the
	// kernel applies `..` after following symlinks (`link/../x` is the
	// link target's parent's x), so it is resolved on disk as written.
	physical string
	// hint, for rec: an exclusion the program honours as the analysis
	// reads it, for the reason's hint (hintGitClean: git clean -e NAME)
	hint uint8
	// homeSet: the path starts with a `~` the command made unknown by
	// assigning HOME (homeset.go): the reason names the rules it may hit
	homeSet bool
	// program: the path is the name of the program a command runs, which
	// may read any file in its working folder (its configuration, a
	// Makefile, package.json, the folder's listing)
	program bool
}

const (
	hintNone uint8 = iota
	hintGitClean
)

// What a recursion does with the symlinks it meets below its folder.
const (
	followNone  uint8 = iota // not followed (grep -r, rg, tar c, cp -r)
	followFiles              // links to files are read, links to folders not entered (find -exec cat)
	followAll                // followed (grep -R, rg -L, zip -r, scp -r)
)

// unknownUse is something the analysis cannot see through: a value
// computed when the command runs, in a place where it may name a file or be
// run as code.
type unknownUse struct {
	raw string
	why string
	ops OpSet
}

// analysis is what one call touches.
type analysis struct {
	targets  []target
	unknowns []unknownUse
	parseErr error
}

// srcKind says what is known about a stream (a pipe, a here-document).
type srcKind uint8

const (
	srcNone  srcKind = iota // nothing (a terminal, /dev/null)
	srcText                 // known text
	srcNames                // file names matching patterns (find output)
	srcFile                 // the content of a file
	srcDyn                  // unknown content
)

// source describes what a command reads on stdin or writes on stdout.
type source struct {
	kind  srcKind
	text  string
	names []field
	file  string
	why   string
	// at, for a file the command wrote: how many targets were recorded
	// when it was (a later writer's target replaces the text)
	at int
	// rd, for text several commands read in turn (a block or loop fed by
	// one pipe or here-string): how much read took, whether another
	// command may have read some (see readbuiltin.go)
	rd *readState
	// unordered: text whose lines are known but not their order (ls's
	// names, sorted by a locale's collation the gate does not know)
	unordered bool
	// found, for find's names: the folders it searched and the filter of
	// what it prints (found37.go)
	found []foundRoot
}

func dynSource(why string) source { return source{kind: srcDyn, why: why} }

type shellAnalyzer struct {
	env     Env
	win     bool
	cwds    []string // candidate working directories (patterns when they hold unknowns)
	oldpwd  string
	ifs     string
	vars    map[string]pval
	arrays  map[string][]pval
	funcs   map[string]bool
	links   map[string]string // symlinks (and hard links) made by the command: link → target
	written map[string]source // files written by the command with what was written
	fds     map[string]source // what input redirections gave other descriptors (3<<<…)
	dotglob bool
	// cdable: the command may turn on bash's cdable_vars (zsh's
	// cdablevars): `cd NAME` then goes to $NAME (zsh: ~NAME) when there is
	// no folder NAME
	cdable bool
	// cdDests: where the plain `cd DIR` just walked leads when it succeeds
	// (set by the cd builtin, read by andOr); cdOther: a cd that may lead
	// elsewhere ran since andOr reset cdDests
	cdDests []string
	cdOther bool
	// noNarrow: the shell may change folder where the analysis does not
	// see a cd (a trap's action before each command, autocd): a cd's
	// success does not say where later commands run
	noNarrow bool
	// oldpwds: where the shell may have been before the last cd (`cd -`);
	// dirStack: the candidates each pushd left (popd returns to one)
	oldpwds  []string
	dirStack [][]string
	// rgConfig: the command sets RIPGREP_CONFIG_PATH, so rg may search
	// hidden and ignored files whatever its flags say
	rgConfig bool
	// ignoresMayChange: a git command that rewrites the work tree
	// (checkout, reset, stash pop, …) or a work tree elsewhere: what git
	// ignores is not taken from the disk as it is
	ignoresMayChange bool
	// indexMayChange: a git command earlier in the command may have
	// changed the index (git add, checkout, read-tree, …)
	indexMayChange bool
	// gitElsewhere: a variable points git at another repository, index,
	// work tree or configuration: the index on the disk does not say
	// what a git command rewrites
	gitElsewhere bool
	// gitWorkTrees: work trees set by GIT_WORK_TREE (or GIT_DIR's)
	gitWorkTrees []field
	// cdpathLost: CDPATH may have been set in a way the variables do not
	// track (a nameref, a sourced file, getopts, let): `unset CDPATH`
	// earlier no longer says where a relative cd lands (cdpathUnset)
	cdpathLost bool
	// foundPaths: the patterns of the names find and fd print, and the
	// folders they searched (found37.go)
	foundPaths map[string][]foundRoot
	out        *analysis
	seen       map[*syntax.Word]bool
	src        string // the script being walked, for word text
	depth      int
	full       bool
	// substDepth is how deeply command substitutions are being evaluated
	// for their value.
	substDepth int
	// noContent: the command being analysed changes metadata only (chmod,
	// touch, mkdir, rm): its writes leave no content to run
	noContent bool
	// parentWrote: the command around this $(…) wrote files before it
	parentWrote bool
	// shellIn: the shell's stdin after `exec < …` (nil: the caller's)
	shellIn *source
	// cmdEnv: the values of the environment assignments of the command
	// being analysed (`CC=x make`, `env CC=x make`)
	cmdEnv []string
	// cmdEnvNames: the names of those assignments (cmdEnv[i] is
	// cmdEnvNames[i]'s value)
	cmdEnvNames []string
	// stmtStart: how many targets were recorded when the statement being
	// analysed began (before its redirections)
	stmtStart int
	// loopNest is how deeply for loops are nested where the analysis is
	loopNest int
	// aliases: the aliases the command defines, read where they are used
	aliases map[string]string
	// assocs and ints: names declared -A (keys are strings, not
	// arithmetic) and -i (assignments evaluated as arithmetic)
	assocs, ints map[string]bool
	// zsh: the script being walked parsed as zsh only (see zshGlob);
	// extGlob: the command may set zsh's EXTENDED_GLOB (# ^ ~ are globs)
	zsh, extGlob bool
	// rcMoved: the command set a variable that moves start-up files
	rcMoved bool
	// homeSet: the command assigned HOME (see homeChanged)
	homeSet bool
	// envUntrusted: a child shell (sh -c), whose environment the command
	// may have set (x=… sh -c, env x=…): its values are not the user's
	envUntrusted bool
	// stmtIn: the stdin of the statement being analysed, as it was before
	// its redirections (what a command substitution in it reads)
	stmtIn source
	// exWriting: the vim being analysed writes a file in one of its -c
	// commands, so a file another names may be written
	exWriting bool
	// codeChdir: the code being read changes its working folder to one
	// computed when it runs (os.chdir(x), Set-Location $x): a name it
	// opens may be in any folder, a protected one included (codeChdirs)
	codeChdir bool
	// hooksPaths: the hook folders `git config core.hooksPath` set: hooks
	// written there run at a later git command
	hooksPaths []string
	// deferred: what runs later than where it stands — a background job,
	// the left side of a pipeline (it runs while the right side writes),
	// a trap — read again at the end, after every write of the command
	deferred  []deferredRun
	finishing bool
	// pos are the positional parameters ($1…) when posKnown: bound by
	// `set --`, a function call or `sh -c`'s arguments. posTail: after
	// them come more, of unknown number and value (a field that may split
	// or match several names). posDecl: a function body is being walked
	// where it is defined, its $1… being the arguments of each call, which
	// is walked again with them bound (see positional.go).
	pos      []field
	posKnown bool
	posTail  bool
	posDecl  bool
	// funcDefs are the functions the command defines, walked at each call.
	funcDefs map[string][]funcDef
	// locals, while a function call is walked: the variables it declared
	// local, with the values they had before (restored after the call).
	locals map[string]savedVar
	// calls counts the function calls walked (bounded by maxFuncCalls);
	// active are the functions being walked (a call to one is recursion).
	calls  int
	active map[string]bool
	// exported are the variables `export`/`declare -x` put in the
	// environment of the programs the command runs; allExport: `set -a`.
	exported  map[string]bool
	allExport bool
	// ifsUnset: `unset IFS` ran, so $IFS expands to nothing while words
	// are still split on blanks.
	ifsUnset bool
	// ifsDyn: IFS was given a value only known when the command runs.
	ifsDyn bool
	// ifsUnknown: a prefix IFS=… with a value only known when it runs
	// is in force for the command being analysed (read splits unknown).
	ifsUnknown bool
	// nocase: the command may turn on nocasematch (patterns in
	// expansions then ignore case: not modelled, unknown).
	nocase bool
	// probe, in tests, receives the fields of each `__probe` command (the
	// differential test against bash reads the evaluator's values so).
	probe func([]field)
}

func newShellAnalyzer(env Env, out *analysis) *shellAnalyzer {
	return &shellAnalyzer{
		env:      env,
		win:      env.windows(),
		cwds:     []string{cleanCwd(env)},
		ifs:      " \t\n",
		vars:     map[string]pval{},
		arrays:   map[string][]pval{},
		funcs:    map[string]bool{},
		funcDefs: map[string][]funcDef{},
		active:   map[string]bool{},
		exported: map[string]bool{},
		links:    map[string]string{},
		written:  map[string]source{},
		fds:      map[string]source{},
		aliases:  map[string]string{},
		assocs:   map[string]bool{},
		ints:     map[string]bool{},
		out:      out,
		seen:     map[*syntax.Word]bool{},
	}
}

// analyzeShell analyses one shell command.
func analyzeShell(env Env, command string) *analysis {
	out := &analysis{}
	a := newShellAnalyzer(env, out)
	a.dotglob = dotglobIn(command)
	a.cdable = cdableIn(command)
	a.noNarrow = optionIn(command, "autocd")
	a.nocase = strings.Contains(optionText(command), "nocase")
	a.extGlob = extGlobIn(command)
	f, zsh, err := parseShellZsh(command)
	a.zsh = zsh
	if err != nil {
		out.parseErr = &ParseError{Err: err}
		return out
	}
	a.file(f, command, source{})
	a.runDeferred()
	a.gitConfigFileWrites()
	if a.ignoresMayChange || touchesIgnoreFile(out.targets) {
		// the command changes what git ignores before it runs git add (an
		// ignore file written, moved or removed, a checkout): nothing is
		// taken to be ignored
		for i := range out.targets {
			out.targets[i].gitIgnores = false
		}
	}
	return out
}

// touchesIgnoreFile reports whether a target writes, moves or removes an
// ignore file (.gitignore, .ignore, .rgignore) or may (a pattern).
func touchesIgnoreFile(ts []target) bool {
	for _, t := range ts {
		if t.ops&setModify == 0 || t.vcsAware {
			continue // git's own recursions decide what is ignored before they write
		}
		base := t.path[strings.LastIndexByte(t.path, '/')+1:]
		for _, n := range [...]string{".gitignore", ".ignore", ".rgignore"} {
			if t.rec {
				// a recursion that removes a folder's files removes what its
				// ignore files ignored too; one filtered to names may take an
				// ignore file alone (find -name .gitignore -delete)
				if len(t.filter) > 0 && filterMatches(t.filter, n, n, true) {
					return true
				}
				continue
			}
			if base == n || strings.HasSuffix(t.path, "/.git/info/exclude") {
				return true
			}
			if t.pattern {
				if ok, _ := doublestar.Match(strings.ReplaceAll(base, unknownStr, "*"), n); ok || strings.ContainsRune(base, unknownRune) {
					return true
				}
			}
		}
	}
	return false
}

// dotglobIn reports whether a script may turn on matching of hidden names
// by globs: bash's dotglob or GLOBIGNORE, zsh's GLOB_DOTS or the (D) glob
// qualifier.
func dotglobIn(s string) bool {
	l := optionText(s)
	return strings.Contains(l, "dotglob") || strings.Contains(l, "globignore") ||
		strings.Contains(l, "globdots") || strings.Contains(l, "glob_dots") || strings.Contains(s, "(D")
}

// cdableIn reports whether a script may turn on bash's cdable_vars or
// zsh's CDABLE_VARS (zsh ignores case and underscores in option names;
// quotes may split the name).
func cdableIn(s string) bool { return optionIn(s, "cdablevars") }

// optionIn reports whether a script may name the shell option opt (lower
// case, no underscores) in any spelling.
func optionIn(s, opt string) bool {
	l := strings.Map(func(r rune) rune {
		switch r {
		case '_', '\'', '"', '\\':
			return -1
		}
		return unicode.ToLower(r)
	}, s)
	return strings.Contains(l, opt)
}

func parseShell(src string) (f *syntax.File, err error) {
	f, _, err = parseShellZsh(src)
	return f, err
}

// parseShellZsh parses as bash, then as zsh; zsh says the second parse was
// the one that took (words then hold zsh's glob syntax, see zshGlob).
func parseShellZsh(src string) (f *syntax.File, zsh bool, err error) {
	if f, err = parseBash(src); err == nil {
		return f, false, nil
	}
	if fz, errz := parseVariant(src, syntax.LangZsh); errz == nil {
		return fz, true, nil
	}
	return nil, false, err
}

// parseBash parses src as bash only: the reading of a string a program
// hands to /bin/sh (os.system, execSync, system), which zsh never runs.
func parseBash(src string) (*syntax.File, error) { return parseVariant(src, syntax.LangBash) }

// parseVariant parses src in one shell language; a compound command with an
// empty list is a parse error (see emptyList), a parser panic an error.
func parseVariant(src string, lang syntax.LangVariant) (f *syntax.File, err error) {
	defer func() { // the parser must never take the process down
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("parser panic: %v", r)
		}
	}()
	f, err = syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, err
	}
	if eerr := emptyList(f); eerr != nil {
		return nil, eerr
	}
	return f, nil
}

// emptyList finds a compound command with an empty command list, which
// mvdan.cc/sh accepts but bash rejects as a syntax error (`if then fi`,
// `while do done`, `for x in a; do done`, `{ }`, `( )`): the command would
// not run as parsed, so it is reported as not parsing.
func emptyList(f *syntax.File) error {
	var err error
	empty := func(stmts []*syntax.Stmt, pos syntax.Pos, what string) bool {
		if len(stmts) == 0 && err == nil {
			err = fmt.Errorf("%s: %s is empty (bash rejects it: syntax error)", pos, what)
		}
		return err == nil
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.IfClause:
			if n.ThenPos.IsValid() { // if or elif
				empty(n.Cond, n.Position, "the condition of if")
				empty(n.Then, n.ThenPos, "the list after then")
			} else {
				empty(n.Then, n.Position, "the list after else")
			}
		case *syntax.WhileClause:
			empty(n.Cond, n.WhilePos, "the condition of while")
			empty(n.Do, n.DoPos, "the list after do")
		case *syntax.ForClause:
			empty(n.Do, n.DoPos, "the list after do")
		case *syntax.Block:
			empty(n.Stmts, n.Lbrace, "the { } group")
		case *syntax.Subshell:
			empty(n.Stmts, n.Lparen, "the ( ) subshell")
		}
		return err == nil
	})
	return err
}

// unknown records an unknown use.
func (a *shellAnalyzer) unknown(raw, why string, ops OpSet) {
	if len(a.out.unknowns) < 256 {
		a.out.unknowns = append(a.out.unknowns, unknownUse{raw: raw, why: why, ops: ops})
	}
}

// file walks a parsed script: first in order (cd, variables, ops), then every
// word not yet seen (test clauses, arithmetic, case patterns).
func (a *shellAnalyzer) file(f *syntax.File, src string, in source) {
	prev := a.src
	a.src = src
	a.stmts(f.Stmts, in)
	syntax.Walk(f, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok && !a.seen[w] {
			a.word(w, SetRead)
		}
		return !a.full
	})
	a.src = prev
}

// script parses and walks a nested script (`bash -c`, eval, here-doc). A
// payload that does not parse is split into tokens, each a path, and is
// unverifiable.
func (a *shellAnalyzer) script(src string, raw string, in source) {
	if a.full {
		return
	}
	if a.depth >= maxScriptDepth {
		a.unknown(raw, "scripts nested too deeply to analyse", SetRead|setModify)
		return
	}
	if len(src) > maxScriptBytes {
		a.unknown(raw, "script too large to analyse", SetRead|setModify)
		return
	}
	if strings.ContainsRune(src, unknownRune) {
		a.unknown(raw, "the script is computed when the command runs", SetRead|setModify)
		src = strings.ReplaceAll(src, unknownStr, " ")
	}
	a.depth++
	defer func() { a.depth-- }()
	f, zsh, err := parseShellZsh(src)
	if err != nil {
		a.unknown(raw, "a nested script does not parse", SetRead|setModify)
		a.tokens(src, SetRead)
		return
	}
	prevZsh := a.zsh
	a.zsh = zsh
	defer func() { a.zsh = prevZsh }()
	if extGlobIn(src) {
		a.extGlob = true
	}
	if dotglobIn(src) {
		a.dotglob = true
	}
	if cdableIn(src) {
		a.cdable = true
	}
	if optionIn(src, "autocd") {
		a.noNarrow = true
	}
	a.file(f, src, in)
}

// tokens checks each whitespace-separated token of text (quotes trimmed).
func (a *shellAnalyzer) tokens(text string, ops OpSet) {
	// NUL separates names as blanks do (printf '.env\0' | sort
	// --files0-from=-, tar --null -T -, git --pathspec-file-nul)
	for tok := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == 0 || unicode.IsSpace(r) }) {
		tok = strings.Trim(tok, `"'`+"`;|&()<>")
		if tok != "" && !strings.ContainsRune(tok, unknownRune) {
			a.value(tok, a.tildeToken(tok), ops)
			a.textTokens(tok, tok, ops) // ![](.env), include::.env[]
		}
	}
}

// tildeToken is a token of text a program reads (a here-string, a line of
// names, an unmodelled program's code): `~/x` is the home's x to the many
// that expand it (dhall, nix, ssh_config, editors), as it is to the shell.
func (a *shellAnalyzer) tildeToken(tok string) field {
	if a.home() != "" && (tok == "~" || strings.HasPrefix(tok, "~/")) {
		return litField(a.home() + tok[1:])
	}
	return litField(tok)
}

// textTokens checks the names inside a word that reads as text or code
// rather than as a name (it holds a blank, a quote or a bracket), given to
// a program the analysis does not model: `jsonnet -e 'importstr ".env"'`,
// `gomplate -i '{{ file.Read ".env" }}'`, `pdflatex '\input{.env}'` open
// the name inside. Each run between blanks, quotes, brackets, braces,
// commas and `;|&` is checked as a path.
func (a *shellAnalyzer) textTokens(raw, text string, ops OpSet) {
	if !strings.ContainsAny(text, " \t\n\"'`(){}[]<>,;") {
		return
	}
	for tok := range strings.FieldsFuncSeq(text, func(r rune) bool {
		return r == 0 || unicode.IsSpace(r) || strings.ContainsRune("\"'`(){}[]<>,;|&", r)
	}) {
		tok = strings.TrimRight(tok, ".:")
		if tok != "" && tok != raw && !strings.ContainsRune(tok, unknownRune) {
			a.value(raw, a.tildeToken(tok), ops)
		}
	}
}

func (a *shellAnalyzer) stmts(list []*syntax.Stmt, in source) source {
	out := source{}
	for i, s := range list {
		o := a.stmt(s, in)
		if i == 0 {
			out = o
		} else {
			out = catSources(out, o)
		}
	}
	return out
}

// catSources is the output of two commands run one after the other: the
// texts joined when both are known, else unknown (a command known to
// print nothing adds nothing).
func catSources(x, y source) source {
	switch {
	case x.kind == srcNone && x.text == "":
		return y
	case y.kind == srcNone && y.text == "":
		return x
	case x.kind == srcText && y.kind == srcText:
		return source{kind: srcText, text: x.text + y.text, why: x.why + y.why}
	}
	return dynSource("a command list")
}

// stmt walks one statement with stdin in and returns what it writes to
// stdout.
func (a *shellAnalyzer) stmt(s *syntax.Stmt, in source) source {
	if s == nil || a.full {
		return source{}
	}
	a.reevalStmt(s) // values bash evaluates again (arithmetic, names)
	// redirections first: they set stdin and say where stdout goes
	before := len(a.out.targets)
	if in.kind == srcNone && in.text == "" && a.shellIn != nil {
		in = *a.shellIn // `exec < …` gave the shell another stdin
	}
	prevStart, prevIn := a.stmtStart, a.stmtIn
	a.stmtStart = before
	// a $(…) in the statement reads the shell's stdin, not the
	// statement's redirections (bash expands words first)
	a.stmtIn = in
	defer func() { a.stmtStart, a.stmtIn = prevStart, prevIn }()
	var outFiles []target
	for _, r := range s.Redirs {
		if a.fdRedirect(r, &outFiles) {
			continue
		}
		in = a.redirect(r, in, &outFiles)
		if isBareExec(s) && isInput(r) {
			// the rest of the shell reads this stdin
			stdin := in
			if stdin.kind == srcNone && stdin.text == "" {
				stdin = source{kind: srcText}
			}
			a.shellIn = &stdin
		}
	}
	if s.Background {
		a.later(s, "", "", in)
	}
	var out source
	if _, simple := s.Cmd.(*syntax.CallExpr); !simple && in.kind == srcText && in.rd == nil {
		in.rd = &readState{} // the commands inside read one stream in turn
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		out = a.call(c, in)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			a.later(c.X, "", "", in)
			// each command of a pipeline runs in a subshell (the last one
			// in zsh, or bash with lastpipe, does not)
			var mid source
			a.subshell(func() { mid = a.stmt(c.X, in) })
			a.maybeSubshell(func() { out = a.stmt(c.Y, mid) })
		default:
			// `x && y`, `x || y`: y may not run; after the list, what the
			// ways it succeeds and fails agree on
			succ, fail, _ := a.andOr(c, in)
			a.mergeScopes(succ, fail)
			out = dynSource("a command list")
		}
	case *syntax.Subshell:
		// a `cd` inside adds candidates: the union over-approximates;
		// variables it sets are gone after
		a.subshell(func() { out = a.stmts(c.Stmts, in) })
	case *syntax.Block:
		out = a.stmts(c.Stmts, in)
	case *syntax.IfClause:
		// each branch starts from the state its condition left; after the
		// clause a variable the branches leave differently is unknown
		var outcomes []scope
		last := true
		for ic := c; ic != nil; ic = ic.Else {
			if !ic.ThenPos.IsValid() { // else
				a.stmts(ic.Then, in)
				outcomes = append(outcomes, a.saveScope())
				last = false
				break
			}
			a.stmts(ic.Cond, in)
			pre := a.saveScope()
			a.stmts(ic.Then, in)
			outcomes = append(outcomes, a.saveScope())
			a.restoreScope(pre)
		}
		if last {
			outcomes = append(outcomes, a.saveScope()) // no branch taken
		}
		a.mergeScopes(outcomes...)
		out = dynSource("an if clause")
	case *syntax.WhileClause:
		pre := a.saveScope()
		if a.readLoop(c, in) {
			a.mergeScopes(pre, a.saveScope())
			out = dynSource("a loop")
			break
		}
		a.stmts(c.Cond, in)
		a.stmts(c.Do, in)
		a.stmts(c.Cond, in) // a second pass sees variables set in the body
		a.stmts(c.Do, in)
		a.mergeScopes(pre, a.saveScope()) // the body may run any number of times
		out = dynSource("a loop")
	case *syntax.ForClause:
		pre := a.saveScope()
		a.forClause(c, in)
		a.mergeScopes(pre, a.saveScope())
		out = dynSource("a loop")
	case *syntax.CaseClause:
		a.word(c.Word, SetRead)
		pre := a.saveScope()
		outcomes := []scope{pre} // no pattern matches
		for i, it := range c.Items {
			if i == 0 || c.Items[i-1].Op == syntax.Break {
				a.restoreScope(pre)
			}
			a.stmts(it.Stmts, in) // after ;& and ;;& it goes on from the state before
			outcomes = append(outcomes, a.saveScope())
		}
		a.mergeScopes(outcomes...)
		out = dynSource("a case clause")
	case *syntax.FuncDecl:
		if c.Name != nil {
			a.funcs[c.Name.Value] = true
			// every definition the walk meets may be the one a call runs
			// (one in an if, a redefinition): a call walks them all
			if defs := a.funcDefs[c.Name.Value]; len(defs) < maxFuncDefs {
				a.funcDefs[c.Name.Value] = append(defs, funcDef{body: c.Body, src: a.src})
			}
		}
		a.declWalk(c.Body, in)
	case *syntax.DeclClause:
		a.declClause(c)
	case *syntax.TimeClause:
		out = a.stmt(c.Stmt, in)
	case *syntax.CoprocClause:
		// a coprocess reads what later commands write to ${COPROC[1]}
		a.stmt(c.Stmt, dynSource("a coprocess's input"))
	case *syntax.TestClause:
		a.testExpr(c.X) // [[ -f .env ]]: metadata; other words below
	case *syntax.LetClause, *syntax.ArithmCmd, *syntax.TestDecl:
		// words inside are checked by the walk in file()
	}
	for _, t := range outFiles {
		p := t.path
		if p == "" || t.pattern {
			continue
		}
		o := out
		switch {
		case t.raw == "fd" || isBareExec(s):
			// written through another descriptor, or by every later
			// command (`exec > x.sh`): not this command's output
			o = dynSource("a file written through a redirection the analysis cannot follow")
		case t.raw == ">>":
			o = a.appended(p, out, before)
		}
		a.wrote(p, o)
	}
	return out
}

func (a *shellAnalyzer) forClause(c *syntax.ForClause, in source) {
	if wi, ok := c.Loop.(*syntax.WordIter); ok {
		var vals []field
		for _, w := range wi.Items {
			vals = append(vals, a.word(w, SetRead)...)
		}
		if wi.Name != nil {
			name := wi.Name.Value
			switch {
			case len(wi.Items) == 0 && !wi.InPos.IsValid() && a.posKnown && !a.posTail && len(a.pos) <= maxLoopValues:
				// `for x; do`: over "$@"
				for _, v := range a.pos {
					a.vars[name] = fieldVal(v)
					a.stmts(c.Do, in)
				}
				return
			case len(wi.Items) == 0 && !wi.InPos.IsValid():
				a.vars[name] = pval{f: field{dyn: true, posOnly: a.posDecl, why: "$" + name, s: "/" + unknownSeg + "/" + unknownStr, onlyUnk: true}}
			case len(vals) == 0:
				a.vars[name] = knownVal("")
			case len(vals) == 1:
				a.vars[name] = fieldVal(vals[0])
			case len(vals) <= maxLoopValues:
				// each value is seen in the body: walk the body once per value
				for _, v := range vals {
					a.vars[name] = fieldVal(v)
					a.stmts(c.Do, in)
				}
				return
			default:
				a.vars[name] = dynVal("$"+name+" (a loop variable)", false)
			}
		}
	}
	a.loopNest++
	defer func() { a.loopNest-- }()
	a.stmts(c.Do, in)
	if a.loopNest <= maxLoopPasses {
		a.stmts(c.Do, in) // a second pass sees what the first iteration wrote
	} else if a.anyWrite() {
		a.unknown("for", "loops nested too deeply to analyse a second pass", SetRead|setModify)
	}
}

// fieldVal turns a resolved field into a variable's value.
func fieldVal(f field) pval {
	if !f.pattern() {
		return knownVal(f.s)
	}
	return pval{f: f, split: f.splits}
}

func (a *shellAnalyzer) declClause(c *syntax.DeclClause) {
	nameref := false
	for _, as := range c.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			if t := as.Value.Lit(); strings.HasPrefix(t, "-") && strings.Contains(t, "n") {
				nameref = true // declare -n r=x: $r is whatever x is when it is read
			}
		}
	}
	variant := ""
	if c.Variant != nil {
		variant = c.Variant.Value
	}
	global, export := false, variant == "export"
	for _, as := range c.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			if t := as.Value.Lit(); strings.HasPrefix(t, "-") {
				global = global || strings.Contains(t, "g")
				export = export || strings.Contains(t, "x")
			}
		}
	}
	for _, as := range c.Args {
		if as.Name != nil {
			if variant == "local" || (variant == "declare" || variant == "typeset") && !global {
				a.noteLocal(as.Name.Value)
			}
			if export {
				a.exported[as.Name.Value] = true
			}
		}
		if nameref && as.Name != nil {
			if as.Value == nil || as.Value.Lit() == "" || as.Value.Lit() == "HOME" {
				a.homeChanged() // a reference to HOME (or a computed name, or none yet): assigning it sets HOME
			}
			a.assign(as, true)
			a.vars[as.Name.Value] = dynVal("$"+as.Name.Value+" (a name reference)", true)
			continue
		}
		if as.Naked && as.Name == nil && as.Value != nil {
			// `export "$x"`, `declare $opts`: a word, not an assignment
			// (or one whose name is computed: any variable may change)
			for _, f := range a.word(as.Value, SetRead) {
				if f.pattern() && (f.unk || f.dyn) {
					a.anyVarChanged(variant + " of a word computed when the command runs")
				}
			}
			continue
		}
		a.assign(as, true)
	}
}

func (a *shellAnalyzer) cwd() string { return a.cwds[len(a.cwds)-1] }

// redirect handles one redirection and returns the command's stdin.
func (a *shellAnalyzer) redirect(r *syntax.Redirect, in source, outFiles *[]target) source {
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Word != nil {
			a.seen[r.Word] = true // the delimiter
		}
		if r.Hdoc == nil {
			return source{kind: srcText}
		}
		a.seen[r.Hdoc] = true
		a.walkSubst(r.Hdoc)
		body := a.hdocText(r.Hdoc, hdocQuoted(r.Word))
		a.tokens(body, SetRead)
		if strings.ContainsRune(body, unknownRune) {
			return source{kind: srcText, text: body, why: "a here-document with expansions"}
		}
		return source{kind: srcText, text: body}
	case syntax.WordHdoc:
		if r.Word == nil {
			return in
		}
		fs := a.word(r.Word, SetRead)
		var parts []string
		for _, f := range fs {
			t := f.text()
			if f.pattern() {
				t = strings.ReplaceAll(unescapeGlob(f.s), "/"+unknownSeg+"/", "")
			}
			parts = append(parts, t)
			a.tokens(t, SetRead)
		}
		return source{kind: srcText, text: strings.Join(parts, " ") + "\n"}
	case syntax.DplIn, syntax.DplOut:
		if r.Word == nil {
			return in
		}
		v := a.resolve(r.Word, true)
		if len(v) == 1 && !v[0].pattern() {
			s := v[0].s
			if _, err := strconv.Atoi(s); err == nil || s == "-" || strings.HasSuffix(s, "-") {
				a.seen[r.Word] = true
				if n := strings.TrimSuffix(s, "-"); r.Op == syntax.DplIn && (r.N == nil || r.N.Value == "0") && n != "0" && n != "" {
					// <&3: stdin is what descriptor 3 was given
					if src, ok := a.fds[n]; ok {
						return src
					}
					return dynSource("file descriptor " + n)
				}
				return in
			}
		}
		fs := a.word(r.Word, setModify)
		a.unknownRedirect(r.Word, fs, setModify)
		return in
	case syntax.RdrIn:
		if r.Word == nil {
			return in
		}
		fs := a.word(r.Word, SetRead)
		a.unknownRedirect(r.Word, fs, SetRead)
		if s, ok := a.procSubstOutput(a.text(r.Word)); ok {
			return s // `< <(echo …)`: what the commands print
		}
		if len(fs) == 1 && !fs[0].pattern() {
			if fs[0].s == "/dev/null" {
				return source{}
			}
			n, _ := a.norm(fs[0].s, false)
			return source{kind: srcFile, file: n}
		}
		return dynSource("a file named at run time")
	case syntax.RdrInOut:
		if r.Word != nil {
			fs := a.word(r.Word, SetRead|setModify)
			a.unknownRedirect(r.Word, fs, SetRead|setModify)
		}
		return dynSource("a file")
	default: // >, >>, >|, &>, &>>
		if r.Word != nil {
			fs := a.word(r.Word, setModify)
			a.unknownRedirect(r.Word, fs, setModify)
			for _, f := range fs {
				if !f.pattern() {
					n, _ := a.norm(f.s, false)
					// raw: how the file is written (see stmt)
					how := ">"
					switch {
					case r.N != nil && r.N.Value != "1" || r.Op == syntax.RdrAll || r.Op == syntax.AppAll:
						how = "fd" // another descriptor (2>, 3>, &>): not what the command prints
					case r.Op == syntax.AppOut:
						how = ">>"
					}
					*outFiles = append(*outFiles, target{path: n, raw: how})
				}
			}
		}
		return in
	}
}

// unknownRedirect reports a redirection to a file named only when the
// command runs (`> "$F"`, `< $(cat x)`).
func (a *shellAnalyzer) unknownRedirect(w *syntax.Word, fs []field, ops OpSet) {
	for _, f := range fs {
		if f.onlyUnk && !f.posOnly {
			a.unknown(a.text(w), unknownWhy(f)+" and the shell opens it for a redirection", ops)
		}
	}
}

// hdocQuoted reports whether a here-document's delimiter is quoted (any
// quote or backslash in it): then the body is taken as it is written.
func hdocQuoted(delim *syntax.Word) bool {
	if delim == nil {
		return false
	}
	for _, p := range delim.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if strings.ContainsRune(x.Value, '\\') {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// hdocText is the text of a here-document body with its expansions done
// (unknown values stay as unknown markers). In the body of an unquoted one
// the shell removes the backslash before `\`, `$` and a backquote (the
// parser has already joined lines ending in a backslash): the program reads
// `\x6e` written as `\\x6e`.
func (a *shellAnalyzer) hdocText(w *syntax.Word, quoted bool) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if quoted || !strings.ContainsRune(x.Value, '\\') {
				b.WriteString(x.Value)
				continue
			}
			v := x.Value
			for i := 0; i < len(v); i++ {
				if v[i] == '\\' && i+1 < len(v) && (v[i+1] == '\\' || v[i+1] == '$' || v[i+1] == '`') {
					i++
				}
				b.WriteByte(v[i])
			}
		default:
			one := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{p}}}}
			fs := a.resolve(one, true)
			for _, f := range fs {
				if f.pattern() {
					b.WriteString(unknownStr)
				} else {
					b.WriteString(f.s)
				}
			}
		}
	}
	return b.String()
}

// walkSubst walks command substitutions inside a word without checking the
// word itself.
func (a *shellAnalyzer) walkSubst(w *syntax.Word) {
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			a.subshell(func() { a.stmts(x.Stmts, source{}) })
			return false
		case *syntax.ProcSubst:
			in := source{}
			if x.Op == syntax.CmdOut {
				// >(cmd): cmd reads what the command writes to it
				in = dynSource("what the command writes to " + a.text(w))
			}
			a.subshell(func() { a.stmts(x.Stmts, in) })
			return false
		}
		return true
	})
}

func (a *shellAnalyzer) assign(as *syntax.Assign, persist bool) {
	if as == nil {
		return
	}
	name := ""
	if as.Name != nil {
		name = as.Name.Value
	}
	a.commandTable(name, name)
	if as.Value != nil {
		a.seen[as.Value] = true
		vals := a.resolve(as.Value, true)
		for _, v := range vals {
			a.value(a.text(as.Value), v, SetRead)
		}
		a.walkSubst(as.Value)
		if name != "" {
			a.envCommand(name, vals, a.text(as.Value))
			a.gitEnv(name, vals, a.text(as.Value))
			a.rcEnv(name)
		}
		if name != "" && persist {
			switch {
			case as.Index != nil:
				delete(a.vars, name)
				a.arrays[name] = nil
				delete(a.arrays, name)
			case len(vals) == 1 && !as.Append:
				v := fieldVal(vals[0])
				v.num = numericWord(as.Value, a.src)
				a.vars[name] = v
			case len(vals) == 1 && as.Append:
				if old, ok := a.vars[name]; ok && old.known && !vals[0].pattern() {
					a.vars[name] = knownVal(old.f.s + vals[0].s)
				} else {
					a.vars[name] = dynVal("$"+name, false)
				}
			case len(vals) > 1 && len(vals) <= maxPWDAlts && !as.Append:
				// one of several values (x=$PWD or x=$(pwd) after a cd):
				// $x is each of them
				v := dynVal("$"+name, false)
				for _, f := range vals {
					v.alts = append(v.alts, fieldVal(f))
				}
				a.vars[name] = v
			default:
				a.vars[name] = dynVal("$"+name, false)
			}
			a.special(name)
		}
	}
	if as.Value == nil && as.Array == nil && !as.Naked && name != "" && persist {
		// `x=` assigns the empty string (as `x=""` does)
		switch {
		case as.Index != nil:
			delete(a.vars, name)
			delete(a.arrays, name)
		case !as.Append:
			delete(a.arrays, name)
			a.vars[name] = knownVal("")
			a.special(name)
		}
	}
	if as.Array != nil {
		var elems []pval
		indexed := false
		for _, el := range as.Array.Elems {
			if el.Index != nil {
				indexed = true // [i]=v, an associative array: not modelled
			}
			if el.Value != nil {
				for _, f := range a.word(el.Value, SetRead) {
					v := fieldVal(f)
					v.f.multi = f.multi // positions after it unknown (arrayElem)
					elems = append(elems, v)
				}
			}
		}
		if name != "" && persist {
			delete(a.vars, name)
			switch {
			case indexed:
				delete(a.arrays, name)
				a.vars[name] = dynVal("$"+name+" (an array with computed positions)", true)
			default:
				if as.Append {
					elems = append(a.arrays[name], elems...)
				}
				a.arrays[name] = elems
			}
		}
	}
}

// envCommand checks the value of an environment variable a program runs
// as a command line (GIT_EXTERNAL_DIFF, GIT_EDITOR, EDITOR, PAGER,
// GIT_SSH_COMMAND, LESSOPEN, …), expands (PS4's `$(…)` under `set -x`),
// or reads as configuration that can run one (GIT_CONFIG_VALUE_n,
// GIT_CONFIG_PARAMETERS), as a prefix (`VAR=… cmd`) or an assignment.
func (a *shellAnalyzer) envCommand(name string, vals []field, raw string) {
	if name == "SHELL" {
		a.shellVar(vals, raw, "$SHELL")
		return
	}
	if strings.EqualFold(name, "npm_config_script_shell") {
		a.shellVar(vals, raw, "$"+name)
		return
	}
	if strings.HasPrefix(name, "CARGO_TARGET_") && (strings.HasSuffix(name, "_RUNNER") || strings.HasSuffix(name, "_LINKER")) ||
		name == "RUSTC_WRAPPER" || name == "RUSTC_WORKSPACE_WRAPPER" || name == "CARGO_BUILD_RUSTC_WRAPPER" ||
		name == "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER" {
		// a program cargo runs, its words split at blanks
		// (CARGO_TARGET_…_RUNNER='sh -c cat${IFS}.e""nv --' cargo run)
		for _, v := range vals {
			if v.pattern() {
				a.unknown(raw, "$"+name+" is a command line computed when the command runs", SetRead|setModify)
				continue
			}
			a.script(argvLine(strings.Fields(v.s)), raw, source{})
		}
		return
	}
	if name == "GOFLAGS" {
		// go's flags, split at blanks: -exec=CMD and -toolexec=CMD run CMD
		for _, v := range vals {
			if v.pattern() {
				a.unknown(raw, "$GOFLAGS is computed when the command runs (-exec and -toolexec run commands)", SetRead|setModify)
				continue
			}
			for _, fl := range strings.Fields(v.s) {
				if n, val, ok := strings.Cut(strings.TrimLeft(fl, "-"), "="); ok && (n == "exec" || n == "toolexec") {
					a.script(argvLine([]string{val}), raw, source{})
				}
			}
		}
		return
	}
	kind := envCommandKind(name)
	if kind == 0 {
		return
	}
	if name == "RIPGREP_CONFIG_PATH" {
		a.rgConfig = true // rg reads its flags from the file (--hidden, --no-ignore)
		return
	}
	for _, v := range vals {
		if v.pattern() {
			a.unknown(raw, "$"+name+" is a command line computed when the command runs", SetRead|setModify)
			continue
		}
		text := v.s
		switch kind {
		case envPrompt:
			text = ": " + text
		case envLessOpen:
			text = strings.ReplaceAll(strings.TrimLeft(strings.TrimLeft(text, "|"), "-"), "%s", "x")
		case envLessOpts:
			text = strings.NewReplacer("+", " ", "!", " ").Replace(text)
		case envPerlOpt:
			a.codeText(strings.NewReplacer("-M", " ", "-m", " ").Replace(text), raw, "perl")
			continue
		case envEx:
			a.codeText(text, raw, "vim")
			continue
		case envPerlCode:
			a.codeText(text, raw, "perl")
			continue
		case envGitKey:
			if base, ok := extInsteadOf(text); ok {
				a.script(strings.ReplaceAll(strings.TrimPrefix(base, "ext::"), "% ", " "), raw, source{})
			}
			continue
		case envOptions:
			if strings.TrimSpace(text) != "" {
				a.unknown(raw, "$"+name+" gives a program options the analysis does not read (they may run commands)", SetRead|setModify)
			}
			continue
		case envGitParams:
			// 'key'='value' pairs: each value may be a command (`!cmd` for an alias)
			for _, part := range strings.Split(text, "'") {
				if p := strings.TrimPrefix(strings.TrimSpace(part), "!"); p != "" && p != "=" {
					a.script(p, raw, source{})
				}
			}
			continue
		}
		a.script(strings.TrimPrefix(text, "!"), raw, source{})
	}
}

// envWord handles a NAME=VALUE word a wrapper passes as an environment
// variable (`env GIT_EDITOR=… git commit`, `sudo PAGER=… man x`): its
// value is checked as envCommand and the git ones do; false when the word
// is not an assignment.
func (a *shellAnalyzer) envWord(raw string, f field) bool {
	// the name from the literal lead: a value computed when it runs
	// (`env GIT_EDITOR=$X git commit`) leaves a dynamic field whose text
	// no longer holds the name
	t := optText(f)
	name, _, ok := strings.Cut(t, "=")
	if !ok || !isVarName(name) {
		return false
	}
	v := subField(f, len(name)+1)
	a.envCommand(name, []field{v}, raw)
	a.gitEnv(name, []field{v}, raw)
	a.rcEnv(name)
	return true
}

// rcEnv notes a variable that moves the start-up files programs read by
// themselves (HOME, XDG_CONFIG_HOME, ZDOTDIR, …): one the command wrote may
// then be read under another name (see loadsWrittenRC).
func (a *shellAnalyzer) rcEnv(name string) {
	if name == "HOME" {
		a.homeChanged()
	}
	switch name {
	case "HOME", "XDG_CONFIG_HOME", "ZDOTDIR", "CURL_HOME", "WGETRC", "INPUTRC", "SCREENRC", "LESSKEY",
		"LESSKEYIN", "LESSKEY_CONTENT", "VIMRUNTIME", "XDG_CONFIG_DIRS", "GDBHISTFILE", "TMUX_CONF":
		a.rcMoved = true
	}
}

// gitEnv notes the variables that point git at another work tree,
// repository or configuration; a configuration file written earlier in
// the command is read (its aliases, pagers, editors run commands).
func (a *shellAnalyzer) gitEnv(name string, vals []field, raw string) {
	switch name {
	case "BASH_ENV", "ENV", "PYTHONSTARTUP", "NODE_REPL_EXTERNAL_MODULE", "PYTHONPATH", "NODE_OPTIONS", "LD_PRELOAD", "LD_AUDIT":
		// code a program loads before its words run (loaders37.go)
		a.loaderEnv(name, vals, raw)
	case "GIT_EXEC_PATH", "PATH":
		// programs found there: one the command wrote may run by name
		for _, w := range a.writtenPaths() {
			a.runWritten(raw, a.written[w])
		}
	case "GIT_WORK_TREE", "GIT_DIR", "GIT_INDEX_FILE", "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM":
		a.ignoresMayChange = true
		a.gitElsewhere = true
		if name == "GIT_WORK_TREE" {
			a.gitWorkTrees = append(a.gitWorkTrees, vals...)
		} else {
			// git writes there: its repository (init creates it; add,
			// commit, status write the index), the index file, the
			// configuration (`git config --global` writes
			// $GIT_CONFIG_GLOBAL)
			// (what git writes is no text a later command runs as a
			// script: metadata, as a link's or chmod's)
			meta := a.noContent
			a.noContent = true
			for _, v := range vals {
				if v.pattern() && v.why != "mktemp" && v.s != "" {
					a.unknown(raw, "$"+name+" is computed when the command runs, and git writes there", setModify)
					continue
				}
				a.value(raw, v, setModify)
			}
			a.noContent = meta
		}
		if strings.HasPrefix(name, "GIT_CONFIG") {
			for _, v := range vals {
				a.gitConfigSource(raw, v, "$"+name)
			}
		}
	case "GIT_CONFIG_PARAMETERS":
		// 'include.path'='FILE' pairs: FILE is read as configuration
		for _, v := range vals {
			if v.pattern() || !strings.Contains(strings.ToLower(v.s), "include") {
				continue
			}
			for _, part := range strings.Split(v.s, "'") {
				if p := strings.TrimSpace(part); p != "=" && !strings.Contains(strings.ToLower(p), "include") && gitConfigPathLike(p) {
					a.gitConfigSource(raw, litField(p), "$"+name)
				}
			}
		}
	default:
		if strings.HasPrefix(name, "GIT_CONFIG_VALUE_") {
			// the value of a key given in the environment: an
			// include.path's file is read as configuration (pass 33)
			for _, v := range vals {
				if v.pattern() || gitConfigPathLike(v.s) {
					a.gitConfigSource(raw, v, "$"+name)
					// and a core.worktree's folder is the work tree
					// git writes (the key, GIT_CONFIG_KEY_n, is not
					// paired with it: any path-like value may be one)
					a.gitWorkTrees = append(a.gitWorkTrees, v)
					a.gitElsewhere, a.ignoresMayChange = true, true
				}
			}
		}
	}
}

// deferredRun is a statement (or a script's text) that runs later than
// where it stands, with the working directories and variables it saw.
type deferredRun struct {
	stmt      *syntax.Stmt
	text, raw string
	src       string
	cwds      []string
	vars      map[string]pval
	in        source
}

// later notes a statement (or script text) to read again at the end.
func (a *shellAnalyzer) later(s *syntax.Stmt, text, raw string, in source) {
	if a.finishing || len(a.deferred) >= 64 || a.substDepth > 0 {
		return
	}
	a.deferred = append(a.deferred, deferredRun{stmt: s, text: text, raw: raw, src: a.src,
		cwds: append([]string(nil), a.cwds...), vars: copyMap(a.vars), in: in})
}

// runDeferred reads the deferred statements again, after everything the
// command wrote.
func (a *shellAnalyzer) runDeferred() {
	if len(a.written) == 0 && !a.anyWrite() {
		return // nothing written: the first reading saw the same files
	}
	a.finishing = true
	for _, d := range a.deferred {
		if a.full {
			break
		}
		cwds, vars, src := a.cwds, a.vars, a.src
		a.cwds, a.vars, a.src = d.cwds, copyMap(d.vars), d.src
		if d.stmt != nil {
			a.stmt(d.stmt, d.in)
		} else {
			a.script(d.text, d.raw, d.in)
		}
		a.cwds, a.vars, a.src = cwds, vars, src
	}
}

// anyWrite reports whether the command writes a file's content.
func (a *shellAnalyzer) anyWrite() bool {
	for i := range a.out.targets {
		if t := &a.out.targets[i]; t.ops.Has(OpWrite) && !t.meta {
			return true
		}
	}
	return false
}

// isInput reports whether r redirects stdin.
func isInput(r *syntax.Redirect) bool {
	if r.N != nil && r.N.Value != "0" {
		return false
	}
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.RdrInOut:
		return true
	}
	return false
}

// isBareExec reports whether s is `exec` with redirections only, which
// apply to the rest of the shell.
func isBareExec(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(c.Args) == 1 && c.Args[0].Lit() == "exec"
}

// appended is what a file holds after out is appended to it: the text
// written earlier in the command and out when both are known; a file the
// disk holds keeps its content, which is not followed (a script on disk).
func (a *shellAnalyzer) appended(p string, out source, before int) source {
	prev, ok := a.writtenBefore(p, false, before)
	if !ok {
		return out
	}
	return catSources(prev, out)
}

// wrote records the text the command wrote to the file p.
func (a *shellAnalyzer) wrote(p string, s source) {
	s.at = len(a.out.targets)
	a.written[p] = s
}

// writtenScripts reads, as scripts, the files the command wrote that a
// program it runs may execute: one at path p (relative to a candidate cwd)
// or below it (a hooks folder).
func (a *shellAnalyzer) writtenScripts(raw, p string) {
	if p == "" || len(a.written) == 0 {
		return
	}
	for _, w := range a.writtenPaths() {
		s := a.written[w]
		base := w[strings.LastIndexByte(w, '/')+1:]
		if !(base == p || strings.HasSuffix(w, "/"+strings.TrimPrefix(p, "./")) || strings.Contains(w, "/"+strings.Trim(strings.TrimPrefix(p, "./"), "/")+"/")) {
			continue
		}
		a.runWritten(raw, s)
	}
}

// writtenHooks reads, as scripts, files the command wrote into a folder
// named hooks (core.hooksPath, a template's hooks): git runs them.
func (a *shellAnalyzer) writtenHooks(raw string) {
	for _, w := range a.writtenPaths() {
		inHooks := strings.Contains(w, "/hooks/")
		for _, hp := range a.hooksPaths {
			inHooks = inHooks || strings.HasPrefix(w, strings.TrimSuffix(hp, "/")+"/")
		}
		if inHooks {
			a.runWritten(raw, a.written[w])
		}
	}
}

// writtenPaths lists the files the command wrote, sorted (stable reasons).
func (a *shellAnalyzer) writtenPaths() []string {
	ps := make([]string, 0, len(a.written))
	for w := range a.written {
		ps = append(ps, w)
	}
	sort.Strings(ps)
	return ps
}

// runWritten reads a file the command wrote as the script it is.
func (a *shellAnalyzer) runWritten(raw string, s source) {
	switch {
	case s.kind == srcText && !strings.ContainsRune(s.text, unknownRune):
		a.script(s.text, raw, source{})
	case s.kind == srcText:
		a.script(strings.ReplaceAll(s.text, unknownStr, " "), raw, source{})
		a.unknown(raw, "a program runs a file the command writes with text computed when it runs", SetRead|setModify)
	default:
		a.unknown(raw, "a program runs a file the command writes, whose text the analysis cannot see", SetRead|setModify)
	}
}

// writtenConfig reads a git configuration file the command wrote before
// git uses it (GIT_CONFIG_GLOBAL=…, -c include.path=…): every value may be
// a command (an alias `!cmd`, a pager, an editor), so its text is read as
// words and commands.
func (a *shellAnalyzer) writtenConfig(raw string, f field) {
	s, ok := a.writtenFile(f)
	if !ok {
		return
	}
	if s.kind != srcText || strings.ContainsRune(s.text, unknownRune) {
		a.unknown(raw, "git reads a configuration the command writes with text computed when it runs", SetRead|setModify)
		return
	}
	for line := range strings.SplitSeq(s.text, "\n") {
		if _, val, ok := strings.Cut(line, "="); ok {
			a.looseScript(strings.TrimPrefix(strings.TrimSpace(val), "!"), raw)
		}
		a.tokens(line, SetRead)
	}
}

// What an environment variable's value is, for envCommand.
const (
	envCmd       = 1 + iota // a command line
	envPrompt               // a prompt string, expanded
	envLessOpen             // less's input preprocessor: `|cmd %s`
	envGitParams            // GIT_CONFIG_PARAMETERS
	envFile                 // a configuration file with flags
	envLessOpts             // less's options: `+!cmd` runs a command
	envPerlOpt              // perl's -M/-m switches: code
	envEx                   // Ex commands vim runs at start-up (VIMINIT, EXINIT)
	envPerlCode             // perl code (PERL5DB, run under -d)
	envOptions              // a program's options (TAR_OPTIONS, ZIPOPT): not read
	envGitKey               // a git config key (url.ext::CMD.insteadOf runs CMD)
)

func envCommandKind(name string) int {
	switch name {
	case "GIT_EXTERNAL_DIFF", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "EDITOR", "VISUAL", "GIT_PAGER", "PAGER",
		"MANPAGER", "SYSTEMD_PAGER", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS",
		"GIT_PROXY_COMMAND", "PROMPT_COMMAND", "LESSCLOSE", "BROWSER", "FCEDIT", "DIFF_PAGER", "DELTA_PAGER", "BAT_PAGER",
		"RSYNC_RSH", "RSYNC_CONNECT_PROG", "CVS_RSH", "SVN_EDITOR", "SVN_SSH", "HGEDITOR", "BZR_EDITOR", "SUDO_EDITOR",
		"SYSTEMD_EDITOR", "SELECTED_EDITOR", "KUBE_EDITOR", "GH_EDITOR", "GH_PAGER", "GIT_MERGE_AUTOEDIT", "MANOPT":
		return envCmd
	case "LESS", "MORE":
		return envLessOpts
	case "PERL5OPT":
		return envPerlOpt
	case "VIMINIT", "EXINIT", "GVIMINIT":
		return envEx
	case "PERL5DB":
		return envPerlCode
	case "TAR_OPTIONS", "ZIPOPT", "UNZIP", "UNZIPOPT", "ZIPINFO", "ZIPINFOOPT":
		return envOptions
	case "AWS_PAGER", "PSQL_PAGER", "PSQL_EDITOR", "GLAB_PAGER", "HGPAGER", "JJ_PAGER", "LESSEDIT":
		return envCmd
	case "PS0", "PS1", "PS2", "PS3", "PS4":
		return envPrompt
	case "LESSOPEN":
		return envLessOpen
	case "GIT_CONFIG_PARAMETERS":
		return envGitParams
	case "RIPGREP_CONFIG_PATH":
		return envFile
	}
	if strings.HasPrefix(name, "GIT_CONFIG_VALUE_") {
		return envCmd
	}
	if strings.HasPrefix(name, "GIT_CONFIG_KEY_") {
		return envGitKey
	}
	return 0
}

// shellVar: $SHELL is the shell programs hand a command line to — flock
// -c, script -c, su -m -c, sudo -s, entr -s, tmux, vim's :!, gdb's shell —
// which the analysis reads as bash. A value the command sets must be a shell
// of that family (sh, bash, dash, zsh, ksh, …: fish takes `\'` inside single
// quotes, so echo 'x\' '; cat .env #' runs cat); another program, a link the
// command made or a value computed when the command runs is unverifiable.
func (a *shellAnalyzer) shellVar(vals []field, raw, what string) {
	for _, v := range vals {
		if v.pattern() {
			a.unknown(raw, what+" is computed when the command runs, and command lines are run with it (flock -c, script -c, su -c, sudo -s …)", SetRead|setModify)
			continue
		}
		if strings.TrimSpace(v.s) == "" {
			continue // unset or empty: /bin/sh
		}
		n := a.linkedProgram(v)
		if n == "" {
			n = baseName(v)
		}
		if !bashFamilyShell(n) {
			a.unknown(raw, what+" names "+clip(v.s, 40)+", not a shell of bash's syntax, and command lines are run with it (flock -c, script -c, su -c, sudo -s …)", SetRead|setModify)
		}
	}
}

// bashFamilyShell: the shells whose command lines the analysis reads as
// its own (bash, then zsh syntax).
func bashFamilyShell(n string) bool {
	switch n {
	case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "rbash", "rzsh", "yash", "posh", "oksh", "loksh", "lksh", "pdksh", "ksh93":
		return true
	}
	return false
}

// special notes assignments to variables that change how the shell works.
func (a *shellAnalyzer) special(name string) {
	switch name {
	case "IFS":
		a.ifsUnset = false
		if v := a.vars[name]; v.known {
			a.ifs, a.ifsDyn = v.f.s, false
		} else {
			// unknown: a known value split by it is unknown too
			a.ifs, a.ifsDyn = " \t\n", true
		}
	case "HOME":
		a.homeChanged()
	case "GLOBIGNORE":
		a.dotglob = true
	case "SHELL":
		if v, ok := a.vars[name]; ok {
			a.shellVar([]field{v.f}, "$SHELL", "$SHELL")
		}
	case "PWD":
		// assigning PWD does not move the shell
	}
}

// dirStackSet: an element of DIRSTACK set (in any form: x[1]=, read,
// printf -v) is a folder popd, pushd and pushd +N lead to (pushd /tmp;
// DIRSTACK[1]=~; popd went home): any folder.
func (a *shellAnalyzer) dirStackSet() {
	// (not unknownCwd: the element's value, often a literal, is not read)
	if n := len(a.dirStack); n == 0 || len(a.dirStack[n-1]) != 1 || a.dirStack[n-1][0] != "/"+unknownSeg {
		a.dirStack = append(a.dirStack, []string{"/" + unknownSeg})
	}
}

// commandTable: bash's BASH_ALIASES and BASH_CMDS are its alias and
// command-hash tables — an element set makes a name run its text (with
// expand_aliases) or another program (BASH_CMDS[x]=/bin/sh; x -c CMD),
// like alias and hash -p, with no alias or hash command to read: not
// modelled, unverifiable.
func (a *shellAnalyzer) commandTable(name, raw string) {
	if name == "DIRSTACK" {
		a.dirStackSet()
	}
	if name == "BASH_ALIASES" || name == "BASH_CMDS" {
		a.unknown(raw, name+" is bash's "+map[string]string{"BASH_ALIASES": "alias table", "BASH_CMDS": "command hash table"}[name]+": an element set makes a command name run other text or another program", SetRead|setModify)
	}
}

// text returns the source text of a word.
func (a *shellAnalyzer) text(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	s, e := int(w.Pos().Offset()), int(w.End().Offset())
	if s >= 0 && e <= len(a.src) && s <= e {
		return a.src[s:e]
	}
	return ""
}

// word checks every field of w with ops (as a path) and returns the fields.
func (a *shellAnalyzer) word(w *syntax.Word, ops OpSet) []field {
	if w == nil {
		return nil
	}
	a.seen[w] = true
	vals := a.expandWord(w)
	raw := a.text(w)
	for _, v := range vals {
		a.value(raw, v, ops)
	}
	a.walkSubst(w)
	return vals
}

// value records the paths a field may name: the field itself, the part
// after a leading `@`, after the first `=` or `=@`, the parts of an `a:b`
// list (not URLs) and the path of a `file:` URL. A field no literal pins
// (`$X` alone) is not a path here: callers that open it report it.
func (a *shellAnalyzer) value(raw string, v field, ops OpSet) {
	if v.onlyUnk || v.s == "" {
		return
	}
	if v.why == homeSetWhy {
		n := len(a.out.targets)
		defer func() {
			for i := n; i < len(a.out.targets); i++ {
				a.out.targets[i].homeSet = true
			}
		}()
	}
	if v.dotOK && !a.dotglob {
		a.dotglob = true
		defer func() { a.dotglob = false }()
	}
	if v.pattern() {
		a.candidate(raw, v.s, true, ops)
		if !v.dyn {
			for _, c := range splitCandidates(v.s) {
				a.candidate(raw, c, true, ops)
			}
		}
		return
	}
	a.candidate(raw, v.s, false, ops)
	for _, c := range splitCandidates(v.s) {
		a.candidate(raw, c, false, ops)
	}
}

// loadedBy is value for a path that a program reads (or writes) by itself
// rather than through an argument naming it: loader is that program as a
// phrase for the reason ("bun, which loads the folder's .env files into
// what it runs …"), and the path is shown as itself.
func (a *shellAnalyzer) loadedBy(loader string, v field, ops OpSet) {
	from := len(a.out.targets)
	a.value(v.s, v, ops)
	for i := from; i < len(a.out.targets); i++ {
		a.out.targets[i].loader = loader
	}
}

// splitCandidates returns the parts of a word that may be paths on their
// own: after a leading `@`, after `=`, `=@` or `<`, the parts of `a:b`
// lists, and a `file:` URL's path.
func splitCandidates(s string) []string {
	var out []string
	add := func(c string) {
		c = strings.TrimPrefix(c, "@")
		if c != "" && c != s {
			out = append(out, c)
		}
	}
	if strings.HasPrefix(s, "@") {
		add(s[1:])
	}
	if i := strings.Index(s, "="); i >= 0 {
		add(s[i+1:])
		if j := strings.Index(s[i+1:], "="); j >= 0 {
			add(s[i+1+j+1:]) // --mount type=bind,source=x
		}
	}
	for _, sep := range []string{",source=", ",src=", ",target=", ",dst=", ",destination="} {
		if i := strings.Index(s, sep); i >= 0 {
			rest := s[i+len(sep):]
			if j := strings.IndexByte(rest, ','); j >= 0 {
				rest = rest[:j]
			}
			add(rest)
		}
	}
	if strings.HasPrefix(s, "<") || strings.HasPrefix(s, ">") {
		add(strings.TrimLeft(s, "<>+|&"))
	}
	if len(s) > 5 && strings.EqualFold(s[:5], "file:") {
		add(s) // decoded by candidate
	} else if strings.Contains(s, ":") && !strings.Contains(s, "://") {
		for part := range strings.SplitSeq(s, ":") {
			add(part)
		}
	}
	// a URL's percent escapes (localhost:8000/%2eenv), decoded as the
	// server will
	if ds := percentDecoded(s); len(ds) > 0 {
		d := ds[0]
		add(d)
		out = append(out, splitCandidates(d)...)
	}
	return out
}

// norm normalises a shell word against the current directory.
func (a *shellAnalyzer) norm(s string, pattern bool) (string, bool) {
	env := a.env
	env.Cwd = a.cwd()
	if strings.ContainsRune(env.Cwd, unknownRune) {
		return joinCwd(a.cwd(), s, pattern, a.win)
	}
	return normalize(env, s, spellShell, pattern)
}

// joinCwd joins a relative word to a candidate directory that may be a
// pattern.
func joinCwd(cwd, s string, pattern, win bool) (string, bool) {
	if win && !pattern {
		s = strings.ReplaceAll(s, `\`, "/")
	}
	if isAbsNorm(s) || (win && strings.HasPrefix(s, "//")) {
		return cleanAbs(escIf(s, pattern), win), true
	}
	return cleanAbs(joinDir(cwd, escIf(s, pattern)), win), true
}

// candidate adds one path, resolved against every candidate directory.
func (a *shellAnalyzer) candidate(raw, c string, pattern bool, ops OpSet) {
	if h := a.home(); h != "" && (c == "~" || strings.HasPrefix(c, "~/")) {
		// a `~` the shell left (after `=` in an argument: bash expands
		// `of=~/x` as it does an assignment, zsh's magic_equal_subst
		// `--output=~/x`; a program may expand it itself): the home too
		a.candidate(raw, escIf(h, pattern)+c[1:], pattern, ops)
	}
	if len(c) > 5 && strings.EqualFold(c[:5], "file:") {
		lit := c
		if pattern {
			lit = unescapeGlob(c)
		}
		if u, ok := fileURLPath(lit, a.win); ok {
			if strings.ContainsAny(u, "{[") { // curl's own URL globbing
				p, _ := a.norm(curlGlob(u), true)
				a.addTarget(raw, p, true, ops)
				return
			}
			c = escIf(u, pattern)
		}
	}
	cwds := a.cwds
	if isAbsNorm(c) || (a.win && (strings.HasPrefix(c, "//") || hasDrive(c))) || strings.HasPrefix(c, "/"+unknownSeg) {
		cwds = cwds[len(cwds)-1:]
	}
	alts := alternates(a.env, c, spellShell, pattern)
	// the newest candidate first: where the shell most likely is, so a
	// reason names that path (`cd .. && cat app/.env` names ../app/.env)
	for i := len(cwds) - 1; i >= 0; i-- {
		cwd := cwds[i]
		var p string
		pat := pattern
		if strings.ContainsRune(cwd, unknownRune) || globCwd(cwd) {
			p, pat = joinCwd(cwd, c, pattern, a.win)
		} else {
			env := a.env
			env.Cwd = cwd
			p, pat = normalize(env, c, spellShell, pattern)
		}
		a.addTarget(raw, p, pat, ops)
		if !pat && hasDotDot(c) && !a.win && !strings.ContainsRune(cwd, unknownRune) {
			joined := c
			if !strings.HasPrefix(c, "/") {
				joined = joinDir(cwd, c)
			}
			a.out.targets[len(a.out.targets)-1].physical = joined
		}
		for _, alt := range alts {
			env := a.env
			env.Cwd = cwd
			ap, apat := normalize(env, alt, spellShell, pattern || strings.Contains(alt, unknownSeg))
			a.addTarget(raw, ap, apat, ops)
		}
	}
}

// hasDotDot reports whether a path has a `..` segment.
func hasDotDot(p string) bool {
	return p == ".." || strings.HasPrefix(p, "../") || strings.HasSuffix(p, "/..") || strings.Contains(p, "/../")
}

// curlGlob turns curl's URL globs (`{a,b}`, `[a-z]`) into unknown
// characters.
func curlGlob(u string) string {
	var b strings.Builder
	depth := 0
	for _, r := range u {
		switch {
		case r == '{' || r == '[':
			if depth == 0 {
				b.WriteRune(unknownRune)
			}
			depth++
		case (r == '}' || r == ']') && depth > 0:
			depth--
		case depth > 0:
		default:
			b.WriteString(escapeGlob(string(r)))
		}
	}
	return b.String()
}

// addTarget records a normalised path, and what a link made earlier in the
// command points it to.
func (a *shellAnalyzer) addTarget(raw, p string, pattern bool, ops OpSet) {
	if a.full {
		return
	}
	if pattern && ops&setModify != 0 && a.foundPaths != nil {
		a.foundWrite(raw, p, ops)
	}
	if len(a.out.targets) >= maxTargets {
		a.full = true
		a.unknown(raw, "the command names too many paths to check", SetRead|setModify)
		return
	}
	a.out.targets = append(a.out.targets, target{raw: raw, path: p, pattern: pattern, ops: ops, dotOK: a.dotglob, meta: a.noContent})
	if !pattern {
		for link, to := range a.links {
			if p == link || strings.HasPrefix(p, link+"/") {
				// a link to a glob's match or to any folder makes the
				// name through it a pattern (`ln -s .p* l; echo >
				// l/settings.json`: it was matched as literal text)
				pat := strings.ContainsRune(to, unknownRune) || hasMeta(to)
				a.out.targets = append(a.out.targets, target{raw: raw, path: to + p[len(link):], pattern: pat, ops: ops, dotOK: a.dotglob || pat, meta: a.noContent})
			}
		}
	}
}

// addRec records a recursive operation on a directory.
func (a *shellAnalyzer) addRec(raw string, f field, ops OpSet, dotOK bool, filter []string, via string, follow uint8) {
	if f.onlyUnk && !f.posOnly {
		a.unknown(raw, via+" on a folder named when the command runs", ops)
		return
	}
	var paths []struct {
		p   string
		pat bool
	}
	if f.pattern() {
		p, pat := a.norm(f.s, true)
		paths = append(paths, struct {
			p   string
			pat bool
		}{p, pat})
	} else {
		for _, cwd := range a.cwds {
			var p string
			var pat bool
			if strings.ContainsRune(cwd, unknownRune) {
				p, pat = joinCwd(cwd, f.s, false, a.win)
			} else {
				env := a.env
				env.Cwd = cwd
				p, pat = normalize(env, f.s, spellShell, false)
			}
			paths = append(paths, struct {
				p   string
				pat bool
			}{p, pat})
			if isAbsNorm(f.s) {
				break
			}
		}
	}
	if _, _, _, proc := procView(f.s); !f.pattern() || proc {
		// other spellings of the folder (a UNC share may be any local
		// folder; /proc/$$/cwd, /dev/fd/../cwd: a process's working folder)
		for _, alt := range alternates(a.env, f.s, spellShell, f.pattern()) {
			p, pat := a.norm(alt, strings.Contains(alt, unknownSeg))
			paths = append(paths, struct {
				p   string
				pat bool
			}{p, pat})
		}
	}
	follow = a.fillFollow(ops, follow)
	// a link the command made earlier: the recursion reaches its target
	for _, x := range paths {
		if x.pat {
			// a computed folder may be a link made under a computed name
			for link, to := range a.links {
				if strings.ContainsRune(link, unknownRune) && !strings.ContainsRune(to, unknownRune) {
					paths = append(paths, struct {
						p   string
						pat bool
					}{to, false})
				}
			}
			continue
		}
		for link, to := range a.links {
			if x.p == link || strings.HasPrefix(x.p, link+"/") {
				paths = append(paths, struct {
					p   string
					pat bool
				}{to + x.p[len(link):], false})
			} else if follow != followNone && (strings.HasPrefix(link, strings.TrimSuffix(x.p, "/")+"/") || strings.ContainsRune(link, unknownRune)) {
				// a recursion that follows links (grep -R) enters one the
				// command made below the folder (or under a computed name)
				paths = append(paths, struct {
					p   string
					pat bool
				}{to, strings.ContainsRune(to, unknownRune)})
			}
		}
	}
	for _, x := range paths {
		if len(a.out.targets) >= maxTargets {
			a.full = true
			a.unknown(raw, "the command names too many paths to check", SetRead|setModify)
			return
		}
		a.out.targets = append(a.out.targets, target{raw: raw, path: x.p, pattern: x.pat, ops: ops, rec: true, dotOK: dotOK, filter: filter, via: via, follow: follow, meta: a.noContent,
			shellGlob: x.pat && f.glob && !f.unk && !f.dyn && !f.dotOK && !a.dotglob && !strings.ContainsRune(x.p, unknownRune)})
		a.markFills(&a.out.targets[len(a.out.targets)-1])
	}
}

// addRecVCS records a recursive read (or write) by git of a folder with
// hidden names, skipping version-control folders and, when ignores, what
// .gitignore surely ignores (see gitIgnorer).
func (a *shellAnalyzer) addRecVCS(raw string, f field, ops OpSet, ignores bool, via string) {
	n := len(a.out.targets)
	// git's recursions (add, clean, stash) change or delete the files it
	// finds, create none and follow no link: not a fill (fills.go)
	meta := a.noContent
	a.noContent = true
	a.addRec(raw, f, ops, true, nil, via, followNone)
	a.noContent = meta
	for i := n; i < len(a.out.targets); i++ {
		a.out.targets[i].vcsAware = true
		a.out.targets[i].gitIgnores = ignores
		a.out.targets[i].meta = meta
	}
}

// addTracked records a git command that prints the content of the files
// git tracks below a folder.
func (a *shellAnalyzer) addTracked(raw string, f field, via string) {
	n := len(a.out.targets)
	a.addRec(raw, f, SetRead, true, nil, via, followNone)
	for i := n; i < len(a.out.targets); i++ {
		a.out.targets[i].tracked = true
	}
}

// chdir adds the directories a `cd dir` may lead to and returns them (nil
// when it adds none).
func (a *shellAnalyzer) chdir(f field) []string {
	var next []string
	if f.onlyUnk && !f.pattern() {
		return nil
	}
	if pid, view, rest, ok := procView(f.s); ok && view == "cwd" && !strings.ContainsRune(rest, unknownRune) {
		// a process's working folder: the shell's own (self, $$), or any
		// folder for another process — and the lexical path too (below)
		if pid == "self" || pid == "thread-self" || strings.ContainsRune(pid, unknownRune) {
			for _, cwd := range a.cwds {
				p, _ := joinOrNorm(a, cwd, "./"+rest)
				next = append(next, p)
			}
		} else {
			next = append(next, "/"+unknownCwd)
		}
	}
	if f.pattern() {
		c := f.s
		if f.onlyUnk {
			c = "/" + unknownSeg
		}
		p, _ := a.norm(c, true)
		if (f.onlyUnk || strings.HasPrefix(c, "/"+unknownSeg)) && !f.posOnly && !(f.why == "mktemp" && !f.dyn && !strings.Contains(f.s, "..")) {
			// a folder named when the command runs (`cd "$x"`, `cd
			// "$(cat f)"/sub`): any folder, a protected one included
			// (not a new one mktemp makes in the temporary folder, nor
			// a function's `cd "$1"`, walked again where it is called)
			p = unknownCwdOf(p, a.win)
		}
		next = append(next, p)
		if f.why == homeSetWhy && f.glob {
			// homeSetCwd: a name written there may be in any protected
			// folder, a hidden one included (`**` skips those)
			next = append(next, "/"+unknownCwd)
		}
	} else {
		dir := f.s
		if dir == "-" {
			// where the shell was before the last cd (any of its
			// candidates), or $OLDPWD from the environment: anywhere
			next = append(next, a.oldpwds...)
			if len(a.oldpwds) == 0 {
				next = append(next, "/"+unknownCwd)
			}
		} else {
			for _, cwd := range a.cwds {
				p, _ := joinOrNorm(a, cwd, dir)
				next = append(next, p)
			}
			// CDPATH (from the environment or set in the command) may lead
			// a relative `cd` anywhere
			// (first: the join with the current directory stays the
			// newest candidate, the one a reason names)
			// (not for a first segment . or ..: `cd .ssh` searches it)
			first, _, _ := strings.Cut(dir, "/")
			if !isAbsNorm(dir) && first != "." && first != ".." && !strings.HasPrefix(dir, "~") && !a.cdpathUnset() {
				next = append([]string{"/" + unknownSeg + "/" + escapeGlob(dir)}, next...)
				if a.cdable {
					// cdable_vars: `cd NAME` goes to $NAME, zsh's `cd NAME/x`
					// to ~NAME/x (a named folder or a user's home): any
					// folder for the first name
					c := "/" + unknownCwd
					if _, rest, ok := strings.Cut(dir, "/"); ok {
						c += "/" + escapeGlob(rest)
					}
					next = append([]string{c}, next...)
				}
			}
		}
	}
	a.oldpwds = append([]string(nil), a.cwds...)
	a.oldpwd = a.cwd()
	if len(a.cwds) == 1 && !strings.ContainsRune(a.cwds[0], unknownRune) {
		a.oldpwd = a.cwds[0]
	}
	var dests []string
	for _, d := range next {
		dup := false
		for _, c := range a.cwds {
			if c == d {
				dup = true
				break
			}
		}
		if dup {
			dests = append(dests, d)
			continue
		}
		if len(a.cwds) >= maxCwds {
			// too many places: the shell may be anywhere
			d = "/" + unknownCwd
			dests = append(dests, d)
			for _, c := range a.cwds {
				if c == d {
					dup = true
				}
			}
			if dup {
				continue
			}
		} else {
			dests = append(dests, d)
		}
		a.cwds = append(a.cwds, d)
	}
	// the last candidate is the one `$PWD` and relative words use first
	if len(next) > 0 {
		last := next[len(next)-1]
		for i, c := range a.cwds {
			if c == last && i != len(a.cwds)-1 {
				a.cwds = append(append(a.cwds[:i:i], a.cwds[i+1:]...), last)
				break
			}
		}
	}
	return dests
}

// inDirs runs fn with the folders dirs added to the candidate working
// directories (a command another program starts there: tmux new -c DIR,
// su -, find -execdir), and takes them away again after it.
func (a *shellAnalyzer) inDirs(dirs []field, fn func()) {
	restore := a.pushDirs(dirs)
	fn()
	restore()
}

// pushDirs adds dirs to the candidate working directories and returns
// the func that takes them away again.
func (a *shellAnalyzer) pushDirs(dirs []field) func() {
	cwds, oldpwd, oldpwds := a.cwds, a.oldpwd, a.oldpwds
	a.cwds = append([]string(nil), cwds...)
	for _, d := range dirs {
		a.chdir(d)
	}
	return func() { a.cwds, a.oldpwd, a.oldpwds = cwds, oldpwd, oldpwds }
}

// homeField is the home directory as a folder to work in.
func (a *shellAnalyzer) homeField() field {
	if a.home() != "" {
		return litField(a.home())
	}
	return dynVal(a.homeWhy(), false).f
}

func joinOrNorm(a *shellAnalyzer, cwd, dir string) (string, bool) {
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		if a.home() != "" {
			dir = a.home() + dir[1:]
		}
	}
	if strings.ContainsRune(cwd, unknownRune) || globCwd(cwd) {
		return joinCwd(cwd, dir, false, a.win)
	}
	env := a.env
	env.Cwd = cwd
	return normalize(env, dir, spellShell, false)
}

// baseName returns the command name of a field: the last segment of its
// text.
func baseName(f field) string {
	t := f.text()
	if f.pattern() {
		return ""
	}
	t = strings.ReplaceAll(t, `\`, "/")
	b := path.Base(t)
	b = strings.TrimSuffix(strings.TrimSuffix(b, ".exe"), ".EXE")
	return programName(b)
}

// programName is the program a versioned or alternative name runs:
// python3.11, perl5.36.0, lua5.4, php8.2, node18 are their families;
// vim.basic, vim.tiny, nvim.appimage are vim and nvim; Debian's editor
// alternatives and vim's other names are vim (the most capable reading).
func programName(b string) string {
	if base, suf, ok := strings.Cut(b, "."); ok && base != "" {
		switch {
		case strings.Trim(suf, "0123456789.") == "",
			suf == "basic" || suf == "tiny" || suf == "gtk" || suf == "gtk3" || suf == "nox" || suf == "athena" ||
				suf == "motif" || suf == "appimage" || suf == "real" || suf == "bin" || suf == "orig":
			b = base
		}
	}
	switch b {
	case "dotenv-cli", "python-dotenv":
		return "dotenv" // npx dotenv-cli, pipx run python-dotenv
	case "editor", "sensible-editor", "select-editor", "rvim", "rview", "vimx", "gview", "evim", "eview", "nvi", "elvis", "vile", "vim-tiny":
		return "vim"
	}
	for _, fam := range [...]string{"python", "pypy", "perl", "ruby", "php", "node", "luajit", "lua", "tclsh", "wish",
		"bash", "zsh", "ksh", "mksh", "gawk", "mawk", "pip", "sqlite", "psql", "mysql", "julia", "Rscript", "jruby", "ipython"} {
		if rest, ok := strings.CutPrefix(b, fam); ok && rest != "" && strings.Trim(rest, "0123456789.-") == "" {
			if fam == "sqlite" && rest == "3" || fam == "python" && (rest == "3" || rest == "2") || fam == "pip" && rest == "3" || fam == "perl" && rest == "5" {
				return b // names the dispatch knows as they are
			}
			return fam
		}
	}
	return b
}

// testExpr walks a [[ … ]] expression: the operand of a file operator
// (-e, -f, -s, -nt, …) is a metadata access, the bash op and no read (see
// metaOps); other words are left to the walk in file() (read).
func (a *shellAnalyzer) testExpr(x syntax.TestExpr) {
	switch e := x.(type) {
	case *syntax.UnaryTest:
		if w, ok := e.X.(*syntax.Word); ok && e.Op >= syntax.TsExists && e.Op <= syntax.TsNoEmpty && e.Op != syntax.TsFdTerm {
			a.word(w, a.metaOps(w))
			return
		}
		a.testExpr(e.X)
	case *syntax.BinaryTest:
		if e.Op == syntax.TsNewer || e.Op == syntax.TsOlder || e.Op == syntax.TsDevIno {
			for _, side := range []syntax.TestExpr{e.X, e.Y} {
				if w, ok := side.(*syntax.Word); ok {
					a.word(w, a.metaOps(w))
				}
			}
			return
		}
		a.testExpr(e.X)
		a.testExpr(e.Y)
	case *syntax.ParenTest:
		a.testExpr(e.X)
	}
}

// metaOps are the ops of a metadata access to w: the bash op, or a read
// when w may be a pattern (what it matches lists its folder).
func (a *shellAnalyzer) metaOps(w *syntax.Word) OpSet {
	if strings.ContainsAny(a.text(w), "*?[") {
		return SetRead
	}
	return SetBash
}

// cdpathUnset reports whether CDPATH is known to be unset or empty on every
// path through the command so far (`unset CDPATH`, `CDPATH=`), so that a
// relative cd enters the folder below the current one, not a folder CDPATH
// names (pass 37). An empty CDPATH is bash's current folder, as unset is.
func (a *shellAnalyzer) cdpathUnset() bool {
	v, ok := a.vars["CDPATH"]
	return ok && v.known && v.empty && len(v.alts) == 0 && !a.cdable && !a.cdpathLost
}
