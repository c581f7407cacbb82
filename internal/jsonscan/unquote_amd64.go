//go:build !purego

package jsonscan

// unquoteAVX2 is unquoteWords 32 bytes at a time (unquote_amd64.s), for
// AppendUnquoteText, where b is apart from s: each window of the body is
// stored at w as it is read (so b and s must not overlap: a store would
// land on bytes not yet read), the short escapes decoded by shortEscapes;
// it returns at a \u escape (i at its backslash), or with fewer than 32
// bytes of the body (or of b past w) left. Result texts hold an escape
// every 14 bytes or so (the pi-derived 20 MB session: 954,514 escapes in
// 13.5 MB of long escaped strings), so a window's escapes are decoded from
// its mask of backslashes, each run between them stored from where it
// starts: 34 ns for a 210-byte body with 15 escapes
// (BenchmarkUnquoteAVX2Call), where loading the window again at each
// escape took 84 and unquoteWords' words ~80. Call it only when
// haveAVX2().
//
//go:noescape
func unquoteAVX2(b, s []byte, start, w, i int, flags uint8) (wOut, iOut int, flagsOut uint8)
