package config

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Condense holds pi-condense's own keys under contextPrune (the batch/index
// stage and its render), read as pi-condense's normalize() reads them: a
// value of the wrong type or out of range falls back to its default (with a
// warning here). Unlike pi-condense, a partial nested object
// (chainCompression, purgeErrors) is merged over the nested defaults instead
// of replacing them wholesale (pi-condense then loses the missing keys).
type Condense struct {
	PruneOn                 string   `json:"pruneOn"`      // agent-message | on-demand
	BatchingMode            string   `json:"batchingMode"` // turn | agent-message
	MinBatchChars           int      `json:"minBatchChars"`
	RecoveryGraceTurns      int      `json:"recoveryGraceTurns"`
	DedupByContentHash      bool     `json:"dedupByContentHash"`
	SpillThreshold          int      `json:"spillThreshold"`
	SpillPreviewBytes       int      `json:"spillPreviewBytes"`
	QuietOversizedSkips     bool     `json:"quietOversizedSkips"`
	SummarizerModel         string   `json:"summarizerModel"`
	SummarizerThinking      string   `json:"summarizerThinking"`
	SummarizerIdleTimeoutMs int      `json:"summarizerIdleTimeoutMs"`
	SummarizerMaxTimeoutMs  int      `json:"summarizerMaxTimeoutMs"`
	AutoBudgetThreshold     *float64 `json:"autoBudgetThreshold"`
	BudgetTurnDelta         *float64 `json:"budgetTurnDelta"`
	// FrontierGapThresholdTokens: nil = off.
	FrontierGapThresholdTokens *int `json:"frontierGapThresholdTokens"`
	// MaxImagesPerRequest: 0 = off (pi-condense's null).
	MaxImagesPerRequest int              `json:"maxImagesPerRequest"`
	ChainCompression    ChainCompression `json:"chainCompression"`
	PurgeErrors         PurgeErrors      `json:"purgeErrors"`
}

// ChainCompression is contextPrune.chainCompression.
type ChainCompression struct {
	Enabled                     bool `json:"enabled"`
	RollingWindow               int  `json:"rollingWindow"`
	StripFinalAssistantThinking bool `json:"stripFinalAssistantThinking"`
	FuseRangeSummary            bool `json:"fuseRangeSummary"`
}

// PurgeErrors is contextPrune.purgeErrors.
type PurgeErrors struct {
	Enabled       bool `json:"enabled"`
	CooldownTurns int  `json:"cooldownTurns"`
	MinArgChars   int  `json:"minArgChars"`
}

// DefaultCondense returns pi-condense's defaults (2.9.1).
func DefaultCondense() Condense {
	return Condense{
		PruneOn: "agent-message", BatchingMode: "turn", MinBatchChars: 1000, RecoveryGraceTurns: 3,
		DedupByContentHash: true, SpillThreshold: 65536, SpillPreviewBytes: 2048,
		SummarizerModel: "default", SummarizerThinking: "default",
		SummarizerIdleTimeoutMs: 20000, SummarizerMaxTimeoutMs: 180000,
		ChainCompression: ChainCompression{Enabled: true, RollingWindow: 3, StripFinalAssistantThinking: true, FuseRangeSummary: true},
		PurgeErrors:      PurgeErrors{Enabled: true, CooldownTurns: 2, MinArgChars: 500},
	}
}

