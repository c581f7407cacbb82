//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package session

import "os"

func mapFile(f *os.File) (*mapping, bool) { return nil, false }

func (m *mapping) unmap() {}

func dropPages(b []byte) {}
