package rules

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Move is a removal (From == To, the square emptied) or a jump (From = the
// origin, To = the final landing square; the direction and the hop count
// follow from the two squares). The zero Move is the removal of a1.
type Move struct {
	From, To Square
}

// NoMove is a Move that is never legal.
var NoMove = Move{NoSquare, NoSquare}

// IsRemoval reports whether m is one of the two opening removals.
func (m Move) IsRemoval() bool { return m.From == m.To }

// Direction returns the direction of a jump.
func (m Move) Direction() Direction {
	return jumpDirection(m.From.Col(), m.From.Row(), m.To.Col(), m.To.Row())
}

// Hops returns the number of stones a jump captures (0 for a removal).
func (m Move) Hops() int {
	return jumpHops(m.From.Col(), m.From.Row(), m.To.Col(), m.To.Row())
}

// jumpDirection is the direction of a jump from (c0, r0) to (c1, r1) on
// any board (meaningless for a removal).
func jumpDirection(c0, r0, c1, r1 int) Direction {
	switch {
	case r1 > r0:
		return North
	case r1 < r0:
		return South
	case c1 > c0:
		return East
	}
	return West
}

// jumpHops is the number of stones a jump from (c0, r0) to (c1, r1)
// captures (0 for a removal).
func jumpHops(c0, r0, c1, r1 int) int {
	return abs(r1-r0+c1-c0) / 2
}

// String writes the move in project notation: "d4" for a removal, "f4-d4"
// for a jump.
func (m Move) String() string {
	if m == NoMove {
		return "none"
	}
	if m.IsRemoval() {
		return m.From.String()
	}
	return m.From.String() + "-" + m.To.String()
}

// ParseSquare reads a square such as "d4" on a board of the given size.
func ParseSquare(text string, size int) (Square, error) {
	row, col, err := parseCell(text, size, size)
	if err != nil {
		return NoSquare, err
	}
	return SquareAt(row, col), nil
}

// parseCell reads a square in project notation, a file letter a.. and a
// rank number 1.. ("d4", "h12"), on a board of w files and h ranks.
func parseCell(text string, w, h int) (row, col int, err error) {
	if len(text) < 2 || len(text) > 3 {
		return 0, 0, fmt.Errorf("square %s: want a file letter and a rank number, like d4", Quote(text))
	}
	f := text[0]
	if f >= 'A' && f <= 'Z' {
		f += 'a' - 'A'
	}
	if f < 'a' || f > 'z' {
		r, _ := utf8.DecodeRuneInString(text) // the character, not its first byte
		return 0, 0, fmt.Errorf("square %s: file %q is not a letter from a to z", Quote(text), r)
	}
	rank := 0
	for _, ch := range text[1:] {
		if ch < '0' || ch > '9' {
			return 0, 0, fmt.Errorf("square %s: rank %s is not a number", Quote(text), Quote(text[1:]))
		}
		rank = rank*10 + int(ch-'0')
	}
	col, row = int(f-'a'), rank-1
	if col >= w || row < 0 || row >= h {
		return 0, 0, fmt.Errorf("square %s is off the %dx%d board", Quote(text), w, h)
	}
	return row, col, nil
}

// MoveStrings writes each move in project notation.
func MoveStrings(ms []Move) []string { return gameMoveStrings(ms) }

// WideMoveStrings is MoveStrings for the moves of a board above 8x8.
func WideMoveStrings(ms []WideMove) []string { return gameMoveStrings(ms) }

// MovesText writes moves in project notation separated by spaces:
// "d4 e4 b4-d4".
func MovesText(ms []Move) string { return strings.Join(MoveStrings(ms), " ") }

// ErrIllegal is wrapped by every ParseMove error about a well-formed move
// that the rules do not allow in the position.
var ErrIllegal = errors.New("illegal move")

// ParseMove reads a move in project notation and returns it if it is legal
// in p, or an error that says exactly why not: malformed text, a square off
// the board, the wrong phase, no stone or the opponent's stone on the
// origin, a jump that is not straight, lands on a stone, or jumps over
// anything but enemy stones into empty squares. Its errors are a *MoveError.
func ParseMove(p Position, text string) (Move, error) {
	m, err := parseMove(p, strings.TrimSpace(text))
	if err != nil {
		return NoMove, &MoveError{Text: text, Err: err}
	}
	return m, nil
}

// MoveError is the error of ParseMove: the move as given, and what is
// wrong with it (wrapping ErrIllegal when the rules do not allow it), for
// each interface to phrase for its users.
type MoveError struct {
	Text string
	Err  error
}

func (e *MoveError) Error() string { return fmt.Sprintf("rules: move %s: %v", Quote(e.Text), e.Err) }

func (e *MoveError) Unwrap() error { return e.Err }

func parseMove(p Position, text string) (Move, error) {
	if text == "" {
		return NoMove, errors.New("empty")
	}
	from, to, isJump := strings.Cut(text, "-")
	a, err := p.parseSquare(from)
	if err != nil {
		return NoMove, err
	}
	phase := p.Phase()
	if !isJump {
		m := Move{a, a}
		switch phase {
		case Jumping:
			return NoMove, fmt.Errorf("%w: the removals are over; a jump is written origin-landing, like f4-d4", ErrIllegal)
		case RemoveBlack:
			if c, ok := p.At(a); !ok || c != Black {
				return NoMove, fmt.Errorf("%w: Black must remove one of its own stones", ErrIllegal)
			}
			if openingSquares[p.Size]&a.Bit() == 0 {
				return NoMove, fmt.Errorf("%w: Black's removal must be from a corner or a central square", ErrIllegal)
			}
		case RemoveWhite:
			if c, ok := p.At(a); !ok || c != White {
				return NoMove, fmt.Errorf("%w: White must remove one of its own stones", ErrIllegal)
			}
			if p.whiteRemovals()&a.Bit() == 0 {
				return NoMove, fmt.Errorf("%w: White's removal must be orthogonally adjacent to the hole at %s", ErrIllegal, Square(trailingZeros(p.Empty())))
			}
		}
		return m, nil
	}
	b, err := p.parseSquare(to)
	if err != nil {
		return NoMove, err
	}
	if phase != Jumping {
		return NoMove, fmt.Errorf("%w: %s must first remove a stone (write its square, like d4)", ErrIllegal, p.Turn)
	}
	m := Move{a, b}
	c, ok := p.At(a)
	switch {
	case !ok:
		return NoMove, fmt.Errorf("%w: no stone on %s", ErrIllegal, a)
	case c != p.Turn:
		return NoMove, fmt.Errorf("%w: the stone on %s is %s's, and %s is to move", ErrIllegal, a, c, p.Turn)
	case a == b:
		return NoMove, fmt.Errorf("%w: origin and landing are the same square", ErrIllegal)
	case a.Row() != b.Row() && a.Col() != b.Col():
		return NoMove, fmt.Errorf("%w: jumps go straight along a row or a column", ErrIllegal)
	case m.Hops()*2 != abs(a.Row()-b.Row())+abs(a.Col()-b.Col()):
		return NoMove, fmt.Errorf("%w: a jump moves an even number of squares (two per capture)", ErrIllegal)
	}
	if _, occupied := p.At(b); occupied {
		return NoMove, fmt.Errorf("%w: the landing square %s is not empty", ErrIllegal, b)
	}
	// Walk the hops: enemy stone, then empty square, each time.
	opp := p.Stones(p.Turn.Other())
	step := m.Direction().Delta()
	for s := int(a); s != int(b); s += 2 * step {
		over, land := Square(s+step), Square(s+2*step)
		if opp&over.Bit() == 0 {
			return NoMove, fmt.Errorf("%w: %s does not hold an enemy stone to jump over", ErrIllegal, over)
		}
		if p.Empty()&land.Bit() == 0 {
			return NoMove, fmt.Errorf("%w: %s is not empty to land on", ErrIllegal, land)
		}
	}
	return m, nil
}

// parseSquare reads a square of p's board.
func (p Position) parseSquare(text string) (Square, error) {
	row, col, err := parseCell(text, p.Width(), p.Height())
	if err != nil {
		return NoSquare, err
	}
	return SquareAt(row, col), nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
