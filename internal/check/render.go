package check

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/pruner-dev/pruner/internal/hostfs"
	"github.com/pruner-dev/pruner/internal/pairing"
)

// WriteText writes one line per finding: `FILE:LINE: KIND: MESSAGE`, with
// the outcome of a gate finding after its kind (`protected-path (leak)`) and
// the entry id and tool call id when known.
func WriteText(w io.Writer, results []Result) error {
	for _, r := range results {
		for _, f := range r.Findings {
			where := ""
			if f.EntryID != "" {
				where += " entry " + f.EntryID
			}
			if f.ToolCallID != "" {
				where += " call " + f.ToolCallID
			}
			if where != "" {
				where = " [" + strings.TrimSpace(where) + "]"
			}
			kind := string(f.Kind)
			if f.Outcome != "" {
				kind += " (" + string(f.Outcome) + ")"
			}
			if _, err := fmt.Fprintf(w, "%s:%d: %s: %s%s\n", f.File, f.Line, kind, f.Message, where); err != nil {
				return err
			}
			if f.Hint != "" {
				if _, err := fmt.Fprintf(w, "  hint: %s\n", f.Hint); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// jsonReport is the --format json document.
// Every field is always present (a count of 0, an empty list): a consumer
// reads .empty or .errors without a default.
type jsonReport struct {
	Sessions int       `json:"sessions"`
	Empty    int       `json:"empty"`
	Findings []Finding `json:"findings"`
	Errors   []string  `json:"errors"`
}

// WriteJSON writes {"sessions":N,"empty":E,"findings":[…],"errors":[…]}
// (sessions: the inputs that held something to check; empty: the inputs
// with nothing to check; findings in input order, then line order; errors:
// the inputs that could not be read, then failures: errors of the run
// itself, such as a path that does not exist), indented, with a final
// newline.
func WriteJSON(w io.Writer, results []Result, failures ...string) error {
	rep := jsonReport{Findings: []Finding{}, Errors: []string{}}
	for _, r := range results {
		switch {
		case r.Empty():
			rep.Empty++
		case r.Err == nil:
			rep.Sessions++
		}
		rep.Findings = append(rep.Findings, r.Findings...)
		if r.Err != nil {
			rep.Errors = append(rep.Errors, fmt.Sprintf("%s: %v", r.File, hostfs.Cause(r.Err)))
		}
	}
	rep.Errors = append(rep.Errors, failures...)
	return writeIndented(w, rep)
}

// writeIndented writes v as indented JSON without HTML escaping (commands
// hold `<`, `>` and `&`), with a final newline.
func writeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// ruleInfo describes each finding kind as a SARIF reportingDescriptor.
var ruleInfo = map[Kind]struct{ name, short, full, level string }{
	KindProtectedPath: {"ProtectedPath", "Tool call touches a protected path",
		"A tool call (read, write, edit, bash, grep, find, ls or an unknown tool with a path) touches a path that a protected-path deny rule denies for that operation. Level error when its result returned content (a leak), the write went through (written), it ran with no output to show what it did, or it left no result; note when it was blocked or failed without content (an attempt).", "error"},
	KindFolder: {"ProtectedFolder", "Tool call reads or writes a folder that holds a protected path",
		"A tool call reads every file below a folder (grep -r, rg --hidden, tar c, cp -r, the grep tool) or writes files into one (tar x, unzip) that holds a path a deny rule protects. Level error when its output names a protected path, warning when it ran, note when it was blocked.", "warning"},
	KindUnverifiable: {"UnverifiableCall", "Tool call cannot be analysed",
		"Part of a tool call cannot be analysed (a file named by $(…), a script read from a pipe, eval of a computed string) while a deny rule could be involved; pruner hook denies such calls. Level warning when it ran, note when it was blocked.", "warning"},
	KindBashParse: {"BashParseError", "Bash command does not parse",
		"A bash tool call's command does not parse, so the paths it touches cannot be known; pruner hook denies such calls.", "warning"},
	KindBadCall: {"UnreadableToolCall", "Tool call block cannot be read",
		"A toolCall block has no tool name or its arguments are not an object, so it cannot be checked; pruner hook denies such calls.", "warning"},
	KindBadLine: {"UnparseableLine", "Session line is not valid JSON",
		"A JSONL line does not parse; pi silently skips it, losing the entry.", "warning"},
	KindIncompleteLastLine: {"IncompleteLastLine", "Last session line is cut short",
		"The last JSONL line has no final newline and does not parse: pi is most likely still writing it (a live session). Level note, so a check of a session in use does not fail; the same line elsewhere is UnparseableLine.", "note"},
	KindJoinedLines: {"JoinedLines", "Two JSON objects on one line",
		"Two session entries were written onto one line (a historical write race); pi drops both.", "warning"},
	KindBadHeader: {"BadHeader", "Missing or misplaced session header",
		"The first entry of a session must be the {\"type\":\"session\"} header; pi treats a file without one as empty.", "error"},
	KindOrphanResult: {"OrphanToolResult", "Tool result without its call",
		"A toolResult message refers to a toolCallId that no earlier assistant toolCall block has.", "warning"},
	KindDuplicateID: {"DuplicateEntryId", "Duplicate entry id",
		"Two entries share an id, so the session tree is ambiguous.", "error"},
	KindProtectedPruned: {"ProtectedOutputPruned", "Protected tool output was pruned",
		"A tool result that contextPrune.protectedTools or protectedPaths protects was replaced by a \"[pruner: pruned …]\" notice in the session file.", "error"},
	KindPairing: {"ToolPairing", "Tool result pi-ai cannot pair with its call",
		"In the context pi sends for the session's leaf, a tool result is cut off from its call by another message (a custom message of another extension, a user or summary message), answers no call, or is a second result: pi-ai closes the call with a synthetic error and the provider rejects or the model never sees the real result. Level error; warning when only some pi versions (" + pairing.StaleCompactionVersions + ") render the pair broken. pruner now leaves such pairs untouched.", "error"},
	KindParentCycle: {"ParentCycle", "Cycle in parentId links",
		"Following parentId links loops back, so the path from the leaf to the root never ends.", "error"},
}

// ruleLevel is the default level of a kind.
func ruleLevel(k Kind) string { return ruleInfo[k].level }

// SARIFOptions control WriteSARIF.
type SARIFOptions struct {
	// Version is pruner's version, for tool.driver.version.
	Version string
	// Root is the directory artifact URIs are made relative to (the
	// repository root); "" means the current directory.
	Root string
	// Failures are errors of the run itself (a path that does not exist,
	// rules that do not load, no input): with the inputs that could not
	// be read, each is a toolExecutionNotification of level error, and
	// the invocation's executionSuccessful is false.
	Failures []string
}

// WriteSARIF writes a SARIF 2.1.0 log with one run, one rule per finding
// kind, and one result per finding located at its JSONL line (startLine)
// with a repository-relative URI, valid for GitHub code scanning upload.
// Its one invocation says whether the check ran on every input
// (executionSuccessful), with a notification for each input that could
// not be read and each of o.Failures.
func WriteSARIF(w io.Writer, results []Result, o SARIFOptions) error {
	type msg struct {
		Text string `json:"text"`
	}
	type rule struct {
		ID               string         `json:"id"`
		Name             string         `json:"name"`
		ShortDescription msg            `json:"shortDescription"`
		FullDescription  msg            `json:"fullDescription"`
		Help             msg            `json:"help"`
		DefaultConfig    map[string]any `json:"defaultConfiguration"`
		Properties       map[string]any `json:"properties"`
	}
	type region struct {
		StartLine int `json:"startLine"`
	}
	type artifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	type physical struct {
		ArtifactLocation artifact `json:"artifactLocation"`
		Region           region   `json:"region"`
	}
	type location struct {
		PhysicalLocation physical `json:"physicalLocation"`
	}
	type result struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             msg               `json:"message"`
		Locations           []location        `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		Properties          map[string]any    `json:"properties,omitempty"`
	}
	root := o.Root
	if root == "" {
		root = "."
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	version := o.Version
	if version == "" {
		version = "dev"
	}
	kinds := Kinds()
	rules := make([]rule, len(kinds))
	index := map[Kind]int{}
	for i, k := range kinds {
		ri := ruleInfo[k]
		index[k] = i
		rules[i] = rule{ID: string(k), Name: ri.name, ShortDescription: msg{ri.short}, FullDescription: msg{ri.full},
			Help:          msg{ri.full},
			DefaultConfig: map[string]any{"level": ri.level},
			Properties:    map[string]any{"tags": []string{"pi-session", "security"}}}
	}
	type file struct {
		ArtifactLocation artifact `json:"artifactLocation"`
	}
	type fileLocation struct {
		PhysicalLocation file `json:"physicalLocation"`
	}
	type notification struct {
		Level     string         `json:"level"`
		Message   msg            `json:"message"`
		Locations []fileLocation `json:"locations,omitempty"`
	}
	notes := []notification{}
	out := []result{}
	for _, r := range results {
		uri := artifactURI(r.File, root)
		baseID := "%SRCROOT%"
		if strings.HasPrefix(uri, "file:") {
			baseID = ""
		}
		if r.Err != nil {
			notes = append(notes, notification{Level: "error", Message: msg{fmt.Sprintf("%s: %v", r.File, hostfs.Cause(r.Err))},
				Locations: []fileLocation{{PhysicalLocation: file{ArtifactLocation: artifact{URI: uri, URIBaseID: baseID}}}}})
		}
		for _, f := range r.Findings {
			props := map[string]any{}
			for k, v := range map[string]string{"entryId": f.EntryID, "toolCallId": f.ToolCallID, "tool": f.Tool,
				"path": f.Path, "resolvedPath": f.Resolved, "rule": f.Rule, "op": f.Op, "outcome": string(f.Outcome)} {
				if v != "" {
					props[k] = v
				}
			}
			line := f.Line
			if line < 1 {
				line = 1
			}
			sum := sha256.Sum256([]byte(strings.Join([]string{string(f.Kind), uri, f.EntryID, f.ToolCallID, f.Path, f.Rule, f.Op, f.Message}, "\x00")))
			out = append(out, result{
				RuleID: string(f.Kind), RuleIndex: index[f.Kind], Level: firstNonEmpty(f.Level, ruleLevel(f.Kind)),
				Message: msg{f.Message},
				Locations: []location{{PhysicalLocation: physical{
					ArtifactLocation: artifact{URI: uri, URIBaseID: baseID},
					Region:           region{StartLine: line},
				}}},
				PartialFingerprints: map[string]string{"prunerFinding/v1": hex.EncodeToString(sum[:16])},
				Properties:          props,
			})
		}
	}
	for _, f := range o.Failures {
		notes = append(notes, notification{Level: "error", Message: msg{f}})
	}
	doc := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name":           "pruner",
				"informationUri": "https://github.com/pruner-dev/pruner",
				"version":        version,
				"rules":          rules,
			}},
			"results": out,
			"invocations": []any{map[string]any{
				"executionSuccessful":        len(notes) == 0,
				"toolExecutionNotifications": notes,
			}},
		}},
	}
	return writeIndented(w, doc)
}

// artifactURI makes file relative to root with forward slashes and
// percent-escapes what a URI reference may not hold; stdin becomes "stdin".
func artifactURI(file, root string) string {
	if file == "<stdin>" || file == "-" {
		return "stdin"
	}
	p := file
	if abs, err := filepath.Abs(file); err == nil {
		if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
			p = rel
		} else {
			p = abs
		}
	}
	p = filepath.ToSlash(p)
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~/!$&'()*+,;=:@", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	s := b.String()
	if strings.HasPrefix(s, "/") {
		return "file://" + s
	}
	return s
}
