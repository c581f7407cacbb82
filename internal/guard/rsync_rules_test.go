package guard

import "testing"

// TestRsyncRulesTakeExcludesBack: rsync reads --exclude='+ PATTERN' as an
// include rule (first match wins) and --exclude-from files as rules: with
// either, an --exclude=.env no longer shows .env is skipped.
func TestRsyncRulesTakeExcludesBack(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{tCwd + "/.env": "K=1", tCwd + "/.git/config": "x", tCwd + "/a.py": "x"}, nil)})
	runShell(t, m, []shellCase{
		{`rsync -a --exclude='+ *' --exclude=.env --exclude=.git/ . /tmp/rs/`, KindFolder},
		{`rsync -a --exclude='+ .e*' --exclude=.env --exclude=.git/ . /tmp/rs/`, KindFolder},
		{`rsync -a --exclude='+,s *' --exclude=.env --exclude=.git/ . /tmp/rs/`, KindFolder},
		{`rsync -a --exclude='!' --exclude=.env --exclude=.git/ . /tmp/rs/`, KindFolder},
		{`rsync -a --exclude-from=- --exclude=.env --exclude=.git/ . /tmp/rs/ <<< '+ *'`, KindFolder},
		{`rsync -a --exclude-from=/tmp/ef --exclude=.env --exclude=.git/ . /tmp/rs/`, KindFolder},
		{`rsync -a --exclude=.env --exclude=.git/ . /tmp/rs/`, ""},
	})
}
