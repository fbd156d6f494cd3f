// Package solver solves Kōnane positions exactly: it tells whether the
// side to move wins with perfect play from both sides, and which moves
// win.
//
// The design and its reasons: docs/internals/solver.md.
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
