package pairing

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
)

// analyzeMaps is Analyze as it was written with a map per assistant
// message: the reference for the in-place lookups.
func analyzeMaps(msgs []Msg) ([]Pair, []Hazard) {
	var pairs []Pair
	var hz []Hazard
	last := -1                   // latest assistant
	var calls map[string]bool    // its call ids
	answered := map[string]int{} // its answered calls → result index
	var between []int            // sent non-result messages since it
	latest := map[string]int{}   // call id → latest assistant holding it
	var separators []int         // every sent non-result message, in order
	for i, m := range msgs {
		if !sent(m) {
			continue
		}
		switch m.Role {
		case session.RoleAssistant:
			separators = append(separators, i)
			last, between = i, nil
			calls = make(map[string]bool, len(m.Calls))
			answered = map[string]int{}
			for _, tc := range m.Calls {
				calls[tc.ID()] = true
				latest[tc.ID()] = i
			}
		case session.RoleToolResult:
			id := m.ToolCallID
			switch a, ok := latest[id]; {
			case last >= 0 && calls[id]:
				if first, dup := answered[id]; dup {
					hz = append(hz, Hazard{Kind: Duplicate, CallID: id, Call: &Ref{Index: last}, Result: Ref{Index: i}, First: &Ref{Index: first}})
					continue
				}
				answered[id] = i
				if len(between) > 0 {
					hz = append(hz, interrupted(id, last, i, int32s(between)))
					continue
				}
				pairs = append(pairs, Pair{last, i, id})
			case ok:
				// the call is in an earlier assistant: everything sent since
				// separates them
				k := sort.SearchInts(separators, a+1)
				hz = append(hz, interrupted(id, a, i, int32s(separators[k:])))
			default:
				hz = append(hz, Hazard{Kind: NoCall, CallID: id, Result: Ref{Index: i}})
			}
		default:
			separators = append(separators, i)
			between = append(between, i)
		}
	}
	return pairs, hz
}

// TestAnalyzeAgreesWithMaps: on random contexts (assistants with none to
// many calls — past manyCalls —, results for them, for older calls, for no
// call and twice, separators, transparent messages), Analyze makes the same
// pairs and hazards as the map version.
func TestAnalyzeAgreesWithMaps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	roles := []string{session.RoleUser, session.RoleToolResult, session.RoleToolResult, session.RoleToolResult, session.RoleAssistant, session.RoleSystem, session.RoleCustom}
	for n := 0; n < 2000; n++ {
		ids := 1 + r.IntN(60)
		msgs := make([]Msg, r.IntN(80))
		for i := range msgs {
			m := Msg{Role: roles[r.IntN(len(roles))], Transparent: r.IntN(20) == 0}
			switch m.Role {
			case session.RoleAssistant:
				k := r.IntN(4)
				if r.IntN(5) == 0 {
					k = r.IntN(3 * manyCalls)
				}
				for j := 0; j < k; j++ {
					m.Calls = append(m.Calls, session.NewToolCall(fmt.Sprint("c", r.IntN(ids)), "", "", false))
				}
			case session.RoleToolResult:
				m.ToolCallID = fmt.Sprint("c", r.IntN(ids))
			}
			msgs[i] = m
		}
		gp, gh := Analyze(msgs)
		wp, wh := analyzeMaps(msgs)
		if len(gp) == 0 && len(wp) == 0 {
			gp, wp = nil, nil
		}
		if !reflect.DeepEqual(gp, wp) || !reflect.DeepEqual(gh, wh) {
			t.Fatalf("case %d: Analyze %v %v, the map version %v %v", n, gp, gh, wp, wh)
		}
	}
}

// int32s is xs as int32 values (the index lists analyze keeps).
func int32s(xs []int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}

// crossingCopy is Crossing as it was written before CrossingAt: a copy of
// msgs with the inserted ones made transparent, paired by Analyze, and
// every inserted message compared with every span.
func crossingCopy(msgs []Msg, inserted func(i int) bool) []int {
	probe := make([]Msg, len(msgs))
	var ins []int
	for i, m := range msgs {
		probe[i] = m
		if inserted(i) {
			probe[i].Transparent = true
			ins = append(ins, i)
		}
	}
	if len(ins) == 0 {
		return nil
	}
	pairs, hz := Analyze(probe)
	var spans [][2]int
	for _, p := range pairs {
		spans = append(spans, [2]int{p.Call, p.Result})
	}
	for _, h := range hz {
		if h.Call != nil {
			spans = append(spans, [2]int{h.Call.Index, h.Result.Index})
		}
	}
	var out []int
	for _, p := range ins {
		for _, s := range spans {
			if s[0] < p && p < s[1] {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// TestCrossingAtAgreesWithCopy: on random contexts with random inserted
// messages (users, some of them already transparent), CrossingAt — given
// the messages one at a time — and Crossing find what the copying version
// found.
func TestCrossingAtAgreesWithCopy(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	roles := []string{session.RoleUser, session.RoleToolResult, session.RoleToolResult, session.RoleToolResult, session.RoleAssistant, session.RoleSystem, session.RoleCustom}
	for n := 0; n < 3000; n++ {
		ids := 1 + r.IntN(40)
		msgs := make([]Msg, r.IntN(80))
		insert := make([]bool, len(msgs))
		for i := range msgs {
			m := Msg{Role: roles[r.IntN(len(roles))], Transparent: r.IntN(20) == 0}
			switch m.Role {
			case session.RoleAssistant:
				k := r.IntN(4)
				if r.IntN(5) == 0 {
					k = r.IntN(3 * manyCalls)
				}
				for j := 0; j < k; j++ {
					m.Calls = append(m.Calls, session.NewToolCall(fmt.Sprint("c", r.IntN(ids)), "", "", false))
				}
			case session.RoleToolResult:
				m.ToolCallID = fmt.Sprint("c", r.IntN(ids))
			}
			if r.IntN(6) == 0 {
				m = Msg{Role: session.RoleUser, Transparent: r.IntN(3) == 0}
				insert[i] = true
			}
			msgs[i] = m
		}
		inserted := func(i int) bool { return insert[i] }
		want := crossingCopy(msgs, inserted)
		got := CrossingAt(len(msgs), func(i int) Msg { return msgs[i] }, inserted)
		if g2 := Crossing(msgs, inserted); !reflect.DeepEqual(got, g2) || !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: CrossingAt %v, Crossing %v, the copying version %v", n, got, g2, want)
		}
	}
}
