package protect

import (
	"strings"
	"testing"
	"time"
)

// TestBoundedInputs: hostile commands stay fast (no exponential blow-up).
func TestBoundedInputs(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: "/home/u/p", Home: "/home/u"})
	for _, c := range []string{
		strings.Repeat("{a,b}", 40),
		strings.Repeat("$(", 200) + strings.Repeat(")", 200),
		strings.Repeat("bash -c '", 1) + strings.Repeat("eval ", 500) + "cat .env'",
		strings.Repeat("cd a; ", 2000) + "cat x",
		strings.Repeat("*/", 300) + ".env",
		"cat " + strings.Repeat("**/", 200) + ".env",
		strings.Repeat("cat x | ", 3000),
		"cat " + strings.Repeat("$X/", 500) + "a",
	} {
		st := time.Now()
		m.Check(Call{Tool: "bash", Args: map[string]any{"command": c}})
		if d := time.Since(st); d > 2*time.Second {
			t.Errorf("%.40q took %v", c, d)
		}
	}
}
