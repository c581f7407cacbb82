//go:build !amd64 || purego

package jsonscan

func haveAVX2() bool { return false }

func strScanAVX2(b []byte) (n, cont, esc int, high bool) { return 0, 0, 0, false }
