package cli

import (
	"bufio"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"testing"
)

// BenchmarkFileCommand runs one pruner command line in the process on the
// session in $PRUNER_BENCH_FILE (skipped when unset), its output to a
// buffered io.Discard: what the binary does, minus process start-up, so
// that -cpuprofile and -memprofile see the real path. $PRUNER_BENCH_ARGS is
// the command before the file (default "now -q"), e.g. "now -q --no-flush",
// "context", "now -q --session", "check --exit-zero".
//
//	PRUNER_BENCH_FILE=bench/out/session-200MB-seed1.jsonl go test -run '^$' -bench FileCommand -benchtime 1x -cpuprofile cpu.prof ./internal/cli/
func BenchmarkFileCommand(b *testing.B) {
	path := os.Getenv("PRUNER_BENCH_FILE")
	if path == "" {
		b.Skip("PRUNER_BENCH_FILE is not set")
	}
	args := strings.Fields(os.Getenv("PRUNER_BENCH_ARGS"))
	if len(args) == 0 {
		args = []string{"now", "-q"}
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	home := b.TempDir()
	env := map[string]string{"HOME": home, "PI_CODING_AGENT_DIR": home, "GOMEMLIMIT": os.Getenv("GOMEMLIMIT")}
	for b.Loop() {
		out := bufio.NewWriterSize(io.Discard, 1<<20)
		var errb strings.Builder
		s := &IOStreams{In: strings.NewReader(""), Out: out, ErrOut: &errb, Getenv: func(k string) string { return env[k] }, SetMemoryLimit: debug.SetMemoryLimit}
		if code := Main(append(append([]string(nil), args...), path), s, BuildInfo{}); code != 0 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
		out.Flush()
	}
}
