package render_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/estimate"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
)

const skill = `{"path":"skills/x/SKILL.md"}`

// two reads of one skill file, in two turns; flush adds an index entry
// (recorded after both reads) for a result with timestamp flushTS.
func twoSkillReads(flushTS int, secondArgs string, secondErr bool) string {
	b := newSession()
	b.user("one", 1000)
	b.assistant(1100, call("c0", "bash", `{"command":"ls"}`), call("c1", "read", skill))
	b.result("c0", "bash", "listing", false, 1150)
	b.result("c1", "read", "skill v1", false, 1200)
	b.reply("ok", 1300)
	b.user("two", 2000)
	b.assistant(2100, call("c2", "read", secondArgs))
	b.result("c2", "read", "skill v2", secondErr, 2200)
	b.reply("ok", 2300)
	if flushTS > 0 {
		b.summarize(1, [3]string{"c0", "bash", fmt.Sprint(flushTS)})
	}
	b.user("three", 3000)
	return b.String()
}

func TestSupersededReadTakesEffectOnlyAtAFloor(t *testing.T) {
	o := defaults(t)
	// no rewrite recorded after the newer read: no fresh cache break
	msgs, _, res := run(t, twoSkillReads(0, skill, false), o)
	if text(results(msgs, "c1")[0]) != "skill v1" || res.Report.Superseded != 0 {
		t.Fatalf("superseded without a rewrite point: %v", results(msgs, "c1"))
	}
	// a flush recorded after it that rewrites from 2300 on: the older read
	// (1200) is before the floor, so the prefix up to it stays
	msgs, _, _ = run(t, twoSkillReads(2300, skill, false), o)
	if text(results(msgs, "c1")[0]) != "skill v1" {
		t.Fatalf("superseded above the floor: %v", results(msgs, "c1"))
	}
	// a flush that rewrites from 1150 on: the older read goes
	msgs, _, res = run(t, twoSkillReads(1150, skill, false), o)
	got := results(msgs, "c1")[0]
	if text(got) != render.SupersededNotice("skills/x/SKILL.md") || got["isError"] != false || res.Report.Superseded != 1 {
		t.Fatalf("not superseded at the floor: %v", got)
	}
	if text(results(msgs, "c2")[0]) != "skill v2" {
		t.Fatal("the newest read is not verbatim")
	}
	// off: nothing
	o.Supersede = false
	msgs, _, _ = run(t, twoSkillReads(1150, skill, false), o)
	if text(results(msgs, "c1")[0]) != "skill v1" {
		t.Fatal("superseded with the pass off")
	}
}

func TestSupersedeNeedsTheSameReadAndANewerSuccess(t *testing.T) {
	o := defaults(t)
	for name, in := range map[string]string{
		"other range":   twoSkillReads(1150, `{"path":"skills/x/SKILL.md","offset":40}`, false),
		"newer errored": twoSkillReads(1150, skill, true),
	} {
		msgs, _, _ := run(t, in, o)
		if text(results(msgs, "c1")[0]) != "skill v1" {
			t.Errorf("%s: superseded: %v", name, results(msgs, "c1"))
		}
	}
	// the path is normalised (`\` as `/`), like protectedPaths
	msgs, _, _ := run(t, twoSkillReads(1150, `{"path":"skills\\x\\SKILL.md"}`, false), o)
	if !strings.HasPrefix(text(results(msgs, "c1")[0]), "[Superseded: skills/x/SKILL.md ") {
		t.Errorf("backslash path not the same read: %v", results(msgs, "c1"))
	}
}

func bigArgs() string {
	return fmt.Sprintf(`{"path":"a.txt","content":%q,"n":5,"list":["short",%q],"nested":{"k":%q}}`, strings.Repeat("x", 600), strings.Repeat("y", 201), strings.Repeat("z", 200))
}

// an errored write, then turns more assistant turns.
func erroredWrite(turns int, extra func(b *sb)) string {
	b := newSession()
	b.user("go", 1000)
	b.assistant(1100, call("w1", "write", bigArgs()))
	b.result("w1", "write", "Error: EACCES", true, 1200)
	for i := 0; i < turns; i++ {
		b.assistant(1300+i*100, call(fmt.Sprintf("b%d", i), "bash", `{"command":"true"}`))
		b.result(fmt.Sprintf("b%d", i), "bash", "", false, 1350+i*100)
	}
	if extra != nil {
		extra(b)
	}
	return b.String()
}

