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
// # Levels
//
// One table of named levels, easy, medium, hard and max, gives 16, 512,
// 2048 and 8192 search simulations per move; all but easy search with
// MCTS-Solver and the exact endgame solver (mcts.Config.Solver), so that
// they never miss a forced win they can see and play endgames of up to 30
// stones perfectly once solved; easy plays plain MCTS. NewLimits combines
// a level with the --sims and --time flags. medium and hard are sized to
// answer on 8x8 within 0.3 s and 1 s on a 2-core machine, with a margin;
// the times measured are in docs/results/2026-12-01-latency.md (the one
// place they are stated). One game's search runs on one core.
// A proven win (Analysis.Value 1) is played at once. The win probability
// shown to people is (Value+1)/2 of the search root, Value being the root's mean value for
// the side to move in [-1, 1]; the principal line is the search's most
// visited path.
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
// Everything is deterministic given the seeds: the search adds no noise,
// and the evaluator's answers do not depend on how positions are batched.
package agent
