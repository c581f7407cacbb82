// pruner prune — a pi extension that pipes the messages of every model
// request through `pruner now -`, so old bulky tool results reach the model
// as short deterministic notices (byte-stable from request to request, so
// the provider's prompt cache holds). Docs: docs/pi-extensions.md.
//
// Install: copy to ~/.pi/agent/extensions/pruner-prune.ts (the global
// extensions dir). A project's .pi/extensions/ is ignored by pi in print,
// json and rpc mode until the project is trusted.
//
// pruner: $PRUNER_BIN, else `pruner` on PATH. Settings: pruner reads the
// contextPrune key of pi's settings.json files itself (run in the session's
// cwd, so the project's .pi/settings.json applies too).
//
// Fails open: when pruner cannot be run or fails, the messages go to the
// model unchanged, and the user is told once (the UI, or stderr in
// print/json mode). The session file is never changed.
import { spawn } from "node:child_process";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";

const PRUNER = process.env.PRUNER_BIN || "pruner";
const TIMEOUT_MS = 30_000;
const MAX_WARNINGS = 5;
const NAME = "pruner-prune";

interface Run {
	error?: Error;
	status: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

// run feeds input to `PRUNER args…` and collects its output.
function run(args: string[], input: string, cwd: string): Promise<Run> {
	return new Promise((resolve) => {
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		let done = false;
		// Our own timer, not spawn's timeout option: that one outlives a failed
		// spawn and keeps pi (print mode) from exiting until it fires.
		const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
		timer.unref();
		const finish = (r: Run) => {
			if (!done) {
				done = true;
				clearTimeout(timer);
				resolve(r);
			}
		};
		const text = (b: Buffer[]) => Buffer.concat(b).toString("utf8");
		const child = spawn(PRUNER, args, { cwd, stdio: ["pipe", "pipe", "pipe"] });
		child.stdout.on("data", (b: Buffer) => out.push(b));
		child.stderr.on("data", (b: Buffer) => err.push(b));
		// a failed spawn (ENOENT, EACCES) never closes: settle on the error
		child.on("error", (error) => finish({ error, status: null, signal: null, stdout: text(out), stderr: text(err) }));
		child.on("close", (status, signal) => finish({ status, signal, stdout: text(out), stderr: text(err) }));
		child.stdin.on("error", () => {}); // EPIPE when pruner exits early
		child.stdin.end(input);
	});
}

export default function (pi: ExtensionAPI) {
	let told = false;
	const shown = new Set<string>();
	// tell shows a failure to the user once per pi process.
	const tell = (ctx: ExtensionContext, msg: string) => {
		if (told) return;
		told = true;
		show(ctx, `${NAME}: ${msg}`, "error");
	};
	const show = (ctx: ExtensionContext, text: string, level: "warning" | "error") => {
		if (ctx.hasUI) ctx.ui.notify(text, level);
		else process.stderr.write(`${text}\n`);
	};
	const how = `(PRUNER_BIN=${process.env.PRUNER_BIN ?? "unset"}; install pruner or set PRUNER_BIN)`;

	pi.on("context", async (event, ctx) => {
		if (event.messages.length === 0) return undefined;
		const lines = event.messages.map((m) => JSON.stringify(m));
		const r = await run(["now", "-q", "-"], lines.join("\n") + "\n", ctx.cwd);
		if (r.error || r.signal || r.status !== 0) {
			const why = r.error ? r.error.message : r.signal ? `killed by ${r.signal}` : (r.stderr || "").trim().split("\n")[0] || `exit ${r.status}`;
			tell(ctx, `cannot prune (${PRUNER} now: ${why})${r.error ? ` ${how}` : ""}; messages are sent unpruned`);
			return undefined;
		}
		// pruner's warnings (bad lines, odd input): each shown once, a few at most
		for (const w of r.stderr.split("\n")) {
			if (w.trim() && !shown.has(w) && shown.size < MAX_WARNINGS) {
				shown.add(w);
				show(ctx, `${NAME}: ${w}`, "warning");
			}
		}
		const got = r.stdout.endsWith("\n") ? r.stdout.slice(0, -1).split("\n") : r.stdout.split("\n");
		if (got.length !== lines.length) {
			tell(ctx, `${PRUNER} now returned ${got.length} messages for ${lines.length}; messages are sent unpruned`);
			return undefined;
		}
		let changed = false;
		let messages;
		try {
			messages = got.map((l, i) => {
				if (l === lines[i]) return event.messages[i]; // untouched: pruner copies it byte for byte
				changed = true;
				return JSON.parse(l);
			});
		} catch (e) {
			tell(ctx, `${PRUNER} now printed a line that is not JSON (${(e as Error).message}); messages are sent unpruned`);
			return undefined;
		}
		return changed ? { messages } : undefined;
	});
}
