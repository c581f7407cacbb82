package index

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
)

// resolvableRef is Resolvable as it was before it counted only the
// chains' timestamps (every user and assistant message's counted): the
// reference.
func resolvableRef(ctx *session.Context, chains []ChainRange) ([]ChainRange, error) {
	if len(chains) == 0 {
		return nil, nil
	}
	users, assistants := map[int64]int{}, map[int64]int{}
	for _, m := range ctx.Messages {
		role := m.Role()
		if role != session.RoleUser && role != session.RoleAssistant {
			continue
		}
		ts, ok, err := messageTimestamp(ctx, m)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if role == session.RoleUser {
			users[ts]++
		} else {
			assistants[ts]++
		}
	}
	out := chains[:0:0]
	for _, c := range chains {
		if users[c.StartUserTimestamp] == 1 && c.FinalAssistantTimestamp != nil && assistants[*c.FinalAssistantTimestamp] == 1 {
			out = append(out, c)
		}
	}
	return out, nil
}

// repeatSession is a session of chains whose messages' timestamps repeat
// (each byte of the script a message, its timestamp one of four, or not a
// whole number).
func repeatSession(script []byte) *chainSession {
	b := newChainSession()
	calls := 0
	for i, op := range script {
		ts := fmt.Sprint(1000 + int(op>>4)%4)
		if op>>4 == 15 {
			ts = "1000.5"
		}
		var msg string
		switch op % 4 {
		case 0:
			msg = fmt.Sprintf(`{"role":"user","content":[{"type":"text","text":"u%d"}],"timestamp":TS}`, i)
		case 1:
			calls++
			msg = `{"role":"assistant","content":[` + tc(fmt.Sprintf("c%d", calls), "bash", `{"command":"x"}`) + `],"stopReason":"toolUse","timestamp":TS}`
		case 2:
			msg = fmt.Sprintf(`{"role":"toolResult","toolCallId":"c%d","toolName":"bash","content":[{"type":"text","text":"r"}],"isError":false,"timestamp":TS}`, calls)
		case 3:
			msg = `{"role":"assistant","content":[{"type":"text","text":"done"}],"stopReason":"stop","timestamp":TS}`
		}
		b.add(strings.Replace(msg, "TS", ts, 1))
	}
	return b
}

// FuzzResolvable: Resolvable keeps the chains the reference keeps, of
// contexts whose timestamps repeat.
func FuzzResolvable(f *testing.F) {
	f.Add([]byte{0x00, 0x11, 0x12, 0x13, 0x10, 0x21, 0x22, 0x33, 0x30, 0x01, 0x02, 0x23, 0xf0, 0x11, 0x12, 0xf3})
	f.Add([]byte{0x00, 0x01, 0x02, 0x03, 0x10, 0x11, 0x12, 0x13, 0x20, 0x21, 0x22, 0x23})
	f.Fuzz(func(t *testing.T, script []byte) {
		ctx := repeatSession(script).ctx(t)
		chains, err := DetectChains(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Resolvable(ctx, chains)
		if err != nil {
			t.Fatal(err)
		}
		want, err := resolvableRef(ctx, chains)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("kept %+v, the reference %+v", got, want)
		}
	})
}

// TestResolvableSeeds: the seeds hold chains Resolvable keeps and chains
// it leaves (else FuzzResolvable would test little).
func TestResolvableSeeds(t *testing.T) {
	ctx := repeatSession([]byte{0x00, 0x11, 0x12, 0x13, 0x10, 0x21, 0x22, 0x33, 0x30, 0x01, 0x02, 0x23, 0xf0, 0x11, 0x12, 0xf3}).ctx(t)
	chains, err := DetectChains(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := Resolvable(ctx, chains)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) == 0 || len(kept) == len(chains) {
		t.Fatalf("%d of %d chains kept, want some", len(kept), len(chains))
	}
}
