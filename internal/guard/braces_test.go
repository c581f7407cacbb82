package guard

import "testing"

// TestEmptyBraceWords: bash drops a word that brace expansion leaves empty
// and unquoted, so `cp SRC {DEST,}` is `cp SRC DEST` — DEST is the
// destination, not a source before an empty destination (newcomer18: the
// gate read it so and allowed writes of every protected file). A quoted
// empty alternative stays a word.
func TestEmptyBraceWords(t *testing.T) {
	settings := tCwd + "/.pi/settings.json"
	runGate20(t, []gate20Case{
		{`cp /tmp/x {.pi/settings.json,}`, true, []string{settings}},
		{`cp /tmp/x {,.pi/settings.json}`, true, []string{settings}},
		{`cp /tmp/x {.pi/settings.json,,}`, true, []string{settings}},
		{`cp /tmp/x .pi/settings.json {,}`, true, []string{settings}},
		{`cp /tmp/x .pi/settings.json {,,}`, true, []string{settings}},
		{`cp /tmp/x {.pi/extensions/a.ts,}`, true, []string{".pi/extensions"}},
		{`cp /tmp/x {~/.pi/agent/settings.json,}`, true, []string{tHome + "/.pi/agent/settings.json"}},
		{`install /tmp/x {.claude/settings.json,}`, true, []string{tCwd + "/.claude/settings.json"}},
		{`rsync /tmp/x {.pi/settings.json,}`, true, []string{settings}},
		{`cp -t {.pi/extensions,} /tmp/x.ts`, true, []string{".pi/extensions"}},
		{`cp /tmp/x {"",.pi/settings.json}`, true, []string{settings}},
		{`cp a{,.bak}`, false, nil},
		{`cp /tmp/x {a,}`, false, nil},
		{`echo a{b,}`, false, nil},
		{`mkdir -p build/{bin,lib,}`, false, nil},
	})
}

// TestModelsJSONGate: pi runs a models.json value (apiKey, a header) that
// starts with `!` as a shell command to get it, so the agent dir's
// models.json is the gate's own configuration: reads pass, changes are
// denied however they are spelt (newcomer18: allowed before).
func TestModelsJSONGate(t *testing.T) {
	models := tHome + "/.pi/agent/models.json"
	runGate20(t, []gate20Case{
		{`echo '{"providers":{}}' > ~/.pi/agent/models.json`, true, []string{models}},
		{`cd ~ && cd .pi/agent && echo x > models.json`, true, []string{models}},
		{`sed -i 's/a/b/' ~/.pi/agent/models.json`, true, []string{models}},
		{`cp /tmp/m.json {~/.pi/agent/models.json,}`, true, []string{models}},
		{`cat ~/.pi/agent/models.json`, false, nil},
		{`echo x > models.json`, false, nil},
	})
}
