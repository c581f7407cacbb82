//go:build !amd64 || purego

package jsonscan

// unquoteAVX2 is never called where haveAVX2 is false.
func unquoteAVX2(b, s []byte, start, w, i int, flags uint8) (wOut, iOut int, flagsOut uint8) {
	return w, i, flags
}
