package arena

import (
	"context"
	"fmt"
	"hash/fnv"

	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// Game is one finished game of a match.
type Game struct {
	Index        int              // position in the match schedule
	Black, White int              // indices of the entrants
	Line         int              // index of the opening line (see Openings)
	Forced       int              // leading moves set by the arena: the removals (if any) and random plies
	Moves        []rules.WideMove // every move from the starting position
	Winner       rules.Color
}

// Key is a hash of the game's move sequence, to count distinct games.
func (g *Game) Key() uint64 {
	h := fnv.New64a()
	for _, m := range g.Moves {
		h.Write([]byte{byte(m.From), byte(m.To)})
	}
	return h.Sum64()
}

// PlayGame plays one game on board b from its start: the moves of
// opening first (they must be legal and leave a move), then black and
// white in turn until one has no move. On the boards Position holds the
// players get Positions; on the larger ones they must be
// player.WidePlayers. It returns the moves and the winner; an error from
// a player, or an illegal move, ends the game with an error naming the
// player.
func PlayGame(ctx context.Context, b rules.Board, opening []rules.WideMove, black, white player.Player) ([]rules.WideMove, rules.Color, error) {
	g, err := rules.NewWideGame(b)
	if err != nil {
		return nil, 0, fmt.Errorf("arena: %w", err)
	}
	for i, m := range opening {
		if g.Play(m) != nil {
			return nil, 0, fmt.Errorf("arena: opening move %d %v is illegal", i+1, m)
		}
	}
	for !g.Over() {
		p := g.Position()
		pl := black
		if p.Turn == rules.White {
			pl = white
		}
		m, err := player.MoveAny(ctx, pl, p)
		if err != nil {
			return nil, 0, fmt.Errorf("arena: %s (%s) at move %d: %w", pl.Name(), p.Turn, g.Len()+1, err)
		}
		if g.Play(m) != nil {
			return nil, 0, fmt.Errorf("arena: %s (%s) played the illegal move %v at move %d", pl.Name(), p.Turn, m, g.Len()+1)
		}
	}
	winner, _ := g.Winner()
	return g.Moves(), winner, nil
}
