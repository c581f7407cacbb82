// pruner protect — a pi extension that asks `pruner hook` about every tool
// call before it runs, so the protected-path rules that `pruner check`
// applies to saved sessions (and `pruner hook` to Claude Code) also apply
// live in pi. Docs: docs/pi-extensions.md.
//
// Install: copy to ~/.pi/agent/extensions/pruner-protect.ts (the global
// extensions dir). A project's .pi/extensions/ is ignored by pi in print,
// json and rpc mode until the project is trusted.
//
// pruner: $PRUNER_BIN, else `pruner` on PATH. Rules: pruner reads them itself
// (contextPrune.protectedPathRules in pi's settings.json files, else
// ~/.pi/agent/configs/protected-paths.json, else its built-in defaults).
//
// Fails closed: when pruner cannot be run, times out or answers anything but
// allow (exit 0), the call is blocked. A failure is told to the user once
// (the UI, or stderr in print/json mode), not only to the model.
import { spawnSync } from "node:child_process";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";

const PRUNER = process.env.PRUNER_BIN || "pruner";
const TIMEOUT_MS = 10_000;
const NAME = "pruner-protect";

function firstLine(s: string): string {
	return (s || "").trim().split("\n")[0] ?? "";
}

export default function (pi: ExtensionAPI) {
	let told = false;
	// tell shows a failure to the user once per pi process.
	const tell = (ctx: ExtensionContext, msg: string) => {
		if (told) return;
		told = true;
		const text = `${NAME}: ${msg}`;
		if (ctx.hasUI) ctx.ui.notify(text, "error");
		else process.stderr.write(`${text}\n`);
	};
	const how = `(PRUNER_BIN=${process.env.PRUNER_BIN ?? "unset"}; install pruner or set PRUNER_BIN)`;

	// warn shows a start-up warning to the user (the UI, or stderr).
	const warn = (ctx: ExtensionContext, text: string) => {
		if (ctx.hasUI) ctx.ui.notify(text, "warning");
		else process.stderr.write(`${text}\n`);
	};

	// Check once at start that pruner runs and its settings load, so a broken
	// set-up shows before the first tool call.
	pi.on("session_start", async (_event, ctx) => {
		const r = spawnSync(PRUNER, ["config"], { cwd: ctx.cwd, encoding: "utf8", timeout: TIMEOUT_MS });
		if (r.error) tell(ctx, `cannot run ${PRUNER}: ${r.error.message} ${how}; every tool call will be blocked`);
		else if (r.status === 0) {
			// Rules of the user's own (global settings, protected-paths.json)
			// replace the built-in ones. pruner hook stays silent about it (its
			// stderr is the model's reason), so the user hears it here: pruner
			// config's warning and hint, as pruner prints them.
			const lines = (r.stderr || "").split("\n");
			const i = lines.findIndex((l) => l.includes("replaces the built-in deny rules"));
			if (i >= 0) {
				const hint = (lines[i + 1] || "").startsWith("hint: ") ? ` (${lines[i + 1]})` : "";
				warn(ctx, `${NAME}: ${lines[i].replace(/^pruner: warning: /, "")}${hint}`);
			}
		} else {
			// The gate reads only the settings files and their rules: a bad
			// pruning setting breaks `pruner config`, not `pruner hook`. Ask
			// the hook about a harmless call to say which it is.
			const probe = spawnSync(PRUNER, ["hook", "--cwd", ctx.cwd], {
				cwd: ctx.cwd,
				input: JSON.stringify({ toolName: "read", input: { path: "pruner-protect-probe.txt" } }),
				encoding: "utf8",
				timeout: TIMEOUT_MS,
			});
			const gate = !probe.error && probe.status === 0 ? "pruning settings are broken; tool calls are still checked" : "tool calls will be blocked";
			tell(ctx, `${PRUNER} config failed: ${firstLine(r.stderr)}; ${gate}`);
		}
	});

	pi.on("tool_call", async (event, ctx) => {
		const payload = JSON.stringify({ toolName: event.toolName, input: event.input });
		const r = spawnSync(PRUNER, ["hook", "--fail-closed", "--cwd", ctx.cwd], {
			cwd: ctx.cwd,
			input: payload,
			encoding: "utf8",
			timeout: TIMEOUT_MS,
			maxBuffer: 1 << 20,
		});
		if (r.error || r.signal) {
			const why = r.error ? r.error.message : `killed by ${r.signal}`;
			tell(ctx, `cannot run ${PRUNER} hook: ${why} ${how}; tool calls are blocked`);
			return { block: true, reason: `${NAME}: pruner hook failed (${why}); the call is blocked` };
		}
		if (r.status === 0) return undefined; // allow
		const reason = firstLine(r.stderr) || `${NAME}: pruner hook exited ${r.status}`;
		// A verdict on this call is exit 2 with pruner's "pruner protected-paths:"
		// reason. Anything else (a usage error, rules that do not load, another
		// exit code) is a broken set-up: block, and tell the user.
		const verdict = r.status === 2 && reason.startsWith("pruner protected-paths:") && !reason.includes("rules do not load");
		if (!verdict) tell(ctx, `${reason}; tool calls are blocked`);
		else if (ctx.hasUI) ctx.ui.notify(reason, "warning");
		return { block: true, reason };
	});
}
