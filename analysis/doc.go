// Package analysis reviews games with the agent: it evaluates positions
// in parallel through one engine's batched evaluator (agent.Engine, the
// one place a model gets an evaluator), solves those small enough
// exactly, and grades each move of a game by the win probability it
// loses. `konane analyze` prints its reports, and the JSON analysis
// engine and the web page's review are built on Evaluate.
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
package analysis
