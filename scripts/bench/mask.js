// mask.js: the per-line baseline `make bench` times against pruner: read a
// pi session line by line, JSON.parse each line, replace the content of tool
// results longer than 4000 chars with a short notice, JSON.stringify the
// message. No tree, no compaction, no rolling window: a lower bound on what
// a Node tool pays per line.
"use strict";
const fs = require("fs");
const readline = require("readline");
const rl = readline.createInterface({ input: fs.createReadStream(process.argv[2], { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
const out = [];
let size = 0;
const flush = () => { if (out.length) { process.stdout.write(out.join("")); out.length = 0; size = 0; } };
rl.on("line", (line) => {
	if (!line.trim()) return;
	let e;
	try { e = JSON.parse(line); } catch { return; }
	if (!e || e.type !== "message" || !e.message) return;
	const m = e.message;
	if (m.role === "toolResult" && Array.isArray(m.content)) {
		let n = 0;
		for (const b of m.content) if (b && b.type === "text" && typeof b.text === "string") n += b.text.length;
		if (n > 4000) m.content = [{ type: "text", text: `[pruned ${m.toolName} result: ${n} chars]` }];
	}
	const s = JSON.stringify(m) + "\n";
	out.push(s);
	size += s.length;
	if (size > 1 << 20) flush();
});
rl.on("close", flush);
