package realpi

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func post(t *testing.T, url, body string) string {
	t.Helper()
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	return string(b)
}

// TestModelRoutesAndRecords: the newest user message that equals a prompt
// picks the turn, the assistant messages after it pick the step (the last
// repeats), anything else gets "Done."; every body is kept byte for byte.
func TestModelRoutesAndRecords(t *testing.T) {
	m := NewModel(Scenario{Turns: []Turn{
		{Prompt: "one", Steps: []Step{{Calls: []Call{{Name: "read", Args: map[string]any{"path": ".env"}}}}, {Text: "done one"}}},
		{Prompt: "two", Steps: []Step{{Text: "done two"}}},
	}})
	srv := httptest.NewServer(m)
	defer srv.Close()

	bodies := []string{
		`{"model":"fake-coder","messages":[{"role":"user","content":"one"}]}`,
		`{"model":"fake-coder","messages":[{"role":"user","content":[{"type":"text","text":"one"}]},{"role":"assistant","content":null},{"role":"tool","tool_call_id":"x","content":"r"}]}`,
		`{"model":"fake-coder","messages":[{"role":"user","content":"one"},{"role":"assistant"},{"role":"assistant"},{"role":"assistant"}]}`,
		`{"model":"fake-coder","messages":[{"role":"user","content":"one"},{"role":"assistant"},{"role":"user","content":"two"}]}`,
		`{"model":"fake-coder","messages":[{"role":"user","content":"something else"}]}`,
	}
	var outs []string
	for _, b := range bodies {
		outs = append(outs, post(t, srv.URL, b))
	}
	var first struct {
		Choices []struct {
			Message struct {
				ToolCalls []WireToolCall `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.Unmarshal([]byte(outs[0]), &first); err != nil {
		t.Fatal(err)
	}
	tc := first.Choices[0].Message.ToolCalls
	if len(tc) != 1 || tc[0].ID != "call_turn1_step1_0" || tc[0].Function.Name != "read" || tc[0].Function.Arguments != `{"path":".env"}` || first.Choices[0].FinishReason != "tool_calls" {
		t.Fatalf("first reply: %s", outs[0])
	}
	for i, want := range []string{"", "done one", "done one", "done two", "Done."} {
		if want != "" && !strings.Contains(outs[i], `"content":"`+want+`"`) {
			t.Errorf("reply %d = %s, want %q", i, outs[i], want)
		}
	}
	reqs := m.Requests()
	routes := []string{"turn1.step1", "turn1.step2", "turn1.step4", "turn2.step1", "fallback"}
	for i, r := range reqs {
		if r.N != i+1 || r.Route != routes[i] || string(r.Body) != bodies[i] {
			t.Errorf("request %d: %d %s %q", i, r.N, r.Route, r.Body)
		}
	}
}

// TestModelStreams: a streaming request gets chat.completion.chunk events
// whose deltas add up to the step's text and tool calls, then usage and
// [DONE].
func TestModelStreams(t *testing.T) {
	text := strings.Repeat("x", 120)
	m := NewModel(Scenario{Turns: []Turn{{Prompt: "go", Steps: []Step{{Text: text, Calls: []Call{{Name: "bash", Args: map[string]any{"command": "ls"}}}}}}}})
	srv := httptest.NewServer(m)
	defer srv.Close()
	out := post(t, srv.URL, `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]}`)
	var got, args, finish string
	var done, usage bool
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if line == "[DONE]" {
			done = true
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct {
					Content   string `json:"content"`
					ToolCalls []struct {
						Function struct {
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage map[string]int `json:"usage"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if c.Usage != nil {
			usage = true
		}
		for _, ch := range c.Choices {
			got += ch.Delta.Content
			for _, tc := range ch.Delta.ToolCalls {
				args += tc.Function.Arguments
			}
			if ch.FinishReason != nil {
				finish = *ch.FinishReason
			}
		}
	}
	if got != text || args != `{"command":"ls"}` || finish != "tool_calls" || !done || !usage {
		t.Fatalf("stream: text %q args %q finish %q done %v usage %v", got, args, finish, done, usage)
	}
}
