// Package selfplay is the AlphaZero loop of Kōnane Zero: the network plays
// itself through MCTS, its games become training samples in a replay
// buffer, and the network trains on them, generation after generation.
//
// The pieces, one file each:
//
//   - game.go: one self-play game (PlayGame). Playout-cap randomization
//     (KataGo) gives a full search with root noise to a fraction of the
//     moves, whose search policy becomes a training sample, and a cheap
//     search to the others. The search is MCTS-Solver with the exact
//     endgame solver (mcts.Config.Solver); a position whose search proved
//     its value trains on that exact value (GameConfig.ExactValues), the
//     others on the game's result, optionally mixed with the root search's
//     value (GameConfig.ValueMix). (Once a root is proven the search only
//     plays proven winning moves, so in self-play the exact value and the
//     result agree; the exact target guards against any move choice that
//     would not keep a proven win.) GameConfig.RandomPlies opens games
//     with a few random moves that give no samples, so that the network
//     also meets positions its own play would not reach.
//   - rescore.go: once a game is over, every sample the solver settles
//     (GameConfig.RescoreStones) gets exact targets: its value, and on a
//     won position a policy on winning moves only.
//   - workers.go: many games at once (PlayGames), all feeding one batched
//     evaluator, under errgroup and a context.
//   - replay.go: the replay buffer (Replay), a window over the most recent
//     samples that grows with the run as KataGo's does, drawn uniformly
//     under a random symmetry of the square; shards on disk (WriteShard,
//     ReadShard) so that it survives restarts. ReadShard trusts nothing in
//     a file: counts are checked against its length before any allocation,
//     and every sample must be a valid position with a legal policy
//     distribution and a value in [-1, 1] (FuzzReadShard).
//   - gate.go: the optional gate of a new model against the best one (an
//     SPRT match in package arena).
//   - loop.go: the generation loop of a run (loop), one for every run,
//     over a gameSource that gives each generation its games. For every
//     generation: the source's games, training, the checkpoint, the
//     model published (create-only; a committed generation's model is
//     never replaced), the source's judgement (the gate), then the commit
//     (metrics, then state.json, then the pointers), with exact
//     resumption.
//   - run.go: the run's configuration (Config) and a run that plays its
//     own games (Run, the source ownGames, seeded by the run's seed:
//     recover the games an interrupted attempt saved, play the others,
//     merge them into the generation's shard, gate). One trainer and one
//     evaluator serve the whole run; each generation's self-play model is
//     copied into the evaluator (net.Evaluator.SetWeights), so a run's
//     memory does not grow with its generations.
//   - rundir.go: the run's files (RunDir): its layout (a local run's and
//     a run fed by workers': worker shard keys, spool names, the model
//     pointers, AcceptWindow), and every read and write of a run, always
//     on a runstore.Store: a local directory is a file:// store
//     (OpenRunDir, which also takes the trainer's lock), a shared one is
//     given (OpenStoreRunDir).
//   - worker.go: a self-play worker of a run shared through a
//     runstore.Store (Work, `konane selfplay`): plays with the newest model
//     (sha256-checked, switched between games), spools each game and
//     uploads it create-only under its content hash, pauses when the
//     newest generation has its games (counting its own games in play
//     and not yet uploaded).
//   - trainer.go: the trainer fed by workers (TrainFromWorkers, `konane
//     train --selfplay=false`): the game source workerGames, which
//     ingests every new worker game of its window, each once (its key in
//     state.json), at least the games wanted per generation; holds the
//     run's lease (runstore.Lease), publishes models/latest.json.
//   - metrics.go: DIR/metrics.csv and the DIR/metrics.png plot (MetricsPanels,
//     drawn by package chart).
//   - config.go: the defaults of `konane train` (DefaultConfig).
//
// The files of a run are listed once, in docs/run-layout.md; their names
// and formats are package runfiles'.
//
// # Two cores
//
// The defaults (DefaultConfig: 32 games in flight, one evaluator of batch
// 32 that runs whatever is waiting, no wait; GOMAXPROCS = the CPUs) were
// chosen with BenchmarkSelfplayCores (its results:
// docs/results/2026-12-01-speed.md, "Self-play on two cores"): one
// evaluator already spreads each network run over both cores (net's
// parallel blocks) while the searches wait for it. None of this touches
// determinism: a position's prediction does not depend on the batch, the
// evaluator or the goroutine that computes it (net's blocks give every
// row the same operations wherever it runs), so the same seed plays the
// same games.
//
// Every random choice derives from the run seed, the generation and the
// game number (GameSeed), so a run is reproducible and a resumed run
// continues exactly as if it had never stopped.
//
// Usage:
//
//	cfg := selfplay.DefaultConfig(6)
//	cfg.Duration = 30 * time.Minute
//	err := selfplay.Run(ctx, "runs/6x6", cfg, selfplay.Hooks{}, log.Printf)
package selfplay
