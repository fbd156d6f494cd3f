// Package ladder rates the generations of a training run on an Elo
// ladder, incrementally: `konane ladder` and `konane train --ladder-every`.
// It writes only under the run's ladder/ folder, keeps every game it
// played, so that a later call plays only the new pairings, and refuses a
// call whose settings differ from those the kept games were played with.
//
// The design and its reasons: docs/internals/ladder.md.
//
// # Usage
//
//	cfg := ladder.DefaultConfig()
//	cfg.Every = 5
//	sum, err := ladder.Update(ctx, "runs/6x6", cfg, log.Printf)
//	// sum.Kept games from earlier calls, sum.Played now, sum.Rows the ratings
package ladder
