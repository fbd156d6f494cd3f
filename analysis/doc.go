// Package analysis reviews games with the agent: it evaluates positions
// in parallel through one engine's batched evaluator (agent.Engine, the
// one place a model gets an evaluator), solves those small enough
// exactly, and grades each move of a game by the win probability it
// loses. `konane analyze` prints its reports, and the JSON analysis
// engine and the web page's review are built on Evaluate.
//
// # What a report holds
//
// For each position: the probability that the side to move wins — exact
// (0 or 1) when the solver settles it (solver.Solvable: any 4x4 or 5x5
// position, larger ones from solver.DefaultMaxStones stones down) or the
// search proves it (MCTS-Solver), else (Value+1)/2 of the search root —
// the search's best move and its expected line.
//
// For each move: the mover's probability before (of the position it was
// played in) and after (one minus the opponent's in the next position),
// the loss (before minus after, at least 0), the line the agent expects
// after it (Row.Line: the move, then the next position's line), its class
// by the loss (inaccuracy from 5%, mistake from 10%, blunder from 20%: see
// Class) and
// the solver's verdict when it settled both positions ("throws away a
// forced win", "only winning move", "keeps the win", "lost whatever is
// played"). Since solved positions have exact probabilities, a move that
// throws a forced win away loses 1 and is a blunder.
//
// # The JSON engine
//
// Server (konane analysis) answers JSON queries, one a line, in the
// manner of KataGo's analysis engine: {"id","size","moves",
// "analyzeTurns","maxVisits","maxTime","includePolicy"} in, one
// {"id","turnNumber","moveInfos":[{"move","visits","winrate","prior",
// "order","pv"}],"rootInfo":{"winrate","visits","currentPlayer"},
// "solved"} per analysed turn out (winrates of the side to move, the
// engine's choice first; only its pv goes past the move). Errors are
// {"id","error"} lines on the same stream; {"id","action":"terminate",
// "terminateId"} cancels a query, which then ends with {"id",
// "terminated":true}. Queries run concurrently (ServerConfig.Concurrent)
// through the engines' batched evaluators.
//
// # Budget and determinism
//
// Each position is searched within Config.Limits (DefaultSims = 200
// simulations unless set), Config.Parallel (8) at a time, each by a fresh
// search seeded with Seed^index, so the result does not depend on the
// order or the parallelism (the evaluator's answers do not depend on the
// batching). The solver runs alongside, from the last position back, so
// that its table carries over. (How long a review takes:
// docs/results/2026-12-01-latency.md.) The JSON engine's protocol is
// documented for its users in docs/analysis-engine.md.
//
// # Usage
//
//	e, err := agent.OpenEngine("", rec.Size)
//	go e.Run(ctx)
//	rep, err := analysis.Game(ctx, e, rec, analysis.Config{})
//	err = rep.WriteTable(os.Stdout)        // or rep.JSON(), rep.Panel()
//	annotated := rep.Annotate(rec, "konane analyze")
package analysis
