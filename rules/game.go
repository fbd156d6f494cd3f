package rules

import (
	"fmt"
	"slices"
)

// Game is a game being played: its moves with every position, so that
// moves can be taken back, and the tags and comments that its Record
// carries. The zero Game is not usable; NewGame starts one.
type Game struct {
	rec       Record     // the size, tags, moves and their comments
	positions []Position // positions[i] is before rec.Moves[i]; one more than the moves
}

// NewGame starts a game on a size×size board.
func NewGame(size int) (*Game, error) {
	if err := checkSize(size); err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	return &Game{rec: Record{Size: size}, positions: []Position{NewPosition(size)}}, nil
}

// GameOverError is the error of a move in a finished game: the side to
// move has no legal move, so Winner has won.
type GameOverError struct {
	Winner Color
}

func (e *GameOverError) Error() string {
	return fmt.Sprintf("rules: the game is over: %s has no legal move, %s won", e.Winner.Other(), e.Winner)
}

// Size is the board size.
func (g *Game) Size() int { return g.rec.Size }

// Position is the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// Moves returns the moves played so far.
func (g *Game) Moves() []Move { return slices.Clone(g.rec.Moves) }

// Len is the number of moves played.
func (g *Game) Len() int { return len(g.rec.Moves) }

// Last is the last move played, or NoMove.
func (g *Game) Last() Move {
	if len(g.rec.Moves) == 0 {
		return NoMove
	}
	return g.rec.Moves[len(g.rec.Moves)-1]
}

// Play plays m if it is legal. In a finished game the error is a
// *GameOverError; an illegal move's is ParseMove's *MoveError, which says
// why.
func (g *Game) Play(m Move) error {
	p := g.Position()
	if !p.HasMoves() {
		return g.overError()
	}
	if !p.Legal(m) {
		_, err := ParseMove(p, m.String()) // says why
		if err == nil {
			err = &MoveError{Text: m.String(), Err: ErrIllegal}
		}
		return err
	}
	g.rec.AddMove(m, "")
	g.positions = append(g.positions, p.Play(m))
	return nil
}

// PlayText reads a move in project notation and plays it; the error says
// exactly what is wrong with it, as Play's.
func (g *Game) PlayText(text string) (Move, error) {
	p := g.Position()
	if !p.HasMoves() {
		return NoMove, g.overError()
	}
	m, err := ParseMove(p, text)
	if err != nil {
		return NoMove, err
	}
	return m, g.Play(m)
}

func (g *Game) overError() error {
	return &GameOverError{Winner: g.Position().Turn.Other()}
}

// SetComment sets the comment of the last move, which the record writes
// after it; it does nothing before the first move.
func (g *Game) SetComment(comment string) {
	n := len(g.rec.Moves)
	if n == 0 {
		return
	}
	if g.rec.Comments == nil {
		if comment == "" {
			return
		}
		g.rec.Comments = make([]string, n)
	}
	g.rec.Comments[n-1] = comment
}

// SetTag sets a tag of the game's record (see Record.SetTag).
func (g *Game) SetTag(key, value string) { g.rec.SetTag(key, value) }

// Undo takes back the last move; false when there is none.
func (g *Game) Undo() (Move, bool) {
	n := len(g.rec.Moves)
	if n == 0 {
		return NoMove, false
	}
	m := g.rec.Moves[n-1]
	g.truncate(n - 1)
	return m, true
}

// TakeBack takes back c's last move and every move after it (the
// opponent's reply), so that c is to move again, and returns the moves
// taken back: none when c has not moved yet.
func (g *Game) TakeBack(c Color) []Move {
	last := len(g.rec.Moves) - 1 // Black makes the even-numbered moves: there are no passes
	if last >= 0 && Color(last%2) != c {
		last--
	}
	if last < 0 {
		return nil
	}
	taken := slices.Clone(g.rec.Moves[last:])
	g.truncate(last)
	return taken
}

// truncate keeps the first n moves.
func (g *Game) truncate(n int) {
	g.rec.Moves = g.rec.Moves[:n]
	if g.rec.Comments != nil {
		g.rec.Comments = g.rec.Comments[:n]
	}
	g.positions = g.positions[:n+1]
}

// Over reports whether the side to move has no legal move.
func (g *Game) Over() bool { return !g.Position().HasMoves() }

// Winner returns the winner of a finished game; ok is false while it goes
// on.
func (g *Game) Winner() (winner Color, ok bool) {
	p := g.Position()
	if p.HasMoves() {
		return 0, false
	}
	return p.Turn.Other(), true
}

// Record returns the game as a new record: the game's tags, then the
// given ones (a key set twice keeps its first place and takes the last
// value), the moves with their comments, and its Result (the winner, or *
// while the game goes on), which keeps its place when a tag named it.
func (g *Game) Record(tags ...Tag) *Record {
	r := &Record{
		Size:     g.rec.Size,
		Tags:     slices.Clone(g.rec.Tags),
		Moves:    slices.Clone(g.rec.Moves),
		Comments: slices.Clone(g.rec.Comments),
	}
	if allEmpty(r.Comments) {
		r.Comments = nil
	}
	for _, t := range tags {
		r.SetTag(t.Key, t.Value)
	}
	result := Unfinished
	if w, ok := g.Winner(); ok {
		result = ResultFor(w)
	}
	r.SetTag("Result", result)
	return r
}

func allEmpty(comments []string) bool {
	for _, c := range comments {
		if c != "" {
			return false
		}
	}
	return true
}
