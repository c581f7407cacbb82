package render

import "github.com/pruner-dev/pruner/internal/jsval"

// maxFields is how many keys getFields looks up at once.
const maxFields = 3

// fieldVals are getFields' answers: the raw value of each key and whether
// it is there.
type fieldVals struct {
	v   [maxFields][]byte
	has [maxFields]bool
}

// getFields is jsval.Get of each of keys (at most maxFields) in the
// object obj — the exact key, the last duplicate wins — in one pass over
// its members instead of one per key (an element of a message's content
// is often a call whose arguments are long: each Get skipped them).
func getFields(obj []byte, keys ...string) (f fieldVals) {
	keys = keys[:min(len(keys), maxFields)]
	jsval.EachMemberRaw(obj, func(rawKey, v []byte) bool {
		for k, key := range keys {
			if keyIs(rawKey, key) {
				f.v[k], f.has[k] = v, true
			}
		}
		return true
	})
	return f
}

// str is jsval.String of value k ("" when it is absent or no string), as
// jsval.GetString answers.
func (f *fieldVals) str(k int) (string, bool) {
	if !f.has[k] {
		return "", false
	}
	return jsval.String(f.v[k])
}
