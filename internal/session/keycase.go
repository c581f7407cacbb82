package session

import (
	"strings"

	json "github.com/goccy/go-json"
)

// routedKeys are the JSON keys pruner decodes into structs. goccy/go-json,
// like encoding/json, matches struct fields case-insensitively, but pi's
// JSON.parse is case-sensitive: {"Type":"message"} has no "type" for pi.
var routedKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"type", "id", "parentId", "version", "cwd", "timestamp", "role", "message",
		"summary", "firstKeptEntryId", "firstKeptEntryIndex", "systemMessage", "targetId", "replacement",
		"content", "toolCallId", "toolName", "isError", "text", "name", "arguments", "path", "file_path",
		"command", "customType", "display", "details", "fromId", "tokensBefore", "mimeType", "data"} {
		m[strings.ToLower(k)] = k
	}
	return m
}()

// keyClash reports whether the JSON text b holds an object key that differs
// from a routed key only in case (at any depth). Such lines are decoded with
// exact key matching instead (looseDecode), as JSON.parse would see them.
func keyClash(b []byte) bool {
	for i := 0; i < len(b); {
		if b[i] != '"' {
			i++
			continue
		}
		s := i
		i = skipString(b, i)
		j := skipSpace(b, i)
		if j >= len(b) || b[j] != ':' || i-s-2 > 20 || i-s-2 < 2 {
			continue
		}
		k := string(b[s+1 : i-1])
		if exact, ok := routedKeys[strings.ToLower(k)]; ok && exact != k {
			return true
		}
	}
	return false
}

// unmarshalExact is json.Unmarshal with JSON.parse's exact key matching at
// the top level of data: keys that differ from a routed key only in case are
// dropped before decoding.
func unmarshalExact(data []byte, v any) error {
	if !keyClash(data) {
		return json.Unmarshal(data, v)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return json.Unmarshal(data, v)
	}
	for k := range m {
		if exact, ok := routedKeys[strings.ToLower(k)]; ok && exact != k {
			delete(m, k)
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
