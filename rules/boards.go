package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Start is how a game begins on a board.
type Start uint8

// The two starts.
const (
	// Removal is the Naihe opening: on a full board Black removes one of
	// its stones from the centre or a corner, then White one of its stones
	// orthogonally next to the hole, then Black jumps first.
	Removal Start = iota
	// Gap starts with two centre stones already removed (defined only when
	// exactly one of W and H is odd; see Board.GapSquares); Black jumps
	// first.
	Gap
)

func (s Start) String() string {
	if s == Gap {
		return "gap"
	}
	return "removal"
}

// ParseStart reads "removal" or "gap".
func ParseStart(text string) (Start, error) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "removal":
		return Removal, nil
	case "gap":
		return Gap, nil
	}
	return 0, &BoardError{Text: text, Err: errors.New("unknown start: want removal or gap")}
}

// The sides of the boards a Board describes: W and H in MinSide..MaxSide.
const (
	MinSide = 4
	MaxSide = 16
)

// Board is a board people play: W files (a..), H ranks (1..), and how the
// game starts. Colours as on every board: a1 is Black's, Black stands
// where file + rank is even, Black moves first. The zero Board is not
// valid; ParseBoard, NewBoard and SquareBoard make valid ones.
type Board struct {
	W, H  int
	Start Start
}

// BoardError is the error of a board that cannot be played: the text or
// board as given, and what is wrong with it.
type BoardError struct {
	Text string
	Err  error
}

func (e *BoardError) Error() string { return fmt.Sprintf("rules: board %s: %v", Quote(e.Text), e.Err) }

func (e *BoardError) Unwrap() error { return e.Err }

// GapDefined reports whether the gap start exists on a w×h board: exactly
// one of w and h is odd.
func GapDefined(w, h int) bool { return w%2 != h%2 }

// DefaultStart is the start of a w×h board when none is named: gap where
// it is defined, removal elsewhere (so every square board starts with the
// removals).
func DefaultStart(w, h int) Start {
	if GapDefined(w, h) {
		return Gap
	}
	return Removal
}

// NewBoard returns the w×h board with the given start, or a *BoardError
// when w or h is outside MinSide..MaxSide or the start is not defined
// there.
func NewBoard(w, h int, start Start) (Board, error) {
	b := Board{W: w, H: h, Start: start}
	return b, b.Validate()
}

// SquareBoard returns the n×n board with the removal start; n must be in
// MinSide..MaxSide (it is not checked).
func SquareBoard(n int) Board { return Board{W: n, H: n} }

// Validate reports whether b can be played, as a *BoardError.
func (b Board) Validate() error {
	dims := fmt.Sprintf("%dx%d", b.W, b.H)
	switch {
	case b.W < MinSide || b.W > MaxSide:
		return &BoardError{Text: dims, Err: fmt.Errorf("%d files: want %d..%d", b.W, MinSide, MaxSide)}
	case b.H < MinSide || b.H > MaxSide:
		return &BoardError{Text: dims, Err: fmt.Errorf("%d ranks: want %d..%d", b.H, MinSide, MaxSide)}
	case b.Start > Gap:
		return &BoardError{Text: dims, Err: fmt.Errorf("start %d is neither removal nor gap", b.Start)}
	case b.Start == Gap && !GapDefined(b.W, b.H):
		return &BoardError{Text: dims, Err: errors.New("the gap start needs exactly one of width and height odd; this board starts with the removals")}
	}
	return nil
}

// String writes the board as ParseBoard reads it: "7x6" when the start is
// the board's default, else with the start after a slash, "7x6/removal".
func (b Board) String() string {
	s := fmt.Sprintf("%dx%d", b.W, b.H)
	if b.Start != DefaultStart(b.W, b.H) {
		s += "/" + b.Start.String()
	}
	return s
}

// abstractPlayBoards are AbstractPlay's Kōnane variants (its game module
// konane.ts in AbstractPlay/gameslib): the variant id, "" for its default,
// and the board it plays.
var abstractPlayBoards = [...]struct {
	id    string
	board Board
}{
	{"", Board{W: 6, H: 6, Start: Removal}},
	{"size-7", Board{W: 7, H: 6, Start: Gap}},
	{"size-8", Board{W: 8, H: 8, Start: Removal}},
	{"size-9", Board{W: 9, H: 8, Start: Gap}},
	{"size-11", Board{W: 11, H: 8, Start: Gap}},
	{"size-15", Board{W: 15, H: 12, Start: Gap}},
}

// AbstractPlayBoards returns AbstractPlay's six boards in its order (its
// default 6x6 first).
func AbstractPlayBoards() []Board {
	out := make([]Board, len(abstractPlayBoards))
	for i, a := range abstractPlayBoards {
		out[i] = a.board
	}
	return out
}

// AbstractPlayID returns AbstractPlay's variant id of b ("" for its
// default, 6x6) and whether AbstractPlay has b at all.
func (b Board) AbstractPlayID() (string, bool) {
	for _, a := range abstractPlayBoards {
		if a.board == b {
			return a.id, true
		}
	}
	return "", false
}