func argsOf(t *testing.T, msgs []map[string]any, id string) map[string]any {
	t.Helper()
	for _, m := range msgs {
		if m["role"] != "assistant" {
			continue
		}
		for _, c := range m["content"].([]any) {
			if b := c.(map[string]any); b["type"] == "toolCall" && b["id"] == id {
				return b["arguments"].(map[string]any)
			}
		}
	}
	t.Fatalf("no call %s", id)
	return nil
}

func TestErrorPurgeKeepsShape(t *testing.T) {
	o := defaults(t)
	// cooldown 2: one turn later the arguments stay
	msgs, _, _ := run(t, erroredWrite(0, nil), o)
	if args := argsOf(t, msgs, "w1"); args["content"] != strings.Repeat("x", 600) {
		t.Fatal("purged inside the cooldown")
	}
	msgs, _, _ = run(t, erroredWrite(1, nil), o)
	if args := argsOf(t, msgs, "w1"); args["content"] != strings.Repeat("x", 600) {
		t.Fatal("purged at cooldown-1")
	}
	msgs, out, res := run(t, erroredWrite(2, nil), o)
	args := argsOf(t, msgs, "w1")
	want := map[string]any{
		"path":    "a.txt",
		"content": `<purged-errored-args size="600"/>`,
		"n":       float64(5),
		"list":    []any{"short", `<purged-errored-args size="201"/>`},
		"nested":  map[string]any{"k": strings.Repeat("z", 200)}, // 200 is not over 200
	}
	if g, w := fmt.Sprint(args), fmt.Sprint(want); g != w || res.Report.Purged != 1 {
		t.Fatalf("purged args\n got %s\nwant %s", g, w)
	}
	if text(results(msgs, "w1")[0]) != "Error: EACCES" {
		t.Fatal("the error result changed")
	}
	// idempotent: purging the purged output changes nothing
	ctxIn := string(out)
	_, again, _ := run(t, ctxIn, o)
	if string(again) != ctxIn {
		t.Fatal("purge not idempotent")
	}
	// small arguments stay
	o.PurgeMinArgChars = 100000
	msgs, _, _ = run(t, erroredWrite(3, nil), o)
	if argsOf(t, msgs, "w1")["content"] != strings.Repeat("x", 600) {
		t.Fatal("purged below minArgChars")
	}
}

func TestErrorPurgeFollowsTheOccurrence(t *testing.T) {
	// the provider reuses w1 for a later, successful write: only the errored
	// occurrence's arguments go (pi-condense keys by bare id and would purge
	// both)
	in := erroredWrite(2, func(b *sb) {
		b.assistant(2000, call("w1", "write", bigArgs()))
		b.result("w1", "write", "ok", false, 2100)
		b.assistant(2200, call("b9", "bash", `{}`))
		b.result("b9", "bash", "", false, 2300)
		b.assistant(2400, call("b10", "bash", `{}`))
		b.result("b10", "bash", "", false, 2500)
	})
	msgs, _, _ := run(t, in, defaults(t))
	var contents []any
	for _, m := range msgs {
		if m["role"] != "assistant" {
			continue
		}
		for _, c := range m["content"].([]any) {
			if b := c.(map[string]any); b["id"] == "w1" {
				contents = append(contents, b["arguments"].(map[string]any)["content"])
			}
		}
	}
	if len(contents) != 2 || contents[0] != `<purged-errored-args size="600"/>` || contents[1] != strings.Repeat("x", 600) {
		t.Fatalf("contents %v", contents)
	}
}

func TestErrorPurgeOfASummarizedCall(t *testing.T) {
	// the errored call is summarized: its result is a stub (isError false, as
	// pi-condense writes it), and its arguments are purged all the same —
	// the index record keeps them (pruner query returns them)
	in := erroredWrite(2, func(b *sb) { b.summarize(1, [3]string{"w1", "write", "1200"}) })
	msgs, _, _ := run(t, in, defaults(t))
	r := results(msgs, "w1")[0]
	if !strings.HasPrefix(text(r), "[Summarized in pruner summary, ref `t1`") || r["isError"] != false {
		t.Fatalf("stub %v", r)
	}
	if argsOf(t, msgs, "w1")["content"] != `<purged-errored-args size="600"/>` {
		t.Fatal("summarized errored call not purged")
	}
}

