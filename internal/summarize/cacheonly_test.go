package summarize

import (
	"context"
	"testing"
)

// TestCacheOnly: with CacheOnly no command runs and nothing is written; a
// cached batch gets its cached summary, any other the deterministic one.
func TestCacheOnly(t *testing.T) {
	hit, miss := batchOf("cached result"), batchOf("new result")
	cache := &mapCache{m: map[string]string{Key(hit, ClipHeadTail, ""): "- [[1:bash]] from the model"}}
	run := RunnerFunc(func(context.Context, []byte) ([]byte, error) {
		t.Fatal("CacheOnly ran the command")
		return nil, nil
	})
	for _, cmd := range []Runner{run, nil} {
		got := Summarize(context.Background(), []Batch{hit, miss}, Options{Command: cmd, Cache: cache, CacheOnly: true, Clip: ClipHeadTail})
		if got[0].Source != SourceCache || got[0].Text != "- [[1:bash]] from the model" {
			t.Fatalf("cached batch: %+v", got[0])
		}
		if got[1].Source != SourceDeterministic || got[1].Text != Deterministic(miss) || got[1].Warning != "" {
			t.Fatalf("uncached batch: %+v", got[1])
		}
		if len(cache.m) != 1 {
			t.Fatalf("CacheOnly wrote to the cache: %d entries", len(cache.m))
		}
	}
}
