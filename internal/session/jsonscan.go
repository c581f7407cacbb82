package session

import "bytes"

// Minimal scanning of already-validated JSON, used to find the byte range of a
// top-level key's value inside a line so that values can be copied without
// re-encoding (nothing is lost: escapes, number spellings and key order stay
// as written).

// skipSpace returns the index of the first non-whitespace byte at or after i.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the JSON string starting at b[i]=='"'.
// It jumps from quote to quote with bytes.IndexByte (vectorized); a quote
// preceded by an odd run of backslashes is escaped.
func skipString(b []byte, i int) int {
	i++
	for i < len(b) {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		i += j
		k := i
		for b[k-1] == '\\' {
			k--
		}
		if (i-k)%2 == 0 {
			return i + 1
		}
		i++
	}
	return len(b)
}

// skipValue returns the index just past the JSON value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b)
	default: // number, true, false, null
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return i
	}
}

// keyEquals reports whether the JSON string b[s:e] (quotes included, no
// escapes expected in pi's keys) equals key.
func keyEquals(b []byte, s, e int, key string) bool {
	if e-s != len(key)+2 {
		return false
	}
	return string(b[s+1:e-1]) == key
}

// valueRange returns the [start,end) byte range of the value of key in the
// JSON object obj (valid JSON). When a key repeats, the last one wins, as with
// JavaScript's JSON.parse. ok is false when the key is absent.
func valueRange(obj []byte, key string) (start, end int, ok bool) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return 0, 0, false
	}
	i++
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			return start, end, ok
		}
		if obj[i] == ',' {
			i++
			continue
		}
		if obj[i] != '"' {
			return start, end, ok
		}
		ks := i
		i = skipString(obj, i)
		ke := i
		i = skipSpace(obj, i)
		if i < len(obj) && obj[i] == ':' {
			i++
		}
		i = skipSpace(obj, i)
		vs := i
		i = skipValue(obj, i)
		if keyEquals(obj, ks, ke, key) {
			start, end, ok = vs, i, true
		}
	}
}

// objectEnd returns the index of the closing brace of the object obj.
func objectEnd(obj []byte) int {
	for i := len(obj) - 1; i >= 0; i-- {
		if obj[i] == '}' {
			return i
		}
	}
	return -1
}

// ValueRange returns the [start,end) byte range of key's value in the JSON
// object obj (last occurrence wins, as in JSON.parse); ok is false when the
// key is absent. obj must be valid JSON.
func ValueRange(obj []byte, key string) (start, end int, ok bool) { return valueRange(obj, key) }
