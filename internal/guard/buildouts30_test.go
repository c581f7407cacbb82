package guard

import "testing"

// go build -o OUT writes OUT/NAME when OUT is a folder (on the disk, or
// written OUT/; without the disk it may be either), NAME the last element
// of the package's import path: `go build -o .pi ./settings.json` wrote
// .pi/settings.json (a package folder named settings.json).
func TestGoBuildOutputFolder(t *testing.T) {
	runGate20(t, []gate20Case{
		{`go build -o .pi ./settings.json`, true, []string{".pi/settings.json", "go build writes settings.json into folder .pi", "denies write"}},
		{`go build -o .claude ./tools/settings.json`, true, []string{".claude/settings.json"}},
		{`go build -o .pi/ ./settings.json`, true, []string{".pi/settings.json"}},
		{`go build -ldflags "-s -w" -o .pi ./settings.json`, true, []string{".pi/settings.json"}},
		{`go build -o .claude -ldflags=-s example.com/x/settings.json`, true, []string{".claude/settings.json"}},
		{`go build -o .pi example.com/x/settings.json/v2`, true, []string{".pi/settings.json"}},
		{`go build -o .pi/extensions ./cmd/x`, true, []string{".pi/extensions"}},
		{`go build -o .pi/extensions .`, true, []string{".pi/extensions"}},
		{`go build -o .pi/extensions ./...`, true, []string{".pi/extensions"}},
		// near-benign: other folders, other names, a file
		{`go build -o bin ./...`, false, nil},
		{`go build -o bin/ ./cmd/x`, false, nil},
		{`go build -o bin .`, false, nil},
		{`go build -o .pi/ ./cmd/x`, false, nil},
		{`go build -o .claude ./cmd/notes`, false, nil},
		{`go build -o app .`, false, nil},
		{`go build -o bin/app . && ./bin/app`, false, nil},
		{`go build -o src ./cmd/main.go`, false, nil},
		{`go build -o /tmp/x ./cmd/x`, false, nil},
	})
}

// coverage and test report outputs: the folder a report fills, the file
// a reporter writes
func TestReportOutputs(t *testing.T) {
	runGate20(t, []gate20Case{
		{`c8 --reports-dir .claude npm test`, true, []string{"c8 --reports-dir writes files below", ".claude/settings.json"}},
		{`c8 -o .claude npm test`, true, []string{"c8 -o writes files below"}},
		{`c8 report --reports-dir=.pi/extensions`, true, []string{".pi/extensions"}},
		{`nyc --report-dir .claude npm test`, true, []string{"nyc --report-dir writes files below", ".claude/settings.json"}},
		{`nyc --temp-dir .pi/extensions npm test`, true, []string{".pi/extensions"}},
		{`coverage html -d .claude`, true, []string{"coverage -d writes files below", ".claude/settings.json"}},
		{`coverage html --directory=.pi/extensions`, true, []string{".pi/extensions"}},
		{`coverage xml -o .pi/settings.json`, true, []string{".pi/settings.json", "denies write"}},
		{`jest --coverageDirectory .claude`, true, []string{".claude/settings.json"}},
		{`mocha --reporter xunit --reporter-option output=.pi/settings.json`, true, []string{".pi/settings.json", "denies write"}},
		{`mocha --reporter-options output=.claude/settings.json,suiteName=x`, true, []string{".claude/settings.json"}},
		{`mocha --reporter-options=output=.claude/settings.json`, true, []string{".claude/settings.json"}},
		{`mocha -O output=.pi/settings.json`, true, []string{".pi/settings.json"}},
		{`mocha --reporter mochawesome --reporter-options reportDir=.claude`, true, []string{".claude"}},
		{`mocha -O "output=$F"`, true, []string{"mocha's reporter options are computed"}},
		{`gradle --project-cache-dir .claude build`, true, []string{"gradle --project-cache-dir writes files below", ".claude/settings.json"}},
		{`gradle -g .pi/extensions build`, true, []string{".pi/extensions"}},
		{`./gradlew --gradle-user-home .claude build`, true, []string{".claude"}},
		{`mvn -Dmaven.repo.local=.pi/extensions install`, true, []string{".pi/extensions"}},
		// near-benign: reports elsewhere
		{`c8 --reports-dir /tmp/cov npm test`, false, nil},
		{`nyc --report-dir coverage npm test`, false, nil},
		{`coverage html -d htmlcov`, false, nil},
		{`coverage xml -o coverage.xml`, false, nil},
		{`mocha --reporter xunit --reporter-option output=/tmp/r.xml`, false, nil},
		{`mocha --reporter-options suiteName=x`, false, nil},
		{`gradle --project-cache-dir /tmp/gc build`, false, nil},
		{`mvn -Dmaven.repo.local=/tmp/m2 install`, false, nil},
	})
}

// go build -o DIR with a `...` pattern names each program after its
// folder, and the go tool never walks into a folder whose name begins with
// a dot: no program of `./...` is named `.env` (it was denied for that),
// only DIR's own, after its last element. Without the disk any other name
// may still be a folder rule's (node_modules/); with it the names are
// those on the disk. A meta-package (all, std, tool) is packages of any
// module, any name (`go build -o .pi all` was read as writing .pi/all).
// go build -C DIR works in DIR (`go build -C .pi -o . ./settings.json`
// wrote .pi/settings.json and was allowed).
func TestGoBuildWildcardNames(t *testing.T) {
	runGate20(t, []gate20Case{
		{`go build -o .pi ./...`, true, []string{".pi/", ".pi/settings.json"}},
		{`go build -o .claude ./cmd/...`, true, []string{".claude/settings.json"}},
		{`go build -o .pi all`, true, []string{".pi/"}},
		{`go build -o .claude tool`, true, []string{".claude/"}},
		{`go build -C .pi -o . ./settings.json`, true, []string{".pi/settings.json", "denies write"}},
		{`go build -C=.pi -o . ./settings.json`, true, []string{".pi/settings.json"}},
		{`go build -C .claude -o . ./...`, true, []string{".claude/"}},
		{`cd .pi && go build -o . ./...`, true, []string{".pi/settings.json"}},
		{`go build -C /tmp -o . ./settings.json`, false, nil},
		{`go build -C .pi -o out/ ./settings.json`, false, nil},
	})
	// with the disk: the names are the folders there (none is protected)
	runGate20(t, []gate20Case{
		{`go build -o . ./...`, false, nil},
		{`go build -o . ./cmd/...`, false, nil},
	}, "disk")
	// without it a name may be a folder rule's own (a package folder
	// named node_modules), never a dotfile's
	runGate20(t, []gate20Case{
		{`go build -o . ./...`, true, []string{`"node_modules/"`}},
		{`go build -o . ./.env/...`, true, nil},
		{`go build -o . ./x/.../y`, true, []string{`".env"`}},
		{`go build -o . all`, true, []string{`".env"`}},
	}, "no disk")
	// DIR's own program is named after it: `.env` for ./.env/...
	m := gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome})
	found := false
	for _, v := range m.Check(Call{Tool: "bash", Args: map[string]any{"command": `go build -o . ./.env/...`}}) {
		found = found || v.Rule == ".env" && v.Path == tCwd+"/.env"
	}
	if !found {
		t.Errorf("go build -o . ./.env/...: no violation for ./.env")
	}
}
