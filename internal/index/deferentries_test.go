package index

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
)

// deferOptions are flushWritten's options (spills, dedup, chains) with
// batches of minChars or more summarised.
func deferOptions(t *testing.T, window, minChars int) FlushOptions {
	spill := func(key, _ string) (string, error) { return "blobs/" + BlobName(key), nil }
	return FlushOptions{Capture: CaptureOptions{Protect: mustPredicate(t, []string{"todo"}, nil), RawFrom: -1}, MinBatchChars: minChars, Dedup: true,
		SpillThreshold: 4000, SpillPreviewBytes: 100, Spill: spill,
		Chains: ChainOptions{Enabled: true, RollingWindow: window, Fuse: deterministicFuse, FuseDeterministic: true}, Now: 1}
}

// deferredFlush flushes ctx with o, its summarised batches' entries made
// at once or deferred and made by BuildEntries, and returns every entry's
// line and the state's rewrite points; deferred counts the batches
// BuildEntries made.
func deferredFlush(t *testing.T, ctx *session.Context, o FlushOptions, deferEntries bool) (lines []string, points []RewritePoint, deferred int) {
	t.Helper()
	st, err := Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	o.DeferEntries = deferEntries
	fl, err := Flush(t.Context(), ctx, st, o)
	if err != nil {
		t.Fatal(err)
	}
	deferred = len(fl.deferred)
	for _, e := range fl.Entries {
		if e == nil && !deferEntries {
			t.Fatal("a nil entry without DeferEntries")
		}
	}
	fl.BuildEntries()
	for i, e := range fl.Entries {
		if e == nil {
			t.Fatalf("entry %d still nil after BuildEntries", i)
		}
		line, err := e.AppendLine(nil, ctx, fmt.Sprintf("n%d", i), "p", "T")
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(line))
	}
	fl.BuildEntries() // a second call changes nothing
	if len(fl.Entries) != len(lines) {
		t.Fatalf("BuildEntries twice: %d entries, %d before", len(fl.Entries), len(lines))
	}
	return lines, fl.State.RewritePoints, deferred
}

// checkDeferred: the deferred entries are the entries made at once, and
// the rewrite points (read from them before they are made) the same.
func checkDeferred(t *testing.T, ctx *session.Context, o FlushOptions) int {
	t.Helper()
	want, wantPoints, _ := deferredFlush(t, ctx, o, false)
	got, gotPoints, n := deferredFlush(t, ctx, o, true)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("deferred entries differ:\n%q\nmade at once:\n%q", got, want)
	}
	if !reflect.DeepEqual(gotPoints, wantPoints) {
		t.Fatalf("rewrite points: deferred %v, made at once %v", gotPoints, wantPoints)
	}
	return n
}

// FuzzDeferredEntries: a flush with FlushOptions.DeferEntries and then
// BuildEntries writes what a flush that makes its entries at once writes.
func FuzzDeferredEntries(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 0, 1, 2, 1, 2, 3, 0, 4, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 3}, uint8(1))
	f.Add([]byte{0, 1, 37, 1, 2, 1, 9, 3, 0, 1, 1, 2, 30, 3, 0, 1, 2, 3, 0, 3}, uint8(0))
	f.Add([]byte{0, 1, 1, 1, 44, 2, 2, 3, 0, 1, 254, 3, 0, 1, 2, 1, 254, 1, 2, 3, 0, 1, 254, 3, 0, 3}, uint8(0))
	f.Add([]byte{0, 1, 200, 1, 200, 3, 0, 1, 200, 3, 0, 1, 6, 200, 3, 0, 3, 0, 3, 0, 3}, uint8(2))
	f.Fuzz(func(t *testing.T, script []byte, window uint8) {
		if len(script) > 200 {
			script = script[:200]
		}
		checkDeferred(t, scriptSession(script).ctx(t), deferOptions(t, int(window%4), int(window/4%2)*1000))
	})
}

// TestDeferredEntriesOracle: FuzzDeferredEntries's property on every
// oracle session, and its seeds and those sessions defer batches (else
// the property would hold of nothing).
func TestDeferredEntriesOracle(t *testing.T) {
	snaps, _ := filepath.Glob(filepath.Join(oracleDir, "*", "requests", "*.session.jsonl"))
	finals, _ := filepath.Glob(filepath.Join(oracleDir, "*", "final", "*.jsonl"))
	deferred := 0
	for _, p := range append(snaps, finals...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ctx := readCtx(t, data)
		for window := range 3 {
			deferred += checkDeferred(t, ctx, deferOptions(t, window, 0))
		}
		deferred += checkDeferred(t, ctx, FlushOptions{Capture: CaptureOptions{RawFrom: -1}})
	}
	for _, script := range [][]byte{
		{0, 1, 37, 1, 2, 1, 9, 3, 0, 1, 1, 2, 30, 3, 0, 1, 2, 3, 0, 3},
		{0, 1, 200, 1, 200, 3, 0, 1, 200, 3, 0, 1, 6, 200, 3, 0, 3, 0, 3, 0, 3},
	} {
		deferred += checkDeferred(t, scriptSession(script).ctx(t), deferOptions(t, 0, 1000))
	}
	if deferred < 10 {
		t.Fatalf("only %d batches deferred", deferred)
	}
}
