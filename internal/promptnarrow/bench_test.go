package promptnarrow

import (
	"strings"
	"testing"
)

// prompt20KB is pi 0.79.1's all-tools prompt with the AGENTS.md block grown
// to make the whole prompt 20 KB (20480 bytes).
func prompt20KB(b testing.TB) string {
	p := readFile(b, testdataDir+"/oracle/0.79.1/prompt-all.txt")
	marker := "- Never print the contents of .env files.\n"
	var pad strings.Builder
	for len(p)+pad.Len() < 20480 {
		pad.WriteString("- Project rule: keep functions small and document exported identifiers.\n")
	}
	p = strings.Replace(p, marker, marker+pad.String(), 1)
	return p
}

func BenchmarkNarrow20KB(b *testing.B) {
	p := prompt20KB(b)
	opts := allow("read", "bash")
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		Narrow(p, opts)
	}
}

func TestBenchmarkPromptSize(t *testing.T) {
	if n := len(prompt20KB(t)); n < 20480 || n > 20600 {
		t.Fatalf("bench prompt is %d bytes", n)
	}
}
