package guard

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLiteralsPresentIsExact: matchEntry's shortcut (a plain path lacking
// one of the entry's literal segments cannot match in mode inside) never
// changes an answer: on every entry of the built-in rules and of rules with
// globs, home, absolute and folder entries, in case-folding and
// case-sensitive envs, matchEntry agrees with the full table on random paths
// made of the entries' own segments, their case variants and other names,
// for both modes, dot files in or out, and wild; plain and pattern paths.
func TestLiteralsPresentIsExact(t *testing.T) {
	rules := DefaultRules().Union(mustRules(t, `{"paths":[
		{"path":"**/secrets/*.pem","deny":["read"]},
		{"path":"*.key","deny":["read"]},
		{"path":".env.*","deny":["read"]},
		{"path":"/etc/shadow","deny":["read"]},
		{"path":"~/.kube/config","deny":["read"]},
		{"path":"build/*.log","deny":["write"]},
		{"path":"Secrets/","deny":["read"]},
		{"path":"Café/notes.txt","deny":["read"]},
		{"path":"a/**/b","deny":["read"]}]}`))
	vocab := []string{"x", "src", "home", "user", "proj", "etc", "shadow", "build", "out.log", "a", "b", "c",
		"secrets", "Secrets", "k.pem", "id.key", "café", "Café", "notes.txt", "NOTES.TXT", "config", ".kube",
		".env", ".ENV", ".Env", ".env.local", ".env.x", ".git", "HEAD", "node_modules", "pkg", ".pi", "agent",
		"auth.json", ".ssh", "id_rsa", ".aws", "credentials", ".netrc", ".config", "gh", "hosts.yml", "env", ".envrc"}
	patterns := []string{unknownSeg, unknownStr, unknownStr + "x", "x" + unknownStr, ".e" + unknownStr, "*", "**", "*.env", ".e*",
		".env*", "*.json", "[.]env", ".en?", "a?c", `\*x`, `\.env`, "{a,b}", "[", ".env.*", "*.pem", "k.*", "node_*", "*_modules",
		".git*", "?ecrets", "S*", "c*fé"}
	r := rand.New(rand.NewPCG(11, 12))
	checked, matched := 0, 0
	for _, cs := range []bool{false, true} {
		m := rules.Matcher(Env{Cwd: tCwd, Home: tHome, CaseSensitive: cs})
		for range 4000 {
			segs := make([]string, r.IntN(7))
			for i := range segs {
				segs[i] = vocab[r.IntN(len(vocab))]
			}
			p := "/" + strings.Join(segs, "/")
			if r.IntN(3) == 0 {
				p = tCwd + p
			}
			pattern := r.IntN(2) == 0
			if pattern {
				// a pattern path: unknown runs and characters, globs, `**`,
				// escaped metacharacters among the names
				for i := range segs {
					if r.IntN(3) == 0 {
						segs[i] = patterns[r.IntN(len(patterns))]
					}
				}
				p = "/" + strings.Join(segs, "/")
			}
			for _, dotOK := range []bool{false, true} {
				ps := m.split(p, pattern, dotOK)
				for i := range m.entries {
					for _, c := range []*compiled{&m.entries[i], m.entries[i].atCwd} {
						if c == nil {
							continue
						}
						for _, mode := range []matchMode{inside, holds} {
							for _, wild := range []bool{false, true} {
								got, want := matchEntry(c, ps, mode, wild), c.ok && matchTable(c, ps, mode, wild)
								checked++
								if want {
									matched++
								}
								if got != want {
									t.Fatalf("entry %q, path %q (case-sensitive %v, dotOK %v, mode %d, wild %v): matchEntry %v, table %v",
										c.entry.Path, p, cs, dotOK, mode, wild, got, want)
								}
							}
						}
					}
				}
			}
		}
	}
	if matched < checked/100 {
		t.Fatalf("only %d of %d pairs match: the paths do not exercise the entries", matched, checked)
	}
	t.Logf("%d entry x path pairs, %d matches", checked, matched)
}

// TestShowWord: a reason shows a shell word with quotes as typed (in
// backquotes), anything else Go-quoted (control characters visible).
func TestShowWord(t *testing.T) {
	for in, want := range map[string]string{
		`.env`:                           `".env"`,
		`"print(open(\".env\").read())"`: "`\"print(open(\\\".env\\\").read())\"`",
		`'.env'`:                         `"'.env'"`,
		"a`b\"":                          "\"a`b\\\"\"",
		"x\n\"y\"":                       `"x\n\"y\""`,
		"\x00\"":                         `"\x00\""`,
	} {
		if got := showWord(in); got != want {
			t.Errorf("showWord(%q) = %s, want %s", in, got, want)
		}
	}
}
