// Package index is pruner's batch/index stage: the records of summarised
// tool calls, their occurrence keys and `tN` refs, dedup aliases, chains and
// the frontier — kept in the session as pi-condense (pi-context-prune) keeps
// them, as `context-prune-*` entries, so that pruner and pi-condense can hand
// a session back and forth.
//
// This file is the shared contract: the data of every `context-prune-*`
// entry, with pi-condense's field names and key order (2.9.1; see
// docs/design.md and testdata/condense-oracle). Optional fields are pointers
// or omitempty so that a decoded entry re-encodes with the same keys.
package index

import (
	"strconv"
	"unsafe"

	json "github.com/goccy/go-json"
)

// customType values of pi-condense's entries. Summary is a custom_message
// (it reaches the model); the others are custom entries (data only).
const (
	TypeSummary      = "context-prune-summary"
	TypeIndex        = "context-prune-index"
	TypeFrontier     = "context-prune-frontier"
	TypeDedupAlias   = "context-prune-dedup-alias"
	TypeChain        = "context-prune-chain"
	TypeStats        = "context-prune-stats"
	TypeDiagnostic   = "context-prune-diagnostic"
	TypeFlushMetrics = "context-prune-flush-metrics"
)

// Record is pi-condense's ToolCallRecord: one summarised (or spilled, or
// backfilled) tool call and its result.
type Record struct {
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Args       json.RawMessage `json:"args"`       // the call's arguments as written
	ResultText string          `json:"resultText"` // text blocks joined with "\n"; "" when spilled (and on a record Rebuild read: State.ResultText)
	IsError    bool            `json:"isError"`
	TurnIndex  int             `json:"turnIndex"` // assistant-message index on the branch; -1 backfilled
	Timestamp  int64           `json:"timestamp"` // the batch's time
	// ResultTimestamp is the toolResult message's own timestamp (absent on
	// legacy records: their occurrence key is the bare id).
	ResultTimestamp *int64  `json:"resultTimestamp,omitempty"`
	SpillPath       *string `json:"spillPath,omitempty"`
	SpillBytes      *int64  `json:"spillBytes,omitempty"`
	ResultPreview   *string `json:"resultPreview,omitempty"`
	ContentHash     *string `json:"contentHash,omitempty"`

	// argsCanonical: Args is already JSON.stringify's form (a record the
	// flush made from the input), so no re-encoding is needed.
	argsCanonical bool
	// textAt is where a record Rebuild read from a session has its
	// resultText (ResultText is then empty: State.ResultText reads it).
	textAt textRef
	// argsAt is where a record the flush made has its arguments, in
	// JSON.stringify's form, in the toolCall's line (Args is then nil:
	// State.Record and RecordsFor read them).
	argsAt textRef
}

// textRef locates a raw JSON value in a branch entry's line: entry is the
// entry's index in the context's Branch plus one (0: none), off and n the
// value's bytes in the line. loose marks a toolCall's arguments that are
// read as JSON.stringify writes them (appendArgs makes their canonical
// form when it reads them: most are in it already, and most are never
// read).
type textRef struct {
	entry, off, n int32
	loose         bool
}

// ToolCallRef binds a short ref (`tN`) to an occurrence.
type ToolCallRef struct {
	ShortID         string `json:"shortId"`
	ToolCallID      string `json:"toolCallId"`
	ResultTimestamp *int64 `json:"resultTimestamp,omitempty"`
}

// IndexData is the data of a context-prune-index entry: one per summarised
// batch, eager spill or chain backfill.
type IndexData struct {
	ToolCalls  []Record      `json:"toolCalls"`
	Backfilled bool          `json:"backfilled,omitempty"`
	Refs       []ToolCallRef `json:"refs,omitempty"`
}

// SummaryDetails is the `details` of a context-prune-summary custom_message.
type SummaryDetails struct {
	ToolCallRefs []ToolCallRef `json:"toolCallRefs"`
	ToolNames    []string      `json:"toolNames"`
	TurnIndex    int           `json:"turnIndex"`
	Timestamp    int64         `json:"timestamp"`
	ToolCallIDs  []string      `json:"toolCallIds,omitempty"` // legacy
}

// FrontierData is the data of a context-prune-frontier entry (the last one
// on the branch wins).
type FrontierData struct {
	LastAttemptedToolCallID string `json:"lastAttemptedToolCallId"`
	LastAttemptedToolName   string `json:"lastAttemptedToolName"`
	LastAttemptedTurnIndex  int    `json:"lastAttemptedTurnIndex"`
	LastAttemptedTimestamp  int64  `json:"lastAttemptedTimestamp"`
	AttemptedBatchCount     int    `json:"attemptedBatchCount"`
	AttemptedToolCallCount  int    `json:"attemptedToolCallCount"`
	RawCharCount            int    `json:"rawCharCount"`
	SummaryCharCount        int    `json:"summaryCharCount"`
	// Outcome: summarized, skipped-oversized, skipped-deduped, skipped-trivial.
	Outcome string `json:"outcome"`
}

// DedupAlias says a later occurrence shares an earlier one's record and ref.
type DedupAlias struct {
	NewToolCallID           string `json:"newToolCallId"`
	OriginalToolCallID      string `json:"originalToolCallId"`
	NewResultTimestamp      *int64 `json:"newResultTimestamp,omitempty"`
	OriginalResultTimestamp *int64 `json:"originalResultTimestamp,omitempty"`
}

