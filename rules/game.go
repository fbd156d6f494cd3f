package rules

import (
	"fmt"
	"slices"
)

// Game is a game being played on a board of at most MaxSize files and
// ranks (Position's boards): its moves with every position, so that
// moves can be taken back, the tags and comments that its Record
// carries, and its outcome (Outcome: who won, and how). Its methods are
// those of every game (see WideGame for the larger boards), on Position
// and Move (go doc lists them with the type parameters: P is Position, M
// is Move). The zero Game is not usable; NewGame and NewBoardGame start
// one.
type Game struct {
	game[Position, Move]
}

// WideGame is a game on any board (WidePosition's), the larger ones in
// particular: the methods of Game on WidePosition and WideMove (P and M
// in go doc). The zero WideGame is not usable; NewWideGame starts one.
type WideGame struct {
	game[WidePosition, WideMove]
}

// AnyGame is what a Game and a WideGame both do, with the moves as text:
// for the interfaces that play every board (konane play, gtp) and hold
// either.
type AnyGame interface {
	Board() Board
	Len() int
	Over() bool
	Outcome() (winner Color, method Method)
	Winner() (winner Color, ok bool)
	Resign(c Color) error
	SetTag(key, value string)
	SetComment(comment string)
	Record(tags ...Tag) *Record
	// Turn is the side to move.
	Turn() Color
	// Draw is the current position as Render draws it, the last move
	// marked.
	Draw() string
	// WidePosition is the current position on the wide layout (a Game's
	// Position made wide).
	WidePosition() WidePosition
	// MoveStrings lists the moves played, as text.
	MoveStrings() []string
	// LegalStrings lists the legal moves of the side to move.
	LegalStrings() []string
	// PlayString is PlayText, returning the move played as text.
	PlayString(text string) (string, error)
	// UndoString is Undo, the move taken back as text.
	UndoString() (string, bool)
	// TakeBackStrings is TakeBack, the moves taken back as text.
	TakeBackStrings(c Color) []string
}

var (
	_ AnyGame = (*Game)(nil)
	_ AnyGame = (*WideGame)(nil)
)

// gamePosition is what a game needs of its position type P with moves M.
type gamePosition[P, M any] interface {
	Play(M) P
	Legal(M) bool
	HasMoves() bool
	LegalMoves([]M) []M
	turn() Color // the side to move
}

// gameMove is what a game needs of its move type: Move or WideMove.
type gameMove interface {
	comparable
	String() string
}

// game is a game on positions P with moves M, the one implementation of
// Game and WideGame.
type game[P gamePosition[P, M], M gameMove] struct {
	board     Board
	tags      []Tag
	moves     []M
	comments  []string // nil, or one per move
	positions []P      // positions[i] is before moves[i]; one more than the moves
	resigned  bool     // a side resigned after the last move: loser
	loser     Color
	// parse is ParseMove or ParseWideMove.
	parse func(P, string) (M, error)
	none  M // NoMove or NoWideMove
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
	return NewBoardGame(SquareBoard(size))
}

// NewBoardGame starts a game on board b (of at most MaxSize files and
// ranks, Position's boards; NewWideGame plays every board); its error
// names what is wrong with b.
func NewBoardGame(b Board) (*Game, error) {
	if err := b.Validate(); err != nil {
		return nil, err
	}
	if !b.Narrow() {
		return nil, &BoardError{Text: b.String(), Err: fmt.Errorf("more than %d files or ranks: a WideGame plays it", MaxSize)}
	}
	p, err := b.Position()
	if err != nil {
		return nil, err
	}
	return &Game{newGame(b, p, ParseMove, NoMove)}, nil
}

// NewWideGame starts a game on board b, any board; its error names what
// is wrong with b.
func NewWideGame(b Board) (*WideGame, error) {
	p, err := b.WidePosition()
	if err != nil {
		return nil, err
	}
	return &WideGame{newGame(b, p, ParseWideMove, NoWideMove)}, nil
}

// NewAnyGame starts a game on board b, any board, for the interfaces
// that hold either: a *Game on the boards a Position holds, a *WideGame
// on the larger ones; its error names what is wrong with b.
func NewAnyGame(b Board) (AnyGame, error) {
	if b.Narrow() {
		return NewBoardGame(b)
	}
	return NewWideGame(b)
}

