package index

import (
	"strconv"
	"strings"

	"github.com/pruner-dev/pruner/internal/jsval"
)

// Truncation of a recovered body, as pi's truncateHead with its defaults
// (what context_tree_query applies).
const (
	QueryMaxLines = 2000
	QueryMaxBytes = 50 * 1024
)

// QueryBlock is one block of context_tree_query's answer: one record (or
// one not-found id).
type QueryBlock struct {
	Query  string  `json:"query"` // the id asked for
	Label  string  `json:"label"` // shown after "## toolRef: "
	Found  bool    `json:"found"`
	Key    string  `json:"key,omitempty"` // the record's occurrence key
	Record *Record `json:"record,omitempty"`
	// Body is the recovered output after truncation; BodyFrom says where it
	// came from: "resultText", "spill" (the blob at spillPath), "preview"
	// (the blob could not be read) or "missing".
	Body        string `json:"body"`
	BodyFrom    string `json:"bodyFrom,omitempty"`
	SpillError  string `json:"spillError,omitempty"`
	Truncated   bool   `json:"truncated"`
	OutputLines int    `json:"outputLines"`
	TotalLines  int    `json:"totalLines"`
	// Text is the block as context_tree_query writes it.
	Text string `json:"text"`
	// Chain is the chain entry of a chain block (QueryChains).
	Chain *ChainData `json:"chain,omitempty"`
}

// Query answers context_tree_query for ids (each a `tN`, an occurrence key
// or a raw call id): a raw id that was reused gives every occurrence,
// labelled id@timestamp. readFile reads a spilled body from its spillPath
// (nil: blobs are unavailable and the preview is used).
func (s *State) Query(ids []string, readFile func(path string) ([]byte, error)) []QueryBlock {
	var out []QueryBlock
	for _, id := range ids {
		occ := s.RecordsFor(id)
		if len(occ) == 0 {
			out = append(out, QueryBlock{Query: id, Label: id,
				Text: "## toolRef: " + id + "\n(not found in index — may not have been summarized yet)"})
			continue
		}
		for _, o := range occ {
			r := o.Record
			b := QueryBlock{Query: id, Label: id, Found: true, Key: o.Key, Record: &r}
			if len(occ) > 1 && r.ResultTimestamp != nil {
				b.Label = id + "@" + strconv.FormatInt(*r.ResultTimestamp, 10)
			}
			head := []string{"## toolRef: " + b.Label}
			if len(occ) > 1 && r.ResultTimestamp == nil {
				head = append(head, "Occurrence: legacy (no resultTimestamp)")
			}
			args := "undefined"
			if len(r.Args) > 0 {
				args = string(jsval.AppendIndented(nil, r.Args, "  "))
			}
			status := "OK"
			if r.IsError {
				status = "ERROR"
			}
			head = append(head, "Tool: "+r.ToolName, "Args: "+args, "Status: "+status, "Turn: "+strconv.Itoa(r.TurnIndex), "")
			raw, from := r.ResultText, "resultText"
			if o.Err != nil {
				raw, from, b.SpillError = "(result text unavailable — the session could not be re-read)", "missing", o.Err.Error()
			}
			if r.SpillPath != nil {
				var data []byte
				err := errNoReader
				if readFile != nil {
					data, err = readFile(*r.SpillPath)
				}
				switch {
				case err == nil:
					raw, from = strings.ToValidUTF8(string(data), "\uFFFD"), "spill"
				case r.ResultPreview != nil:
					raw, from, b.SpillError = *r.ResultPreview, "preview", err.Error()
				default:
					raw, from, b.SpillError = "(spilled output unavailable — sidecar file missing)", "missing", err.Error()
				}
			}
			t := TruncateHead(raw, QueryMaxLines, QueryMaxBytes)
			b.Body, b.BodyFrom, b.Truncated, b.OutputLines, b.TotalLines = t.Content, from, t.Truncated, t.OutputLines, t.TotalLines
			body := t.Content
			if t.Truncated {
				body += "\n[Output truncated: " + strconv.Itoa(t.OutputLines) + "/" + strconv.Itoa(t.TotalLines) + " lines shown]"
			}
			b.Text = strings.Join(head, "\n") + "\n" + body
			out = append(out, b)
		}
	}
	return out
}

