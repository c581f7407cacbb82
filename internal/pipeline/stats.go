package pipeline

import (
	"context"
	"fmt"

	"github.com/pruner-dev/pruner/internal/session"
)

// StatsOptions are what Stats runs with.
type StatsOptions struct {
	// Now is the run `pruner now` would make of the session.
	Now Options
	// Previous is the same for the session before its newest user turn
	// (its own value: a counting summary cache is not shared).
	Previous Options
	// Off says pruning is disabled (enabled: false): everything is
	// reported as kept.
	Off bool
}

// StatsRun is one session's `pruner stats`.
type StatsRun struct {
	Report *Report
	// Warnings are the session's, the run's and the render's diagnostics,
	// in that order (a diagnostic has no line).
	Warnings []session.Warning
	// FlushSkipped says why the flush took nothing (only when it ran).
	FlushSkipped string
}

// Stats reports on one session (read with Branch): the pipeline `now` runs,
// the same for the session before its newest user turn (the prompt cache's
// previous request), and the report comparing them (Result.Report). The
// run is returned as far as it got, also on error; errors name no file.
func Stats(cx context.Context, ctx *session.Context, o StatsOptions) (*StatsRun, error) {
	run := &StatsRun{}
	run.Warnings = append(run.Warnings, ctx.Warnings...)
	// The previous turn first, kept as a fingerprint only: its context, index
	// and render are garbage before the newest turn's run starts, so the two
	// runs are never live together (peak memory is one run's, not two).
	rep := ReportOptions{Options: o.Now, Off: o.Off}
	var prevErr error
	prev, line, err := PreviousTurn(cx, ctx, o.Previous)
	if err != nil {
		prevErr = fmt.Errorf("the session before its newest turn: %w", err)
	} else if prev != nil {
		if rep.Previous, prevErr = prev.Fingerprint(ReportOptions{Options: o.Previous, Off: o.Off}); prevErr == nil {
			rep.Previous.TurnLine = line
		}
	}
	res, err := Run(cx, ctx, o.Now)
	if err != nil {
		return run, err
	}
	run.Warnings = append(run.Warnings, res.Warnings...)
	if res.Rendered != nil {
		for _, d := range res.Rendered.Report.Diagnostics {
			run.Warnings = append(run.Warnings, session.Warning{Msg: d.Kind + ": " + d.Detail})
		}
	}
	if o.Now.Flush {
		run.FlushSkipped = res.FlushSkipped
	}
	if prevErr != nil {
		return run, prevErr
	}
	run.Report, err = res.Report(rep)
	return run, err
}
