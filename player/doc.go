// Package player holds everything that chooses moves: the Player interface
// (a position in, a move out) and its implementations, from the classic
// yardsticks to the neural agent.
//
// The design and its reasons: docs/internals/player.md.
//
// # Usage
//
//	spec, err := player.ParseSpec("alphabeta:depth=4")
//	if err != nil { ... }
//	f, err := player.NewFactory(spec)
//	if err != nil { ... }
//	p, err := f.New(seed) // one per game
//	m, err := p.Move(ctx, pos)
//
//	n, err := player.NewNeural(network, mcts.DefaultConfig(), player.Limits{Sims: 200}, seed)
//	res, err := n.Analyze(ctx, pos, player.Limits{Time: time.Second}) // limits per call
package player