// QueryChains is Query, and a chain id (`bN`) that no record answers to —
// context_tree_query does not know chain ids — gives the chain's block (its
// body as the model sees it inside `<compressed-chain>`, where it came
// from) followed by the blocks of every ref the chain lists.
func (s *State) QueryChains(ids []string, readFile func(path string) ([]byte, error)) []QueryBlock {
	var out []QueryBlock
	for _, id := range ids {
		c, ok := s.ChainByBlock(id)
		if !ok || len(s.RecordsFor(id)) > 0 {
			out = append(out, s.Query([]string{id}, readFile)...)
			continue
		}
		cc := *c
		source := "the per-batch summaries that cover it"
		switch {
		case c.BodySource == "deterministic":
			source = "deterministic (no summary covered it)"
		case c.RangeSummaryText != nil || c.fused != nil || c.sums != nil:
			source = "fused range summary"
		}
		final := "null"
		if c.FinalAssistantTimestamp != nil {
			final = strconv.FormatInt(*c.FinalAssistantTimestamp, 10)
		}
		head := []string{"## chain: " + id,
			"Range: user message " + strconv.FormatInt(c.StartUserTimestamp, 10) + " → final reply " + final,
			"Dropped calls: " + strconv.Itoa(len(c.DroppedToolCallIDs)),
			"Refs: " + strings.Join(c.Refs(), ", "),
			"Body: " + source, ""}
		out = append(out, QueryBlock{Query: id, Label: id, Found: true, Chain: &cc, Body: s.ChainBody(c), BodyFrom: "chain",
			Text: strings.Join(head, "\n") + "\n" + s.ChainBody(c)})
		covered := map[string]bool{}
		for _, ref := range c.Refs() {
			if k, ok := s.Resolve(ref); ok {
				covered[k] = true
			}
			for _, b := range s.Query([]string{ref}, readFile) {
				b.Query = id
				out = append(out, b)
			}
		}
		// a dropped call with no ref (a spilled one: its record has
		// no tN) is listed too, by its occurrence key, or by its call
		// id when the chain names no keys
		for _, k := range s.unrefDropped(c, covered) {
			for _, b := range s.Query([]string{k}, readFile) {
				b.Query = id
				out = append(out, b)
			}
		}
	}
	return out
}

// unrefDropped are the occurrence keys (or, for a chain written without
// them, the call ids) of c's dropped calls whose records no ref in
// c.ToolRefs resolves to (covered holds the keys those do).
func (s *State) unrefDropped(c *ChainData, covered map[string]bool) []string {
	var out []string
	if len(c.DroppedOccurrenceKeys) > 0 {
		for _, k := range c.DroppedOccurrenceKeys {
			if r, ok := s.Resolve(k); ok && !covered[r] {
				covered[r] = true
				out = append(out, k)
			}
		}
		return out
	}
	for _, callID := range c.DroppedToolCallIDs {
		occ := s.RecordsFor(callID)
		if len(occ) == 0 {
			continue
		}
		seen := false
		for _, o := range occ {
			if covered[o.Key] {
				seen = true
			}
		}
		if !seen {
			for _, o := range occ {
				covered[o.Key] = true
			}
			out = append(out, callID)
		}
	}
	return out
}

// ChainBody is the body a chain entry renders inside its
// `<compressed-chain>` message (before `{bN}` substitution): its fused or
// deterministic range summary, else the per-batch summaries covering its
// dropped occurrences, joined by a blank line.
func (s *State) ChainBody(c *ChainData) string {
	if text, ok := c.RangeSummary(); ok {
		return text
	}
	keys := c.DroppedOccurrenceKeys
	if keys == nil {
		keys = c.DroppedToolCallIDs
	}
	return strings.Join(s.SummaryTexts(keys), "\n\n")
}

type noReader struct{}

func (noReader) Error() string { return "no blob reader" }

var errNoReader error = noReader{}

// QueryText joins the blocks as context_tree_query does.
func QueryText(blocks []QueryBlock) string {
	parts := make([]string, len(blocks))
	for i, b := range blocks {
		parts[i] = b.Text
	}
	return strings.Join(parts, "\n\n---\n\n")
}

// Truncation is the result of TruncateHead.
type Truncation struct {
	Content                 string
	Truncated               bool
	TotalLines, OutputLines int
}

// TruncateHead keeps the first whole lines of content within maxLines lines
// and maxBytes UTF-8 bytes (pi's truncateHead: never a partial line; a first
// line over the byte limit gives no content; a final newline does not count
// as a line).
func TruncateHead(content string, maxLines, maxBytes int) Truncation {
	var lines []string
	if content != "" {
		lines = strings.Split(content, "\n")
		if strings.HasSuffix(content, "\n") {
			lines = lines[:len(lines)-1]
		}
	}
	t := Truncation{TotalLines: len(lines)}
	if len(lines) <= maxLines && len(content) <= maxBytes {
		t.Content, t.OutputLines = content, len(lines)
		return t
	}
	t.Truncated = true
	if len(lines[0]) > maxBytes {
		return t
	}
	n, size := 0, 0
	for n < len(lines) && n < maxLines {
		lb := len(lines[n])
		if n > 0 {
			lb++
		}
		if size+lb > maxBytes {
			break
		}
		size += lb
		n++
	}
	t.Content, t.OutputLines = strings.Join(lines[:n], "\n"), n
	return t
}
