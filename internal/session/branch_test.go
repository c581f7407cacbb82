package session

import (
	"strings"
	"testing"
)

func TestBranchListsEveryEntryOnThePath(t *testing.T) {
	in := hdr +
		msgLine("a", "", "user", `"old"`) +
		msgLine("b", "a", "user", `"kept"`) +
		msgLine("x", "a", "user", `"abandoned sibling"`) +
		`{"type":"custom","customType":"context-prune-index","data":{"toolCalls":[]},"id":"i","parentId":"b","timestamp":"2026-01-01T00:00:02.000Z"}` + "\n" +
		`{"type":"compaction","id":"c","parentId":"i","timestamp":"2026-01-01T00:00:03.000Z","summary":"S","firstKeptEntryId":"b","tokensBefore":7}` + "\n" +
		`{"type":"custom_message","customType":"context-prune-summary","content":"sum","display":false,"id":"m","parentId":"c","timestamp":"2026-01-01T00:00:04.000Z"}` + "\n" +
		msgLine("d", "m", "user", `"after"`)
	ctx, err := Read(strings.NewReader(in), strings.NewReader(in), ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range ctx.Branch {
		be := &ctx.Branch[i]
		s := be.Type + ":" + be.ID
		if be.CustomType != "" {
			s += ":" + be.CustomType
		}
		if !be.InContext {
			s += ":out"
		}
		if (be.Message != nil) != (be.Type == "message") {
			t.Errorf("%s: Message set = %v", s, be.Message != nil)
		}
		line, err := ctx.EntryLine(be)
		if err != nil || !strings.Contains(string(line), `"id":"`+be.ID+`"`) {
			t.Errorf("%s: EntryLine = %q, %v", s, line, err)
		}
		got = append(got, s)
	}
	want := "message:a:out message:b custom:i:context-prune-index compaction:c custom_message:m:context-prune-summary message:d"
	if strings.Join(got, " ") != want {
		t.Fatalf("branch\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	noBranch, _ := Read(strings.NewReader(in), strings.NewReader(in), ReadOptions{})
	if noBranch.Branch != nil {
		t.Fatal("Branch set without ReadOptions.Branch")
	}
}
