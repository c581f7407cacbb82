package guard

import (
	"encoding/json"
	"testing"
)

// TestArgShapes: a known tool's call whose command, path, folder or glob
// argument is not a string (an object, a number, a list of non-strings) is
// denied as unverifiable — the analysis would skip the value, a tool that
// coerces its input may not; a reader's or writer's path under a key the
// analysis does not know is read as an unknown tool's arguments are. The
// everyday shapes of pi's, Claude Code's and other agents' tools stay
// allowed. (newcomer pass 12: these were allowed)
func TestArgShapes(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	cases := []struct {
		tool, args string
		deny       bool
	}{
		{"bash", `{"command":{"x":"cat .env"}}`, true},
		{"bash", `{"command":123}`, true},
		{"bash", `{"command":[["cat",".env"]]}`, true},
		{"bash", `{"command":"ls","cwd":{"d":"/"}}`, true},
		{"bash", `{"cmd":{"0":"cat ~/.ssh/id_rsa"}}`, true},
		{"bash", `{}`, false}, // runs nothing
		{"bash", `{"command":""}`, false},
		{"bash", `{"timeout":30}`, false},
		{"Bash", `{"command":"cat .env","stdin":{"a":1}}`, true},
		{"Read", `{"file_path":{"p":".env"}}`, true},
		{"Read", `{"file_path":[".env"]}`, true},
		{"read", `{}`, false},               // names nothing (pi rejects it)
		{"read", `{"target":".env"}`, true}, // a path under a key the analysis does not know
		{"Read", `{"uri":"~/.ssh/id_rsa"}`, true},
		{"write", `{"dest":".env","content":"x"}`, true},
		{"edit", `{"file":{"p":1},"target":".git/config"}`, true},
		{"read", `{"target":"README.md"}`, false},
		{"read", `{"path":null}`, false},
		{"read", `{"path":""}`, true}, // "" is read as the working folder, which holds .env
		{"read", `{"path":42}`, true},
		{"write", `{"content":"x"}`, false},
		{"Edit", `{"old_string":"a","new_string":"b"}`, false},
		{"edit", `{"path":{"p":"a.go"},"edits":[{"oldText":"a","newText":"b"}]}`, true},
		{"grep", `{"pattern":"x","path":{"p":"~"}}`, true},
		{"Glob", `{"pattern":{"g":"**/.env"}}`, true},
		{"ls", `{"path":["~/.ssh"]}`, true},
		{"apply_patch", `{"input":{"p":"*** Begin Patch"}}`, true},
		{"powershell", `{"command":{"c":"Get-Content .env"}}`, true},
		{"mcp__srv__bash", `{"command":{"x":"cat .env"}}`, true},

		// everyday shapes
		{"bash", `{"command":"go test ./...","timeout":120}`, false},
		{"Bash", `{"command":"ls","description":"list","timeout":120000,"run_in_background":false}`, false},
		{"bash", `{"command":["go","test","./..."]}`, false},
		{"read", `{"path":"README.md","offset":10,"limit":50}`, false},
		{"Read", `{"file_path":"/home/user/proj/main.go","offset":1,"limit":2000}`, false},
		{"read", `{"path":"README.md","extra":null}`, false},
		{"write", `{"path":"out.txt","content":"hi"}`, false},
		{"edit", `{"path":"a.go","edits":[{"oldText":"a","newText":"b"}]}`, false},
		{"Edit", `{"file_path":"a.go","old_string":"a","new_string":"b","replace_all":true}`, false},
		{"MultiEdit", `{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b"}]}`, false},
		{"grep", `{"pattern":"TODO","path":"src","ignoreCase":true,"context":2,"limit":100}`, false},
		{"Grep", `{"pattern":"x","path":"src","glob":"*.go","output_mode":"content","-n":true,"head_limit":10}`, false},
		{"grep", `{"pattern":{"weird":1},"path":"src"}`, false}, // the regex is no path
		{"Glob", `{"pattern":"**/*.go","path":"src"}`, false},
		{"find", `{"pattern":"*.go","limit":50}`, false},
		{"ls", `{}`, false}, // lists the working folder
		{"ls", `{"path":"src","limit":100}`, false},
		{"WebSearch", `{"query":{"q":1}}`, false},
		{"TodoWrite", `{"todos":[{"content":"x","status":"pending"}]}`, false},
	}
	for _, c := range cases {
		var args map[string]any
		if err := json.Unmarshal([]byte(c.args), &args); err != nil {
			t.Fatal(err)
		}
		vs := m.Check(Call{Tool: c.tool, Args: args})
		if got := len(vs) > 0; got != c.deny {
			t.Errorf("%s %s: denied=%v, want %v (%v)", c.tool, c.args, got, c.deny, vs)
			continue
		}
		if c.deny && vs[0].Kind != KindUnverifiable && vs[0].Kind != KindDeny && vs[0].Kind != KindFolder {
			t.Errorf("%s %s: kind %s", c.tool, c.args, vs[0].Kind)
		}
	}
}
