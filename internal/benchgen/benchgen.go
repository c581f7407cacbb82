// Package benchgen generates large, realistic pi session files (format v3)
// for benchmarks, by replaying user turns taken from real sessions.
//
// The seeds are split into user turns (a user message and the assistant,
// toolResult and bashExecution messages up to the next user message). The
// output is a v3 session: a header, a model_change, then randomly chosen turns
// (deterministic for a seed), every entry re-id'd with a unique 8-hex id and
// chained by parentId, every toolCall id renamed to a unique id and its
// toolResult's toolCallId renamed with it, so that pairing stays valid, and
// every message's own timestamp set to its entry's time (unique and
// increasing, as in a live session, so chains can be named and compressed). A
// thinking_level_change appears now and then, and two compactions are placed
// early in the file (at about 1.5% and 3% of the target size), so that nearly
// the whole file is in the leaf's context, as in a pruning benchmark it
// should be. Message payloads are copied byte for byte from the seeds: the
// tool result sizes, 50 KB reads, base64 images and thinking blocks with
// signatures are the real ones, in their real proportions.
package benchgen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"
)

// item is one message of a seed turn.
type item struct {
	msg      []byte   // raw message JSON, as in the seed
	callIDs  []string // assistant: toolCall ids in the message
	resultID string   // toolResult: toolCallId
	ts       [2]int   // byte range of the message's own top-level timestamp value ({0, 0}: none)
}

// turn is a user message and everything up to the next user message.
type turn struct {
	items []item
	size  int // approximate output bytes
}

// Corpus holds the turns parsed from the seed sessions.
type Corpus struct {
	turns     []turn
	summaries [][]byte // raw JSON strings of seed compaction summaries
}

// Turns is the number of usable turns in the corpus.
func (c *Corpus) Turns() int { return len(c.turns) }

// entryOverhead approximates the bytes an entry wrapper adds to a message.
const entryOverhead = len(`{"type":"message","id":"01234567","parentId":"01234567","timestamp":"2026-01-01T00:00:00.000Z","message":}`) + 1

// ParseSeeds splits seed sessions (any version) into user turns. Turns whose
// toolCall/toolResult pairing cannot be kept valid after renaming ids (a
// result without an earlier call in its turn, a call id repeated in a turn)
// are dropped. Lines that are not JSON objects are skipped.
func ParseSeeds(seeds [][]byte) (*Corpus, error) {
	c := &Corpus{}
	for _, s := range seeds {
		var cur *turn
		bad := false
		seen := map[string]bool{}     // call ids in the current turn
		answered := map[string]bool{} // call ids with a result
		flush := func() {
			if cur != nil && !bad && len(cur.items) > 1 {
				c.turns = append(c.turns, *cur)
			}
			cur, bad = nil, false
			clear(seen)
			clear(answered)
		}
		for _, line := range bytes.Split(s, []byte("\n")) {
			line = bytes.TrimSpace(line)
			if len(line) == 0 {
				continue
			}
			var e struct {
				Type    string          `json:"type"`
				Message json.RawMessage `json:"message"`
				Summary json.RawMessage `json:"summary"`
			}
			if json.Unmarshal(line, &e) != nil {
				continue
			}
			if e.Type == "compaction" && len(e.Summary) > 0 && e.Summary[0] == '"' {
				c.summaries = append(c.summaries, append([]byte(nil), e.Summary...))
				continue
			}
			if e.Type != "message" || len(e.Message) == 0 {
				continue
			}
			var m struct {
				Role       string          `json:"role"`
				ToolCallID string          `json:"toolCallId"`
				Content    json.RawMessage `json:"content"`
			}
			if json.Unmarshal(e.Message, &m) != nil {
				continue
			}
			it := item{msg: append([]byte(nil), e.Message...)}
			it.ts = topLevelValue(it.msg, "timestamp")
			switch m.Role {
			case "user":
				flush()
				cur = &turn{}
			case "assistant":
				var blocks []struct {
					Type string `json:"type"`
					ID   string `json:"id"`
				}
				_ = json.Unmarshal(m.Content, &blocks)
				for _, b := range blocks {
					if b.Type != "toolCall" {
						continue
					}
					if b.ID == "" || seen[b.ID] || !bytes.Contains(it.msg, idPattern("id", b.ID)) {
						bad = true
					}
					seen[b.ID] = true
					it.callIDs = append(it.callIDs, b.ID)
				}
			case "toolResult":
				if !seen[m.ToolCallID] || answered[m.ToolCallID] || !bytes.Contains(it.msg, idPattern("toolCallId", m.ToolCallID)) {
					bad = true
				}
				answered[m.ToolCallID] = true
				it.resultID = m.ToolCallID
			case "bashExecution":
			default:
				continue // system, custom, hookMessage: not replayed
			}
			if cur == nil {
				continue // before the first user message
			}
			cur.items = append(cur.items, it)
			cur.size += len(it.msg) + entryOverhead
		}
		flush()
	}
	if len(c.turns) == 0 {
		return nil, errors.New("benchgen: no usable user turn in the seed sessions")
	}
	return c, nil
}

