package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestCondenseDefaults(t *testing.T) {
	c, err := Load(Options{AgentDir: t.TempDir(), Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Condense, DefaultCondense()) {
		t.Fatalf("condense defaults %+v", c.Condense)
	}
}

func TestCondenseValuesAndFallbacks(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	write(t, p, `{"contextPrune":{"batchingMode":"agent-message","recoveryGraceTurns":2.7,"minBatchChars":-1,
		"pruneOn":"every-turn","maxImagesPerRequest":30,"spillThreshold":0,
		"chainCompression":{"rollingWindow":5,"typo":1},"purgeErrors":{"cooldownTurns":"2"}}}`)
	c, err := Load(Options{ConfigFile: p, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	k := c.Condense
	if k.BatchingMode != "agent-message" || k.RecoveryGraceTurns != 2 || k.MaxImagesPerRequest != 30 {
		t.Errorf("values not read: %+v", k)
	}
	if k.MinBatchChars != 1000 || k.PruneOn != "agent-message" || k.SpillThreshold != 65536 || k.PurgeErrors.CooldownTurns != 2 {
		t.Errorf("invalid values did not fall back to defaults: %+v", k)
	}
	// a partial nested object keeps the other nested defaults
	if k.ChainCompression != (ChainCompression{Enabled: true, RollingWindow: 5, StripFinalAssistantThinking: true, FuseRangeSummary: true}) {
		t.Errorf("chainCompression %+v", k.ChainCompression)
	}
	joined := strings.Join(c.Warnings, "\n")
	for _, want := range []string{"minBatchChars", "pruneOn", "spillThreshold", "purgeErrors.cooldownTurns", "chainCompression.typo"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no warning about %s in:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "batchingMode") || strings.Contains(joined, "maxImagesPerRequest") {
		t.Errorf("warning about a valid key:\n%s", joined)
	}
}
