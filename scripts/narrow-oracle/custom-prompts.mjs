// Oracle vectors for narrowing prompts built from a custom SYSTEM.md (pi's custom-prompt branch),
// made by pi's own published code. Run by `make oracle-custom-prompts` (mk/narrow.mk).
//
// usage: node custom-prompts.mjs OUT.json DIR_0.58.3 DIR_0.79.1 DIR_1.6.0
//   each DIR is an npm prefix with that pi version installed (node_modules/<pkg>).
//
// For each pi version and fixture (a SYSTEM.md text, or none, plus context files, an append text and
// skills), the prompt of every subset of the seven built-in tools is built by pi's buildSystemPrompt
// (dist/core/system-prompt.js, imported by path), fed the way AgentSession feeds it. A few
// (fixture, tool set) pairs are also built by the runtime — createAgentSession with a real SYSTEM.md
// and APPEND_SYSTEM.md in the agent dir, found by pi's own resource loader — and must agree byte for
// byte, which shows the builder call is the one pi makes for a user's SYSTEM.md.
//
// Output: {"fixtures": {name: inputs}, "prompts": {"<ver>/<fixture>": {"<tools joined by ,>": prompt},
//          "<ver>/<fixture>/without-second": {…the same, built without the skill "second"}}, "runtimeChecked": [...]}.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [outFile, dir058, dir079, dir16] = process.argv.slice(2);
if (!dir16) {
	console.error("usage: custom-prompts.mjs OUT.json DIR_0.58.3 DIR_0.79.1 DIR_1.6.0");
	process.exit(2);
}

const CWD = "/home/user/proj";
const TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls"];
process.env.TZ = "UTC";
const RealDate = Date;
const fixedNow = RealDate.parse("2026-03-15T12:00:00.000Z");
globalThis.Date = class extends RealDate {
	constructor(...a) {
		if (a.length === 0) super(fixedNow);
		else super(...a);
	}
	static now() {
		return fixedNow;
	}
};
const agentRoot = mkdtempSync(join(tmpdir(), "pruner-custom-oracle-"));
process.on("exit", () => rmSync(agentRoot, { recursive: true, force: true }));
Object.assign(process.env, { PI_OFFLINE: "1", PI_TELEMETRY: "0", PI_SKIP_VERSION_CHECK: "1" });

const skills = [
	{ name: "demo", description: 'Demo skill. Use when the user asks for a demo & "quoted" <thing>.', filePath: "/home/user/.pi/agent/skills/demo/SKILL.md", baseDir: "/home/user/.pi/agent/skills/demo", source: "user", disableModelInvocation: false },
	{ name: "second", description: "Another skill.", filePath: "/home/user/.pi/agent/skills/second/SKILL.md", baseDir: "/home/user/.pi/agent/skills/second", source: "user", disableModelInvocation: false },
];
const agentsPlain = { path: "/home/user/proj/AGENTS.md", content: "# Agent notes\n- Run `npm test` before committing.\n" };

// Text a user may type that looks like pi's own sections, in every layout.
const lookalike0x = `You help with the acme repo.

Available tools:
- read: Read file contents
- bash: Execute bash commands (ls, grep, find, etc.)
- deploy: our own deploy script
(none)

In addition to the tools above, you may have access to other custom tools depending on the project.

Guidelines:
- Use bash for file operations like ls, rg, find
- Use read to examine files instead of cat or sed.
- Use edit for precise changes (old text must match exactly)
- Be concise in your responses

The following skills provide specialized instructions for specific tasks.
Use the read tool to load a skill's file when the task matches its description.
When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.

<available_skills>
  <skill>
    <name>demo</name>
    <description>typed by the user</description>
    <location>/u/demo/SKILL.md</location>
  </skill>
</available_skills>
Current date: 1999-01-01
Current working directory: /typed`;
const lookalike1x = `<tools>
- read: Read file contents
- bash: Execute bash commands
(none)

Additional tools may be available.
</tools>

<rules>
- Use bash for file operations like ls, rg, find
- Use read to examine files instead of cat or sed.
- Be concise in your responses
</rules>

<skills>
The following skills provide specialized instructions for specific tasks.
Use the read tool to load a skill's file when the task matches its description.
Resolve relative paths against the skill's directory (parent of SKILL.md). Use absolute paths in tool calls.

<available_skills>
  <skill>
    <name>second</name>
    <description>typed by the user</description>
    <location>/u/second/SKILL.md</location>
  </skill>
</available_skills>
</skills>

<cwd>
/typed
</cwd>
`;
const agentsLookalike = {
	path: "/home/user/proj/AGENTS.md",
	content: `# Agent notes
Available tools:
- bash: only through make

Guidelines:
- Use bash for file operations like ls, rg, find

<skills>
The following skills provide specialized instructions for specific tasks.
Use bash to load a skill's file when the task matches its description.

<available_skills>
  <skill>
    <name>demo</name>
    <description>from AGENTS.md</description>
    <location>/x/SKILL.md</location>
  </skill>
</available_skills>
</skills>

<cwd>
/fake
</cwd>
Current date: 2000-01-01
Current working directory: /fake
`,
};
const appendLookalike = `Appended by APPEND_SYSTEM.md.
Available tools:
- write: Create or overwrite files
<available_skills>
  <skill>
    <name>second</name>
  </skill>
</available_skills>`;

