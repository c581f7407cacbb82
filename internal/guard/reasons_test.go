package guard

import (
	"strings"
	"testing"
)

// TestSelfLoaderReasonReads: a program that reads .env by itself (bun,
// pipenv) is named as what reads it, and the file as what is read — the
// reason quoted the sentence as if it were the path (newcomer pass 13),
// and so for every program that reads or writes a protected file by itself.
func TestSelfLoaderReasonReads(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	for cmd, want := range map[string]string{
		"bun test":          "bash command runs bun, which loads the folder's .env files into what it runs (bun --no-env-file does not) (protected path " + tCwd + "/.env)",
		"pipenv run pytest": "bash command runs pipenv, which loads the project's .env into what it runs (PIPENV_DONT_LOAD_ENV=1 pipenv … does not) (protected path",
		"gh auth token":     "bash command runs gh auth token, which prints the token stored in ~/.config/gh/hosts.yml (protected path " + tHome + "/.config/gh/hosts.yml)",
	} {
		_, why := kindOf(m, cmd)
		if !strings.Contains(why, want) {
			t.Errorf("%q: reason %q, want it to contain %q", cmd, why, want)
		}
		if strings.Contains(why, ", which") && strings.Contains(why, `path "`) {
			t.Errorf("%q: the sentence is quoted as the path: %q", cmd, why)
		}
	}
}
