// Package mcts is the tree search of Kōnane Zero: Monte Carlo tree search
// guided by an Evaluator (the policy-value network, or a stand-in), in
// two modes.
//
//   - PUCT (AlphaZero): selection by Q + c·P·√N/(1+n) with first-play
//     urgency for untried moves, Dirichlet noise on the root priors for
//     self-play (concentration DirichletAlpha/number of moves, as KataGo),
//     the visit distribution as the training target, the most visited
//     move as the choice (or a sample at a temperature, see SelectMove
//     and TemperatureSchedule).
//   - Gumbel (Danihelka et al. 2022, Config.Gumbel): Gumbel-top-k sampling
//     of the root moves, Sequential Halving over them with exactly the
//     simulation budget, the improved policy softmax(logits + σ(completed
//     Q)) as the training target, deterministic selection below the root.
//     It is built to learn from few simulations.
//
// # MCTS-Solver
//
// With Config.Solver (the default) the search carries exact values:
// positions without moves are lost, a node with a move into a lost
// position is won, leaves of at most Config.SolveStones stones that the
// exact solver (package solver) settles within Config.SolveNodes nodes are
// won or lost, and proofs back up exactly (a parent is won when some child
// is lost, lost when every child is won). Selection never spends a visit
// on a move proven to lose while another is not, a Run stops as soon as
// its root is proven (a proven win is played at once), and Result.Proven
// says so, with Result.Value then exactly 1 or -1. See solve.go. It works
// in both modes, with leaf batching and with tree reuse, and keeps the
// search deterministic.
//
// Config.PolicyTemp flattens the evaluator's priors (p^(1/T), as Leela
// Chess Zero's policy softmax temperature) in either mode; Result.Prior
// still reports the evaluator's own.
//
// KataGo's playout cap randomization (PlayoutCap) mixes cheap and full
// searches in self-play. DefaultConfig is PUCT (why:
// docs/results/2026-12-02-defaults.md, "PUCT over Gumbel AlphaZero").
//
// Values are for the side to move, in [-1, 1]; a position without legal
// moves is a loss (-1) and is never sent to the evaluator. Backups are
// negamax.
//
// # Concurrency
//
// A Search is one game's search tree; it is not safe for concurrent use
// and starts no goroutine. Run many Searches, one per game, in their own
// goroutines: they share nothing but the Evaluator, which must be safe for
// concurrent use (a batching network evaluator gathers their calls). Each
// Evaluate call carries up to Config.LeafBatch positions, gathered under
// virtual loss.
//
// # Determinism
//
// New takes a seed; with a deterministic evaluator, the same seed and the
// same sequence of Runs give identical Results, whatever else runs
// concurrently. Uniform and RandomRollout are deterministic.
//
// # Tree reuse
//
// A Search keeps its tree between Runs. When the next Run starts from the
// previous root or a position one or two moves below it, that subtree and
// its visits are kept (RunOptions.Sims then counts new simulations only).
//
// # Usage
//
//	s, err := mcts.New(evaluator, mcts.DefaultConfig(), seed)
//	...
//	for pos.HasMoves() {
//		res, err := s.Run(ctx, pos, mcts.RunOptions{Sims: 200, Noise: true})
//		...
//		// record res.Policy as the training target for pos
//		m, err := mcts.SelectMove(res, schedule.At(ply), rng)
//		...
//		pos = pos.Play(m)
//	}
package mcts