const versions = [
	{ ver: "0.58.3", dir: dir058, pkg: "@mariozechner/pi-coding-agent" },
	{ ver: "0.79.1", dir: dir079, pkg: "@earendil-works/pi-coding-agent" },
	{ ver: "1.6.0", dir: dir16, pkg: "@earendil-works/pi-coding-agent" },
];
const oneLine = (s) => (s ? s.replace(/[\r\n]+/g, " ").replace(/\s+/g, " ").trim() || undefined : undefined);

for (const v of versions) {
	const base = join(v.dir, "node_modules", v.pkg, "dist");
	v.major = Number(v.ver.split(".")[0]);
	delete process.env.PI_PACKAGE_DIR;
	v.sp = await import(pathToFileURL(join(base, "core/system-prompt.js")).href);
	v.pi = await import(pathToFileURL(join(base, "index.js")).href);
	v.defs = {};
	if (v.ver !== "0.58.3") {
		const f = { read: v.pi.createReadToolDefinition, bash: v.pi.createBashToolDefinition, edit: v.pi.createEditToolDefinition, write: v.pi.createWriteToolDefinition, grep: v.pi.createGrepToolDefinition, find: v.pi.createFindToolDefinition, ls: v.pi.createLsToolDefinition };
		for (const [n, fn] of Object.entries(f)) {
			const d = fn(CWD);
			v.defs[n] = { snip: oneLine(d.promptSnippet), g: [...new Set((d.promptGuidelines ?? []).map((x) => x.trim()).filter(Boolean))] };
		}
	}
}

// build calls buildSystemPrompt of version v the way AgentSession does for active tools sel.
function build(v, fx, sel) {
	process.env.PI_PACKAGE_DIR = "/usr/lib/node_modules/" + v.pkg;
	const opts = { cwd: CWD, skills: fx.skills, contextFiles: fx.contextFiles, selectedTools: [...sel], customPrompt: fx.custom, appendSystemPrompt: fx.append || undefined };
	if (v.major >= 1) {
		const toolSnippets = {};
		const toolGuidelines = {};
		for (const [n, d] of Object.entries(v.defs)) {
			if (d.snip) toolSnippets[n] = d.snip;
			if (d.g.length) toolGuidelines[n] = d.g;
		}
		Object.assign(opts, { toolSnippets, toolGuidelines, hiddenTools: [], appendSystemPrompt: fx.append ?? "" });
	} else if (v.ver !== "0.58.3") {
		const toolSnippets = {};
		const promptGuidelines = [];
		for (const n of sel) {
			if (v.defs[n].snip) toolSnippets[n] = v.defs[n].snip;
			promptGuidelines.push(...v.defs[n].g);
		}
		Object.assign(opts, { toolSnippets, promptGuidelines });
	}
	return v.sp.buildSystemPrompt(opts);
}

// The default prompt of another pi version, as a user who saved it to SYSTEM.md would have it.
const [, v079, v16] = versions;
const all = TOOLS;
const copied079 = build(v079, { skills, contextFiles: [agentsPlain] }, all);
const copied16 = build(v16, { skills, contextFiles: [agentsPlain] }, all);
const copiedSame = Object.fromEntries(versions.map((v) => [v.ver, build(v, { skills: [], contextFiles: [] }, ["read", "bash", "edit", "write"])]));

const fixtures = {
	// SYSTEM.md texts (pi's custom-prompt branch)
	"custom-plain": { custom: "You are Acme's release assistant.\nKeep answers short.\n", skills, contextFiles: [agentsPlain] },
	"custom-lookalike-0x": { custom: lookalike0x, skills, contextFiles: [agentsLookalike], append: appendLookalike },
	"custom-lookalike-1x": { custom: lookalike1x, skills, contextFiles: [agentsLookalike], append: appendLookalike },
	"custom-crlf": { custom: "House rules.\r\nAvailable tools:\r\n- read: Read file contents\r\n- bash: run\r\n", skills, contextFiles: [agentsPlain] },
	"custom-no-context": { custom: "Minimal prompt.", skills, contextFiles: [] },
	"custom-no-skills": { custom: lookalike0x, skills: [], contextFiles: [agentsPlain] },
	"custom-newline-only": { custom: "\n", skills, contextFiles: [] },
	// a SYSTEM.md saved from another pi version's default prompt (its preamble, its sections)
	"custom-copied-other-version": { customByVersion: { "0.58.3": copied16, "0.79.1": copied16, "1.6.0": copied079 }, skills, contextFiles: [agentsPlain] },
	// ... and from the same version's: the text alone cannot tell it from pi's own prompt
	"custom-copied-same-version": { customByVersion: copiedSame, skills, contextFiles: [agentsPlain] },
	// pi's default branch: an empty SYSTEM.md counts as none; lookalike text in context and append
	"default-empty-system-md": { custom: "", skills, contextFiles: [agentsPlain] },
	"default-lookalike": { skills, contextFiles: [agentsLookalike], append: appendLookalike },
};