// topLevelValue returns the byte range of the value of key in the JSON object
// obj (the last one, as JSON.parse keeps) when it is a non-negative number,
// or {0, 0}.
func topLevelValue(obj []byte, key string) [2]int {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return [2]int{}
	}
	var r [2]int
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return [2]int{}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return [2]int{}
		}
		if k == key && len(v) > 0 && v[0] >= '0' && v[0] <= '9' {
			end := int(dec.InputOffset())
			r = [2]int{end - len(v), end}
		}
	}
	return r
}

// idPattern is the JSON bytes `"key":"id"` (ids are plain ASCII in pi files).
func idPattern(key, id string) []byte {
	b := make([]byte, 0, len(key)+len(id)+6)
	b = append(b, '"')
	b = append(b, key...)
	b = append(b, `":`...)
	b = strconv.AppendQuote(b, id)
	return b
}

// Generate writes a v3 session of about targetBytes bytes (within a few
// percent for targets above a few MB) made of turns from seedSessions. The
// output is a pure function of the arguments.
func Generate(w io.Writer, seedSessions [][]byte, targetBytes int64, seed int64) error {
	c, err := ParseSeeds(seedSessions)
	if err != nil {
		return err
	}
	return c.Generate(w, targetBytes, seed)
}

// generator is the state of one Generate run.
type generator struct {
	w       *bufio.Writer
	rng     *rand.Rand
	written int64
	n       uint32 // entries written
	calls   uint64 // tool calls renamed
	prev    string // id of the previous entry
	mask    uint32
	t0      time.Time
	buf     []byte
}

// Generate writes a session from the corpus (see the package Generate).
func (c *Corpus) Generate(w io.Writer, targetBytes int64, seed int64) error {
	g := &generator{
		w:    bufio.NewWriterSize(w, 1<<20),
		rng:  rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)),
		t0:   time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC),
		mask: 0,
	}
	g.mask = g.rng.Uint32()
	// header
	uuid := fmt.Sprintf("%08x-%04x-7%03x-%04x-%012x", g.rng.Uint32(), g.rng.Uint32()&0xffff, g.rng.Uint32()&0xfff,
		0x8000|g.rng.Uint32()&0x3fff, g.rng.Uint64()&0xffffffffffff)
	g.line(fmt.Appendf(nil, `{"type":"session","version":3,"id":%q,"timestamp":%q,"cwd":"/home/user/workspaces/bench-project"}`,
		uuid, g.t0.Format("2006-01-02T15:04:05.000Z")))
	g.entry("model_change", []byte(`"provider":"anthropic","modelId":"claude-sonnet-4-5"`))
	g.entry("thinking_level_change", []byte(`"thinkingLevel":"medium"`))

	levels := []string{"off", "minimal", "low", "medium", "high"}
	compactAt := []int64{targetBytes * 15 / 1000, targetBytes * 30 / 1000}
	var userIDs []string // ids of the user messages starting the turns written
	slack := targetBytes / 50
	for g.written < targetBytes {
		if len(compactAt) > 0 && g.written >= compactAt[0] && len(userIDs) >= 3 {
			compactAt = compactAt[1:]
			g.compaction(c, userIDs[len(userIDs)-2])
		}
		t := &c.turns[g.rng.IntN(len(c.turns))]
		for try := 0; try < 32 && g.written+int64(t.size) > targetBytes+slack; try++ {
			t = &c.turns[g.rng.IntN(len(c.turns))]
		}
		if g.rng.IntN(40) == 0 {
			g.entry("thinking_level_change", fmt.Appendf(nil, `"thinkingLevel":%q`, levels[g.rng.IntN(len(levels))]))
		}
		userIDs = append(userIDs, g.turn(t))
	}
	return g.w.Flush()
}

// id returns a unique, random-looking 8-hex id for entry number n (a
// bijection of n, so ids never collide).
func (g *generator) id(n uint32) string {
	x := n*0x9e3779b1 ^ g.mask
	x ^= x >> 15
	x *= 0x2c1b3c6d
	x ^= x >> 12
	return fmt.Sprintf("%08x", x)
}

func (g *generator) line(b []byte) {
	g.w.Write(b)
	g.w.WriteByte('\n')
	g.written += int64(len(b)) + 1
}