func images(n int) string {
	b := newSession()
	for i := 0; i < n; i++ {
		b.message(fmt.Sprintf(`{"role":"user","content":[{"type":"text","text":"img %d"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"timestamp":%d}`, i, 1000+i))
	}
	return b.String()
}

func countImages(msgs []map[string]any) (imgs, notes int) {
	for _, m := range msgs {
		c, _ := m["content"].([]any)
		for _, x := range c {
			b := x.(map[string]any)
			switch {
			case b["type"] == "image":
				imgs++
			case b["text"] == render.ImageOmittedNote:
				notes++
			}
		}
	}
	return
}

func TestImageCapInSteps(t *testing.T) {
	for _, c := range []struct{ total, max, omitted int }{
		{5, 5, 0}, {5, 6, 0}, {5, 2, 3}, {5, 4, 2}, {6, 4, 2}, {7, 4, 4}, {9, 4, 6}, {5, 1, 4},
	} {
		o := defaults(t)
		o.MaxImages = c.max
		msgs, _, res := run(t, images(c.total), o)
		imgs, notes := countImages(msgs)
		if notes != c.omitted || imgs != c.total-c.omitted || res.Report.ImagesOmitted != c.omitted {
			t.Errorf("total %d max %d: %d images, %d notes; want %d omitted", c.total, c.max, imgs, notes, c.omitted)
		}
		if c.omitted > 0 && text(msgs[len(msgs)-1]) != fmt.Sprintf("img %d", c.total-1) {
			t.Errorf("the newest message changed")
		}
		// the oldest go first
		for i := 0; i < c.omitted; i++ {
			if b := msgs[i]["content"].([]any)[1].(map[string]any); b["text"] != render.ImageOmittedNote {
				t.Errorf("total %d max %d: image %d kept before a newer one went", c.total, c.max, i)
			}
		}
	}
	// applied when pruning is off (ImagesOnly), nothing else
	o := render.Options{MaxImages: 2, ImagesOnly: true}
	msgs, _, _ := run(t, images(5), o)
	if _, notes := countImages(msgs); notes != 3 {
		t.Errorf("ImagesOnly: %d notes", notes)
	}
	// messages masking rewrites are not counted
	o.WillMask = func(i int) bool { return i < 3 }
	msgs, _, _ = run(t, images(5), o)
	if _, notes := countImages(msgs); notes != 0 {
		t.Errorf("WillMask: %d notes", notes)
	}
}

// a read of a skill summarized under an older config.
func summarizedSkillRead() string {
	b := newSession()
	b.user("one", 1000)
	b.assistant(1100, call("r1", "read", skill), call("r2", "read", `{"path":"src/a.go"}`))
	b.result("r1", "read", "SKILL BODY", false, 1200)
	b.result("r2", "read", "package a", false, 1200)
	b.summarize(1, [3]string{"r1", "read", "1200"}, [3]string{"r2", "read", "1200"})
	b.reply("ok", 1300)
	b.user("two", 2000)
	return b.String()
}

func TestProtectionRepairAtRender(t *testing.T) {
	b := summarizedSkillRead()
	// the record's args are protected now: verbatim again
	msgs, _, res := run(t, strings.ReplaceAll(b, `"args":{}`, `"args":{"path":"skills/x/SKILL.md"}`), defaults(t))
	if text(results(msgs, "r1")[0]) != "SKILL BODY" || res.Report.Repaired != 2 {
		t.Fatalf("not repaired: %v (report %+v)", results(msgs, "r1"), res.Report)
	}
	// a protectedTools name protects too, and an unprotected record stays stubbed
	o := defaults(t)
	o.Protect = mustPredicate(t, []string{"rea?"}, nil)
	msgs, _, _ = run(t, b, o)
	if text(results(msgs, "r2")[0]) != "package a" {
		t.Fatal("protectedTools glob not repaired")
	}
	o.Protect = mustPredicate(t, nil, nil)
	msgs, _, _ = run(t, b, o)
	if !strings.HasPrefix(text(results(msgs, "r1")[0]), "[Summarized in pruner summary, ref `t1`") {
		t.Fatal("stub missing without protection")
	}
}