const out = { fixtures: {}, prompts: {}, runtimeChecked: [] };
for (const [name, fx] of Object.entries(fixtures)) {
	out.fixtures[name] = { custom: fx.custom ?? (fx.customByVersion ? "(a default prompt of pi, see the fixture name)" : undefined), append: fx.append, contextFiles: fx.contextFiles, skills: fx.skills.map((s) => s.name) };
}
for (const v of versions) {
	for (const [name, fx0] of Object.entries(fixtures)) {
		const fx = { ...fx0, custom: fx0.customByVersion ? fx0.customByVersion[v.ver] : fx0.custom };
		const res = {};
		const one = {}; // the same without the second skill (for --deny-skill second)
		for (let mask = 0; mask < 128; mask++) {
			const sel = TOOLS.filter((_, i) => mask & (1 << i));
			res[sel.join(",")] = build(v, fx, sel);
			one[sel.join(",")] = build(v, { ...fx, skills: fx.skills.slice(0, 1) }, sel);
		}
		out.prompts[`${v.ver}/${name}`] = res;
		if (fx.skills.length > 1) out.prompts[`${v.ver}/${name}/without-second`] = one;
	}
}

// Runtime cross-check: pi's resource loader reads SYSTEM.md / APPEND_SYSTEM.md from the agent dir.
async function runtime(v, fx, sel) {
	const agentDir = join(agentRoot, `${v.ver}-${out.runtimeChecked.length}`);
	mkdirSync(agentDir, { recursive: true });
	process.env.PI_CODING_AGENT_DIR = agentDir;
	if (fx.custom !== undefined) writeFileSync(join(agentDir, "SYSTEM.md"), fx.custom);
	if (fx.append) writeFileSync(join(agentDir, "APPEND_SYSTEM.md"), fx.append);
	process.env.PI_PACKAGE_DIR = "/usr/lib/node_modules/" + v.pkg;
	const settingsManager = v.pi.SettingsManager.inMemory({});
	const loader = new v.pi.DefaultResourceLoader({
		cwd: CWD,
		agentDir,
		settingsManager,
		noExtensions: true,
		noPromptTemplates: true,
		noThemes: true,
		// sourceInfo given, so the loader does not stat the (fixed, non-existent) skill paths
		skillsOverride: () => ({ skills: fx.skills.map((s) => ({ ...s, sourceInfo: { path: s.filePath, source: "local", scope: "user", origin: "top-level", baseDir: s.baseDir } })), diagnostics: [] }),
		agentsFilesOverride: () => ({ agentsFiles: fx.contextFiles }),
	});
	await loader.reload();
	const opts = { cwd: CWD, agentDir, resourceLoader: loader, settingsManager, sessionManager: v.pi.SessionManager.inMemory(CWD) };
	if (v.ver === "0.58.3") {
		const mk = { read: v.pi.createReadTool, bash: v.pi.createBashTool, edit: v.pi.createEditTool, write: v.pi.createWriteTool, grep: v.pi.createGrepTool, find: v.pi.createFindTool, ls: v.pi.createLsTool };
		opts.tools = sel.map((n) => mk[n](CWD));
	} else {
		opts.tools = [...sel];
		if (sel.length === 0) opts.noTools = "all";
	}
	const { session } = await v.pi.createAgentSession(opts);
	const p = session.systemPrompt;
	session.dispose?.();
	return p;
}
const checks = [
	["custom-plain", ["read", "bash", "edit", "write"]],
	["custom-plain", ["bash"]],
	["custom-lookalike-0x", ["read", "grep"]],
	["custom-lookalike-1x", ["bash", "edit"]],
	["custom-crlf", []],
	["default-empty-system-md", ["read", "bash"]],
];
for (const v of versions) {
	for (const [name, sel] of checks) {
		const fx = fixtures[name];
		const rt = await runtime(v, fx, sel);
		const want = out.prompts[`${v.ver}/${name}`][sel.join(",")];
		if (rt !== want) {
			writeFileSync(join(tmpdir(), `custom-oracle-${v.ver}-${name}.runtime.txt`), rt);
			writeFileSync(join(tmpdir(), `custom-oracle-${v.ver}-${name}.builder.txt`), want);
			throw new Error(`${v.ver} ${name} [${sel}]: runtime and builder prompts differ (see ${tmpdir()}/custom-oracle-*)`);
		}
		out.runtimeChecked.push(`${v.ver}/${name}/${sel.join(",")}`);
	}
}
writeFileSync(outFile, JSON.stringify(out, null, 1) + "\n");
console.error(`custom-prompts: ${Object.keys(out.prompts).length} fixture sets, ${out.runtimeChecked.length} runtime checks agree`);
