package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pruner-dev/pruner/internal/cli"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"pruner": func() {
			os.Exit(cli.Main(os.Args[1:], cli.System(), cli.BuildInfo{Version: "test", Commit: "none", Date: "unknown"}))
		},
	})
}

// TestScripts runs the CLI scripts in testdata/script/*.txtar against the
// real command (testscript re-executes this test binary as `pruner`).
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("PI_CODING_AGENT_DIR", env.WorkDir+"/.pi-agent")
			env.Setenv("HOME", env.WorkDir+"/home")
			// the summary cache is the work dir's, never the user's
			env.Setenv("XDG_CACHE_HOME", env.WorkDir+"/home/.cache")
			td, err := filepath.Abs("../../testdata")
			if err != nil {
				return err
			}
			env.Setenv("TESTDATA", td)
			return nil
		},
	})
}
