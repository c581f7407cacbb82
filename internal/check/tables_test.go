package check

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/guard"
	"github.com/pruner-dev/pruner/internal/hostfs"
)

// idOps replays data as entries of a session: each step an id and a
// parentId from a small set that mixes pi's 8-hex-digit ids with ids that
// only look like them (upper case, 7 or 9 digits, a non-hex letter) and
// other strings, so ids repeat, parents are missing, chains loop.
func idOps(data []byte, f func(id, parent string, num int)) {
	pool := []string{"0000000a", "0000000A", "00000000", "ffffffff", "abcdef12", "abcdef1", "abcdef123", "abcdeg12",
		"a", "b", "x-1", "", "12345678", "1234567g", "deadbeef", "DEADBEEF", "user:1", "00000001"}
	for i := 0; i+1 < len(data); i += 2 {
		f(pool[int(data[i])%len(pool)], pool[int(data[i+1])%len(pool)], i/2+2)
	}
}

// checkIDTable compares entryIDs with the string-keyed model on the entries
// data makes: every add's answer, and the cycles found.
func checkIDTable(t *testing.T, data []byte) {
	got, want := newEntryIDs(), newRefEntryIDs()
	idOps(data, func(id, parent string, num int) {
		if id == "" {
			return // the checker adds only entries with an id
		}
		gp, gd := got.add(id, parent, num)
		wp, wd := want.add(id, parent, num)
		if gp != wp || gd != wd {
			t.Fatalf("add(%q, %q, %d) = %d, %v; the model says %d, %v", id, parent, num, gp, gd, wp, wd)
		}
	})
	if g, w := got.cycles(), want.cycles(); !reflect.DeepEqual(g, w) {
		t.Fatalf("cycles\n got %v\nwant %v", g, w)
	}
}

// entryIDs gives the answers of the string-keyed table it replaced, on
// random sessions of ids that repeat, chain, loop and only look like hex.
func TestEntryIDsMatchesStringKeyedTable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		data := make([]byte, 2*(1+r.IntN(40)))
		for i := range data {
			data[i] = byte(r.IntN(256))
		}
		checkIDTable(t, data)
	}
	// a loop through hex and other ids is reported with the ids as written
	ids := newEntryIDs()
	ids.add("0000000a", "x-1", 2)
	ids.add("x-1", "abcdef12", 3)
	ids.add("abcdef12", "0000000a", 4)
	if c := ids.cycles(); len(c) != 1 || c[0].Message != "parentId chain loops: 0000000a -> x-1 -> abcdef12 -> 0000000a" || c[0].Line != 2 {
		t.Fatalf("cycles = %v", c)
	}
}

func FuzzEntryIDs(f *testing.F) {
	f.Add([]byte{0, 1, 1, 0, 2, 3, 3, 2, 8, 9, 9, 8})
	f.Add([]byte("entries that repeat and loop"))
	f.Fuzz(checkIDTable)
}

// hex8 takes exactly the ids of 8 lowercase hex digits, and name gives
// each id back as written.
func TestHex8RoundTrip(t *testing.T) {
	for _, id := range []string{"00000000", "0000000a", "ffffffff", "abcdef12", "9a8b7c6d"} {
		ids := newEntryIDs()
		s := ids.of(id)
		if _, ok := hex8(id); !ok || ids.name(s) != id || ids.key[s]&otherID != 0 {
			t.Errorf("%q: hex8 ok %v, name %q, key %x", id, ok, ids.name(s), ids.key[s])
		}
	}
	for _, id := range []string{"", "0000000A", "abcdef1", "abcdef123", "abcdeg12", " bcdef12", "ABCDEF12", "0x000000"} {
		if _, ok := hex8(id); ok {
			t.Errorf("hex8(%q) takes it", id)
		}
	}
}

