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
