package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestPiExtensionsDocOfflineCheck: docs/pi-extensions.md's offline check
// (PRUNER_BIN=/nonexistent pi --offline -p hi) shows the line the protect
// extension really writes when pruner cannot run: the doc's line is built
// here from extensions/protect.ts's own message template, with Node's error
// text for a missing file (spawnSync PATH ENOENT; the real-pi run of
// 2026-12-01 printed exactly that).
func TestPiExtensionsDocOfflineCheck(t *testing.T) {
	ext, err := os.ReadFile("../../extensions/protect.ts")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/pi-extensions.md")
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`const NAME = "([^"]+)"`).FindSubmatch(ext)
	how := regexp.MustCompile("const how = `([^`]+)`").FindSubmatch(ext)
	msg := regexp.MustCompile("tell\\(ctx, `(cannot run \\$\\{PRUNER\\}: [^`]+every tool call will be blocked)`\\)").FindSubmatch(ext)
	if name == nil || how == nil || msg == nil {
		t.Fatalf("extensions/protect.ts: the start-up check's message is not where this test looks (NAME %q, how %q, message %q)", name, how, msg)
	}
	const bin = "/nonexistent"
	r := strings.NewReplacer(
		"${PRUNER}", bin,
		"${r.error.message}", "spawnSync "+bin+" ENOENT",
		`${process.env.PRUNER_BIN ?? "unset"}`, bin,
	)
	line := string(name[1]) + ": " + r.Replace(strings.ReplaceAll(string(msg[1]), "${how}", string(how[1])))
	if strings.Contains(line, "${") {
		t.Fatalf("unexpanded template in %q", line)
	}
	if !strings.Contains(string(doc), "PRUNER_BIN="+bin+" pi --offline -p hi") {
		t.Errorf("docs/pi-extensions.md has no offline check (PRUNER_BIN=%s pi --offline -p hi)", bin)
	}
	if !strings.Contains(string(doc), "# stderr: "+line+"\n") {
		t.Errorf("docs/pi-extensions.md: the offline check's stderr line is not what protect.ts writes:\n  want # stderr: %s", line)
	}
}
