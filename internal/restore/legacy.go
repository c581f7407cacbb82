package restore

import (
	"bytes"
	"fmt"
	"io"

	"github.com/pruner-dev/pruner/internal/session"
)

// LegacyPlan restores a file that an older pruner rewrote in place
// (`now --write` spliced masking notices into tool results and kept the
// original as FILE.orig-<hash>): the original from the backup, then the
// lines appended to the file since.
type LegacyPlan struct {
	// Lines is the number of lines of the backup; Masked how many of the
	// file's lines differ from it (each by a notice in a message's content).
	Lines, Masked int
	// Later is the number of lines after the backup's, appended since.
	Later int

	cur, backup         io.ReaderAt
	curSize, backupSize int64
	laterOff            int64 // offset of the first later line in cur
}

// AnalyzeLegacy checks that cur derives from backup — line for line equal,
// or equal but for a message "content" that now holds a pruner notice —
// and plans the restore. It fails when the file does not derive from the
// backup (then the backup is not this file's original).
func AnalyzeLegacy(cur io.ReaderAt, curSize int64, backup io.ReaderAt, backupSize int64) (*LegacyPlan, error) {
	p := &LegacyPlan{cur: cur, backup: backup, curSize: curSize, backupSize: backupSize, laterOff: curSize}
	cr := session.NewLineReader(io.NewSectionReader(cur, 0, curSize))
	br := session.NewLineReader(io.NewSectionReader(backup, 0, backupSize))
	for {
		bl, num, _, berr := br.Next()
		if berr == io.EOF {
			break
		}
		if berr != nil {
			return nil, berr
		}
		bl = append([]byte(nil), bl...)
		cl, _, _, cerr := cr.Next()
		if cerr == io.EOF {
			return nil, fmt.Errorf("line %d: the file is shorter than the backup", num)
		}
		if cerr != nil {
			return nil, cerr
		}
		p.Lines++
		if bytes.Equal(cl, bl) {
			continue
		}
		if !maskedFrom(cl, bl) {
			return nil, fmt.Errorf("line %d differs from the backup beyond a masked tool result", num)
		}
		p.Masked++
	}
	for first := true; ; first = false {
		_, _, off, err := cr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if first {
			p.laterOff = off
		}
		p.Later++
	}
	return p, nil
}

// maskedFrom reports whether cur is orig with its message's content
// replaced by one holding a pruner notice, every other byte equal.
func maskedFrom(cur, orig []byte) bool {
	cs, ce, ok1 := session.ValueRange(cur, "message")
	os_, oe, ok2 := session.ValueRange(orig, "message")
	if !ok1 || !ok2 || !bytes.Equal(cur[:cs], orig[:os_]) || !bytes.Equal(cur[ce:], orig[oe:]) {
		return false
	}
	cm, om := cur[cs:ce], orig[os_:oe]
	ccs, cce, ok1 := session.ValueRange(cm, "content")
	ocs, oce, ok2 := session.ValueRange(om, "content")
	return ok1 && ok2 && bytes.Equal(cm[:ccs], om[:ocs]) && bytes.Equal(cm[cce:], om[oce:]) &&
		bytes.Contains(cm[ccs:cce], []byte(`"text":"`+session.NoticePrefix))
}

// Write writes the backup, then the lines appended to the file since.
func (p *LegacyPlan) Write(w io.Writer) error {
	if _, err := io.Copy(w, io.NewSectionReader(p.backup, 0, p.backupSize)); err != nil {
		return err
	}
	if p.Later == 0 {
		return nil
	}
	if p.backupSize > 0 {
		last := make([]byte, 1)
		if _, err := p.backup.ReadAt(last, p.backupSize-1); err != nil {
			return err
		}
		if last[0] != '\n' {
			if _, err := w.Write([]byte{'\n'}); err != nil {
				return err
			}
		}
	}
	_, err := io.Copy(w, io.NewSectionReader(p.cur, p.laterOff, p.curSize-p.laterOff))
	return err
}