func TestRecoveryGrace(t *testing.T) {
	build := func(usersAfter int) string {
		b := newSession()
		b.user("one", 1000)
		b.assistant(1100, call("q1", render.QueryToolName, `{"toolCallIds":["t1"]}`))
		b.result("q1", render.QueryToolName, "RECOVERED", false, 1200)
		b.summarize(1, [3]string{"q1", render.QueryToolName, "1200"})
		b.reply("ok", 1300)
		for i := 0; i < usersAfter; i++ {
			b.user("more", 2000+i)
		}
		return b.String()
	}
	o := defaults(t) // grace 3
	for after, verbatim := range map[int]bool{0: true, 3: true, 4: false} {
		msgs, _, _ := run(t, build(after), o)
		if got := text(results(msgs, "q1")[0]) == "RECOVERED"; got != verbatim {
			t.Errorf("%d user turns later: verbatim %v, want %v", after, got, verbatim)
		}
	}
	o.RecoveryGraceTurns = 0
	msgs, _, _ := run(t, build(0), o)
	if text(results(msgs, "q1")[0]) == "RECOVERED" {
		t.Error("grace 0 kept the result")
	}
}

func TestOrphanSweepIsReported(t *testing.T) {
	b := newSession()
	b.user("go", 1000)
	b.assistant(1100, call("c1", "bash", `{}`))
	b.entry(`"type":"custom_message","customType":"other-ext","content":"note","display":true`)
	b.result("c1", "bash", "late", false, 1200)
	b.summarize(1, [3]string{"zz", "bash", "5"})
	msgs, _, res := run(t, b.String(), defaults(t))
	if len(results(msgs, "c1")) != 0 || len(res.Report.Swept) != 1 || len(res.Report.Diagnostics) != 1 || res.Report.Diagnostics[0].Kind != "orphan-sweep" {
		t.Fatalf("swept %v diagnostics %v", res.Report.Swept, res.Report.Diagnostics)
	}
}

// a chain: user → two tool turns (one protected) → reply, compressed as b1.
func chainSession(protected string, start int, body string) string {
	b := newSession()
	b.user("task", 1000)
	b.assistant(1100, call("c1", "bash", `{"command":"make"}`))
	b.result("c1", "bash", "build log", false, 1200)
	b.assistant(1300, call("s1", "read", skill))
	b.result("s1", "read", "SKILL BODY", false, 1400)
	b.summarize(1, [3]string{"c1", "bash", "1200"})
	b.reply("done", 1500)
	b.custom(index.TypeChain, fmt.Sprintf(`{"blockId":"b2","startUserTimestamp":%d,"droppedToolCallIds":["c1","s1"],%s"finalAssistantTimestamp":1500,"toolRefs":["t1"],"compressedAt":1600,"rangeSummaryText":%q,"droppedOccurrenceKeys":["c1@1200","s1@1400"]}`, start, protected, body))
	b.user("next", 2000)
	return b.String()
}

func TestChainRendering(t *testing.T) {
	msgs, out, res := run(t, chainSession(`"protectedToolCallIds":["s1"],`, 1000, "did {b2} and {b1}"), defaults(t))
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m["role"].(string))
	}
	if strings.Join(roles, ",") != "user,user,assistant,user" || res.Report.Chains != 1 {
		t.Fatalf("roles %v report %+v", roles, res.Report)
	}
	want := "<compressed-chain id=\"b2\" tools=\"t1\">\ndid {b2} and {b1}\n\n<protected-output tool=\"read\">\nSKILL BODY\n</protected-output>\n</compressed-chain>"
	if text(msgs[1]) != want || msgs[1]["timestamp"] != float64(1600) {
		t.Fatalf("chain message %q", text(msgs[1]))
	}
	if strings.Count(string(out), "SKILL BODY") != 1 {
		t.Fatal("the protected output is not there exactly once")
	}
	// thinking stripped from the kept final assistant
	if c := msgs[2]["content"].([]any); len(c) != 1 || c[0].(map[string]any)["type"] != "text" {
		t.Fatalf("final assistant %v", msgs[2])
	}
	// idempotent on its own output
	_, again, _ := run(t, string(out), defaults(t))
	if string(again) != string(out) {
		t.Fatal("not idempotent")
	}
}

