package guard

import "testing"

// TestExWritesAndForces: a vim whose -c/+ commands write (`w`, `wq`, `x`,
// `up`, `sav`) may write any file another of them names (`e FILE`); the
// `!` that forces a modelled command (`q!`, `w!`, `e!`) runs nothing, any
// other `!` runs a shell command.
func TestExWritesAndForces(t *testing.T) {
	for _, m := range []*Matcher{
		DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome}),
		DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{tCwd + "/.env": "K=1", tCwd + "/README.md": "x", tCwd + "/node_modules/x": "y"}, nil)}),
	} {
		runShell(t, m, []shellCase{
			{`vim -es -c 'e node_modules/x' -c w -c 'q!'`, KindDeny},
			{`vim -es -c 'e node_modules/x' -c 'wq'`, KindDeny},
			{`vim -es '+e node_modules/x' '+x'`, KindDeny},
			{`vim -es -c 'e! node_modules/x' -c 'w!'`, KindDeny},
			{`vim -es -c 'e node_modules/x|w'`, KindDeny},
			{`vim -es -c 'sav node_modules/y' README.md`, KindDeny},
			{`vim -es -c 'r !cat .e""nv' -c '%p' -c 'q!'`, KindUnverifiable},
			{`vim -es -c 'w !sh' README.md`, KindUnverifiable},
			{`vim -es -c 'q !x' README.md`, KindUnverifiable},
			{`vim -es -c '%!sort' -c 'wq' README.md`, KindUnverifiable},
			// everyday
			{`vim -es -c '%s/a/b/g' -c 'wq' README.md`, ""},
			{`vim -es -c 'q!' README.md`, ""},
			{`vim -es -c '%s/foo/bar/ge' -c 'x!' README.md`, ""},
			{`vim -es -c 'e node_modules/x' -c '%p' -c 'q!'`, ""}, // node_modules is protected from writes only
		})
	}
}
