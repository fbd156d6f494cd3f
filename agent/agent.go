package agent

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// Agent is the computer's side of one game: the search that chooses its
// moves, and a second one that answers hints and evaluation requests, so
// that asking for advice never changes how the agent plays. Both keep
// their trees between calls. An Agent is not safe for concurrent use; its
// Engine's evaluator is shared with the other games.
type Agent struct {
	size    int
	play    searcher
	advise  searcher
	perfect bool       // the exact solver plays (a weak level slips, not draws)
	rng     *rand.Rand // of a weak level's draws and slips
}

// Analysis is what a search says of a position: the search's result
// (mcts.Result: its move Best, its Value and PV, the Moves with their
// Visits, Q and Prior, Sims and Proven), whose values are Side's.
type Analysis struct {
	Side rules.Color // the side to move, whose view Value takes
	mcts.Result
}

// WinProb is the probability that Side wins, (Value+1)/2.
func (a Analysis) WinProb() float64 { return winProbFor(a.Side, a.Value, a.Side) }

// WinProbFor is the probability that c wins.
func (a Analysis) WinProbFor(c rules.Color) float64 { return winProbFor(a.Side, a.Value, c) }

// winProbFor is the probability that c wins when a search from side's
// view values the position value: (value+1)/2 for side, the rest for the
// other.
func winProbFor(side rules.Color, value float32, c rules.Color) float64 {
	p := (float64(value) + 1) / 2
	if c != side {
		return 1 - p
	}
	return p
}

// Line writes the principal line as text: "d4 e4 b4-d4".
func (a Analysis) Line() string { return rules.MovesText(a.PV) }

// Move chooses the agent's move in p within the limits s (which the
// search checks, player.Limits.Validate), with its analysis: the
// search's recommendation, unless s has a weak level's Choice: then
// Best is the move drawn from the network's search (Choice.Draw) or,
// where the exact solver plays, the solver's move or a slip
// (Choice.Slip); PV is then Best alone when it is not the search's, and
// Value stays the search's. A finished game gives player.ErrNoMoves.
func (a *Agent) Move(ctx context.Context, p rules.Position, s player.Limits) (Analysis, error) {
	an, err := a.analyze(ctx, a.play, p, s)
	if err != nil || !s.Weak() {
		return an, err
	}
	var m rules.Move
	if a.perfect {
		m = s.Slip(p, an.Best, a.rng)
	} else {
		m = s.Draw(p, an.Result, a.rng)
	}
	if m != an.Best {
		an.Best, an.PV = m, []rules.Move{m}
	}
	return an, nil
}

// Advise analyses p for whoever is to move (the hint for a human, or the
// evaluation of the position) without touching the search the agent plays
// with.
func (a *Agent) Advise(ctx context.Context, p rules.Position, s player.Limits) (Analysis, error) {
	return a.analyze(ctx, a.advise, p, s)
}

func (a *Agent) analyze(ctx context.Context, n searcher, p rules.Position, s player.Limits) (Analysis, error) {
	if int(p.Size) != a.size {
		return Analysis{}, fmt.Errorf("agent: the agent plays %dx%d, not %dx%d", a.size, a.size, p.Size, p.Size)
	}
	res, err := n.Analyze(ctx, p, s)
	if err != nil {
		return Analysis{}, err
	}
	return Analysis{Side: p.Turn, Result: res}, nil
}

// WideAnalysis is Analysis on the boards above 8x8 (MoveWide, AdviseWide):
// the wide search's result (mcts.WideResult), whose values are Side's.
type WideAnalysis struct {
	Side rules.Color
	mcts.WideResult
}

// WinProb is the probability that Side wins, (Value+1)/2.
func (a WideAnalysis) WinProb() float64 { return winProbFor(a.Side, a.Value, a.Side) }

// WinProbFor is the probability that c wins.
func (a WideAnalysis) WinProbFor(c rules.Color) float64 { return winProbFor(a.Side, a.Value, c) }

// Line writes the principal line as text: "d4 e4 b4-d4".
func (a WideAnalysis) Line() string { return strings.Join(rules.WideMoveStrings(a.PV), " ") }

// MoveWide is Move on a board above 8x8 (a rules.WidePosition), for an
// agent whose engine's network plays it (Engines.GetBoard gives one only
// for a board its model was trained on): the wide search's move
// (player.Neural.AnalyzeWide, without the exact endgame solver), or,
// with a weak level's Choice, the move drawn from it (Choice.DrawWide).
// The exact solver's agent plays no such board: an error. A board a
// Position holds, given here as a WidePosition, is searched the same way,
// without the exact solver, so weaker than Move plays it: the front ends
// call MoveWide only above 8x8.
func (a *Agent) MoveWide(ctx context.Context, p rules.WidePosition, s player.Limits) (WideAnalysis, error) {
	an, err := a.analyzeWide(ctx, a.play, p, s)
	if err != nil || !s.Weak() {
		return an, err
	}
	if m := s.DrawWide(p, an.WideResult, a.rng); m != an.Best {
		an.Best, an.PV = m, []rules.WideMove{m}
	}
	return an, nil
}

// AdviseWide is Advise on a board above 8x8, as MoveWide.
func (a *Agent) AdviseWide(ctx context.Context, p rules.WidePosition, s player.Limits) (WideAnalysis, error) {
	return a.analyzeWide(ctx, a.advise, p, s)
}

// analyzeWide is analyze on a board above 8x8, where only a network's
// search (a *player.Neural) plays.
func (a *Agent) analyzeWide(ctx context.Context, sr searcher, p rules.WidePosition, s player.Limits) (WideAnalysis, error) {
	n, ok := sr.(*player.Neural)
	if !ok {
		return WideAnalysis{}, fmt.Errorf("agent: the exact solver plays boards of at most %dx%d, not %s", MaxSolverSize, MaxSolverSize, p.Dims())
	}
	if shape := rules.ShapeCode(int(p.W), int(p.H)); shape != a.size {
		w, h := rules.ShapeDims(a.size)
		return WideAnalysis{}, fmt.Errorf("agent: the agent plays %dx%d, not %s", w, h, p.Dims())
	}
	res, err := n.AnalyzeWide(ctx, p, s)
	if err != nil {
		return WideAnalysis{}, err
	}
	return WideAnalysis{Side: p.Turn, WideResult: res}, nil
}
