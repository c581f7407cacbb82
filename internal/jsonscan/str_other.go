//go:build !amd64 || purego

package jsonscan

const haveAVX2 = false

func strScanAVX2(b []byte) (n, cont, esc int, high bool) { return 0, 0, 0, false }
