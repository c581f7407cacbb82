package prune

import "testing"

// TestJSStringLenIsDecodedLen: jsStringLen is the byte length of the
// string jsString decodes, for plain, escaped, invalid-UTF-8, spaced,
// non-string and absent values.
func TestJSStringLenIsDecodedLen(t *testing.T) {
	for _, obj := range []string{
		`{"data":"aGVsbG8="}`,
		`{"data":""}`,
		`{"data":"a\"b\\c\u00e9\ud83d\ude00"}`,
		`{"data":"\ud800"}`,
		"{\"data\":\"a\xffb\"}",
		`{"data": "spaced" }`,
		`{"data":"é漢字"}`,
		`{"data":42}`,
		`{"data":null}`,
		`{"other":"x"}`,
		`{"data":"x","data":"longer"}`,
		`not json`,
	} {
		if got, want := jsStringLen([]byte(obj), "data"), len(jsString([]byte(obj), "data")); got != want {
			t.Errorf("%s: jsStringLen %d, want %d", obj, got, want)
		}
	}
}
