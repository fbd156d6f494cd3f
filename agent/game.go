package agent

import (
	"fmt"
	"slices"

	"github.com/konanezero/konane/rules"
)

// Game is the moves of one game so far, with every position, so that
// moves can be taken back.
type Game struct {
	moves     []rules.Move
	positions []rules.Position // positions[i] is before moves[i]; one more than moves
}

// NewGame starts a game on a size×size board.
func NewGame(size int) (*Game, error) {
	if size < rules.MinSize || size > rules.MaxSize {
		return nil, fmt.Errorf("agent: board size %d outside %d..%d", size, rules.MinSize, rules.MaxSize)
	}
	return &Game{positions: []rules.Position{rules.NewPosition(size)}}, nil
}

// Size is the board size.
func (g *Game) Size() int { return int(g.positions[0].Size) }

// Position is the current position.
func (g *Game) Position() rules.Position { return g.positions[len(g.positions)-1] }

// Moves returns the moves played so far.
func (g *Game) Moves() []rules.Move { return slices.Clone(g.moves) }

// Len is the number of moves played.
func (g *Game) Len() int { return len(g.moves) }

// Last is the last move played, or rules.NoMove.
func (g *Game) Last() rules.Move {
	if len(g.moves) == 0 {
		return rules.NoMove
	}
	return g.moves[len(g.moves)-1]
}

// Play plays m if it is legal.
func (g *Game) Play(m rules.Move) error {
	p := g.Position()
	if !p.HasMoves() {
		return g.overError()
	}
	if !p.Legal(m) {
		_, err := rules.ParseMove(p, m.String()) // says why
		if err == nil {
			err = fmt.Errorf("agent: move %v is not legal", m)
		}
		return err
	}
	g.moves = append(g.moves, m)
	g.positions = append(g.positions, p.Play(m))
	return nil
}

// PlayText reads a move in project notation and plays it; the error says
// exactly what is wrong with it.
func (g *Game) PlayText(text string) (rules.Move, error) {
	p := g.Position()
	if !p.HasMoves() {
		return rules.NoMove, g.overError()
	}
	m, err := rules.ParseMove(p, text)
	if err != nil {
		return rules.NoMove, err
	}
	return m, g.Play(m)
}

func (g *Game) overError() error {
	w, _ := g.Winner()
	return fmt.Errorf("agent: the game is over: %s has no legal move, %s won", w.Other(), w)
}

// Undo takes back the last move; false when there is none.
func (g *Game) Undo() (rules.Move, bool) {
	if len(g.moves) == 0 {
		return rules.NoMove, false
	}
	m := g.moves[len(g.moves)-1]
	g.moves = g.moves[:len(g.moves)-1]
	g.positions = g.positions[:len(g.positions)-1]
	return m, true
}

// TakeBack takes back c's last move and every move after it (the
// opponent's reply), so that c is to move again, and returns the moves
// taken back: none when c has not moved yet.
func (g *Game) TakeBack(c rules.Color) []rules.Move {
	last := len(g.moves) - 1 // Black makes the even-numbered moves: there are no passes
	if last >= 0 && rules.Color(last%2) != c {
		last--
	}
	if last < 0 {
		return nil
	}
	taken := slices.Clone(g.moves[last:])
	g.moves = g.moves[:last]
	g.positions = g.positions[:last+1]
	return taken
}

// Over reports whether the side to move has no legal move.
func (g *Game) Over() bool { return !g.Position().HasMoves() }

// Winner returns the winner of a finished game; ok is false while it goes
// on.
func (g *Game) Winner() (winner rules.Color, ok bool) {
	p := g.Position()
	if p.HasMoves() {
		return 0, false
	}
	return p.Turn.Other(), true
}

// Record returns the game as a record with the given tags and its Result
// (the winner, or * while the game goes on).
func (g *Game) Record(tags ...rules.Tag) *rules.Record {
	r := rules.NewRecord(g.Size())
	for _, t := range tags {
		r.SetTag(t.Key, t.Value)
	}
	for _, m := range g.moves {
		r.AddMove(m, "")
	}
	result := rules.Unfinished
	if w, ok := g.Winner(); ok {
		result = rules.ResultFor(w)
	}
	r.SetTag("Result", result)
	return r
}

// RecordAgainst is the record of a person, named "you", playing human
// against the computer, named computer, at event.
func (g *Game) RecordAgainst(event string, human rules.Color, computer string) *rules.Record {
	black, white := "you", computer
	if human == rules.White {
		black, white = computer, "you"
	}
	return g.Record(
		rules.Tag{Key: "Event", Value: event},
		rules.Tag{Key: "Black", Value: black},
		rules.Tag{Key: "White", Value: white},
	)
}
