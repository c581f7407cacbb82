package archtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

const module = "github.com/pruner-dev/pruner"

// pure are the packages that do no IO: they read and write through what
// they are handed (io.Reader, io.Writer, injected file systems,
// environments, clocks and runners). Every pipeline stage is one.
var pure = []string{
	"internal/session", "internal/jsonscan", "internal/jsval",
	"internal/index", "internal/render", "internal/prune", "internal/turns",
	"internal/pairing", "internal/estimate", "internal/protect",
	"internal/promptnarrow", "internal/guard", "internal/summarize",
	"internal/pipeline", "internal/restore", "internal/query", "internal/pienv",
}

// ioImports are the standard packages that reach the machine: files,
// processes, signals, the user database, the network, the system calls.
var ioImports = []string{
	"os", "os/exec", "os/signal", "os/user", "io/ioutil", "net", "net/http",
	"syscall", "golang.org/x/sys/unix", "github.com/spf13/afero",
}

// ioCalls are functions of otherwise pure packages that do IO.
var ioCalls = map[string][]string{
	"path/filepath": {"Walk", "WalkDir", "Glob", "EvalSymlinks", "Abs"},
	"runtime/debug": {"SetMemoryLimit", "SetGCPercent", "SetMaxThreads", "SetMaxStack"},
}

// allowed are the known, reasoned exceptions: package → import or call →
// why. Keep it short; an entry marked "left:" is a debt docs/design.md
// names, not a rule.
var allowed = map[string]map[string]string{
	"internal/session": {
		"os":                    "memory-maps the *os.File it is handed (mapped_unix.go); it opens, stats by path and writes nothing",
		"golang.org/x/sys/unix": "mmap/madvise of that handed file (mapped_unix.go)",
	},
	"internal/pipeline": {
		"internal/config": "left: FromConfig maps a loaded *config.Config (plain values; no Load) onto Options; config's values and its loader are one package",
	},
	"internal/config": {
		"internal/guard":   "left: protectedPathRules are parsed and merged with guard.ParseRules at load, so a bad rule names its file",
		"internal/protect": "left: protectedTools/protectedPaths globs are compiled at load (errors name their source); their defaults",
	},
}

// cliMayNotImport are mechanisms the CLI layer never uses itself: hashing
// (markers, blobs, caches) and running processes belong to domain and host
// packages.
var cliMayNotImport = []string{"crypto/sha1", "crypto/sha256", "encoding/hex", "os/exec"}

// wiring are the packages that may use cobra and the CLI layer.
func wiring(path string) bool {
	return path == "internal/cli" || strings.HasPrefix(path, "cmd/")
}

// configMayImport are the internal packages internal/config may import: it
// reads settings into plain values, the mapping onto the stages' options
// lives outside it (internal/pipeline.FromConfig).
var configMayImport = []string{"internal/pienv"}

type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
	Deps       []string
}

// listed is `go list -json` of the module, run once for every test.
var listed = sync.OnceValues(func() (map[string]*pkg, error) {
	cmd := exec.Command("go", "list", "-json", module+"/...")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.String())
	}
	pkgs := map[string]*pkg{}
	dec := json.NewDecoder(&out)
	for {
		p := new(pkg)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		p.ImportPath = rel(p.ImportPath)
		for i := range p.Imports {
			p.Imports[i] = rel(p.Imports[i])
		}
		for i := range p.Deps {
			p.Deps[i] = rel(p.Deps[i])
		}
		pkgs[p.ImportPath] = p
	}
	return pkgs, nil
})

func list(t *testing.T) map[string]*pkg {
	t.Helper()
	pkgs, err := listed()
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	return pkgs
}

func rel(path string) string {
	if r, ok := strings.CutPrefix(path, module+"/"); ok {
		return r
	}
	return path
}

func isInternal(path string) bool {
	return strings.HasPrefix(path, "internal/") || strings.HasPrefix(path, "cmd/")
}

