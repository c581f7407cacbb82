package render

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pruner-dev/pruner/internal/jsval"
)

// TestGetFieldsAgreesWithGet: on the test sessions' messages and their
// content blocks, and on random objects with duplicate, escaped and
// missing keys (and values that are no objects), getFields finds for each
// key what jsval.Get and jsval.GetString find.
func TestGetFieldsAgreesWithGet(t *testing.T) {
	keys := []string{"type", "id", "arguments", "text", "content", "toolCallId", "resultTimestamp", "customType", "details", "a\"b"}
	var objs [][]byte
	for _, m := range testMessages(t) {
		objs = append(objs, m)
		content, _ := jsval.Get(m, "content")
		els, _ := jsval.Elements(content)
		objs = append(objs, els...)
	}
	r := rand.New(rand.NewPCG(7, 8))
	spell := []string{`"type"`, `"t\u0079pe"`, `"id"`, `"arguments"`, `"text"`, `"a\"b"`, `"x"`, `"Type"`, `"details"`}
	vals := []string{`1`, `"s"`, `"t\u00e9"`, `{"id":"in"}`, `[1,{"type":"x"}]`, `null`, `"toolCall"`, ` true `}
	for n := 0; n < 2000; n++ {
		b := []byte{'{'}
		for k := r.IntN(6); k > 0; k-- {
			b = fmt.Appendf(b, " %s : %s ,", spell[r.IntN(len(spell))], vals[r.IntN(len(vals))])
		}
		if len(b) > 1 {
			b = b[:len(b)-1]
		}
		b = append(b, '}')
		objs = append(objs, b)
	}
	objs = append(objs, []byte(`[1,2]`), []byte(`"s"`), nil, []byte(` {}`))
	if len(objs) < 2100 {
		t.Fatalf("%d objects: the sessions do not cover the case", len(objs))
	}
	for _, o := range objs {
		for i := 0; i+maxFields <= len(keys); i++ {
			ks := keys[i : i+maxFields]
			f := getFields(o, ks...)
			for k, key := range ks {
				v, ok := jsval.Get(o, key)
				if ok != f.has[k] || string(v) != string(f.v[k]) {
					t.Fatalf("%.120s: %q: getFields %q %v, Get %q %v", o, key, f.v[k], f.has[k], v, ok)
				}
				s, sok := jsval.GetString(o, key)
				if gs, gok := f.str(k); gs != s || gok != sok {
					t.Fatalf("%.120s: %q: str %q %v, GetString %q %v", o, key, gs, gok, s, sok)
				}
			}
		}
	}
}
