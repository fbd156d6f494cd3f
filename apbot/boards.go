package apbot

import (
	"fmt"
	"strings"

	"github.com/konanezero/konane/rules"
)

// Board is one of AbstractPlay's Kōnane boards: the variant id that
// selects it and its size in columns and rows, as gameslib's konane.ts
// sets them (setBoardSize).
type Board struct {
	Variant    string // AbstractPlay's variant id; "" for its default board
	Cols, Rows int
	rules      rules.Board // its size and start in our rules
}

// boards are AbstractPlay's Kōnane boards, default first, from the one
// table of them, rules.AbstractPlayBoards. Which of them the bot plays
// follows from the rules (Playable); the challenge check, the move
// replay, the profile text and the supported list all read this list.
var boards = func() []Board {
	var out []Board
	for _, rb := range rules.AbstractPlayBoards() {
		id, _ := rb.AbstractPlayID()
		out = append(out, Board{Variant: id, Cols: rb.W, Rows: rb.H, rules: rb})
	}
	return out
}()

// Boards returns AbstractPlay's Kōnane boards, default first.
func Boards() []Board { return append([]Board(nil), boards...) }

// Playable reports whether the bot plays b: whether our rules have it
// (every board up to 16x16; the classical engine plays those without a
// network). This is the one place that changes when the rules play
// fewer or more.
func (b Board) Playable() bool { return b.rules.Validate() == nil }

// Start returns b's starting position, on the wide layout that holds
// every board (Playable boards only).
func (b Board) Start() (rules.WidePosition, error) { return b.rules.WidePosition() }

// String names the board for people: "6x6 (default)", "8x8 (size-8)".
func (b Board) String() string {
	v := b.Variant
	if v == "" {
		v = "default"
	}
	return fmt.Sprintf("%dx%d (%s)", b.Cols, b.Rows, v)
}

// VariantError is the error of BoardOf: the variants of a challenge or a
// game that name no board of the table, or more than one.
type VariantError struct {
	Variants []string
	Reason   string
}

func (e *VariantError) Error() string {
	return fmt.Sprintf("apbot: variants %s: %s", quoteList(e.Variants), e.Reason)
}

// BoardOf returns the board that a challenge's or a game's variants
// select: the default board for none, the board of the one variant given.
// A variant not in the table (which may change the rules in ways the bot
// does not know) or two boards are a *VariantError; whether the bot plays
// the board is Playable's to say.
func BoardOf(variants []string) (Board, error) {
	var given []string
	for _, v := range variants {
		if v != "" { // gameslib ignores an empty variant too
			given = append(given, v)
		}
	}
	switch len(given) {
	case 0:
		return boards[0], nil
	case 1:
		for _, b := range boards {
			if b.Variant != "" && b.Variant == given[0] {
				return b, nil
			}
		}
		return Board{}, &VariantError{variants, "not a Kōnane board of AbstractPlay"}
	}
	return Board{}, &VariantError{variants, "more than one variant"}
}

// quoteList writes at most a few short strings of the input, quoted.
func quoteList(ss []string) string {
	const most = 3
	var parts []string
	for i, s := range ss {
		if i == most {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, rules.Quote(s))
	}
	return "[" + strings.Join(parts, " ") + "]"
}
