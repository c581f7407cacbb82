#!/usr/bin/env python3
"""Writes protected.jsonl: a pi session (v3) with nine user turns, made for
chain compression. Turns 1-4 are old closed chains (with the defaults they
are compressed): a protected skill read (protectedPaths) beside a bash call,
one read, two tiny calls no summary covers (deterministic body), and four
batches with a protected tool (todo) and a trivial edit (fused, backfilled).
Turns 5-7 are the rolling window (turns 5 and 6 read the skill again: the
older read is superseded), turn 8 the raw window, turn 9 text only.

    python3 testdata/chains/make-protected.py   # from the repository root
"""
import datetime
import json
import os

t0 = 1796200000000
lines = [{"type": "session", "version": 3, "id": "0196c0de-0000-7000-8000-00000000c4a1",
          "timestamp": "", "cwd": "/home/me/proj"}]
state = {"n": 0, "last": None, "clock": t0, "call": 0}


def iso(ms):
    d = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (ms % 1000)


lines[0]["timestamp"] = iso(t0)


def add(msg):
    state["clock"] += 1000
    state["n"] += 1
    msg["timestamp"] = state["clock"]
    eid = "%08x" % (0xC0000000 + state["n"])
    lines.append({"type": "message", "id": eid, "parentId": state["last"],
                  "timestamp": iso(state["clock"]), "message": msg})
    state["last"] = eid


usage = {"input": 100, "output": 10, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 110,
         "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}
model = {"api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5", "usage": usage}


def user(text):
    add({"role": "user", "content": [{"type": "text", "text": text}]})


def calls(cs, thinking=None):
    content = [{"type": "thinking", "thinking": thinking}] if thinking else []
    ids = []
    for name, args in cs:
        state["call"] += 1
        cid = "toolu_%02d" % state["call"]
        ids.append(cid)
        content.append({"type": "toolCall", "id": cid, "name": name, "arguments": args})
    add(dict({"role": "assistant", "content": content}, **model, stopReason="toolUse"))
    return ids


def result(cid, name, text):
    add({"role": "toolResult", "toolCallId": cid, "toolName": name,
         "content": [{"type": "text", "text": text}], "isError": False})


def reply(text, thinking=None):
    content = [{"type": "thinking", "thinking": thinking}] if thinking else []
    content.append({"type": "text", "text": text})
    add(dict({"role": "assistant", "content": content}, **model, stopReason="stop"))


skill = ("---\nname: demo\ndescription: Demo skill for project overviews.\n---\n\n# Demo skill\n\n"
         "1. Read README.md.\n2. Run `ls -la` and summarize the layout.\n3. Never print secrets.\n")
ls = "\n".join("-rw-r--r--  1 me me %6d Dec  1 10:%02d file_%03d.txt" % (1000 + i * 37, i % 60, i) for i in range(40))
app = "\n".join("function step%03d(x) { return x + %d; } // keeps the pipeline moving" % (i, i) for i in range(60))
seq = "\n".join(str(i) for i in range(1, 700))

user("Use the demo skill: give me an overview of the project.")
ids = calls([("read", {"path": "skills/demo/SKILL.md"}), ("bash", {"command": "ls -la"})],
            thinking="Start with the skill, then list the files.")
result(ids[0], "read", skill)
result(ids[1], "bash", ls)
reply("The project has 40 data files; the skill says to summarize the layout.", thinking="Summarize.")

user("Show me src/app.js.")
ids = calls([("read", {"path": "src/app.js"})])
result(ids[0], "read", app)
reply("src/app.js defines 60 step functions.")

user("Check the git status.")
ids = calls([("bash", {"command": "git status --short"}), ("bash", {"command": "git log -1 --oneline"})])
result(ids[0], "bash", " M src/app.js\n")
result(ids[1], "bash", "a1b2c3d Add step functions\n")
reply("One modified file; the last commit adds the step functions.")

user("Count the lines and note a todo.")
ids = calls([("bash", {"command": "seq 1 699"})])
result(ids[0], "bash", seq)
ids = calls([("todo", {"action": "add", "text": "split app.js"})])
result(ids[0], "todo", "Added todo #1: split app.js")
ids = calls([("edit", {"path": "src/app.js", "oldText": "x + 0", "newText": "x + 0 /* base */"})])
result(ids[0], "edit", "Successfully replaced text in src/app.js.")
ids = calls([("read", {"path": "src/app.js"})])
result(ids[0], "read", app.replace("x + 0", "x + 0 /* base */"))
reply("699 lines counted, todo noted, step000 annotated.")

runs = [("npm test", "\n".join("ok %d - step%03d" % (i, i) for i in range(1, 80))),
        ("npm run build", "\n".join("built chunk %02d (%d kB)" % (i, i * 3) for i in range(60))),
        ("ls src", "app.js\nutil.js\n")]
for k, (cmd, out) in enumerate(runs):
    user("Turn %d: run %s." % (5 + k, cmd))
    if k < 2:  # turns 5 and 6 read the skill again
        ids = calls([("read", {"path": "skills/demo/SKILL.md"}), ("bash", {"command": cmd})])
        result(ids[0], "read", skill)
        result(ids[1], "bash", out)
    else:
        ids = calls([("bash", {"command": cmd})])
        result(ids[0], "bash", out)
    reply("Ran %s." % cmd)
user("Thanks. What is left to do?")
reply("Split app.js (todo #1).")

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "protected.jsonl"), "w") as f:
    for l in lines:
        f.write(json.dumps(l, separators=(",", ":"), ensure_ascii=False) + "\n")
