package guard

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"
)

// Event is one tool call as a hook receives it.
type Event struct {
	Call Call
	// Cwd is the event's working directory ("" when it has none: pi's
	// tool_call event does not carry one).
	Cwd string
	// Shape is "claude" (PreToolUse: tool_name, tool_input, cwd) or "pi"
	// (tool_call: toolName, input).
	Shape string
}

// EventError says why an event cannot be analysed; a hook denies such an
// event unless told to fail open.
type EventError struct {
	What string
	// NotACall: the event is one of Claude Code's events that carry no tool
	// call (UserPromptSubmit, SessionStart, Stop, …): there is nothing to
	// judge, and a hook has no opinion on it.
	NotACall bool
}

func (e *EventError) Error() string { return e.What }

// ParseEvent decodes a hook's stdin: Claude Code's PreToolUse payload
// `{"tool_name":…,"tool_input":{…},"cwd":…}` or pi's tool_call event
// `{"toolName":…,"input":{…}}`. An event that carries both shapes yields
// both calls (each is judged; one deny denies). Key names are matched
// exactly, as JSON.parse reads them. Anything else is an *EventError: not
// JSON, nested deeper than the decoder reads, not an object, no tool name,
// a tool name that is not a string, or an input that is missing or not an
// object.
func ParseEvent(data []byte) ([]Event, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, &EventError{What: "the event on stdin is empty"}
	}
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		switch {
		case strings.Contains(err.Error(), "exceeded max depth"):
			return nil, &EventError{What: "the event nests deeper than the 10000 levels the JSON decoder reads, so it cannot be analysed"}
		case data[0] != '{':
			if stdjson.Valid(data) {
				return nil, &EventError{What: "the event on stdin is JSON, but not an event object"}
			}
			return nil, &EventError{What: "the event on stdin is not JSON"}
		default:
			return nil, &EventError{What: fmt.Sprintf("the event on stdin is not valid JSON (%s)", shortJSONErr(err))}
		}
	}
	if top == nil {
		return nil, &EventError{What: "the event on stdin is JSON, but not an event object"}
	}
	var out []Event
	for _, sh := range []struct{ name, tool, input string }{{"claude", "tool_name", "tool_input"}, {"pi", "toolName", "input"}} {
		tv, ok := top[sh.tool]
		if !ok {
			continue
		}
		tool, ok := tv.(string)
		if !ok || tool == "" {
			return nil, &EventError{What: fmt.Sprintf("the event's %q is not a tool name", sh.tool)}
		}
		iv, ok := top[sh.input]
		if !ok || iv == nil {
			return nil, &EventError{What: fmt.Sprintf("the event has no %q for tool %q", sh.input, tool)}
		}
		input, ok := iv.(map[string]any)
		if !ok {
			return nil, &EventError{What: fmt.Sprintf("the event's %q is not an object", sh.input)}
		}
		cwd, _ := top["cwd"].(string)
		out = append(out, Event{Call: Call{Tool: tool, Args: input}, Cwd: cwd, Shape: sh.name})
	}
	if len(out) == 0 {
		if name, _ := top["hook_event_name"].(string); nonToolEvent(name) {
			return nil, &EventError{What: fmt.Sprintf("a %s event carries no tool call", name), NotACall: true}
		}
		return nil, &EventError{What: `the event has neither "tool_name" (Claude Code) nor "toolName" (pi)`}
	}
	return out, nil
}

// nonToolEvent reports whether a Claude Code hook event name is one that
// never carries a tool call.
func nonToolEvent(name string) bool {
	switch name {
	case "UserPromptSubmit", "SessionStart", "SessionEnd", "Stop", "SubagentStop", "Notification", "PreCompact":
		return true
	}
	return false
}

func shortJSONErr(err error) string {
	s := err.Error()
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return s
}
