package index

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/jsval"
)

// FuzzRebuild feeds arbitrary index data and summary details to the
// rebuild: it never panics, and what it keeps is consistent — every record
// is summarized under its own key and listed for its bare id, every ref it
// registered resolves, NextRef is above every tN.
func FuzzRebuild(f *testing.F) {
	f.Add(`{"toolCalls":[{"toolCallId":"a","toolName":"bash","args":{},"resultText":"x","isError":false,"turnIndex":0,"timestamp":5,"resultTimestamp":7}]}`,
		`{"toolCallRefs":[{"shortId":"t3","toolCallId":"a","resultTimestamp":7}]}`)
	f.Add(`{"toolCalls":[{"toolCallId":"a"},{"toolCallId":"a","resultTimestamp":1}],"backfilled":true,"refs":[{"shortId":"t9","toolCallId":"a"}]}`, `{"toolCallIds":["a","b"]}`)
	f.Add(`null`, `[]`)
	f.Fuzz(func(t *testing.T, data, details string) {
		s := RebuildEntries([]Entry{
			{Type: "custom", CustomType: TypeIndex, Line: 1, Raw: []byte(`{"type":"custom","customType":"context-prune-index","data":` + data + `}`)},
			{Type: "custom_message", CustomType: TypeSummary, Line: 2, Raw: []byte(`{"type":"custom_message","customType":"context-prune-summary","content":"s","details":` + details + `}`)},
			{Type: "custom", CustomType: TypeDedupAlias, Line: 3, Raw: []byte(`{"data":{"newToolCallId":"z","originalToolCallId":"a","newResultTimestamp":9,"originalResultTimestamp":7}}`)},
		})
		for _, k := range s.Keys() {
			if !s.IsSummarized(k) {
				t.Fatalf("record %q not summarized", k)
			}
			if got, ok := s.Resolve(k); !ok || got != k {
				t.Fatalf("Resolve(%q) = %q", k, got)
			}
			id, _ := ParseOccurrenceKey(k)
			found := false
			for _, o := range s.RecordsFor(id) {
				found = found || o.Key == k
			}
			if !found && !strings.Contains(id, "@") {
				t.Fatalf("RecordsFor(%q) misses %q", id, k)
			}
		}
		for ref, k := range s.refMap() {
			if got, ok := s.Resolve(ref); ok && s.record(got) == nil && !hasAlias(s, got) && got != k {
				t.Fatalf("ref %s resolves to %q, registered %q", ref, got, k)
			}
			if n, ok := refNumber(ref, 't'); ok && n >= s.NextRef {
				t.Fatalf("NextRef %d not above %s", s.NextRef, ref)
			}
		}
	})
}

// The rebuild hashes a text normalised from its bytes (appendNormalizedBytes),
// the flush from a string: the same bytes for every text.
func FuzzNormalizedBytes(f *testing.F) {
	for _, s := range []string{"a \t\r\nb  \n", "\u00a0 x \u3000", "\r\n\r\n", "", "line\r", "\xff \n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendNormalizedBytes([]byte("p"), []byte(s)), appendNormalized([]byte("p"), s); string(got) != string(want) {
			t.Fatalf("%q: bytes %q, string %q", s, got, want)
		}
	})
}

// resultText (the oracle of appendTextJSON: what the flush wrote before it)
// joins a result content's text blocks with "\n" (pi-condense's
// extractToolResultText; a non-array content has none) and returns the text
// and its JSON.stringify form.
func resultText(content []byte) (string, []byte) {
	els, ok := jsval.Elements(content)
	if !ok {
		return "", []byte(`""`)
	}
	var parts []string
	js := []byte{'"'}
	n := 0
	for _, el := range els {
		if t, _ := jsval.GetString(el, "type"); t != "text" {
			continue
		}
		raw, ok := jsval.Get(el, "text")
		s, isStr := jsval.String(raw)
		if !ok || !isStr {
			// `.text` undefined or not a string joins as JavaScript's String(x)
			s = jsString(raw, ok)
			raw = jsval.AppendString(nil, s)
		}
		if n > 0 {
			js = append(js, `\n`...)
		}
		c := jsval.Canonical(raw)
		js = append(js, c[1:len(c)-1]...)
		parts = append(parts, s)
		n++
	}
	return strings.Join(parts, "\n"), append(js, '"')
}

// appendTextJSON writes the JSON form resultText makes, decoding nothing:
// the same bytes for every content (text blocks with escapes, lone
// surrogates, non-string texts, other blocks, not an array).
func FuzzAppendTextJSON(f *testing.F) {
	for _, s := range []string{
		`[{"type":"text","text":"a\nb"},{"type":"image","data":"x"},{"type":"text","text":"\ud800 \u00e9 \/ é"}]`,
		`[{"type":"text","text":12},{"type":"text"},{"type":"text","text":null},{"type":"text","text":"<b>&</b>"}]`,
		`"plain"`, `[]`, `[{"type":"text","text":"\u2028\u0001"}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		if !json.Valid(content) {
			return // a result's content is from a parsed line
		}
		_, want := resultText(content)
		if got := appendTextJSON([]byte("p"), content); string(got) != "p"+string(want) {
			t.Fatalf("%s: appendTextJSON %s, resultText %s", content, got[1:], want)
		}
	})
}

// MessageKey is toolCallId@JavaScript's String(timestamp) for a number, the
// bare id otherwise.
func FuzzMessageKey(f *testing.F) {
	for _, s := range []string{"1767608647500", "1.5", "-0", "1e21", "1e400", `"7"`, "null", "12345678901234567890",
		"9007199254740991", "9007199254740992", "-9007199254740991", "-5", "1e15", "0.0", "-1767608647500"} {
		f.Add("call_1", s)
	}
	f.Fuzz(func(t *testing.T, id, raw string) {
		want := id
		if n, ok := jsval.Number([]byte(raw)); ok {
			want = id + "@" + jsval.FormatNumber(n)
		}
		if got := MessageKey(id, []byte(raw)); got != want {
			t.Fatalf("MessageKey(%q, %s) = %q, want %q", id, raw, got, want)
		}
		if got := appendMessageKey([]byte("k "), id, raw); string(got) != "k "+want {
			t.Fatalf("appendMessageKey(%q, %s) = %q, want %q", id, raw, got[2:], want)
		}
	})
}
