package config

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// duplicateGateKey finds a settings file's second "contextPrune" member,
// or a second "protectedPathRules" in a contextPrune object: pi's
// JSON.parse, and pruner with it, keep the last and drop the first without
// a word — and with it deny rules the user wrote. The gate fails closed on
// it (an error, as a misspelt key is). off is the byte offset of the
// repeated key; found false when there is none or data does not parse
// (the caller reports that).
func duplicateGateKey(data []byte) (key string, off int64, found bool) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	t, err := d.Token()
	if err != nil || t != json.Delim('{') {
		return "", 0, false
	}
	seenCP := false
	for d.More() {
		kt, err := d.Token()
		if err != nil {
			return "", 0, false
		}
		k, _ := kt.(string)
		at := d.InputOffset()
		if k != Key {
			if skipValue(d) != nil {
				return "", 0, false
			}
			continue
		}
		if seenCP {
			return Key, at, true
		}
		seenCP = true
		// the members of this contextPrune
		vt, err := d.Token()
		if err != nil {
			return "", 0, false
		}
		if vt != json.Delim('{') {
			if _, isDelim := vt.(json.Delim); isDelim && skipRest(d) != nil {
				return "", 0, false
			}
			continue
		}
		seenRules := false
		for d.More() {
			mt, err := d.Token()
			if err != nil {
				return "", 0, false
			}
			mk, _ := mt.(string)
			mat := d.InputOffset()
			if mk == RulesKey {
				if seenRules {
					return Key + "." + RulesKey, mat, true
				}
				seenRules = true
			}
			if skipValue(d) != nil {
				return "", 0, false
			}
		}
		if _, err := d.Token(); err != nil { // '}'
			return "", 0, false
		}
	}
	return "", 0, false
}

// skipValue reads one whole JSON value from d.
func skipValue(d *json.Decoder) error {
	t, err := d.Token()
	if err != nil {
		return err
	}
	if _, ok := t.(json.Delim); ok {
		return skipRest(d)
	}
	return nil
}

// skipRest reads the rest of an object or array whose opening delimiter
// d has just returned.
func skipRest(d *json.Decoder) error {
	for depth := 1; depth > 0; {
		t, err := d.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

// duplicateKeyError is the FileError of a repeated gate key at off.
func duplicateKeyError(path string, data []byte, key string, off int64) error {
	// off is just past the key's closing quote: point at its opening one
	i := min(off, int64(len(data))) - 2
	for i > 0 && (data[i] != '"' || data[i-1] == '\\') {
		i--
	}
	l, c := lineCol(data, max(i, 0))
	return &FileError{Path: path, Line: l, Col: c,
		Err:  fmt.Errorf("%q appears twice: pi keeps the last and drops the first, with any deny rules in it", key),
		Hint: "merge the two into one " + fmt.Sprintf("%q", key) + " (the gate refuses to guess which rules you meant)"}
}

// memberPositions returns the line and column of each member key of a
// settings file's contextPrune object (the last of a repeated key, as
// JSON.parse keeps the last), for errors that point at a bad value; nil
// when data does not parse or has no contextPrune object.
func memberPositions(data []byte) map[string][2]int {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out map[string][2]int
	for d.More() {
		kt, err := d.Token()
		if err != nil {
			return nil
		}
		if k, _ := kt.(string); k != Key {
			if skipValue(d) != nil {
				return nil
			}
			continue
		}
		vt, err := d.Token()
		if err != nil {
			return nil
		}
		if vt != json.Delim('{') {
			if _, isDelim := vt.(json.Delim); isDelim && skipRest(d) != nil {
				return nil
			}
			continue
		}
		out = map[string][2]int{}
		for d.More() {
			mt, err := d.Token()
			if err != nil {
				return nil
			}
			mk, _ := mt.(string)
			i := min(d.InputOffset(), int64(len(data))) - 2
			for i > 0 && (data[i] != '"' || data[i-1] == '\\') {
				i--
			}
			l, c := lineCol(data, max(i, 0))
			out[mk] = [2]int{l, c}
			if skipValue(d) != nil {
				return nil
			}
		}
		if _, err := d.Token(); err != nil {
			return nil
		}
	}
	return out
}
