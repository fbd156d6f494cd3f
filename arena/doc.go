// Package arena measures players against each other: matches between
// players (round robin or gauntlet) from fair, varied openings, Elo
// ratings with confidence intervals, the sequential probability ratio test
// that stops a match once it is decided, and a check of a player's moves
// against the exact solver.
//
// The design and its reasons: docs/internals/arena.md.
//
// # Usage
//
//	res, err := arena.Run(ctx, arena.MatchConfig{Board: rules.SquareBoard(6), Games: 20, Parallel: 2, RandomPlies: 2, Seed: 1},
//		[]arena.Entrant{randomFactory, alphaBetaFactory})
//	if err != nil { ... }
//	rep := arena.NewReport(res, 0, 1) // anchored on the first player, one virtual draw per pair
//	rep.WriteText(os.Stdout)
//	err = rep.Save("out") // results.csv, ratings.csv, results.json, games/*.txt
//
// Gating a new network with an SPRT:
//
//	s := arena.SPRT{Elo0: 0, Elo1: 30, Alpha: 0.05, Beta: 0.05}
//	switch s.Test(newWins, newLosses) {
//	case arena.AcceptH1: // promote
//	case arena.AcceptH0: // reject
//	case arena.Continue: // play more games
//	}
package arena
