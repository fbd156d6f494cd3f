package api

import (
	"context"
	"net/http"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/rules"
)

// perfectTimeout bounds the exact solver's look at a position of a
// board it settles (milliseconds on 4x4 and 5x5).
const perfectTimeout = 2 * time.Second

// perfect returns the side ("black" or "white") that wins gm with
// perfect play from its position, where that is proven without a new
// search of the network: ev proven (the evaluation of the agent's
// move), the exact solver's board (agent.Perfect: solved at once), or
// the openings table of the board, when the server has computed it,
// for a position of the opening removals. It returns "" otherwise, and
// for a game over.
func (s *Service) perfect(r *http.Request, gm *game, ev *evalJSON) string {
	g, ok := gm.narrow()
	if !ok || g.Over() {
		return ""
	}
	if ev != nil && ev.Proven {
		if ev.HumanWinProb >= 0.5 {
			return gm.human.String()
		}
		return gm.human.Other().String()
	}
	p := g.Position()
	if agent.Perfect(int(p.Size)) {
		a, err := s.agent(p)
		if err != nil {
			return ""
		}
		ctx, cancel := context.WithTimeout(r.Context(), perfectTimeout)
		defer cancel()
		an, err := a.Advise(ctx, p, s.adviceLimits(gm))
		s.trees.put(p, a)
		if err != nil || !an.Proven {
			return ""
		}
		if an.Value > 0 {
			return p.Turn.String()
		}
		return p.Turn.Other().String()
	}
	return s.openingsCache.winner(g)
}

// winner returns the side that wins g with perfect play by the openings
// table of its board, computed and solved (Solved), while g is in its
// opening removals: before them the table's winner, after Black's the
// winner of that removal, after both that opening's; "" otherwise.
func (c *openingsCache) winner(g *rules.Game) string {
	p := g.Position()
	if g.Len() > 2 || !p.Square() {
		return ""
	}
	c.mu.Lock()
	t := c.tables[int(p.Size)]
	c.mu.Unlock()
	if t == nil || !t.Solved {
		return ""
	}
	moves := g.MoveStrings()
	switch len(moves) {
	case 0:
		return t.Winner
	case 1:
		for _, w := range t.Winning {
			if w == moves[0] {
				return "black"
			}
		}
		return "white"
	}
	for _, o := range t.Openings {
		if o.Black == moves[0] && o.White == moves[1] {
			return o.Exact
		}
	}
	return ""
}
