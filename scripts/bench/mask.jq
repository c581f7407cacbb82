# mask.jq: the per-line jq baseline `make bench` times against pruner
# (jq -c -f mask.jq FILE): each message entry's message, with the content of
# tool results longer than 4000 chars replaced by a short notice. Streams
# line by line (no tree, no compaction, no rolling window).
select(.type == "message" and .message != null) | .message
| if .role == "toolResult" and (.content | type) == "array"
     and ([.content[] | select(.type == "text") | .text | length] | add // 0) > 4000
  then .content = [{type: "text", text: "[pruned \(.toolName) result]"}]
  else . end