// callTable answers as a map from call id to callInfo does, also for ids
// whose hashes clash and for ids and paths longer than an arena block.
func TestCallTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	long := strings.Repeat("p", arenaBlock)
	ct, model := newCallTable(), map[string]callInfo{}
	idOf := func(n int) string {
		switch n % 5 {
		case 0:
			return "toolu_" + strings.Repeat("x", n%40) + string(rune('a'+n%26))
		case 1:
			return long[:arenaBlock/8+n] // its own block
		}
		return "call_" + string(rune('A'+n%26)) + strings.Repeat("9", n%7)
	}
	for i := range 5000 {
		id := idOf(r.IntN(300))
		if r.IntN(3) == 0 {
			want, known := model[id]
			if got, ok := ct.get(id); ok != known || got != want {
				t.Fatalf("get(%q) = %+v, %v; want %+v, %v", id, got, ok, want, known)
			}
			continue
		}
		ci := callInfo{name: []string{"read", "bash", "edit", ""}[r.IntN(4)]}
		if r.IntN(2) == 0 {
			ci.path, ci.hasPath = idOf(i)+"/.env", true
		}
		ct.set(id, ci.name, ci.path, ci.hasPath)
		model[id] = ci
	}
	// a clash: "b"'s hash already names "a"'s record
	ct = newCallTable()
	ct.set("a", "read", "/a", true)
	ct.byHash[maphash.String(ct.seed, "b")] = ct.byHash[maphash.String(ct.seed, "a")]
	if _, ok := ct.get("b"); ok {
		t.Fatal("b found before it was set")
	}
	ct.set("b", "bash", "", false)
	ct.set("b", "edit", "/b", true)
	a, okA := ct.get("a")
	b, okB := ct.get("b")
	if !okA || a != (callInfo{"read", "/a", true}) || !okB || b != (callInfo{"edit", "/b", true}) || len(ct.clashed) != 1 {
		t.Fatalf("after a clash: a %+v %v, b %+v %v, clashed %v", a, okA, b, okB, ct.clashed)
	}
}

// refEntryIDs is the first pass's id table as it was before it held ids as
// integers (string-keyed maps): the model entryIDs is compared with.
type refEntryIDs struct {
	slot   map[string]int32
	names  []string // slot → id
	line   []int32  // slot → the line of the entry with that id; 0: no entry (only named as a parentId)
	parent []int32  // slot → its entry's parentId's slot; -1: none
	order  []int32  // slots of the entries with a parentId, in file order
}

func newRefEntryIDs() refEntryIDs { return refEntryIDs{slot: map[string]int32{}} }

// of returns id's slot, adding it.
func (t *refEntryIDs) of(id string) int32 {
	if s, ok := t.slot[id]; ok {
		return s
	}
	s := int32(len(t.names))
	t.slot[id] = s
	t.names = append(t.names, id)
	t.line = append(t.line, 0)
	t.parent = append(t.parent, -1)
	return s
}

// add records the entry id on line num with parentID ("" for none); dup
// reports an id already used, with the line (prev) of its first entry,
// which keeps its parent.
func (t *refEntryIDs) add(id, parentID string, num int) (prev int, dup bool) {
	s := t.of(id)
	if t.line[s] != 0 {
		return int(t.line[s]), true
	}
	t.line[s] = int32(num)
	if parentID != "" {
		p := t.of(parentID)
		t.parent[s] = p
		t.order = append(t.order, s)
	}
	return 0, false
}

// cycles reports each parent cycle once, at the line of its first entry in
// file order.
func (t *refEntryIDs) cycles() []Finding {
	state := make([]uint8, len(t.names)) // 1 on the current walk, 2 done
	var out []Finding
	var walk []int32
	for _, start := range t.order { // file order: lines increase
		if state[start] != 0 {
			continue
		}
		walk = walk[:0]
		cur := start
		for {
			if state[cur] == 2 {
				break
			}
			if state[cur] == 1 {
				// cur is on this walk: the cycle is walk[idx(cur):]
				var members []int32
				for i := len(walk) - 1; i >= 0; i-- {
					members = append(members, walk[i])
					if walk[i] == cur {
						break
					}
				}
				minID := members[0]
				for _, m := range members {
					if t.line[m] < t.line[minID] {
						minID = m
					}
				}
				// in link order, from the entry first in the file: each id's
				// parentId is the next, the last's is the first again
				chain := []string{t.names[minID]}
				for p := t.parent[minID]; p >= 0 && p != minID && len(chain) <= len(members); p = t.parent[p] {
					chain = append(chain, t.names[p])
				}
				chain = append(chain, t.names[minID])
				out = append(out, Finding{Line: int(t.line[minID]), Kind: KindParentCycle, EntryID: t.names[minID],
					Message: fmt.Sprintf("parentId chain loops: %s", strings.Join(chain, " -> "))})
				break
			}
			state[cur] = 1
			walk = append(walk, cur)
			next := t.parent[cur]
			if next < 0 || t.line[next] == 0 { // no parentId, or one no entry has
				break
			}
			cur = next
		}
		for _, w := range walk {
			state[w] = 2
		}
	}
	return out
}

