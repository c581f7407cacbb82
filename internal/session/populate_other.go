//go:build !linux

package session

// populate cannot map pages ahead of their reads here (ok false,
// unsupported): reads of the mapping are copies from the file.
func populate(b []byte) (ok, unsupported bool) { return false, true }
