package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/session"
)

// replayRequests splits a session into the prefixes pi sends requests
// for: the header and the leaf's path up to (not including) each assistant
// message — the request that produced it. Entries are written in path
// order, so each prefix is a linear session whose leaf is the last entry
// before that assistant message. turnsOnly keeps the first request of each
// user turn (the prefix ends with the user message).
func replayRequests(t testing.TB, data []byte, turnsOnly bool) [][]byte {
	t.Helper()
	ctx := read(t, data)
	lines := bytes.SplitAfter(data, []byte("\n"))
	var header []byte
	for _, l := range lines {
		if len(bytes.TrimSpace(l)) > 0 {
			header = l
			break
		}
	}
	prefix := append([]byte(nil), header...)
	if !bytes.HasSuffix(prefix, []byte("\n")) {
		prefix = append(prefix, '\n')
	}
	var out [][]byte
	for i := range ctx.Branch {
		be := &ctx.Branch[i]
		if m := ctx.EntryMessage(be); ctx.EntryType(be) == "message" && m != nil && m.Role() == session.RoleAssistant && i > 0 {
			prev := &ctx.Branch[i-1]
			if pm := ctx.EntryMessage(prev); !turnsOnly || pm != nil && pm.Role() == session.RoleUser {
				out = append(out, append([]byte(nil), prefix...))
			}
		}
		line, err := ctx.EntryLine(be)
		if err != nil {
			t.Fatal(err)
		}
		prefix = append(append(prefix, line...), '\n')
	}
	return out
}

// replayStep is one request of a replay: the rendered context, where its
// newest turn starts (the byte offset of its last user message that is not
// a chain message), and the size of the state behind it.
type replayStep struct {
	out      []byte
	newest   int
	records  int
	chains   int
	aliases  int
	masked   int
	frontier string // the flush's last attempted call: moves with every flush, trivial ones too
	flushErr string
	// compactions counts the compaction and branch_summary entries on the
	// branch: pi rebuilds the context at each (its own rewrite)
	compactions int
}

func replayRun(t testing.TB, data []byte, o Options) replayStep {
	t.Helper()
	ctx, err := session.Read(bytes.NewReader(data), bytes.NewReader(data), session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := r.writeContext(&out); err != nil {
		t.Fatal(err)
	}
	st := replayStep{out: out.Bytes(), flushErr: r.FlushSkipped}
	for i := range ctx.Branch {
		if typ := ctx.EntryType(&ctx.Branch[i]); typ == "compaction" || typ == "branch_summary" {
			st.compactions++
		}
	}
	if r.State != nil {
		st.records, st.chains, st.aliases = r.State.Len(), len(r.State.Chains()), len(r.State.Aliases())
		if f := r.State.Frontier; f != nil {
			st.frontier = fmt.Sprint(f.LastAttemptedTurnIndex, f.LastAttemptedToolCallID)
		}
	}
	if r.Mask != nil {
		for _, d := range r.Mask.Decisions {
			if d.Kind != prune.Keep {
				st.masked++
			}
		}
	}
	off := 0
	for _, l := range bytes.SplitAfter(st.out, []byte("\n")) {
		if role, _ := jsval.Get(bytes.TrimSpace(l), "role"); string(role) == `"user"` && !bytes.Contains(l, []byte(`"<compressed-chain`)) {
			st.newest = off
		}
		off += len(l)
	}
	return st
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// TestReplay renders every session in testdata/sessions request by
// request, as pi sends them (each prefix of the leaf's path that ends
// before an assistant message), with the defaults (flush in memory, chains,
// masking), and checks the prompt-cache property of issue 8: from one
// request to the next, the bytes before the previous request's newest turn
// stay the same, except at a rewrite point — a request where the flush
// indexes something new (a record, a dedup alias), compresses a chain, or
// masking masks another result; pi's own rebuilds (a compaction, a branch
// summary) are counted apart. A flush point is a request where the flush
// indexes something new, compresses a chain, moves its frontier (a batch
// under minBatchChars: the flush ran) or masking masks another result. It
// reports the count of such points per session.
//
// Under the race detector (about ten times slower) the three large pi-mono
// sessions are replayed at the first request of each user turn only (the
// state compared is cumulative, so a point anywhere in between counts).
func TestReplay(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(testdata, "sessions", "*.jsonl"))
	if len(paths) < 10 {
		t.Fatalf("only %d sessions", len(paths))
	}
	o := defaults(t)
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			reqs := replayRequests(t, data, raceEnabled && len(data) > 900<<10)
			var prev *replayStep
			points, changed, compactions := 0, 0, 0
			var where []string
			for k, req := range reqs {
				cur := replayRun(t, req, o)
				if prev != nil && cur.compactions != prev.compactions {
					compactions++ // pi rebuilt the context: not pruner's
				} else if prev != nil {
					point := cur.records > prev.records || cur.chains > prev.chains || cur.aliases > prev.aliases || cur.masked > prev.masked || cur.frontier != prev.frontier
					c := commonPrefix(prev.out, cur.out)
					if point {
						points++
					}
					if c < prev.newest {
						changed++
						if !point {
							ls := bytes.LastIndexByte(prev.out[:c], '\n') + 1
							t.Errorf("request %d: the context changed at byte %d, before the previous request's newest turn (byte %d), with no flush, chain or masking change:\n was: %.400s\n now: %.400s",
								k+1, c, prev.newest, prev.out[ls:], cur.out[ls:])
						} else {
							where = append(where, fmt.Sprint(k+1))
						}
					}
				}
				prev = &cur
			}
			t.Logf("%s: %d requests; %d flush points (a flush, a chain or masking), at %d of them bytes before the newest turn changed (requests %s); %d of pi's compactions",
				name, len(reqs), points, changed, strings.Join(where, " "), compactions)
		})
	}
}
