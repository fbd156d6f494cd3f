// Package ladder rates the generations of a training run on an Elo
// ladder, incrementally: `konane ladder` and `konane train --ladder-every`.
//
// Every N-th generation (Config.Every) plays Config.Games games against
// the previous few generations on the ladder (Config.Rungs, default 3, so
// the games grow linearly with the run) and against fixed anchor players
// (default random, greedy, alpha-beta at depths 2 and 4), whose strength
// does not drift; the anchors play each other once. Matches, game records
// and the Bradley–Terry fit are the arena's (arena.Run, arena.FitElo):
// ratings are the maximum likelihood over every kept game, with 95%
// intervals, anchored at 0 on one anchor. On 4x4 to 6x6 boards every
// generation (and anchor) also takes the solver check on critical
// positions labelled once by the exact solver.
//
// Nothing is ever replayed. Each game is written the moment it ends, as a
// game record in DIR/ladder/games/A_vs_B/NNNNN.txt (pairing A against B,
// game number NNNNN of its schedule). A pairing's game i depends only on
// the ladder seed, the two names and i (arena.MatchConfig.Skip plays the
// missing ones), so an interrupted call continues where it stopped,
// raising Config.Games plays only the added games, and a new generation
// plays only its own pairings. What the kept games depend on (board size,
// simulations, random plies, seed, solver positions) is fixed in
// DIR/ladder/ladder.json; a later call with other values is refused
// (SettingsError).
//
// Files of DIR/ladder:
//
//	ladder.json    the settings the kept games depend on
//	lock           held while an Update works (internal/lockfile)
//	games/         every game, one record each
//	critical.json  the solver-labelled positions (boards, winning moves)
//	solver.csv     the solver check of each player
//	ratings.csv    the ratings (Row, ParseRatings), rewritten as it goes
//	elo.png        the plot of the ratings (Panels)
//
// The ladder reads the run (DIR/config.json for the board size,
// DIR/models/, DIR/metrics.csv for self-play games and training hours at
// each generation) and writes nothing outside DIR/ladder, so it can run
// beside a trainer.
//
// # Usage
//
//	cfg := ladder.DefaultConfig()
//	cfg.Every = 5
//	sum, err := ladder.Update(ctx, "runs/6x6", cfg, log.Printf)
//	// sum.Kept games from earlier calls, sum.Played now, sum.Rows the ratings
package ladder