// ParseBoard reads a board: "N" (N×N), "WxH", or one of AbstractPlay's
// variant ids ("default" or "" for its 6x6, "size-7" = 7x6, "size-8" =
// 8x8, "size-9" = 9x8, "size-11" = 11x8, "size-15" = 15x12), optionally
// followed by "/removal" or "/gap" to choose the start (else the board's
// default start, see DefaultStart). Its errors are a *BoardError naming
// what was wrong and the allowed range.
func ParseBoard(text string) (Board, error) {
	name, startText, hasStart := strings.Cut(strings.ToLower(strings.TrimSpace(text)), "/")
	var b Board
	found := false
	for _, a := range abstractPlayBoards {
		if name == a.id || a.id == "" && name == "default" {
			b, found = a.board, true
		}
	}
	if !found {
		w, h, ok := parseDims(name)
		if !ok {
			return Board{}, &BoardError{Text: text, Err: fmt.Errorf("unknown board: want N or WxH with sides %d..%d, or an AbstractPlay variant (default, size-7, size-8, size-9, size-11, size-15)", MinSide, MaxSide)}
		}
		b = Board{W: w, H: h, Start: DefaultStart(w, h)}
		if w < MinSide || w > MaxSide || h < MinSide || h > MaxSide {
			return Board{}, &BoardError{Text: text, Err: fmt.Errorf("%dx%d is outside the boards %dx%d..%dx%d", w, h, MinSide, MinSide, MaxSide, MaxSide)}
		}
	}
	if hasStart {
		s, err := ParseStart(startText)
		if err != nil {
			return Board{}, &BoardError{Text: text, Err: errors.New("unknown start: want removal or gap after the slash")}
		}
		b.Start = s
	}
	if err := b.Validate(); err != nil {
		return Board{}, &BoardError{Text: text, Err: errors.Unwrap(err)}
	}
	return b, nil
}

// parseDims reads "N" or "WxH" with up to two digits per side.
func parseDims(s string) (w, h int, ok bool) {
	ws, hs, rect := strings.Cut(s, "x")
	if !rect {
		hs = ws
	}
	w, ok1 := smallNumber(ws)
	h, ok2 := smallNumber(hs)
	return w, h, ok1 && ok2
}

func smallNumber(s string) (int, bool) {
	if len(s) < 1 || len(s) > 2 || s[0] < '0' || s[0] > '9' {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// Squares is the number of squares, W×H.
func (b Board) Squares() int { return b.W * b.H }

// Narrow reports whether Position (one-word bitboards) holds b: at most
// MaxSize files and ranks. Every board holds in a WidePosition.
func (b Board) Narrow() bool { return narrowDims(b.W, b.H) }

// narrowDims reports whether a Position holds a board of w files and h
// ranks: the one test of Board.Narrow, WidePosition.IsNarrow and
// ShapeCode.
func narrowDims(w, h int) bool { return w <= MaxSize && h <= MaxSize }

// Square reports whether b is square.
func (b Board) Square() bool { return b.W == b.H }

// GapSquares returns the (row, col) of the two squares empty at the gap
// start: when W is odd, file (W+1)/2 on ranks H/2 and H/2+1 (7x6: d3 and
// d4); when H is odd, rank (H+1)/2 on files W/2 and W/2+1. ok is false
// when the gap start is not defined on b.
func (b Board) GapSquares() (sq [2][2]int, ok bool) {
	switch {
	case !GapDefined(b.W, b.H):
		return sq, false
	case b.W%2 == 1:
		return [2][2]int{{b.H/2 - 1, b.W / 2}, {b.H / 2, b.W / 2}}, true
	default:
		return [2][2]int{{b.H / 2, b.W/2 - 1}, {b.H / 2, b.W / 2}}, true
	}
}

// IsOpeningSquare reports whether Black's removal may be made on (row,
// col) of a w×h board when Black has a stone there: a corner, or the
// centre — the middle file (odd w) or two files (even w) on the middle
// rank (odd h) or two ranks (even h).
func IsOpeningSquare(w, h, row, col int) bool {
	if (row == 0 || row == h-1) && (col == 0 || col == w-1) {
		return true
	}
	return middle(h, row) && middle(w, col)
}

func middle(n, i int) bool {
	if n%2 == 1 {
		return i == n/2
	}
	return i == n/2-1 || i == n/2
}

// Position returns b's starting position, or a *BoardError when b is
// invalid or not Narrow (use WidePosition then).
func (b Board) Position() (Position, error) {
	if err := b.Validate(); err != nil {
		return Position{}, err
	}
	if !b.Narrow() {
		return Position{}, &BoardError{Text: b.String(), Err: fmt.Errorf("more than %d files or ranks: use its WidePosition", MaxSize)}
	}
	p := Position{Size: shapeCode(b.W, b.H), Turn: Black}
	for r := 0; r < b.H; r++ {
		for c := 0; c < b.W; c++ {
			if (r+c)%2 == 0 {
				p.Black |= SquareAt(r, c).Bit()
			} else {
				p.White |= SquareAt(r, c).Bit()
			}
		}
	}
	if gap, ok := b.GapSquares(); ok && b.Start == Gap {
		for _, rc := range gap {
			p.Black &^= SquareAt(rc[0], rc[1]).Bit()
			p.White &^= SquareAt(rc[0], rc[1]).Bit()
		}
	}
	return p, nil
}
