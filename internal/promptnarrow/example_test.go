package promptnarrow_test

import (
	"fmt"

	"github.com/pruner-dev/pruner/internal/promptnarrow"
)

func ExampleNarrow() {
	// pi 0.79's default prompt (shortened): pi's preamble, then its sections.
	prompt := "You are an expert coding assistant operating inside pi, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.\n\n" +
		"Available tools:\n- read: Read file contents\n- bash: Execute bash commands (ls, grep, find, etc.)\n- grep: Search file contents for patterns (respects .gitignore)\n\n" +
		"In addition to the tools above, you may have access to other custom tools depending on the project.\n\n" +
		"Guidelines:\n- Use read to examine files instead of cat or sed.\n- Be concise in your responses\n- Show file paths clearly when working with files\n\n<project_context>\n"
	out, rep := promptnarrow.Narrow(prompt, promptnarrow.Options{Deny: []string{"grep", "read"}})
	fmt.Print(out)
	fmt.Println()
	fmt.Println(rep.Layout, rep.ToolsKept, rep.ToolsRemoved, rep.LinesAdded)
	// Output:
	// You are an expert coding assistant operating inside pi, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.
	//
	// Available tools:
	// - bash: Execute bash commands (ls, grep, find, etc.)
	//
	// In addition to the tools above, you may have access to other custom tools depending on the project.
	//
	// Guidelines:
	// - Use bash for file operations like ls, rg, find
	// - Be concise in your responses
	// - Show file paths clearly when working with files
	//
	// <project_context>
	//
	// pi-0.7x [bash] [read grep] [- Use bash for file operations like ls, rg, find]
}
