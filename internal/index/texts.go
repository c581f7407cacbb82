package index

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"unsafe"

	"github.com/pruner-dev/pruner/internal/jsval"
)

// TextStore keeps a flush's summary texts out of the heap until they are
// written (FlushOptions.Texts; the CLI's is a temporary file,
// internal/spool.Texts): a first flush of a long history makes a summary
// per batch, and the render writes each once, at the end (1 GB: ~69,000
// summaries, ~27 MB of text the collector would otherwise hold through
// the flush, its chains and the render).
type TextStore interface {
	// Append stores text after the texts stored before and returns the
	// offset it starts at.
	Append(text string) (off int64, err error)
	// ReadAt reads back what was stored (io.ReaderAt).
	io.ReaderAt
}

// storedText is where a text is in the state's TextStore: its offset and
// length in bytes (n 0: not stored — held in memory, or empty).
type storedText struct {
	off int64
	n   int32
}

// store puts text in s's TextStore (the zero storedText when s has none,
// or text is empty: the caller holds it).
func (s *State) store(text string) (storedText, error) {
	if s.texts == nil || text == "" {
		return storedText{}, nil
	}
	if len(text) > 1<<31-1 {
		return storedText{}, nil // (held: no summary is near this long)
	}
	off, err := s.texts.Append(text)
	if err != nil {
		return storedText{}, fmt.Errorf("keeping a summary out of memory: %w", err)
	}
	return storedText{off: off, n: int32(len(text))}, nil
}

// load reads a stored text back (a new string).
func (s *State) load(t storedText) (string, error) {
	b := make([]byte, t.n)
	if n, err := s.texts.ReadAt(b, t.off); n < len(b) {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return "", fmt.Errorf("reading a summary back: %w", err)
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), nil
}

// textBuf is the buffer a state reads its stored texts into when it
// writes them as JSON strings (appendStoredString): one read each, no
// string made (shared by the state's clones).
type textBuf struct {
	mu sync.Mutex
	b  []byte
}

// appendStoredString appends the stored text t to dst as a JSON string
// (jsval.AppendString), read into s's buffer.
func (s *State) appendStoredString(dst []byte, t storedText) ([]byte, error) {
	if s.textBuf == nil {
		s.textBuf = &textBuf{} // (a state a flush made has one: this is a fallback)
	}
	tb := s.textBuf
	tb.mu.Lock()
	defer tb.mu.Unlock()
	b := slices.Grow(tb.b[:0], int(t.n))[:t.n]
	if cap(b) <= 1<<20 {
		tb.b = b // (a rare huge text is not kept)
	}
	if n, err := s.texts.ReadAt(b, t.off); n < len(b) {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return dst, fmt.Errorf("reading a summary back: %w", err)
	}
	return jsval.AppendString(dst, unsafe.String(unsafe.SliceData(b), len(b))), nil
}

// sumText is the text of summary i (s.summaries), read back when stored.
func (s *State) sumText(i int32) (string, error) {
	b := &s.summaries[i]
	if b.at.n == 0 {
		return b.text, nil
	}
	return s.load(b.at)
}

// sumLen is the length in bytes of summary i's text.
func (s *State) sumLen(i int32) int {
	if b := &s.summaries[i]; b.at.n > 0 {
		return int(b.at.n)
	}
	return len(s.summaries[i].text)
}

// textErr records err as the state's first text error (TextErr), for the
// callers that give a text and no error: what was written with it is not
// whole.
func (s *State) textErr(err error) {
	if err == nil {
		return
	}
	if s.textErrs == nil {
		s.textErrs = &textErrs{}
	}
	e := s.textErrs
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err == nil {
		e.err = err
	}
}

// distinctSummaries is the summaries of idx (ascending, as
// summariesCovering gives them) whose texts are not empty, each text once
// (the first summary with it): what State.SummaryTexts lists, found
// without reading a stored text unless two have the same length.
func (s *State) distinctSummaries(idx []int32) ([]int32, error) {
	out := idx[:0:0]
	for _, i := range idx {
		n := s.sumLen(i)
		if n == 0 {
			continue
		}
		dup := false
		var t string
		for _, j := range out {
			if s.sumLen(j) != n {
				continue
			}
			if t == "" {
				var err error
				if t, err = s.sumText(i); err != nil {
					return nil, err
				}
			}
			u, err := s.sumText(j)
			if err != nil {
				return nil, err
			}
			if u == t {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, i)
		}
	}
	return out, nil
}

// sumTexts reads the texts of summaries idx.
func (s *State) sumTexts(idx []int32) ([]string, error) {
	out := make([]string, len(idx))
	for k, i := range idx {
		t, err := s.sumText(i)
		if err != nil {
			return nil, err
		}
		out[k] = t
	}
	return out, nil
}

// chainSums are the summaries of a chain's deterministic fusion when the
// state keeps them in a TextStore (ChainData.fused would hold copies):
// read back when the chain's range summary is written.
type chainSums struct {
	st  *State
	idx []int32
}

// texts reads the summaries back.
func (c *chainSums) texts() ([]string, error) { return c.st.sumTexts(c.idx) }