func TestChainThatDoesNotResolveChangesNothing(t *testing.T) {
	o := defaults(t)
	o.Chains = false
	_, plain, _ := run(t, chainSession("", 999, "x"), o)
	o.Chains = true
	_, out, res := run(t, chainSession("", 999, "x"), o)
	if string(out) != string(plain) || len(res.Report.Diagnostics) != 1 || res.Report.Diagnostics[0].Kind != "unresolved-range" {
		t.Fatalf("diagnostics %v; changed %v", res.Report.Diagnostics, string(out) != string(plain))
	}
}

func TestStubsAreBuiltAsJSONStringify(t *testing.T) {
	// an odd but valid spelling of the original's values: the stub carries
	// them as JSON.stringify would
	b := newSession()
	b.user("go", 1000)
	b.assistant(1100, call("c\u00e9", "bash", `{}`))
	b.message(`{"role":"toolResult","toolCallId":"c\u00e9","toolName":"b\u0061sh","content":"x","isError":false,"timestamp":1.2e3}`)
	b.summarize(1, [3]string{"cé", "bash", "1200"})
	_, out, _ := run(t, b.String(), defaults(t))
	want := `{"role":"toolResult","toolCallId":"cé","toolName":"bash","content":[{"type":"text","text":"[Summarized in pruner summary, ref ` + "`t1`" + `. Use context_tree_query to retrieve full output.]"}],"isError":false,"timestamp":1200}`
	if !strings.Contains(string(out), want) {
		t.Fatalf("stub not canonical:\n%s", out)
	}
	var v any
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if json.Unmarshal([]byte(l), &v) != nil {
			t.Fatalf("invalid JSON %s", l)
		}
	}
}

func TestStatsCountImagesAsPiEstimates(t *testing.T) {
	in := images(3)
	ctx, err := session.Read(strings.NewReader(in), strings.NewReader(in), session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := index.Rebuild(ctx)
	res, _ := render.Render(ctx, st, render.Options{MaxImages: 1, ImagesOnly: true})
	var out strings.Builder
	stats, err := render.Write(&out, ctx, res, render.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// two images omitted: each saves pi's 4800-char estimate minus the note
	// (its 4-char base64 data would make the cap look like a loss)
	note := len(`{"type":"text","text":"` + render.ImageOmittedNote + `"}`)
	if saved := stats.CharsBefore - stats.CharsAfter; saved != int64(2*(estimate.ImageChars-note)) {
		t.Fatalf("saved %d chars, want %d", saved, 2*(estimate.ImageChars-note))
	}
}

func TestChainRepairsCallsProtectedSinceCompression(t *testing.T) {
	// b2 was compressed when skills were not protected (no
	// protectedToolCallIds); they are now: the skill output comes back in
	// the chain message, verbatim, once
	in := chainSession("", 1000, "body")
	msgs, out, res := run(t, in, defaults(t))
	if !strings.Contains(text(msgs[1]), "\n\n<protected-output tool=\"read\">\nSKILL BODY\n</protected-output>\n</compressed-chain>") || res.Report.ChainRepaired != 1 {
		t.Fatalf("not repaired: %q", text(msgs[1]))
	}
	if strings.Count(string(out), "SKILL BODY") != 1 {
		t.Fatal("repaired output not there exactly once")
	}
	// under a config that does not protect it: pi-condense's rendering
	o := defaults(t)
	o.Protect = mustPredicate(t, nil, nil)
	msgs, out, _ = run(t, in, o)
	if strings.Contains(string(out), "SKILL BODY") || text(msgs[1]) != "<compressed-chain id=\"b2\" tools=\"t1\">\nbody\n</compressed-chain>" {
		t.Fatalf("chain %q", text(msgs[1]))
	}
	// protected at compression, not any more: the block stays
	msgs, _, _ = run(t, chainSession(`"protectedToolCallIds":["s1"],`, 1000, "body"), o)
	if !strings.Contains(text(msgs[1]), "SKILL BODY") {
		t.Fatal("a recorded protected output was dropped")
	}
}
