package prune

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
)

// The memo answers as the rules do, for every result of every shipped
// session (its call, or a stand-in), asked twice, with rules that protect
// some of them by tool and some by path.
func TestProtectMemoAnswersAsTheRules(t *testing.T) {
	pred, err := protect.NewPredicate([]string{"write", "*edit*"}, []string{"**/*.go", "**/README*"})
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	var pm protectMemo
	yes, no := 0, 0
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := session.Read(f, f, session.ReadOptions{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		calls := map[string]*session.ToolCall{}
		for _, m := range ctx.Messages {
			tcs := m.ToolCalls()
			for k := range tcs {
				calls[tcs[k].ID()] = &tcs[k]
			}
			if m.Role() != session.RoleToolResult {
				continue
			}
			call, ok := calls[m.ToolCallID()]
			if !ok {
				tc := m.ResultCall()
				call = &tc
			}
			want := pred.Protected(call.Name(), call.Path(), call.HasPath()) || (call.Name() != m.ToolName() && pred.ToolProtected(m.ToolName()))
			for range 2 {
				if got := pm.protected(pred, call, m.ToolName()); got != want {
					t.Fatalf("%s: call %+v (result tool %q): memo %v, rules %v", p, *call, m.ToolName(), got, want)
				}
			}
			if want {
				yes++
			} else {
				no++
			}
		}
	}
	if yes == 0 || no == 0 {
		t.Fatalf("%d protected, %d not: the rules should split the results", yes, no)
	}
}