// condenseFrom reads pi-condense's keys from the merged contextPrune object;
// src names where each key came from (for warnings).
func condenseFrom(merged map[string]any, src map[string]string) (Condense, []string, map[string]bool) {
	c := DefaultCondense()
	var warns []string
	invalid := map[string]bool{} // top-level keys with a value that fell back
	bad := func(key string, v any, want string) {
		top, _, _ := strings.Cut(key, ".")
		invalid[top] = true
		where := src[top]
		if where == "" {
			where = "settings"
		}
		warns = append(warns, fmt.Sprintf("%s: %s.%s = %s: want %s; using the default", where, Key, key, show(v), want))
	}
	oneOf := func(key string, dst *string, allowed ...string) {
		v, ok := merged[key]
		if !ok {
			return
		}
		if s, isStr := v.(string); isStr {
			for _, a := range allowed {
				if s == a {
					*dst = s
					return
				}
			}
		}
		quoted := make([]string, len(allowed))
		for i, a := range allowed {
			quoted[i] = strconv.Quote(a)
		}
		bad(key, v, "one of "+strings.Join(quoted, ", "))
	}
	boolean := func(key string, obj map[string]any, name string, dst *bool) {
		v, ok := obj[key]
		if !ok {
			return
		}
		if b, isBool := v.(bool); isBool {
			*dst = b
			return
		}
		bad(name, v, "true or false")
	}
	// count: a finite number ≥ lo, floored (pi-condense's validation)
	count := func(key string, obj map[string]any, name string, lo float64, dst *int) bool {
		v, ok := obj[key]
		if !ok {
			return false
		}
		f, isNum := v.(float64)
		if !isNum || math.IsInf(f, 0) || math.IsNaN(f) || f < lo || f > math.MaxInt32 {
			bad(name, v, fmt.Sprintf("a number ≥ %v", lo))
			return false
		}
		*dst = int(math.Floor(f))
		return true
	}
	fraction := func(key string, dst **float64) {
		v, ok := merged[key]
		if !ok || v == nil {
			return
		}
		if f, isNum := v.(float64); isNum && f > 0 && f <= 1 {
			*dst = &f
			return
		}
		bad(key, v, "a fraction in (0, 1] or null")
	}
	oneOf("pruneOn", &c.PruneOn, "agent-message", "on-demand")
	oneOf("batchingMode", &c.BatchingMode, "turn", "agent-message")
	oneOf("summarizerThinking", &c.SummarizerThinking, "default", "off", "minimal", "low", "medium", "high", "xhigh")
	if v, ok := merged["summarizerModel"]; ok {
		if s, isStr := v.(string); isStr {
			c.SummarizerModel = s
		} else {
			bad("summarizerModel", v, `"default" or "provider/model-id"`)
		}
	}
	count("minBatchChars", merged, "minBatchChars", 0, &c.MinBatchChars)
	count("recoveryGraceTurns", merged, "recoveryGraceTurns", 0, &c.RecoveryGraceTurns)
	count("summarizerIdleTimeoutMs", merged, "summarizerIdleTimeoutMs", 0, &c.SummarizerIdleTimeoutMs)
	count("summarizerMaxTimeoutMs", merged, "summarizerMaxTimeoutMs", 0, &c.SummarizerMaxTimeoutMs)
	count("spillPreviewBytes", merged, "spillPreviewBytes", 0, &c.SpillPreviewBytes)
	if v, ok := merged["spillThreshold"]; ok {
		if f, isNum := v.(float64); isNum && f > 0 && f <= math.MaxInt32 {
			c.SpillThreshold = int(math.Floor(f))
		} else {
			bad("spillThreshold", v, "a number > 0")
		}
	}
	boolean("dedupByContentHash", merged, "dedupByContentHash", &c.DedupByContentHash)
	boolean("quietOversizedSkips", merged, "quietOversizedSkips", &c.QuietOversizedSkips)
	fraction("autoBudgetThreshold", &c.AutoBudgetThreshold)
	fraction("budgetTurnDelta", &c.BudgetTurnDelta)
	if v, ok := merged["frontierGapThresholdTokens"]; ok && v != nil {
		if f, isNum := v.(float64); isNum && f >= 1 && f <= math.MaxInt32 {
			n := int(math.Floor(f))
			c.FrontierGapThresholdTokens = &n
		} else {
			bad("frontierGapThresholdTokens", v, "a number ≥ 1 or null (off)")
		}
	}
	if v, ok := merged["maxImagesPerRequest"]; ok && v != nil {
		if f, isNum := v.(float64); isNum && f >= 1 && f <= math.MaxInt32 {
			c.MaxImagesPerRequest = int(math.Floor(f))
		} else {
			bad("maxImagesPerRequest", v, "a number ≥ 1 or null (off)")
		}
	}
	nested := func(key string, known []string, fill func(obj map[string]any)) {
		v, ok := merged[key]
		if !ok {
			return
		}
		obj, isObj := v.(map[string]any)
		if !isObj {
			bad(key, v, "an object")
			return
		}
		var unknown []string
		for k := range obj {
			found := false
			for _, kn := range known {
				found = found || k == kn
			}
			if !found {
				unknown = append(unknown, k)
			}
		}
		sort.Strings(unknown)
		for _, k := range unknown {
			warns = append(warns, unknownKeyWarning(src[key], Key+"."+key+"."+k, "a pi-condense key", nearOf(k, known), known))
		}
		fill(obj)
	}
	nested("chainCompression", []string{"enabled", "rollingWindow", "stripFinalAssistantThinking", "fuseRangeSummary"}, func(obj map[string]any) {
		cc := &c.ChainCompression
		boolean("enabled", obj, "chainCompression.enabled", &cc.Enabled)
		count("rollingWindow", obj, "chainCompression.rollingWindow", 0, &cc.RollingWindow)
		boolean("stripFinalAssistantThinking", obj, "chainCompression.stripFinalAssistantThinking", &cc.StripFinalAssistantThinking)
		boolean("fuseRangeSummary", obj, "chainCompression.fuseRangeSummary", &cc.FuseRangeSummary)
	})
	nested("purgeErrors", []string{"enabled", "cooldownTurns", "minArgChars"}, func(obj map[string]any) {
		pe := &c.PurgeErrors
		boolean("enabled", obj, "purgeErrors.enabled", &pe.Enabled)
		count("cooldownTurns", obj, "purgeErrors.cooldownTurns", 0, &pe.CooldownTurns)
		count("minArgChars", obj, "purgeErrors.minArgChars", 0, &pe.MinArgChars)
	})
	return c, warns, invalid
}

// CondenseKeys lists pi-condense's keys pruner reads, in display order
// (Condense's fields).
func CondenseKeys() []string {
	return []string{"pruneOn", "batchingMode", "minBatchChars", "recoveryGraceTurns", "dedupByContentHash",
		"spillThreshold", "spillPreviewBytes", "quietOversizedSkips", "summarizerModel", "summarizerThinking",
		"summarizerIdleTimeoutMs", "summarizerMaxTimeoutMs", "autoBudgetThreshold", "budgetTurnDelta",
		"frontierGapThresholdTokens", "maxImagesPerRequest", "chainCompression", "purgeErrors"}
}
