// Package selfplay is the AlphaZero loop of Kōnane Zero: the network plays
// itself through MCTS, its games become training samples in a replay
// buffer, and the network trains on them, generation after generation.
// A run is reproducible from its seed (GameSeed) and resumes exactly
// where it stopped: state.json is the commit point, and a committed
// generation's model is never replaced. Every read and write of a run
// goes through RunDir; the files are listed in docs/run-layout.md and
// named by package runfiles.
//
// The design and its reasons: docs/internals/selfplay.md.
//
// Usage:
//
//	cfg := selfplay.DefaultConfig(6)
//	cfg.Duration = 30 * time.Minute
//	err := selfplay.Run(ctx, "runs/6x6", cfg, train.New, selfplay.Hooks{}, log.Printf)
package selfplay