func TestPurePackagesDoNoIO(t *testing.T) {
	pkgs := list(t)
	for _, name := range pure {
		p := pkgs[name]
		if p == nil {
			t.Errorf("%s: listed as pure but not found (update the list)", name)
			continue
		}
		for _, imp := range p.Imports {
			if slices.Contains(ioImports, imp) && allowed[name][imp] == "" {
				t.Errorf("%s imports %s: a pure package does no IO (inject it, or move the edge to a host package)", name, imp)
			}
			if isInternal(imp) && !slices.Contains(pure, imp) && !strings.HasPrefix(imp, name+"/") && allowed[name][imp] == "" {
				t.Errorf("%s imports %s, which does IO: a pure package imports only pure ones", name, imp)
			}
		}
		for _, c := range calls(t, p) {
			if allowed[name][c.name] == "" {
				t.Errorf("%s: %s calls %s: IO or process-wide state in a pure package", name, c.pos, c.name)
			}
		}
	}
}

func TestProcessStateOnlyInWiring(t *testing.T) {
	for name, p := range list(t) {
		if wiring(name) || slices.Contains(pure, name) {
			continue
		}
		for _, c := range calls(t, p) {
			if strings.HasPrefix(c.name, "runtime/debug.") {
				t.Errorf("%s: %s calls %s: process-wide settings belong to cmd/ or internal/cli", name, c.pos, c.name)
			}
		}
	}
	// inside the CLI layer: only the root wiring (IOStreams) touches them
	p := list(t)["internal/cli"]
	for _, c := range calls(t, p) {
		if strings.HasPrefix(c.name, "runtime/debug.") && !strings.HasPrefix(c.pos, "iostreams.go:") {
			t.Errorf("internal/cli: %s calls %s: only System() wires process-wide settings (IOStreams)", c.pos, c.name)
		}
	}
}

func TestOnlyWiringUsesCobraAndTheCLI(t *testing.T) {
	for name, p := range list(t) {
		if wiring(name) {
			continue
		}
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, "github.com/spf13/cobra") {
				t.Errorf("%s imports %s: only internal/cli and cmd/ build commands", name, imp)
			}
			if imp == "internal/cli" {
				t.Errorf("%s imports internal/cli: the CLI layer is wiring; nothing below it may depend on it", name)
			}
		}
	}
}

func TestConfigImportsNoDomainPackage(t *testing.T) {
	p := list(t)["internal/config"]
	if p == nil {
		t.Fatal("internal/config not found")
	}
	for _, imp := range p.Imports {
		if isInternal(imp) && !slices.Contains(configMayImport, imp) && allowed["internal/config"][imp] == "" {
			t.Errorf("internal/config imports %s: config reads settings into plain values; the mapping onto a stage's options lives outside it", imp)
		}
	}
}

func TestCLIIsWiring(t *testing.T) {
	p := list(t)["internal/cli"]
	if p == nil {
		t.Fatal("internal/cli not found")
	}
	for _, imp := range p.Imports {
		if slices.Contains(cliMayNotImport, imp) {
			t.Errorf("internal/cli imports %s: the CLI maps flags onto a domain package's options and prints; the mechanism lives there", imp)
		}
	}
}

// TestMainIsWiring: cmd/pruner's main hands the process to cli.Main and
// exits with its code; it imports nothing else of pruner's.
func TestMainIsWiring(t *testing.T) {
	p := list(t)["cmd/pruner"]
	if p == nil {
		t.Fatal("cmd/pruner not found")
	}
	for _, imp := range p.Imports {
		if isInternal(imp) && imp != "internal/cli" {
			t.Errorf("cmd/pruner imports %s: main only calls cli.Main", imp)
		}
	}
}

