# prune.jq: what `pruner now` does, written in jq, for the benchmark
# (scripts/bench.sh). Usage: jq -c -f scripts/prune.jq SESSION.jsonl
#
# Scope: a linear v3 session such as pruner-benchgen writes (header, then
# entries chained by parentId, with compactions). The tree is not walked: the
# leaf's path is every entry in file order. The last compaction is honoured
# (summary message, then entries from firstKeptEntryId, then the rest).
#
# The work is the same as pruner's: parse every line, build the context, find
# the last 2 user turns, and for each older toolResult decide and rewrite
# exactly as pruner does with its defaults (recentTurnsToKeep 2,
# maxRetainedChars 4000, default protectedTools/protectedPaths): masked
# notice, error head+tail excerpt, image notices; every other message is
# written unchanged. Notice texts match pruner's byte for byte, so the outputs
# compare equal after `jq -cS .` (bench.sh checks that).

def recent_turns: 2;
def max_chars: 4000;

def protected_tool: test("^(subagent_run|subagent_result|subagent_status|gentle_review.*|mem_.*|todo|ask_user_.*)$");
def protected_path: test("(^|/)skills/(.*/)?[^/]*\\.md$");

# pi's oneLine: collapse whitespace runs, cut to 120 code points + "…".
def one_line: gsub("[\n\r\t ]+"; " ") | ltrimstr(" ") | rtrimstr(" ")
  | if length > 120 then .[0:120] + "…" else . end;

def text_chars: if type == "string" then length
  elif type == "array" then (map(select(.type == "text") | .text | strings | length) | add // 0)
  else 0 end;
def images: if type == "array" then (map(select(.type == "image")) | length) else 0 end;
def has_notice: if type == "string" then startswith("[pruner: ")
  elif type == "array" then any(.[]; .type == "text" and (.text | strings | startswith("[pruner: ")))
  else false end;
def first_text: if type == "string" then .
  elif type == "array" then ([.[] | select(.type == "text") | .text | strings][0] // "")
  else "" end;
def synthetic: first_text | test("^Subagent \\S+ \\(task [^,)]+,[^)]*\\) finished\\.");

def size_text($chars; $imgs): "\($chars) chars, ~\(($chars + 3) / 4 | floor) tokens"
  + (if $imgs > 0 then ", \($imgs) image(s) ~\($imgs * 1200) tokens" else "" end);

[., inputs] as $lines
| [$lines[] | select(.type != "session")] as $ents
| ([range(0; $ents | length) | select($ents[.].type == "compaction")] | last) as $ci
| (if $ci == null then $ents
   else $ents[$ci] as $c
   | ([range(0; $ci) | select($ents[.].id == $c.firstKeptEntryId)] | first) as $fk
   | [{compaction: $c}]
     + (if $fk == null then [] else [$ents[$fk:$ci][] | select(.message.role != "system")] end)
     + $ents[$ci + 1:]
   end) as $path
| [$path[]
   | if .compaction then .compaction as $c
       | {e: $c.id, m: {role: "compactionSummary", summary: $c.summary, tokensBefore: $c.tokensBefore,
            timestamp: ((($c.timestamp[0:19] + "Z") | fromdateiso8601) * 1000 + ($c.timestamp[20:23] | tonumber))}}
     elif .type == "message" then {e: .id, m: .message}
     else empty end] as $msgs
| ([range(0; $msgs | length) | select($msgs[.].m.role == "user" and ($msgs[.].m.content | synthetic | not))]) as $starts
| (if ($starts | length) > recent_turns then $starts[($starts | length) - recent_turns] else 0 end) as $cutoff
# the toolCall each result answers: latest call per id (ids are unique in
# generated sessions, so one map for the whole context is pruner's lookup)
| (reduce ($msgs[].m | select(.role == "assistant") | .content | arrays | .[] | select(.type == "toolCall")) as $tc
    ({}; .[$tc.id] = {name: $tc.name, args: $tc.arguments})) as $calls
| range(0; $msgs | length) as $i
| ($msgs[$i] as $x
    | $x.m | if .role != "toolResult" or $i >= $cutoff then .
      else
        ($calls[.toolCallId] // {name: .toolName, args: null}) as $call
        | (($call.args | objects | .path | strings) // null) as $path
        | ((if $path != null then $path
            else (($call.args | objects | .file_path | strings) // "") end)
           | if . == "" then (($call.args | objects | .command | strings) // "") else . end
           | one_line) as $hint
        | (if (.toolName // "") != "" then .toolName elif ($call.name // "") != "" then $call.name else "tool" end) as $tool
        | (.content | text_chars) as $chars
        | (.content | images) as $imgs
        | "call \(.toolCallId), entry \($x.e)" as $occ
        | (if $hint != "" then " · " + $hint else "" end) as $h
        | "pruner query --entry \($x.e) SESSION" as $recover
        | if (($call.name // "") | protected_tool) or ($path != null and ($path | protected_path))
             or (($call.name // "") != (.toolName // "") and ((.toolName // "") | protected_tool)) then .
          elif .content | has_notice then .
          elif $chars > max_chars and .isError == true then
            (.content | if type == "string" then . else [.[] | select(.type == "text") | .text | strings] | join("\n") end) as $t
            | ($t | .[0:1000]) as $head | ($t | .[-1000:]) as $tail
            | .content = [{type: "text", text: "[pruner: pruned \($tool) error result, head and tail kept] \($occ)\($h) · \(size_text($chars; $imgs)); recover: \($recover)\n\($head)\n[… \(($t | length) - 2000) chars omitted …]\n\($tail)"}]
          elif $chars > max_chars then
            .content = [{type: "text", text: "[pruner: pruned \($tool) result] \($occ)\($h) · \(size_text($chars; $imgs)); recover: \($recover)"}]
          elif $imgs > 0 then
            .content |= map(if .type == "image" then
              {type: "text", text: "[pruner: pruned \(.mimeType // "image") image] \($occ) · \(.data | length) bytes base64, ~1200 tokens; recover: \($recover)"}
              else . end)
          else . end
      end)
