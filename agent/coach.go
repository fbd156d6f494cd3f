package agent

import (
	"context"

	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// CoachDrop is the least loss of win probability that the coach points
// out: 10 points.
const CoachDrop = 0.10

// Verdict is the coach's judgement of a move: the mover's chances before
// it (the value of the search's best move) and after it (the move's own
// value), and the move the search prefers.
type Verdict struct {
	Move   rules.Move // the move judged
	Better rules.Move // the search's best move
	From   float64    // the mover's win probability with Better
	To     float64    // the mover's win probability after Move
}

// Drop is the win probability that Move gives away: From - To.
func (v Verdict) Drop() float64 { return v.From - v.To }

// Blunder reports whether the move drops the mover's chances by CoachDrop
// or more.
func (v Verdict) Blunder() bool { return v.Drop() >= CoachDrop }

// Judge judges the move m played in p with one search of p within s,
// the limits of advice (AdviceLimits: at least AdviceLevel's search,
// whatever level the agent plays at): before is the value of the search's best move (the
// root's when the search stopped before visiting it), after is m's value
// in the same search, or, only when the search did not visit m, a second
// search of the position after m. It returns false (no verdict) when m
// is the search's best move or the search proved every move lost: the
// coach has nothing to say then. Like Advise it leaves the agent's own
// play untouched.
func (a *Agent) Judge(ctx context.Context, p rules.Position, m rules.Move, s player.Limits) (Verdict, bool, error) {
	an, err := a.Advise(ctx, p, s)
	if err != nil {
		return Verdict{}, false, err
	}
	best, played := -1, -1
	for i, mv := range an.Moves {
		if mv == an.Best {
			best = i
		}
		if mv == m {
			played = i
		}
	}
	if best < 0 || played < 0 || best == played || an.Proven && an.Value < 0 {
		return Verdict{}, false, nil
	}
	winProb := func(q float32) float64 { return (float64(q) + 1) / 2 }
	v := Verdict{Move: m, Better: an.Best, From: an.WinProb()}
	if an.Visits[best] > 0 {
		v.From = winProb(an.Q[best])
	}
	if an.Visits[played] > 0 {
		v.To = winProb(an.Q[played])
		return v, true, nil
	}
	after, err := a.Advise(ctx, p.Play(m), s)
	if err != nil {
		return Verdict{}, false, err
	}
	v.To = after.WinProbFor(p.Turn)
	return v, true, nil
}