// Remembered verdicts change nothing: every shipped session, and one that
// repeats calls (the same read blocked once and leaked once, the same
// arguments under another tool, odd arguments twice), checks the same as
// when each call is analysed, also against this machine's disk.
func TestVerdictsMatchAnalysingEachCall(t *testing.T) {
	inputs := map[string][]byte{}
	err := filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			inputs[p], err = os.ReadFile(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	call := func(id, tool, args string) string {
		return `{"type":"message","id":"` + id + `","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"` + id + `","name":"` + tool + `","arguments":` + args + `}],"timestamp":1}}`
	}
	result := func(id, tool, text string, isErr bool) string {
		e := "false"
		if isErr {
			e = "true"
		}
		return `{"type":"message","id":"r` + id + `","parentId":"` + id + `","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"toolResult","toolCallId":"` + id + `","toolName":"` + tool + `","content":[{"type":"text","text":"` + text + `"}],"isError":` + e + `,"timestamp":2}}`
	}
	lines := []string{`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/home/user/p"}`,
		call("00000001", "read", `{"path":".env"}`), result("00000001", "read", "blocked by hook", true),
		call("00000002", "read", `{"path":".env"}`), result("00000002", "read", "KEY=1", false),
		call("00000003", "bash", `{"path":".env"}`), result("00000003", "bash", "ok", false),
		call("00000004", "bash", `{"command":"cat .env"}`), call("00000005", "bash", `{"command":"cat .env"}`),
		call("00000006", "read", `[1]`), call("00000007", "read", `[1]`), call("00000008", "", `{"path":".env"}`)}
	inputs["repeats"] = []byte(strings.Join(lines, "\n") + "\n")
	repeated := 0
	for _, fsys := range []guard.FS{nil, hostfs.NewCached()} {
		for p, data := range inputs {
			o := opts()
			o.FS = fsys
			got := CheckReader(bytes.NewReader(data), p, o)
			o.analyseEach = true
			want := CheckReader(bytes.NewReader(data), p, o)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: remembering verdicts %v, analysing each call %v", p, kinds(got), kinds(want))
			}
			if p == "repeats" {
				repeated = len(got.Findings)
			}
		}
	}
	if repeated < 6 {
		t.Fatalf("the repeating session has %d findings", repeated)
	}
}

// The pairing pass of a session file reads what the first pass read: from
// the file's memory map while it has that size, up to that size once pi has
// appended to it (an orphan result appended after the first pass is not
// reported), and it finds what reading the bytes from memory finds, on
// every shipped session.
func TestPairingPassReadsWhatTheFirstPassRead(t *testing.T) {
	dir := t.TempDir()
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, filepath.Base(p))
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		res := CheckReader(bytes.NewReader(data), p, opts())
		if !res.sessionHeader {
			continue
		}
		fromMemory := res
		fromMemory.Findings = slices.Clone(res.Findings)
		addPairing(&fromMemory, bytes.NewReader(data))
		for _, grow := range []bool{false, true} {
			f, err := os.OpenFile(name, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			if grow {
				orphan := `{"type":"message","id":"zz000001","parentId":null,"timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"toolResult","toolCallId":"nocall","toolName":"read","content":[],"isError":false,"timestamp":2}}` + "\n"
				if _, err := f.WriteAt([]byte(orphan), int64(len(data))); err != nil {
					t.Fatal(err)
				}
			}
			fromFile := res
			fromFile.Findings = slices.Clone(res.Findings)
			addPairing(&fromFile, f)
			f.Close()
			if !reflect.DeepEqual(fromFile.Findings, fromMemory.Findings) {
				t.Errorf("%s (grown %v): from the file %v, from memory %v", p, grow, kinds(fromFile), kinds(fromMemory))
			}
		}
	}
	if len(paths) < 5 {
		t.Fatalf("%d shipped sessions", len(paths))
	}
}
