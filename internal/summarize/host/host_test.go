package host

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestExecRunner(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	ctx := context.Background()
	out, err := ExecRunner{Command: "head -c 12"}.Run(ctx, []byte("hello world, more"))
	if err != nil || string(out) != "hello world," {
		t.Fatalf("echo: %q %v", out, err)
	}
	_, err = ExecRunner{Command: "echo oops >&2; exit 3"}.Run(ctx, nil)
	if err == nil || err.Error() != "exit status 3: oops" {
		t.Fatalf("exit 3: %v", err)
	}
	tctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = ExecRunner{Command: "sleep 5 & sleep 5"}.Run(tctx, nil)
	if err == nil || time.Since(start) > 3*time.Second {
		t.Fatalf("timeout did not kill the process group: %v after %s", err, time.Since(start))
	}
}

func TestDirCache(t *testing.T) {
	c := DirCache{Dir: filepath.Join(t.TempDir(), "summaries")}
	key := "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	if _, ok := c.Get(key); ok {
		t.Fatal("empty cache hit")
	}
	if err := c.Put(key, "- [[1:bash]] x"); err != nil {
		t.Fatal(err)
	}
	if s, ok := c.Get(key); !ok || s != "- [[1:bash]] x" {
		t.Fatalf("Get = %q %v", s, ok)
	}
}

// TestLimitedBufferKeepsTheTail: the stderr buffer keeps exactly the last
// max bytes, whatever the sizes of the writes (one write larger than max
// included).
func TestLimitedBufferKeepsTheTail(t *testing.T) {
	var all []byte
	for i := 0; i < 1<<20; i++ {
		all = append(all, byte('a'+i%26))
	}
	for _, sizes := range [][]int{{1 << 20}, {5000, 1<<20 - 5000}, {4095, 1, 1, 4096, 1<<20 - 8193}, {1, 9999, 1<<20 - 10000}, {100, 100, 1<<20 - 200}} {
		var buf bytes.Buffer
		l := &limitedBuffer{max: 4096, buf: &buf}
		off := 0
		for _, n := range sizes {
			if k, err := l.Write(all[off : off+n]); k != n || err != nil {
				t.Fatalf("Write = %d, %v", k, err)
			}
			off += n
		}
		if want := all[len(all)-4096:]; !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("writes %v: kept %d bytes, want the last 4096", sizes, buf.Len())
		}
		if buf.Cap() > 4*4096 {
			t.Errorf("writes %v: buffer grew to %d", sizes, buf.Cap())
		}
	}
}