// TestExceptionsAreStillNeeded: an allowed entry nothing uses any more is
// removed, so the list only shrinks.
func TestExceptionsAreStillNeeded(t *testing.T) {
	pkgs := list(t)
	for name, uses := range allowed {
		p := pkgs[name]
		if p == nil {
			t.Errorf("allowed lists %s, which does not exist", name)
			continue
		}
		for use := range uses {
			if !slices.Contains(p.Imports, use) {
				t.Errorf("allowed: %s no longer imports %s: drop the exception", name, use)
			}
		}
	}
}

// TestNoExportedMutableState: an exported package-level variable is state
// any importer can change; tables are functions returning fresh values.
// Sentinel errors (Err…) are the one exception.
func TestNoExportedMutableState(t *testing.T) {
	for name, p := range list(t) {
		for _, f := range files(t, p) {
			for _, d := range f.file.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, s := range g.Specs {
					for _, id := range s.(*ast.ValueSpec).Names {
						if id.IsExported() && !strings.HasPrefix(id.Name, "Err") {
							t.Errorf("%s: %s: exported package-level var %s (make it a func returning a fresh value)", name, f.fset.Position(id.Pos()), id.Name)
						}
					}
				}
			}
		}
	}
}

// TestWiringHasNoState: the CLI layer keeps nothing between runs — no
// package-level variable but compiled regexps and sentinel errors (flag
// tables are built per command: addPruneFlags).
func TestWiringHasNoState(t *testing.T) {
	p := list(t)["internal/cli"]
	for _, f := range files(t, p) {
		for _, d := range f.file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if id.Name == "_" || strings.HasPrefix(id.Name, "err") || strings.HasPrefix(id.Name, "Err") {
						continue
					}
					if i < len(vs.Values) && isCall(vs.Values[i], "regexp", "MustCompile") {
						continue
					}
					t.Errorf("internal/cli: %s: package-level var %s: the CLI layer holds no state", f.fset.Position(id.Pos()), id.Name)
				}
			}
		}
	}
}

func isCall(e ast.Expr, pkg, fn string) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == pkg && sel.Sel.Name == fn
}

// TestTheRulesCanFail runs the checks on a planted violation, so a broken
// parser or an empty listing cannot pass them silently.
func TestTheRulesCanFail(t *testing.T) {
	src := `package x
import (
	"os"
	"path/filepath"
	dbg "runtime/debug"
)
var Table = []string{"a"}
func f() { os.Exit(1); filepath.Walk(".", nil); dbg.SetMemoryLimit(1) }`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := callsIn(fset, f)
	var names []string
	for _, c := range got {
		names = append(names, c.name)
	}
	sort.Strings(names)
	want := []string{"path/filepath.Walk", "runtime/debug.SetMemoryLimit"}
	if !slices.Equal(names, want) {
		t.Errorf("calls = %v, want %v", names, want)
	}
}

type parsed struct {
	fset *token.FileSet
	file *ast.File
	name string
}

func files(t *testing.T, p *pkg) []parsed {
	t.Helper()
	var out []parsed
	fset := token.NewFileSet()
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, parsed{fset, f, name})
	}
	return out
}

type call struct{ pos, name string }

// calls lists p's calls of ioCalls (non-test files).
func calls(t *testing.T, p *pkg) []call {
	var out []call
	for _, f := range files(t, p) {
		for _, c := range callsIn(f.fset, f.file) {
			c.pos = f.name + ":" + strings.SplitN(c.pos, ":", 3)[1]
			out = append(out, c)
		}
	}
	return out
}

func callsIn(fset *token.FileSet, f *ast.File) []call {
	local := map[string]string{} // local name → import path
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		if _, ok := ioCalls[path]; !ok {
			continue
		}
		n := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			n = imp.Name.Name
		}
		local[n] = path
	}
	var out []call
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		if path, ok := local[x.Name]; ok && slices.Contains(ioCalls[path], sel.Sel.Name) {
			out = append(out, call{fset.Position(sel.Pos()).String(), path + "." + sel.Sel.Name})
		}
		return true
	})
	return out
}
