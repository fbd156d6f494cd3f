// Package mcts is the tree search of Kōnane Zero: Monte Carlo tree search
// guided by an Evaluator (the policy-value network, or a stand-in), in
// two modes.
//
// The design and its reasons: docs/internals/mcts.md.
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
