// Package analysis reviews games with the agent: it evaluates positions
// in parallel through one engine's batched evaluator (agent.Engine, the
// one place a model gets an evaluator), solves those small enough
// exactly, and grades each move of a game by the win probability it
// loses. `konane analyze` prints its reports, and the JSON analysis
// engine and the web page's review are built on Evaluate. On the boards
// no network plays (above 8x8, and the rectangles without a multi-board
// model) ClassicalGame reviews a game with the classical engine (pvs),
// its probabilities made from the searches' scores (ScoreWinProb).
//
// The design and its reasons: docs/internals/analysis.md.
//
// # Usage
//
//	e, err := agent.OpenEngine("", rec.Size)
//	go e.Run(ctx)
//	rep, err := analysis.Game(ctx, e, rec, analysis.Config{})
//	err = rep.WriteTable(os.Stdout)        // or rep.JSON(), rep.Panel()
//	annotated := rep.Annotate(rec, "konane analyze")
//
//	rep, err = analysis.ClassicalGame(ctx, rec, analysis.ClassicalConfig{Depth: 4}) // any board
package analysis
