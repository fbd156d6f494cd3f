package main

import (
	"context"

	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// playGame is the game of konane play: a rules.Game on the boards of
// Position (narrowGame), a rules.WideGame on the larger ones (wideGame,
// which only the classical engine plays), with its moves as text.
type playGame interface {
	Over() bool
	Outcome() (rules.Color, rules.Method)
	Resign(rules.Color) error
	Len() int
	Record(tags ...rules.Tag) *rules.Record
	// turn is the side to move.
	turn() rules.Color
	// draw is the board as rules.Render draws it, the last move marked.
	draw() string
	// legalMoves lists the legal moves of the side to move.
	legalMoves() []string
	// playText plays a move in project notation and returns it as
	// played, or PlayText's error.
	playText(text string) (string, error)
	// takeBack is TakeBack, the moves as text.
	takeBack(c rules.Color) []string
	// classical is the move the classical engine e chooses (not played).
	classical(ctx context.Context, e *player.Engine) (string, error)
}

// newPlayGame starts a game on b.
func newPlayGame(b rules.Board) (playGame, error) {
	if b.Narrow() {
		g, err := rules.NewBoardGame(b)
		return narrowGame{g}, err
	}
	g, err := rules.NewWideGame(b)
	return wideGame{g}, err
}

type narrowGame struct{ *rules.Game }

func (g narrowGame) turn() rules.Color    { return g.Position().Turn }
func (g narrowGame) draw() string         { return rules.Render(g.Position(), g.Last()) }
func (g narrowGame) legalMoves() []string { return rules.MoveStrings(g.Position().LegalMoves(nil)) }

func (g narrowGame) playText(text string) (string, error) {
	m, err := g.PlayText(text)
	return m.String(), err
}

func (g narrowGame) takeBack(c rules.Color) []string { return rules.MoveStrings(g.TakeBack(c)) }

func (g narrowGame) classical(ctx context.Context, e *player.Engine) (string, error) {
	m, err := e.Move(ctx, g.Position())
	return m.String(), err
}

type wideGame struct{ *rules.WideGame }

func (g wideGame) turn() rules.Color { return g.Position().Turn }

func (g wideGame) draw() string {
	last, ok := g.Last()
	if !ok {
		last = rules.NoWideMove
	}
	return rules.RenderWide(g.Position(), last)
}

func (g wideGame) legalMoves() []string { return wideStrings(g.Position().LegalMoves(nil)) }

func (g wideGame) playText(text string) (string, error) {
	m, err := g.PlayText(text)
	return m.String(), err
}

func (g wideGame) takeBack(c rules.Color) []string { return wideStrings(g.TakeBack(c)) }

func (g wideGame) classical(ctx context.Context, e *player.Engine) (string, error) {
	m, err := e.MoveWide(ctx, g.Position())
	return m.String(), err
}

func wideStrings(ms []rules.WideMove) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}
