package session

import (
	"fmt"
	"os"
	"path/filepath"
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
		s := ctx.EntryType(be) + ":" + ctx.EntryID(be)
		if ctx.EntryCustomType(be) != "" {
			s += ":" + ctx.EntryCustomType(be)
		}
		if !be.InContext() {
			s += ":out"
		}
		if (ctx.EntryMessage(be) != nil) != (ctx.EntryType(be) == "message") {
			t.Errorf("%s: Message set = %v", s, ctx.EntryMessage(be) != nil)
		}
		if ctx.EntryMessage(be) != nil && ctx.EntryKey(be) != ctx.EntryMessage(be).EntryKey() || ctx.EntryKey(be) == 0 {
			t.Errorf("%s: EntryKey %d, its message's %v", s, ctx.EntryKey(be), ctx.EntryMessage(be))
		}
		line, err := ctx.EntryLine(be)
		if err != nil || !strings.Contains(string(line), `"id":"`+ctx.EntryID(be)+`"`) {
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

// Context.EntryKey gives a branch entry the key its messages have, for
// 8-hex ids, other ids and v1 stand-ins, on every shipped session; keys of
// distinct ids differ.
func TestEntryKeyMatchesMessages(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	checked := 0
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := Read(f, f, ReadOptions{Branch: true})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		byKey := map[uint64]string{}
		for i := range ctx.Branch {
			be := &ctx.Branch[i]
			k := ctx.EntryKey(be)
			if (k == 0) != (ctx.EntryID(be) == "") {
				t.Fatalf("%s: entry %q has key %d", p, ctx.EntryID(be), k)
			}
			if id, ok := byKey[k]; ok && id != ctx.EntryID(be) {
				t.Fatalf("%s: ids %q and %q share key %d", p, id, ctx.EntryID(be), k)
			}
			byKey[k] = ctx.EntryID(be)
			if ctx.EntryMessage(be) != nil {
				if ctx.EntryMessage(be).EntryKey() != k {
					t.Fatalf("%s: entry %q key %d, its message's %d", p, ctx.EntryID(be), k, ctx.EntryMessage(be).EntryKey())
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no message entry checked")
	}
}

// The branch and the entries are the same whichever of them are read: the
// branch shares Entries' records when the path is every entry, and the
// entries' chunks given back as a list passes them are never read again.
func TestBranchAndEntriesReadTogether(t *testing.T) {
	branched := hdr +
		msgLine("a", "", "user", `"old"`) +
		msgLine("b", "a", "user", `"kept"`) +
		msgLine("x", "a", "user", `"abandoned sibling"`) +
		msgLine("d", "b", "user", `"after"`)
	var long strings.Builder
	long.WriteString(hdr)
	for i := range 3 * entryChunk {
		parent := ""
		if i > 0 {
			parent = fmt.Sprintf("e%d", i-1)
		}
		long.WriteString(msgLine(fmt.Sprintf("e%d", i), parent, "user", `"m"`))
	}
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	inputs := []string{branched, long.String()}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, string(b))
	}
	for k, in := range inputs {
		read := func(o ReadOptions) *Context {
			ctx, err := Read(strings.NewReader(in), strings.NewReader(in), o)
			if err != nil {
				t.Fatal(err)
			}
			return ctx
		}
		both, br, all := read(ReadOptions{Branch: true, AllEntries: true}), read(ReadOptions{Branch: true}), read(ReadOptions{AllEntries: true})
		if len(both.Branch) != len(br.Branch) || len(both.Entries) != len(all.Entries) {
			t.Fatalf("input %d: %d/%d branch entries, %d/%d entries", k, len(both.Branch), len(br.Branch), len(both.Entries), len(all.Entries))
		}
		for i := range br.Branch {
			if both.Branch[i] != br.Branch[i] {
				t.Errorf("input %d: branch entry %d: %+v, read alone %+v", k, i, both.Branch[i], br.Branch[i])
			}
		}
		for i := range all.Entries {
			if both.Entries[i] != all.Entries[i] {
				t.Errorf("input %d: entry %d: %+v, read alone %+v", k, i, both.Entries[i], all.Entries[i])
			}
		}
	}
}
