// Package session is pi's session format as pi 1.6 reads it: JSONL framing
// (LineReader), the reader rules every command shares — which lines pi
// skips, the session header and its version, v1 ids, unknown entry types —
// (EntryReader, a stream of every entry on every branch), and
// buildSessionContext: the leaf's path, the last compaction, context edits
// and the messages pi sends (Read, Context), rendered byte for byte from the
// input (AppendMessage).
//
// Bytes are validated by internal/jsonscan, whose tape this package maps
// onto pi's fields (line.go); values are copied from the input, never
// re-encoded.
package session
