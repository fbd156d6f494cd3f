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

// AnalysisOf is what a search says of a position: the search's result
// (mcts.ResultOf: its move Best, its Value and PV, the Moves with their
// Visits, Q and Prior, Sims and Proven), whose values are Side's. M is
// the board's move: rules.Move on the boards a Position holds (Analysis:
// Move and Advise, for the coach and the review, which work on
// Positions), rules.WideMove on every board (MoveAny and AdviseAny, the
// front ends' one entry, which hold games of every board and read the
// moves as text: Best.String, PVStrings, Line). The result stays embedded
// so that its fields read as the analysis's own (an.Best, an.PV,
// an.Proven) on either layout, as they did before the type was generic;
// the embedded field's name is ResultOf (an.ResultOf is the whole
// result, as Choice.Draw and mcts.MapResult take it).
type AnalysisOf[M interface {
	comparable
	String() string
}] struct {
	Side rules.Color // the side to move, whose view Value takes
	mcts.ResultOf[M]
}

// Analysis is the analysis of a position on a board a Position holds
// (Move, Advise).
type Analysis = AnalysisOf[rules.Move]

// WinProb is the probability that Side wins, (Value+1)/2.
func (a AnalysisOf[M]) WinProb() float64 { return a.WinProbFor(a.Side) }

// WinProbFor is the probability that c wins: (Value+1)/2 for Side, the
// rest for the other.
func (a AnalysisOf[M]) WinProbFor(c rules.Color) float64 {
	p := (float64(a.Value) + 1) / 2
	if c != a.Side {
		return 1 - p
	}
	return p
}

// Line writes the principal line as text: "d4 e4 b4-d4".
func (a AnalysisOf[M]) Line() string { return strings.Join(a.PVStrings(), " ") }

// PVStrings is the principal line, a move a string.
func (a AnalysisOf[M]) PVStrings() []string {
	out := make([]string, len(a.PV))
	for i, m := range a.PV {
		out[i] = m.String()
	}
	return out
}

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
		m = s.Draw(p, an.ResultOf, a.rng)
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
		w, h := rules.ShapeDims(a.size)
		return Analysis{}, fmt.Errorf("agent: the agent plays %dx%d, not %s", w, h, p.Dims())
	}
	res, err := n.Analyze(ctx, p, s)
	if err != nil {
		return Analysis{}, err
	}
	return Analysis{Side: p.Turn, ResultOf: res}, nil
}

// MoveAny is Move on every board, the position given on the wide
// layout (a rules.WidePosition holds every board), its analysis's moves
// on the wide layout: the one entry of the front ends (konane play, gtp,
// serve's API, the AbstractPlay bot), which hold games of every board.
// On a board a Position holds it is Move (the exact solver where it
// plays, the search's endgame solver), the same moves and values. Above
// 8x8, for an agent whose engine's network plays the board
// (Engines.GetBoard gives one only for a board its model was trained
// on): the wide search's move (player.Neural.AnalyzeWide, without the
// endgame solver), or, with a weak level's Choice, the move drawn from
// it (Choice.DrawWide); the exact solver's agent plays no such board: an
// error.
func (a *Agent) MoveAny(ctx context.Context, p rules.WidePosition, s player.Limits) (AnalysisOf[rules.WideMove], error) {
	if p.IsNarrow() {
		return a.onNarrow(p, func(q rules.Position) (Analysis, error) { return a.Move(ctx, q, s) })
	}
	an, err := a.analyzeWide(ctx, a.play, p, s)
	if err != nil || !s.Weak() {
		return an, err
	}
	if m := s.DrawWide(p, an.ResultOf, a.rng); m != an.Best {
		an.Best, an.PV = m, []rules.WideMove{m}
	}
	return an, nil
}

// AdviseAny is Advise on every board, as MoveAny.
func (a *Agent) AdviseAny(ctx context.Context, p rules.WidePosition, s player.Limits) (AnalysisOf[rules.WideMove], error) {
	if p.IsNarrow() {
		return a.onNarrow(p, func(q rules.Position) (Analysis, error) { return a.Advise(ctx, q, s) })
	}
	return a.analyzeWide(ctx, a.advise, p, s)
}

// onNarrow runs search on p as a Position and gives its analysis on the
// wide layout.
func (a *Agent) onNarrow(p rules.WidePosition, search func(rules.Position) (Analysis, error)) (AnalysisOf[rules.WideMove], error) {
	q, err := p.Narrow()
	if err != nil {
		return AnalysisOf[rules.WideMove]{}, fmt.Errorf("agent: %w", err)
	}
	an, err := search(q)
	if err != nil {
		return AnalysisOf[rules.WideMove]{}, err
	}
	return AnalysisOf[rules.WideMove]{Side: an.Side, ResultOf: mcts.MapResult(an.ResultOf, wideMove)}, nil
}

// wideMove is m on the wide layout (NoMove is NoWideMove).
func wideMove(m rules.Move) rules.WideMove {
	if m == rules.NoMove {
		return rules.NoWideMove
	}
	return m.Wide()
}

// analyzeWide is analyze on a board above 8x8, where only a network's
// search (a *player.Neural) plays.
func (a *Agent) analyzeWide(ctx context.Context, sr searcher, p rules.WidePosition, s player.Limits) (AnalysisOf[rules.WideMove], error) {
	n, ok := sr.(*player.Neural)
	if !ok {
		return AnalysisOf[rules.WideMove]{}, fmt.Errorf("agent: the exact solver plays boards of at most %dx%d, not %s", MaxSolverSize, MaxSolverSize, p.Dims())
	}
	if shape := rules.ShapeCode(int(p.W), int(p.H)); shape != a.size {
		w, h := rules.ShapeDims(a.size)
		return AnalysisOf[rules.WideMove]{}, fmt.Errorf("agent: the agent plays %dx%d, not %s", w, h, p.Dims())
	}
	res, err := n.AnalyzeWide(ctx, p, s)
	if err != nil {
		return AnalysisOf[rules.WideMove]{}, err
	}
	return AnalysisOf[rules.WideMove]{Side: p.Turn, ResultOf: res}, nil
}