// begin starts an entry line and returns its id.
func (g *generator) begin(typ string) string {
	id := g.id(g.n)
	ts := g.t0.Add(time.Duration(g.n) * 1500 * time.Millisecond).Format("2006-01-02T15:04:05.000Z")
	g.n++
	g.buf = append(g.buf[:0], `{"type":"`...)
	g.buf = append(g.buf, typ...)
	g.buf = append(g.buf, `","id":"`...)
	g.buf = append(g.buf, id...)
	if g.prev == "" {
		g.buf = append(g.buf, `","parentId":null,"timestamp":"`...)
	} else {
		g.buf = append(g.buf, `","parentId":"`...)
		g.buf = append(g.buf, g.prev...)
		g.buf = append(g.buf, `","timestamp":"`...)
	}
	g.buf = append(g.buf, ts...)
	g.buf = append(g.buf, `",`...)
	g.prev = id
	return id
}

// entry writes a non-message entry whose other fields are rest.
func (g *generator) entry(typ string, rest []byte) string {
	id := g.begin(typ)
	g.buf = append(g.buf, rest...)
	g.buf = append(g.buf, '}')
	g.line(g.buf)
	return id
}

func (g *generator) compaction(c *Corpus, firstKept string) {
	sum := []byte(`"Earlier work on the bench project: read the session code, profiled the decoder, and planned the next steps."`)
	if len(c.summaries) > 0 {
		sum = c.summaries[g.rng.IntN(len(c.summaries))]
	}
	rest := append([]byte(`"summary":`), sum...)
	rest = fmt.Appendf(rest, `,"firstKeptEntryId":%q,"tokensBefore":%d`, firstKept, 120000+g.rng.IntN(80000))
	g.entry("compaction", rest)
}

// turn writes one turn with fresh entry and tool call ids; it returns the id
// of its user message.
func (g *generator) turn(t *turn) string {
	ren := map[string]string{}
	var first string
	for i := range t.items {
		it := &t.items[i]
		msg := it.msg
		// the message's own timestamp (ms) is the entry's time: unique and
		// increasing, as in a live session (chains are resolved by it); a
		// seed message without one gets one
		ms := strconv.FormatInt(g.t0.Add(time.Duration(g.n)*1500*time.Millisecond).UnixMilli(), 10)
		if it.ts[1] > 0 {
			msg = append(append(append(make([]byte, 0, len(msg)+16), msg[:it.ts[0]]...), ms...), msg[it.ts[1]:]...)
		} else if end := bytes.LastIndexByte(msg, '}'); end > 0 {
			sep := ","
			if bytes.TrimSpace(msg[:end])[len(bytes.TrimSpace(msg[:end]))-1] == '{' {
				sep = ""
			}
			msg = append(append(append(make([]byte, 0, len(msg)+32), msg[:end]...), sep+`"timestamp":`+ms...), msg[end:]...)
		}
		for _, old := range it.callIDs {
			g.calls++
			nu := fmt.Sprintf("toolu_bench%07x%012x", g.calls, g.rng.Uint64()&0xffffffffffff)
			ren[old] = nu
			msg = bytes.Replace(msg, idPattern("id", old), idPattern("id", nu), 1)
		}
		if it.resultID != "" {
			msg = bytes.Replace(msg, idPattern("toolCallId", it.resultID), idPattern("toolCallId", ren[it.resultID]), 1)
		}
		id := g.begin("message")
		if i == 0 {
			first = id
		}
		g.buf = append(g.buf, `"message":`...)
		g.buf = append(g.buf, msg...)
		g.buf = append(g.buf, '}')
		g.line(g.buf)
	}
	return first
}

// ReadSeeds reads the files matching glob (sorted by name) as seed sessions.
func ReadSeeds(glob string) ([][]byte, error) {
	names, err := filepath.Glob(glob)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("benchgen: no seed session matches %s", glob)
	}
	sort.Strings(names)
	var seeds [][]byte
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		seeds = append(seeds, b)
	}
	return seeds, nil
}

// ParseSize parses a size such as 200MB, 1.5GB, 512KiB or 1000000 (bytes).
// KB, MB, GB are powers of 1000; KiB, MiB, GiB powers of 1024.
func ParseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"B", 1}}
	mult := 1.0
	num := s
	for _, u := range units {
		if len(s) > len(u.suffix) && (s[len(s)-len(u.suffix):] == u.suffix) {
			num, mult = s[:len(s)-len(u.suffix)], u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("bad size %q (want e.g. 200MB, 20MiB, 1GB)", s)
	}
	return int64(f * mult), nil
}

// BenchInput generates the in-memory session the Go benchmarks share: 20 MB
// by default, or the size in $PRUNER_BENCH_SIZE (e.g. 200MB), from the
// sessions matching seedGlob, seed 1 (deterministic).
func BenchInput(seedGlob string) ([]byte, error) {
	size := int64(20e6)
	if s := os.Getenv("PRUNER_BENCH_SIZE"); s != "" {
		n, err := ParseSize(s)
		if err != nil {
			return nil, err
		}
		size = n
	}
	seeds, err := ReadSeeds(seedGlob)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(size + size/20))
	err = Generate(&buf, seeds, size, 1)
	return buf.Bytes(), err
}
