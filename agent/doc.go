// Package agent is what the people-facing commands (konane play, serve and
// gtp) share to play against the trained network, and where models are
// loaded for play: the difficulty levels, the engines (a model and its
// batched evaluator, one per board size: the one place that builds an
// evaluator for play, also used by arena matches through NewFactory and
// by the training gate through Engine.Players), the agent of one game
// (its moves, win probability and principal line, and hints for the
// human) and the record of a person's game against it (RecordAgainst; the
// game itself, its moves, take-backs and record, is a rules.Game).
//
// The design and its reasons: docs/internals/agent.md.
//
// # Usage
//
//	engines, err := agent.OpenEngines("") // every shipped model ("" = no --model)
//	if err != nil { ... }
//	go engines.Run(ctx)                   // the evaluators; needed while agents think
//	e, err := engines.Get(6)
//	a, err := e.NewAgent(seed)            // one per game
//	g, err := rules.NewGame(6)
//	s, err := agent.NewLimits("medium", 0, 0)
//	an, err := a.Move(ctx, g.Position(), s)
//	fmt.Println(an.Best, an.WinProb(), an.Line())
//	err = g.Play(an.Best)
//
// The front ends, which hold games of every board (rules.AnyGame), call
// MoveAny and AdviseAny with the game's WidePosition instead.
//
// Everything is deterministic given the seeds: the search adds no noise,
// and the evaluator's answers do not depend on how positions are batched.
package agent
