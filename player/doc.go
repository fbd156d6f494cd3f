// Package player holds everything that chooses moves: the Player interface
// (a position in, a move out) and its implementations, from the classic
// yardsticks to the neural agent.
//
//   - Random: a uniformly random legal move.
//   - Greedy: one ply of lookahead on mobility (own jumps minus the
//     opponent's), taking a win when one is there.
//   - AlphaBeta: negamax alpha-beta with iterative deepening, a
//     transposition table, move ordering and the mobility evaluation,
//     limited by depth or time per move; Search also returns the score and
//     principal variation for analysis.
//   - UCT: pure Monte Carlo tree search with random playouts.
//   - Perfect: the exact solver, on boards small enough to solve.
//   - Neural: a trained model driving MCTS, with simulations or time per move.
//
// Players are made from specs, the text form used on the command line
// ("alphabeta:depth=4", "model:gen3.safetensors,sims=200"; see Spec), through
// a Factory that makes a fresh player for each game, so that games played
// in parallel share no mutable state. All randomness comes from the seed
// given to the factory.
//
// # Usage
//
//	spec, err := player.ParseSpec("alphabeta:depth=4")
//	if err != nil { ... }
//	f, err := player.NewFactory(spec)
//	if err != nil { ... }
//	go f.Run(ctx) // needed by the model kind only; returns at once otherwise
//	p, err := f.New(seed) // one per game
//	m, err := p.Move(ctx, pos)
package player
