// pruner-protect: a pi extension that asks `pruner hook` about every tool
// call before it runs, so the same protected-path rules apply live in pi,
// in Claude Code (PreToolUse hook) and to saved sessions (`pruner check`).
//
// Install: copy to ~/.pi/agent/extensions/pruner-protect.ts (or a project's
// .pi/extensions/), with `pruner` on PATH. Rules come from --rules FILE, else
// contextPrune.protectedPathRules in settings.json, else
// ~/.pi/agent/configs/protected-paths.json, else pruner's built-in defaults.
//
// Protocol (pruner hook --format text, the default):
//   exit 0  allow (no output)
//   exit 2  deny; stderr holds a one-line reason naming the path and the rule
//   exit 1  the event could not be judged (fail open; add --fail-closed to deny)
import { spawnSync } from "node:child_process";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

const PRUNER = process.env.PRUNER_BIN ?? "pruner";

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event, ctx) => {
    const payload = JSON.stringify({ toolName: event.toolName, input: event.input });
    const r = spawnSync(PRUNER, ["hook", "--cwd", ctx.cwd], {
      input: payload,
      encoding: "utf8",
      timeout: 5000,
      maxBuffer: 1 << 20,
    });
    if (r.error) {
      // pruner missing or timed out: block rather than silently unprotect.
      return { block: true, reason: `pruner hook failed: ${r.error.message}` };
    }
    if (r.status === 2) {
      const reason = (r.stderr || "blocked by pruner protected-paths").trim();
      if (ctx.hasUI) ctx.ui.notify(reason, "warning");
      return { block: true, reason };
    }
    if (r.status !== 0 && ctx.hasUI) {
      ctx.ui.notify(`pruner hook: ${(r.stderr || "").trim()}`, "warning");
    }
    return undefined; // allow
  });
}
