package rules

import (
	"fmt"
	"slices"
)

// Game is a game being played: its moves with every position, so that
// moves can be taken back, the tags and comments that its Record
// carries, and its outcome (Outcome: who won, and how). The zero Game is
// not usable; NewGame starts one.
type Game struct {
	rec       Record     // the size, tags, moves and their comments
	positions []Position // positions[i] is before rec.Moves[i]; one more than the moves
	resigned  bool       // a side resigned after the last move: loser
	loser     Color
}

// Method is how a game ended.
type Method uint8

const (
	NotOver     Method = iota // the game goes on
	NoMoveLeft                // the side to move had no legal move, and lost
	Resignation               // a side gave the game up before its end
)

func (m Method) String() string {
	switch m {
	case NoMoveLeft:
		return "no move left"
	case Resignation:
		return "resignation"
	}
	return "not over"
}

// NewGame starts a game on a size×size board.
func NewGame(size int) (*Game, error) {
	if err := checkSize(size); err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	return &Game{rec: Record{Size: size}, positions: []Position{NewPosition(size)}}, nil
}

// NewBoardGame starts a game on board b (of at most MaxSize files and
// ranks, Position's boards); its error names what is wrong with b.
func NewBoardGame(b Board) (*Game, error) {
	if err := b.Validate(); err != nil {
		return nil, err
	}
	if !b.Narrow() {
		return nil, &BoardError{Text: b.String(), Err: fmt.Errorf("games are played on boards of at most %dx%d yet", MaxSize, MaxSize)}
	}
	r := NewBoardRecord(b)
	p, err := r.start()
	if err != nil {
		return nil, err
	}
	return &Game{rec: *r, positions: []Position{p}}, nil
}

// GameOverError is the error of a move (or a resignation) in a finished
// game: Winner has won, by Method (the side to move has no legal move,
// or the loser resigned).
type GameOverError struct {
	Winner Color
	Method Method
}

func (e *GameOverError) Error() string {
	if e.Method == Resignation {
		return fmt.Sprintf("rules: the game is over: %s resigned, %s won", e.Winner.Other(), e.Winner)
	}
	return fmt.Sprintf("rules: the game is over: %s has no legal move, %s won", e.Winner.Other(), e.Winner)
}

// Size is N of a square board N×N, 0 on a rectangle (see Board).
func (g *Game) Size() int { return g.rec.Size }

// Board is the board of the game.
func (g *Game) Board() Board { return g.rec.Board() }

// Position is the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// Positions returns every position of the game: the start, then the
// position after each move (Len()+1 positions).
func (g *Game) Positions() []Position { return slices.Clone(g.positions) }

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
	if g.Over() {
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
	if g.Over() {
		return NoMove, g.overError()
	}
	m, err := ParseMove(p, text)
	if err != nil {
		return NoMove, err
	}
	return m, g.Play(m)
}

func (g *Game) overError() error {
	w, method := g.Outcome()
	return &GameOverError{Winner: w, Method: method}
}

// Resign ends the game with c giving it up: c's opponent wins, by
// Resignation, whatever the position. In a finished game the error is a
// *GameOverError. Undo and TakeBack take a resignation back with the
// moves they take back (Undo with no move to take back takes back the
// resignation alone).
func (g *Game) Resign(c Color) error {
	if g.Over() {
		return g.overError()
	}
	if c != Black && c != White {
		return fmt.Errorf("rules: resign: no side %d", c)
	}
	g.resigned, g.loser = true, c
	return nil
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

// Undo takes back the last move, and a resignation after it; false when
// there is no move.
func (g *Game) Undo() (Move, bool) {
	g.resigned = false
	n := len(g.rec.Moves)
	if n == 0 {
		return NoMove, false
	}
	m := g.rec.Moves[n-1]
	g.truncate(n - 1)
	return m, true
}

// TakeBack takes back c's last move and every move after it (the
// opponent's reply) and a resignation after them, so that c is to move
// again, and returns the moves taken back: none (and the game as it was)
// when c has not moved yet.
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
	g.resigned = false
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

// Over reports whether the game is over: the side to move has no legal
// move, or a side resigned.
func (g *Game) Over() bool { return g.resigned || !g.Position().HasMoves() }

// Winner returns the winner of a finished game; ok is false while it goes
// on.
func (g *Game) Winner() (winner Color, ok bool) {
	w, method := g.Outcome()
	return w, method != NotOver
}

// Outcome returns who won and how: the opponent of a side that resigned
// (Resignation), or the opponent of the side to move when it has no legal
// move (NoMoveLeft); NotOver while the game goes on.
func (g *Game) Outcome() (winner Color, method Method) {
	switch p := g.Position(); {
	case g.resigned:
		return g.loser.Other(), Resignation
	case !p.HasMoves():
		return p.Turn.Other(), NoMoveLeft
	}
	return 0, NotOver
}

// Record returns the game as a new record: the game's tags, then the
// given ones (a key set twice keeps its first place and takes the last
// value), the moves with their comments, and its Result (the winner, or *
// while the game goes on), which keeps its place when a tag named it.
func (g *Game) Record(tags ...Tag) *Record {
	r := &Record{
		Size:     g.rec.Size,
		Rect:     g.rec.Rect,
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

// Game returns the game that r records, ready to play on: its moves with
// every position (Replay's errors), its tags and comments, and its
// outcome: when the Result tag names a winner before the end, the loser
// resigned after the last move. A Result that names the loser of a
// finished game is a *RecordError.
func (r *Record) Game() (*Game, error) {
	ps, err := r.Replay()
	if err != nil {
		return nil, err
	}
	g := &Game{rec: Record{Size: r.Size, Rect: r.Rect, Tags: slices.Clone(r.Tags), Moves: slices.Clone(r.Moves), Comments: slices.Clone(r.Comments)}, positions: ps}
	if err := checkResult(r.Tag("Result"), ps[len(ps)-1]); err != nil {
		return nil, &RecordError{Err: err}
	}
	if w, ok := r.Winner(); ok && ps[len(ps)-1].HasMoves() {
		g.resigned, g.loser = true, w.Other()
	}
	return g, nil
}

func allEmpty(comments []string) bool {
	for _, c := range comments {
		if c != "" {
			return false
		}
	}
	return true
}
