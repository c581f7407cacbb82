//go:build race

package pipeline

// raceEnabled: the race detector slows the replay of the large sessions
// about tenfold, so under it they are replayed turn by turn (see TestReplay).
const raceEnabled = true
