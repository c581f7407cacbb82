package pipeline

import (
	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
)

// The mapping of settings onto the stages' options lives here, outside
// internal/config (which reads settings into plain values): FromConfig for
// the whole pipeline, RenderOptions and PruneOptions for one stage.

// RenderOptions returns, for a loaded config, the options of pi-condense's render phases (the
// protection predicate is the same as masking's). With enabled: false only
// the image cap applies, as in pi-condense.
func RenderOptions(c *config.Config) (render.Options, error) {
	p, err := c.Predicate()
	if err != nil {
		return render.Options{}, err
	}
	k := c.Condense
	return render.Options{
		Protect:            p,
		RecoveryGraceTurns: k.RecoveryGraceTurns,
		Chains:             k.ChainCompression.Enabled,
		StripFinalThinking: k.ChainCompression.StripFinalAssistantThinking,
		PurgeErrors:        k.PurgeErrors.Enabled,
		PurgeCooldownTurns: k.PurgeErrors.CooldownTurns,
		PurgeMinArgChars:   k.PurgeErrors.MinArgChars,
		Supersede:          true,
		MaxImages:          k.MaxImagesPerRequest,
		ImagesOnly:         !c.Enabled,
	}, nil
}

// PruneOptions returns the masking options of a loaded config.
func PruneOptions(c *config.Config) (prune.Options, error) {
	p, err := c.Predicate()
	if err != nil {
		return prune.Options{}, err
	}
	return prune.Options{RecentTurns: c.RecentTurnsToKeep, MaxChars: c.MaxRetainedChars, Protect: p}, nil
}