// ChainData is the data of a context-prune-chain entry: a compressed chain
// (user message → tool turns → text-only reply), rendered as one
// `<compressed-chain id="bN">` user message.
type ChainData struct {
	BlockID                 string   `json:"blockId"`
	StartUserTimestamp      int64    `json:"startUserTimestamp"`
	DroppedToolCallIDs      []string `json:"droppedToolCallIds"`
	ProtectedToolCallIDs    []string `json:"protectedToolCallIds,omitempty"`
	FinalAssistantTimestamp *int64   `json:"finalAssistantTimestamp"`
	// ToolRefs are the refs of a chain read from a session; a chain a
	// flush compressed keeps them as refNums when every one is a canonical
	// `tN` (ToolRefs is then nil): Refs is the chain's refs either way.
	ToolRefs              []string `json:"toolRefs"`
	CompressedAt          int64    `json:"compressedAt"`
	RangeSummaryText      *string  `json:"rangeSummaryText,omitempty"`
	BodySource            string   `json:"bodySource,omitempty"` // "deterministic" or absent
	DroppedOccurrenceKeys []string `json:"droppedOccurrenceKeys,omitempty"`

	// fused are the summaries of a deterministic fusion the flush made
	// (RangeSummaryText is then nil): RangeSummary writes it from them and
	// ToolRefs when it is asked for, so a first flush of a long history
	// does not hold every chain's fused text (1 GB: ~30 MB) until written.
	fused []string
	// sums are fused when the state keeps its summaries in a TextStore:
	// the summaries, read back when the text is written
	sums *chainSums
	// backfill, with fused, are the chain's backfilled calls, whose
	// deterministic summary is the fusion's last part: written from them
	// (read from the input) when asked, not held (1 GB: ~20 MB of bullets).
	backfill *chainBackfill
	// refNums are the numbers N of the chain's `tN` refs, in order, when a
	// flush made them all canonical: 4 bytes a ref instead of a string
	// header and its digits (1 GB first flush: ~216,000 refs of ~32,800
	// chains, ~4 MB less held through the render)
	refNums []int32
	// body is the deterministic body (BodySource "deterministic") of a
	// chain the flush compressed, written when asked (RangeSummaryText is
	// then nil: 1 GB, ~5 MB of bodies not held).
	body *chainBody
}

// Refs are the chain's toolRefs: ToolRefs, or the `tN` refs of refNums
// (made for each call: the caller may keep them).
func (c *ChainData) Refs() []string {
	if c.refNums == nil {
		return c.ToolRefs
	}
	size := 0
	var digits [20]byte
	for _, n := range c.refNums {
		size += 1 + len(strconv.AppendInt(digits[:0], int64(n), 10))
	}
	out := make([]string, len(c.refNums))
	b := make([]byte, 0, size) // filled to its capacity, never moved
	for i, n := range c.refNums {
		at := len(b)
		b = strconv.AppendInt(append(b, 't'), int64(n), 10)
		out[i] = unsafe.String(&b[at], len(b)-at)
	}
	return out
}

// StatsData is the cumulative data of a context-prune-stats entry.
type StatsData struct {
	TotalInputTokens  int64   `json:"totalInputTokens"`
	TotalOutputTokens int64   `json:"totalOutputTokens"`
	TotalCost         float64 `json:"totalCost"`
	CallCount         int     `json:"callCount"`
	ChainsCompressed  int     `json:"chainsCompressed"`
	RangesSummarized  int     `json:"rangesSummarized"`
}

// Diagnostic is the data of a context-prune-diagnostic entry.
type Diagnostic struct {
	Kind   string `json:"kind"` // unresolved-range, range-id-mismatch, orphan-sweep, backfill-empty
	Detail string `json:"detail"`
}

// FlushMetrics is the data of a context-prune-flush-metrics entry (one per
// flush attempt).
type FlushMetrics struct {
	TS               int64  `json:"ts"`
	Trigger          string `json:"trigger"` // budget, delta, message-end, manual, rearmed, frontier-gap
	CapturedBatches  int    `json:"capturedBatches"`
	ProcessedBatches int    `json:"processedBatches"`
	Outcome          string `json:"outcome"`
	Metrics          struct {
		OpenCycleThinkingTokens int `json:"openCycleThinkingTokens"`
		LargestChainSharePct    int `json:"largestChainSharePct"`
		FrontierGapTokens       int `json:"frontierGapTokens"`
	} `json:"metrics"`
}

// OccurrenceKey is pi-condense's key for one occurrence of a tool call:
// "<toolCallId>@<resultTimestamp>", or the bare id for a legacy record
// without a result timestamp. Providers reuse call ids, so every map is
// keyed by occurrence.
func OccurrenceKey(toolCallID string, resultTimestamp *int64) string {
	if resultTimestamp == nil {
		return toolCallID
	}
	return toolCallID + "@" + itoa(*resultTimestamp)
}

func itoa(n int64) string {
	var b [20]byte
	i := len(b)
	neg := n < 0
	u := uint64(n)
	if neg {
		u = uint64(-n)
	}
	for {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
