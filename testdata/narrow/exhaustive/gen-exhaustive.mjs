// Exhaustive prompt vectors: pi's buildSystemPrompt for every subset of the 7 built-in tools.
// usage: pinode exh.mjs OUTFILE.json   (writes {"0.58.3": {...}, "0.79.1": {...}, "1.6.0": {...}})
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
const here = new URL(".", import.meta.url).pathname;
const CWD = "/home/user/proj";
process.env.TZ = "UTC";
const Real = Date; const fixed = Real.parse("2026-03-15T12:00:00.000Z");
globalThis.Date = class extends Real { constructor(...a) { if (a.length === 0) super(fixed); else super(...a); } static now() { return fixed; } };
const TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls"];
const allSkills = [
  { name: "demo", description: 'Demo skill for oracle tests. Use when the user asks for a demo & "quoted" <thing>.', filePath: "/home/user/.pi/agent/skills/demo/SKILL.md", baseDir: "/home/user/.pi/agent/skills/demo", disableModelInvocation: false },
  { name: "second", description: "Another skill.", filePath: "/home/user/.pi/agent/skills/second/SKILL.md", baseDir: "/home/user/.pi/agent/skills/second", disableModelInvocation: false },
];
const contextFiles = [{ path: "/home/user/proj/AGENTS.md", content: "# Agent notes\n- Run `npm test` before committing.\n- Never print the contents of .env files.\n" }];
const oneLine = (s) => (s ? s.replace(/[\r\n]+/g, " ").replace(/\s+/g, " ").trim() || undefined : undefined);
const out = {};
async function run(ver, dir, pkg, skills, key) {
  const base = join(here, dir, "node_modules", pkg, "dist");
  delete process.env.PI_PACKAGE_DIR;
  const sp = await import(pathToFileURL(join(base, "core/system-prompt.js")).href);
  const major = Number(ver.split(".")[0]);
  let defs = {};
  if (ver !== "0.58.3") {
    const pi = await import(pathToFileURL(join(base, "index.js")).href);
    const f = { read: pi.createReadToolDefinition, bash: pi.createBashToolDefinition, edit: pi.createEditToolDefinition, write: pi.createWriteToolDefinition, grep: pi.createGrepToolDefinition, find: pi.createFindToolDefinition, ls: pi.createLsToolDefinition };
    for (const [n, fn] of Object.entries(f)) { const d = fn(CWD); defs[n] = { snip: oneLine(d.promptSnippet), g: [...new Set((d.promptGuidelines ?? []).map((x) => x.trim()).filter(Boolean))] }; }
  }
  process.env.PI_PACKAGE_DIR = "/usr/lib/node_modules/" + pkg;
  const res = {};
  for (let mask = 0; mask < 128; mask++) {
    const sel = TOOLS.filter((_, i) => mask & (1 << i));
    const opts = { cwd: CWD, skills, contextFiles, selectedTools: [...sel] };
    if (ver === "0.58.3") { /* built-in toolDescriptions */ }
    else if (major >= 1) {
      const toolSnippets = {}, toolGuidelines = {};
      for (const [n, d] of Object.entries(defs)) { if (d.snip) toolSnippets[n] = d.snip; if (d.g.length) toolGuidelines[n] = d.g; }
      Object.assign(opts, { toolSnippets, toolGuidelines, hiddenTools: [], appendSystemPrompt: "" });
    } else {
      const toolSnippets = {}, promptGuidelines = [];
      for (const n of sel) { if (defs[n].snip) toolSnippets[n] = defs[n].snip; promptGuidelines.push(...defs[n].g); }
      Object.assign(opts, { toolSnippets, promptGuidelines });
    }
    res[sel.join(",")] = sp.buildSystemPrompt(opts);
  }
  out[key] = res;
}
for (const [ver, dir, pkg] of [["0.58.3", "node58", "@mariozechner/pi-coding-agent"], ["0.79.1", "node", "@earendil-works/pi-coding-agent"], ["1.6.0", "node-latest", "@earendil-works/pi-coding-agent"]]) {
  await run(ver, dir, pkg, allSkills, ver);
  await run(ver, dir, pkg, allSkills.slice(0, 1), ver + "/without-second");
}
writeFileSync(process.argv[2], JSON.stringify(out, null, 1) + "\n");
