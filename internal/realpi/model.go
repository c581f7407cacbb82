// Package realpi drives the real pi coding agent (the npm package
// @earendil-works/pi-coding-agent) offline, for the integration test of
// pruner's pi extensions: it installs Node 22 and pi from npm into a cache,
// builds an isolated world (HOME, project, models.json, settings.json) and
// serves a scripted OpenAI-compatible model that records every request body
// pi sends. The test itself (realpi_test.go) is behind the build tag
// "realpi" and runs with `make realpi`.
package realpi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Call is one tool call the scripted model makes.
type Call struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// Step is one assistant reply: optional text, then tool calls (none: the
// turn ends).
type Step struct {
	Text  string `json:"text,omitempty"`
	Calls []Call `json:"calls,omitempty"`
}

// Turn is the model's script for one user prompt.
type Turn struct {
	Prompt string `json:"prompt"`
	Steps  []Step `json:"steps"`
}

// Scenario is the model's whole script. The newest user message whose text
// equals a turn's prompt picks the turn; the number of assistant messages
// after it picks the step (the last step repeats). A request that matches
// no prompt is answered "Done.".
type Scenario struct {
	Turns []Turn `json:"turns"`
}

// Request is one recorded chat-completions request.
type Request struct {
	N     int    // 1-based order of arrival
	Route string // "turn<T>.step<S>" or "fallback"
	Body  []byte // the request body, byte for byte
}

// Model is a scripted OpenAI-compatible chat-completions endpoint
// (POST …/chat/completions, streaming or not; GET …/models). It is an
// http.Handler; serve it on 127.0.0.1 (httptest.NewServer).
type Model struct {
	scenario Scenario

	mu       sync.Mutex
	requests []Request
}

// NewModel returns a model that follows s.
func NewModel(s Scenario) *Model { return &Model{scenario: s} }

// Requests returns the requests received so far, in order.
func (m *Model) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.requests...)
}

// WireMessage is a message of an OpenAI chat-completions request, as pi
// sends it.
type WireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []WireToolCall  `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
}

// WireToolCall is one entry of an assistant message's tool_calls.
type WireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// WireRequest is the part of a chat-completions request body the model reads.
type WireRequest struct {
	Model    string        `json:"model"`
	Messages []WireMessage `json:"messages"`
	Stream   bool          `json:"stream"`
}

// Text returns the text of a message's content (a string, or the text
// parts of a list).
func (w WireMessage) Text() string {
	var s string
	if json.Unmarshal(w.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(w.Content, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// route picks the scenario step for a request's messages.
func (m *Model) route(msgs []WireMessage) (Step, string) {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		text := strings.TrimSpace(msgs[i].Text())
		for t, turn := range m.scenario.Turns {
			if turn.Prompt != text {
				continue
			}
			k := 0
			for _, x := range msgs[i+1:] {
				if x.Role == "assistant" {
					k++
				}
			}
			steps := turn.Steps
			if len(steps) == 0 {
				return Step{Text: "Done."}, fmt.Sprintf("turn%d.empty", t+1)
			}
			return steps[min(k, len(steps)-1)], fmt.Sprintf("turn%d.step%d", t+1, k+1)
		}
	}
	return Step{Text: "Done."}, "fallback"
}

// ServeHTTP implements http.Handler.
func (m *Model) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "fake-coder", "object": "model"}}})
		return
	case r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions"):
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req WireRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "request body is not JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	step, route := m.route(req.Messages)
	m.mu.Lock()
	n := len(m.requests) + 1
	m.requests = append(m.requests, Request{N: n, Route: route, Body: body})
	m.mu.Unlock()

	id := fmt.Sprintf("chatcmpl-scripted-%04d", n)
	type call struct{ id, name, args string }
	var calls []call
	for i, c := range step.Calls {
		args, _ := json.Marshal(c.Args)
		if c.Args == nil {
			args = []byte("{}")
		}
		calls = append(calls, call{fmt.Sprintf("call_%s_%d", strings.ReplaceAll(route, ".", "_"), i), c.Name, string(args)})
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	usage := map[string]int{"prompt_tokens": max(1, len(body)/4), "completion_tokens": 10, "total_tokens": max(1, len(body)/4) + 10}
	created := 1767225600 + n

	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": step.Text}
		if len(calls) > 0 {
			var tcs []any
			for _, c := range calls {
				tcs = append(tcs, map[string]any{"id": c.id, "type": "function", "function": map[string]any{"name": c.name, "arguments": c.args}})
			}
			msg["tool_calls"] = tcs
		}
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	chunk := func(delta map[string]any, fin any) {
		b, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fin}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	for t := step.Text; t != ""; {
		k := min(len(t), 50)
		chunk(map[string]any{"content": t[:k]}, nil)
		t = t[k:]
	}
	for i, c := range calls {
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.id, "type": "function",
			"function": map[string]any{"name": c.name, "arguments": ""}}}}, nil)
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": c.args}}}}, nil)
	}
	chunk(map[string]any{}, finish)
	b, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model,
		"choices": []any{}, "usage": usage})
	fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", b)
}

func writeJSON(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}
