package promptnarrow

import "sync"

// Data tables: pi's built-in tool snippets and guideline lines, per prompt
// layout. Sources (read from the published npm packages):
//   - 0.5x: @mariozechner/pi-coding-agent 0.58.3 dist/core/system-prompt.js
//     (toolDescriptions and the fixed guideline rules of buildSystemPrompt);
//   - 0.7x: @earendil-works/pi-coding-agent 0.79.1 dist/core/tools/*.js
//     (promptSnippet/promptGuidelines of the create*ToolDefinition factories);
//   - 1.x: @earendil-works/pi-coding-agent 1.6.0 dist/core/tools/*.js
//     (*ToolSystemPromptContribution) and buildRules in system-prompt.js.

// BuiltinTools returns pi's built-in tools, in pi's canonical order (a
// fresh slice).
func BuiltinTools() []string { return []string{"read", "bash", "edit", "write", "grep", "find", "ls"} }

// Guideline lines shared by every layout.
const (
	gBashFileOps = "Use bash for file operations like ls, rg, find"
	gConcise     = "Be concise in your responses"
	gFilePaths   = "Show file paths clearly when working with files"
)

// 0.5x guideline lines (buildSystemPrompt 0.58, rules (a)–(e)).
const (
	g05PreferGrep   = "Prefer grep/find/ls tools over bash for file exploration (faster, respects .gitignore)"
	g05ReadEdit     = "Use read to examine files before editing. You must use this tool instead of cat or sed."
	g05Edit         = "Use edit for precise changes (old text must match exactly)"
	g05Write        = "Use write only for new files or complete rewrites"
	g05Summarizing  = "When summarizing your actions, output plain text directly - do NOT use cat or bash to display what you did"
	snippet05Edit   = "Make surgical edits to files (find exact text and replace)"
	snippet07Edit   = "Make precise file edits with exact text replacement, including multiple disjoint edits in one call"
	docs07ResolveLn = "- When reading pi docs or examples, resolve docs/... under Additional docs and examples/... under Examples, not the current working directory"
)

// 0.7x per-tool promptGuidelines (0.79.1).
var guidelines07 = map[string][]string{
	"read": {"Use read to examine files instead of cat or sed."},
	"edit": {
		"Use edit for precise changes (edits[].oldText must match exactly)",
		"When changing multiple separate locations in one file, use one edit call with multiple entries in edits[] instead of multiple edit calls",
		"Each edits[].oldText is matched against the original file, not after earlier edits are applied. Do not emit overlapping or nested edits. Merge nearby changes into one edit.",
		"Keep edits[].oldText as small as possible while still being unique in the file. Do not pad with large unchanged regions.",
	},
	"write": {"Use write only for new files or complete rewrites."},
}

// 1.x per-tool guidelines (1.6.0). bash's line appears only when pi exposes
// the session environment; pruner keeps it when present and never adds it.
const g1PiEnv = "You can inspect PI_* environment variables for current model and session details."

var guidelines1 = map[string][]string{
	"read":       {"Use read to examine files instead of cat or sed."},
	"bash":       {g1PiEnv},
	"powershell": {g1PiEnv},
	"edit": {
		"Use edit for targeted changes. Batch changes to one file in a single call.",
		"Each edits[].oldText must exactly and uniquely match the original file. Keep matches short and non-overlapping; merge nearby changes without including large unchanged regions.",
	},
	"write": {"Use write only for new files or complete rewrites."},
}

// 1.x file-exploration variants (buildRules).
const (
	g1BashOrPS = "Use bash or PowerShell for file operations like listing, searching, and finding files"
	g1PS       = "Use PowerShell for file operations like listing, searching, and finding files"
)

// Skills intro lines.
const (
	skillsIntro0      = "The following skills provide specialized instructions for specific tasks."
	skillsReadLine    = "Use the read tool to load a skill's file when the task matches its description."
	skillsBashLine    = "Use bash to load a skill's file when the task matches its description."
	skillsIndirectLn  = "Load a skill's file when the task matches its description."
	availSkillsOpen   = "<available_skills>"
	availSkillsClose  = "</available_skills>"
	toolsAdditional05 = "In addition to the tools above, you may have access to other custom tools depending on the project."
	toolsAdditional1  = "Additional tools may be available."
	noneLine          = "(none)"
)

// extGuideline is a guideline pruner can attribute although it is not one of
// the detected layout's built-in lines: known extension tools' guidelines
// (the pi-permission-system table, seed-extensions A4) and built-in lines
// of other pi versions. keep reports whether the line survives for the
// allowed set.
type extGuideline struct {
	text  string // normalised: lowercased, whitespace collapsed
	tools []string
	keep  func(has func(string) bool) bool
}

func needAll(tools ...string) func(func(string) bool) bool {
	return func(has func(string) bool) bool {
		for _, t := range tools {
			if !has(t) {
				return false
			}
		}
		return true
	}
}

func needAny(tools ...string) func(func(string) bool) bool {
	return func(has func(string) bool) bool {
		for _, t := range tools {
			if has(t) {
				return true
			}
		}
		return false
	}
}

// extGuidelines is built on first use (sync.OnceValue): every pruner process
// would pay for it at start-up, `pruner hook` included.
var extGuidelines = sync.OnceValue(func() map[string]extGuideline {
	m := map[string]extGuideline{}
	add := func(text string, keep func(func(string) bool) bool, tools ...string) {
		n := normGuideline(text)
		m[n] = extGuideline{text: n, tools: tools, keep: keep}
	}
	add("Use task when work should be delegated to one or more specialized agents instead of handled entirely in the current session.", needAll("task"), "task")
	add("Use mcp for MCP discovery first: search by capability, describe one exact tool name, then call it.", needAll("mcp"), "mcp")
	// Built-in lines of other pi versions, attributed to their tools.
	add(g05PreferGrep, func(has func(string) bool) bool {
		return has("bash") && (has("grep") || has("find") || has("ls"))
	}, "bash", "grep", "find", "ls")
	add(g05ReadEdit, needAll("read", "edit"), "read", "edit")
	add(g05Edit, needAll("edit"), "edit")
	add(g05Write, needAll("write"), "write")
	add(g05Summarizing, needAny("edit", "write"), "edit", "write")
	add("Use read to examine files instead of cat or sed.", needAll("read"), "read")
	add("Use write only for new files or complete rewrites.", needAll("write"), "write")
	for _, g := range guidelines07["edit"] {
		add(g, needAll("edit"), "edit")
	}
	for _, g := range guidelines1["edit"] {
		add(g, needAll("edit"), "edit")
	}
	return m
})