func newGame[P gamePosition[P, M], M gameMove](b Board, start P, parse func(P, string) (M, error), none M) game[P, M] {
	return game[P, M]{board: b, positions: []P{start}, parse: parse, none: none}
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
func (g *game[P, M]) Size() int {
	if g.board.Square() {
		return g.board.W
	}
	return 0
}

// Board is the board of the game.
func (g *game[P, M]) Board() Board { return g.board }

// Position is the current position.
func (g *game[P, M]) Position() P { return g.positions[len(g.positions)-1] }

// Positions returns every position of the game: the start, then the
// position after each move (Len()+1 positions).
func (g *game[P, M]) Positions() []P { return slices.Clone(g.positions) }

// Moves returns the moves played so far.
func (g *game[P, M]) Moves() []M { return slices.Clone(g.moves) }

// Len is the number of moves played.
func (g *game[P, M]) Len() int { return len(g.moves) }

// Last is the last move played, or NoMove.
func (g *Game) Last() Move {
	if m, ok := g.last(); ok {
		return m
	}
	return NoMove
}

// Last is the last move played; ok is false before the first move.
func (g *WideGame) Last() (m WideMove, ok bool) { return g.last() }

func (g *game[P, M]) last() (m M, ok bool) {
	if len(g.moves) == 0 {
		return m, false
	}
	return g.moves[len(g.moves)-1], true
}

// Play plays m if it is legal. In a finished game the error is a
// *GameOverError; an illegal move's is ParseMove's *MoveError, which says
// why.
func (g *game[P, M]) Play(m M) error {
	p := g.Position()
	if g.Over() {
		return g.overError()
	}
	if !p.Legal(m) {
		_, err := g.parse(p, m.String()) // says why
		if err == nil {
			err = &MoveError{Text: m.String(), Err: ErrIllegal}
		}
		return err
	}
	g.moves = append(g.moves, m)
	if g.comments != nil {
		g.comments = append(g.comments, "")
	}
	g.positions = append(g.positions, p.Play(m))
	return nil
}

// PlayText reads a move in project notation and plays it; the error says
// exactly what is wrong with it, as Play's, and the move is then the
// never legal one (NoMove, NoWideMove).
func (g *game[P, M]) PlayText(text string) (M, error) {
	p := g.Position()
	if g.Over() {
		return g.none, g.overError()
	}
	m, err := g.parse(p, text)
	if err != nil {
		return g.none, err
	}
	return m, g.Play(m)
}

func (g *game[P, M]) overError() error {
	w, method := g.Outcome()
	return &GameOverError{Winner: w, Method: method}
}

// Resign ends the game with c giving it up: c's opponent wins, by
// Resignation, whatever the position. In a finished game the error is a
// *GameOverError. Undo and TakeBack take a resignation back with the
// moves they take back (Undo with no move to take back takes back the
// resignation alone).
func (g *game[P, M]) Resign(c Color) error {
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
func (g *game[P, M]) SetComment(comment string) {
	n := len(g.moves)
	if n == 0 {
		return
	}
	if g.comments == nil {
		if comment == "" {
			return
		}
		g.comments = make([]string, n)
	}
	g.comments[n-1] = comment
}

// SetTag sets a tag of the game's record (see Record.SetTag).
func (g *game[P, M]) SetTag(key, value string) {
	r := Record{Tags: g.tags}
	r.SetTag(key, value)
	g.tags = r.Tags
}

// Undo takes back the last move, and a resignation after it; false when
// there is no move.
func (g *Game) Undo() (Move, bool) {
	m, ok := g.undo()
	if !ok {
		return NoMove, false
	}
	return m, true
}

// Undo takes back the last move, and a resignation after it; false when
// there is no move.
func (g *WideGame) Undo() (WideMove, bool) { return g.undo() }

func (g *game[P, M]) undo() (m M, ok bool) {
	g.resigned = false
	n := len(g.moves)
	if n == 0 {
		return m, false
	}
	m = g.moves[n-1]
	g.truncate(n - 1)
	return m, true
}

// TakeBack takes back c's last move and every move after it (the
// opponent's reply) and a resignation after them, so that c is to move
// again, and returns the moves taken back: none (and the game as it was)
// when c has not moved yet.
func (g *game[P, M]) TakeBack(c Color) []M {
	last := len(g.moves) - 1 // Black makes the even-numbered moves: there are no passes
	if last >= 0 && Color(last%2) != c {
		last--
	}
	if last < 0 {
		return nil
	}
	taken := slices.Clone(g.moves[last:])
	g.truncate(last)
	g.resigned = false
	return taken
}

// truncate keeps the first n moves.
func (g *game[P, M]) truncate(n int) {
	g.moves = g.moves[:n]
	if g.comments != nil {
		g.comments = g.comments[:n]
	}
	g.positions = g.positions[:n+1]
}

// Over reports whether the game is over: the side to move has no legal
// move, or a side resigned.
func (g *game[P, M]) Over() bool { return g.resigned || !g.Position().HasMoves() }

// Winner returns the winner of a finished game; ok is false while it goes
// on.
func (g *game[P, M]) Winner() (winner Color, ok bool) {
	w, method := g.Outcome()
	return w, method != NotOver
}

// Outcome returns who won and how: the opponent of a side that resigned
// (Resignation), or the opponent of the side to move when it has no legal
// move (NoMoveLeft); NotOver while the game goes on.
func (g *game[P, M]) Outcome() (winner Color, method Method) {
	switch {
	case g.resigned:
		return g.loser.Other(), Resignation
	case !g.Position().HasMoves():
		return g.Turn().Other(), NoMoveLeft
	}
	return 0, NotOver
}

// Turn is the side to move, the current position's.
func (g *game[P, M]) Turn() Color { return g.Position().turn() }

// MoveStrings lists the moves played in project notation.
func (g *game[P, M]) MoveStrings() []string { return gameMoveStrings(g.moves) }

// WidePosition is the current position on the wide layout.
func (g *Game) WidePosition() WidePosition { return g.Position().Wide() }

// WidePosition is the current position, as Position.
func (g *WideGame) WidePosition() WidePosition { return g.Position() }

// LegalStrings lists the legal moves of the side to move in project
// notation.
func (g *game[P, M]) LegalStrings() []string { return gameMoveStrings(g.Position().LegalMoves(nil)) }

// PlayString is PlayText, returning the move played as text ("" with an
// error).
func (g *game[P, M]) PlayString(text string) (string, error) {
	m, err := g.PlayText(text)
	if err != nil {
		return "", err
	}
	return m.String(), nil
}

// UndoString is Undo, the move taken back as text.
func (g *game[P, M]) UndoString() (string, bool) {
	m, ok := g.undo()
	if !ok {
		return "", false
	}
	return m.String(), true
}

// TakeBackStrings is TakeBack, the moves taken back as text.
func (g *game[P, M]) TakeBackStrings(c Color) []string { return gameMoveStrings(g.TakeBack(c)) }

// Draw is the current position as Render draws it, the last move marked.
func (g *Game) Draw() string { return Render(g.Position(), g.Last()) }

// Draw is the current position as RenderWide draws it, the last move
// marked.
func (g *WideGame) Draw() string {
	last, ok := g.Last()
	if !ok {
		last = NoWideMove
	}
	return RenderWide(g.Position(), last)
}

func gameMoveStrings[M gameMove](ms []M) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

// Record returns the game as a new record: the game's tags, then the
// given ones (a key set twice keeps its first place and takes the last
// value), the moves with their comments (in Moves on a board of at most
// MaxSize files and ranks, else in Wide), and its Result (the winner, or *
// while the game goes on), which keeps its place when a tag named it.
func (g *game[P, M]) Record(tags ...Tag) *Record {
	r := NewBoardRecord(g.board)
	r.Tags = slices.Clone(g.tags)
	switch ms := any(slices.Clone(g.moves)).(type) {
	case []Move:
		r.Moves = ms
	case []WideMove:
		r.Wide = ms
		if g.board.Narrow() { // a WideGame on one of Position's boards
			r.Moves, r.Wide = make([]Move, len(ms)), nil
			for i, m := range ms {
				r.Moves[i] = m.Narrow()
			}
		}
	}
	if !allEmpty(g.comments) {
		r.Comments = slices.Clone(g.comments)
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
// finished game is a *RecordError. The board must be one of Position's
// (see WideGame).
func (r *Record) Game() (*Game, error) {
	ps, err := r.Replay()
	if err != nil {
		return nil, err
	}
	g := &Game{newGame(r.Board(), ps[0], ParseMove, NoMove)}
	if err := resumeGame(&g.game, r, ps, r.Moves); err != nil {
		return nil, err
	}
	return g, nil
}

// WideGame returns the game that r records on any board, as Game.
func (r *Record) WideGame() (*WideGame, error) {
	ps, err := r.WideReplay()
	if err != nil {
		return nil, err
	}
	g := &WideGame{newGame(r.Board(), ps[0], ParseWideMove, NoWideMove)}
	if err := resumeGame(&g.game, r, ps, r.wideMoves()); err != nil {
		return nil, err
	}
	return g, nil
}

// resumeGame gives g, started on r's board, r's moves, their positions
// ps, r's tags, comments and outcome.
func resumeGame[P gamePosition[P, M], M gameMove](g *game[P, M], r *Record, ps []P, moves []M) error {
	g.tags, g.moves, g.comments, g.positions = slices.Clone(r.Tags), slices.Clone(moves), slices.Clone(r.Comments), ps
	over := !g.Position().HasMoves()
	if err := checkResult(r.Tag("Result"), over, g.Turn()); err != nil {
		return &RecordError{Err: err}
	}
	if w, ok := r.Winner(); ok && !over {
		g.resigned, g.loser = true, w.Other()
	}
	return nil
}

func allEmpty(comments []string) bool {
	for _, c := range comments {
		if c != "" {
			return false
		}
	}
	return true
}
