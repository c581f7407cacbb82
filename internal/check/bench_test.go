package check

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/pruner-dev/pruner/internal/check/checkgen"
	"github.com/pruner-dev/pruner/internal/guard"
	"github.com/pruner-dev/pruner/internal/hostfs"
)

// benchCorpus is generated once per test binary run (1,000 sessions).
type benchCorpus struct {
	once  sync.Once
	dir   string
	files []string
	bytes int64
	err   error
}

func (c *benchCorpus) get(b *testing.B) *benchCorpus {
	c.once.Do(func() {
		c.dir, c.err = tempDir()
		if c.err != nil {
			return
		}
		if c.bytes, c.err = checkgen.Write(c.dir, checkgen.Options{Sessions: 1000, Seed: 1}); c.err != nil {
			return
		}
		c.files, c.err = Expand([]string{c.dir})
	})
	if c.err != nil {
		b.Fatal(c.err)
	}
	return c
}

// BenchmarkCheckRun measures `check` throughput over 1,000 generated
// sessions with 1 and 2 workers; it reports sessions/s and MB/s.
func BenchmarkCheckRun(b *testing.B) {
	corpus := &benchCorpus{}
	b.Cleanup(func() {
		if corpus.dir != "" {
			os.RemoveAll(corpus.dir)
		}
	})
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			c := corpus.get(b)
			opts := Options{Rules: guard.DefaultRules(), Home: "/home/user", Workers: workers, FS: hostfs.NewCached()}
			b.SetBytes(c.bytes)
			b.ResetTimer()
			findings := 0
			for b.Loop() {
				findings = Count(Run(c.files, nil, opts))
			}
			b.ReportMetric(float64(len(c.files))*float64(b.N)/b.Elapsed().Seconds(), "sessions/s")
			if findings != 100 {
				b.Fatalf("findings = %d, want 100", findings)
			}
		})
	}
}

// BenchmarkMatcherCheck measures one call's decision (the in-process part of
// the hook): a bash command and a read.
func BenchmarkMatcherCheck(b *testing.B) {
	m := guard.DefaultRules().Matcher(guard.Env{Cwd: "/home/user/proj", Home: "/home/user"})
	calls := []guard.Call{
		{Tool: "bash", Args: map[string]any{"command": "cd web && npm run build 2>&1 | tail -5 && cat .e''nv"}},
		{Tool: "read", Args: map[string]any{"path": "~/.pi/agent/auth.json"}},
	}
	for b.Loop() {
		for _, c := range calls {
			m.Check(c)
		}
	}
}

// BenchmarkCheckRealSessions measures the first pass over the real pi-mono
// sessions in testdata (their agents repeat about one call in nine), with
// the gate's verdicts remembered per session and with each call analysed:
// what remembering saves on real sessions, not on generated ones, whose
// calls repeat far more.
func BenchmarkCheckRealSessions(b *testing.B) {
	var inputs [][]byte
	var size int64
	for _, name := range []string{"before-compaction", "compact", "large-session"} {
		data, err := os.ReadFile("../../testdata/sessions/" + name + ".jsonl")
		if err != nil {
			b.Fatal(err)
		}
		inputs = append(inputs, data)
		size += int64(len(data))
	}
	for _, each := range []bool{false, true} {
		b.Run(fmt.Sprintf("analyseEach=%v", each), func(b *testing.B) {
			o := Options{Rules: guard.DefaultRules(), Home: "/home/user", analyseEach: each}
			b.SetBytes(size)
			for b.Loop() {
				for _, data := range inputs {
					if r := CheckReader(bytes.NewReader(data), "s.jsonl", o); r.Err != nil {
						b.Fatal(r.Err)
					}
				}
			}
		})
	}
}
