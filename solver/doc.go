// Package solver solves Kōnane positions exactly: it tells whether the
// side to move wins with perfect play from both sides, and which moves
// win.
//
// It is a boolean negamax search (a position is won when some move leads
// to a position lost for the opponent) that stops at the first winning
// move, with a transposition table keyed by the complete position (so its
// answers are exact, never a hash collision) and move ordering by
// mobility. Symmetric openings are solved once.
//
// Sizes 4 to 6 solve from the start; on 7 and 8 only positions late
// enough in the game are within reach (the cost: see
// docs/results/2026-12-01-latency.md). It is the oracle that tests the
// trained agent.
//
// Known values it reproduces: 4x4 is won by White, 5x5 by Black after
// every pair of removals. It finds 6x6 won by White: Black wins only after
// the removals c3 c2, c3 b3, d4 e4 and d4 d5.
//
// # Usage
//
//	s := solver.New() // one per goroutine; reuse it: its table is kept
//	wins, err := s.Solve(ctx, pos)              // does the side to move win?
//	results, err := s.Analyze(ctx, pos)         // which legal moves win?
//	move, ok, err := s.WinningMove(ctx, pos)    // a winning move, if any
//	start, err := s.SolveStart(ctx, 5, nil)     // every opening of 5x5
//
// Every call returns an error wrapping ctx.Err() when ctx ends before the
// answer is known.
package solver
