package config

import "testing"

func TestDuplicateGateKey(t *testing.T) {
	for in, want := range map[string]string{
		`{"contextPrune":{},"contextPrune":{}}`:                                           Key,
		`{"contextPrune":{},"x":1,"context\u0050rune":{}}`:                                Key, // JSON.parse decodes the escape: the same key
		`{"contextPrune":{"protectedPathRules":[],"a":{"b":[1]},"protectedPathRules":1}}`: Key + "." + RulesKey,
		`{"contextPrune":5,"contextPrune":{}}`:                                            Key,
		`{"contextPrune":[{"contextPrune":1}],"y":2}`:                                     "",
		`{"contextPrune":{"protectedPathRules":[{"protectedPathRules":1}]}}`:              "",
		`{"a":{"contextPrune":1},"contextPrune":{}}`:                                      "",
		`{"contextPrune":{}}`:                                                             "",
		`{"contextPrune":{},`:                                                             "", // does not parse: the caller's error
		`[]`:                                                                              "",
		``:                                                                                "",
	} {
		k, off, found := duplicateGateKey([]byte(in))
		if k != want || found != (want != "") {
			t.Errorf("%s: got %q (found %v), want %q", in, k, found, want)
		}
		if found && (off <= 0 || off > int64(len(in))) {
			t.Errorf("%s: offset %d out of range", in, off)
		}
	}
}
