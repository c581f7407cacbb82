package protect

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

// caseDir is where the protected-path cases (copied from the shared case
// collection) live in the repository.
const caseDir = "../../testdata/protect/cases"

type caseEnv struct {
	Cwd      string `json:"cwd"`
	Home     string `json:"home"`
	Platform string `json:"platform"`
}

type caseCall struct {
	ToolName string         `json:"toolName"`
	Input    map[string]any `json:"input"`
}

type caseExpect struct {
	N        int    `json:"n"`
	Decision string `json:"decision"`
	Rule     string `json:"rule"`
}

func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out
}

// TestCases runs every protected-path case: each call's verdict, the rule its
// reason names, and the denied op in the reason.
func TestCases(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(caseDir, "*"))
	if err != nil || len(dirs) < 3 {
		t.Fatalf("cases missing in %s: %v", caseDir, err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			rules, err := LoadRules(filepath.Join(dir, "rules.json"))
			if err != nil {
				t.Fatal(err)
			}
			var env caseEnv
			data, err := os.ReadFile(filepath.Join(dir, "env.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &env); err != nil {
				t.Fatal(err)
			}
			m := rules.Matcher(Env{Cwd: env.Cwd, Home: env.Home})
			calls := readJSONL[caseCall](t, filepath.Join(dir, "calls.jsonl"))
			exps := readJSONL[caseExpect](t, filepath.Join(dir, "expected.jsonl"))
			if len(calls) != len(exps) {
				t.Fatalf("%d calls, %d expectations", len(calls), len(exps))
			}
			for _, e := range exps {
				c := calls[e.N-1]
				vs := m.Check(Call{Tool: c.ToolName, Args: c.Input})
				desc := c.ToolName + " " + describe(c.Input)
				switch e.Decision {
				case "allow":
					if len(vs) != 0 {
						t.Errorf("n=%d %s: want allow, got block: %s", e.N, desc, vs[0].Reason())
					}
				case "block":
					if len(vs) == 0 {
						t.Errorf("n=%d %s: want block by %q, got allow", e.N, desc, e.Rule)
						continue
					}
					v := vs[0]
					if v.Rule != e.Rule {
						t.Errorf("n=%d %s: rule %q, want %q", e.N, desc, v.Rule, e.Rule)
					}
					r := v.Reason()
					if !strings.Contains(r, `"`+e.Rule+`"`) || !strings.Contains(r, string(v.Op)) {
						t.Errorf("n=%d: reason %q does not name rule %q and op %s", e.N, r, e.Rule, v.Op)
					}
					if strings.Contains(r, "protected-paths.json") || strings.Contains(strings.ToLower(r), "override") {
						t.Errorf("n=%d: reason tells the model how to edit its guard: %q", e.N, r)
					}
				default:
					t.Fatalf("n=%d: bad decision %q", e.N, e.Decision)
				}
			}
		})
	}
}

func describe(in map[string]any) string {
	for _, k := range []string{"command", "path", "file_path"} {
		if s, ok := in[k].(string); ok {
			return s
		}
	}
	return ""
}
