package api

import (
	"context"
	"net/http"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/solver"
)

// perfectTimeout bounds the exact solver's look at a position of a
// board it settles (milliseconds on 4x4 and 5x5).
const perfectTimeout = 2 * time.Second

// perfect returns the side ("black" or "white") that wins gm with
// perfect play from its position, where that is proven without a new
// search of the network: ev proven (the evaluation of the agent's
// move), the exact solver's board (agent.Perfect: solved at once), or,
// in the opening removals, the exact values of the openings that ship
// with the program (solver.KnownWinner: 6x6 from the first move). It
// returns "" otherwise, and for a game over.
func (s *Service) perfect(r *http.Request, gm *game, ev *evalJSON) string {
	if gm.g.Over() {
		return ""
	}
	if ev != nil && ev.Proven {
		if ev.HumanWinProb >= 0.5 {
			return gm.human.String()
		}
		return gm.human.Other().String()
	}
	g, ok := gm.narrow()
	if !ok {
		return ""
	}
	p := g.Position()
	if agent.Perfect(int(p.Size)) {
		a, err := s.agent(gm.engine, p.Wide())
		if err != nil {
			return ""
		}
		ctx, cancel := context.WithTimeout(r.Context(), perfectTimeout)
		defer cancel()
		an, err := a.Advise(ctx, p, s.adviceLimits(gm))
		s.trees.put(p.Wide(), a)
		if err != nil || !an.Proven {
			return ""
		}
		if an.Value > 0 {
			return p.Turn.String()
		}
		return p.Turn.Other().String()
	}
	if !p.Square() {
		return ""
	}
	w, _ := solver.KnownWinner(int(p.Size), g.MoveStrings())
	return w
}
