// Package arena measures players against each other: matches between
// players (round robin or gauntlet) from fair, varied openings, Elo
// ratings with confidence intervals, the sequential probability ratio test
// that stops a match once it is decided, and a check of a player's moves
// against the exact solver.
//
// Fairness: every pair plays the same opening lines (each legal pair of
// removals in a seeded order, followed by a few seeded random jumps), and
// each line twice with colours swapped. Players are made fresh for every
// game from their Entrant with a seed derived from the match seed and the
// game number, so a match is reproducible whatever the parallelism (up to
// players limited by time, and to where an SPRT stops).
//
// Ratings are the maximum-likelihood fit of the Bradley–Terry model
// (FitElo), anchored on one player, with 95% intervals from the observed
// Fisher information.
//
// # Usage
//
//	res, err := arena.Run(ctx, arena.MatchConfig{Size: 6, Games: 20, Parallel: 2, RandomPlies: 2, Seed: 1},
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
