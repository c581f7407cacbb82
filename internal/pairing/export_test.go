package pairing

import "github.com/pruner-dev/pruner/internal/session"

// The slice forms of analyze and CrossingAt the tests call (the stages
// give their messages one at a time).

// Analyze pairs msgs as pi-ai does (analyze) and returns the pairs it makes and the
// error hazards (indexes only in the Refs: Role, Entry and Line empty).
func Analyze(msgs []Msg) ([]Pair, []Hazard) {
	nCalls, nResults := 0, 0
	for _, m := range msgs {
		nCalls += len(m.Calls)
		if m.Role == session.RoleToolResult {
			nResults++
		}
	}
	return analyze(len(msgs), func(i int) Msg { return msgs[i] }, nCalls, nResults, true)
}

// Crossing returns the indexes of the inserted messages of msgs that fall
// strictly inside a pair: between a call and the result pi-ai pairs with
// it once the inserted messages are left out. A stage that inserts a
// message (a compressed chain, a summary) must not put it there: it would
// orphan the result.
func Crossing(msgs []Msg, inserted func(i int) bool) []int {
	return CrossingAt(len(msgs), func(i int) Msg { return msgs[i] }, inserted)
}
