// Package player holds everything that chooses moves: the Player interface
// (a position in, a move out) and its implementations, from the classic
// yardsticks to the neural agent.
//
//   - Random: a uniformly random legal move.
//   - Greedy: one ply of lookahead on mobility (own jumps minus the
//     opponent's), taking a win when one is there.
//   - Engine: the one alpha-beta searcher (iterative deepening, a
//     transposition table, move ordering), limited by depth or time per
//     move, in two configurations: NewPVS (principal variation search with
//     the full evaluation and the endgame solver) and NewAlphaBeta (plain
//     alpha-beta on mobility, the baseline); Search also returns the score
//     and principal variation for analysis.
//   - UCT: pure Monte Carlo tree search with random playouts.
//   - Perfect: the exact solver, on boards small enough to solve.
//   - Neural: MCTS guided by a network's evaluator, within Limits
//     (simulations or time per move) given at construction for Move and
//     per call to Analyze.
//
// Players are made from specs, the text form used on the command line
// ("alphabeta:depth=4", "model:gen3.safetensors,sims=200", or for any path
// "model:sims=200,file=runs/a,b/gen3.safetensors"; see Spec), through
// a Factory that makes a fresh player for each game, so that games played
// in parallel share no mutable state. All randomness comes from the seed
// given to the factory. Code builds players directly (NewAlphaBeta,
// NewPVS, NewNeural, NewNeuralFactory) rather than through spec text.
//
// Player opens no files: a neural player receives a Network (an
// evaluator with its board size), which package agent makes from a model
// file (agent.Engine; agent.NewFactory is NewFactory with model specs). So
// player, and arena above it, do not depend on the network's
// implementation.
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
