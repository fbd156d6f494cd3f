package rules

import (
	"fmt"
	"strings"
)

// Diagram characters.
const (
	blackChar = 'x'
	whiteChar = 'o'
	emptyChar = '.'
)

// String draws the board as plain text (see Render), without a last move.
func (p Position) String() string { return Render(p, NoMove) }

// Render draws the board as plain ASCII: the top rank first with rank
// numbers on the left, files along the bottom, x for Black, o for White, .
// for an empty square, and a last line naming the side to move. The squares
// of the last move (the emptied square of a removal; origin and landing of
// a jump) are put in brackets; pass NoMove for none. For example, after the
// removals d4 e4 and the jump b4-d4 on 8x8:
//
//	8 o x o x o x o x
//	7 x o x o x o x o
//	6 o x o x o x o x
//	5 x o x o x o x o
//	4 o[.].[x]. x o x
//	3 x o x o x o x o
//	2 o x o x o x o x
//	1 x o x o x o x o
//	  a b c d e f g h
//	white to move
//
// ParsePosition reads the drawing back.
func Render(p Position, last Move) string {
	if err := p.Validate(); err != nil {
		return fmt.Sprintf("invalid position (%v)", err)
	}
	wide := NoWideMove
	if last != NoMove {
		wide = last.Wide()
	}
	return RenderWide(p.Wide(), wide)
}

// RenderWide draws a WidePosition as Render draws a Position, the rank
// numbers right-aligned on boards of ten ranks or more; last is the last
// move, or NoWideMove for none.
func RenderWide(p WidePosition, last WideMove) string {
	if err := p.Validate(); err != nil {
		return fmt.Sprintf("invalid position (%v)", err)
	}
	marked := func(row, col int) bool {
		s := WideSquareAt(row, col)
		return last != NoWideMove && (s == last.From || s == last.To)
	}
	cell := func(row, col int) byte {
		switch c, ok := p.At(row, col); {
		case !ok:
			return emptyChar
		case c == Black:
			return blackChar
		default:
			return whiteChar
		}
	}
	return drawBoard(int(p.W), int(p.H), cell, marked, p.Turn)
}

// drawBoard is the drawing of Render: w files and h ranks, cell's
// character on each square, the marked squares in brackets, and turn to
// move.
func drawBoard(w, h int, cell func(row, col int) byte, marked func(row, col int) bool, turn Color) string {
	label := len(fmt.Sprint(h))
	var b strings.Builder
	for row := h - 1; row >= 0; row-- {
		fmt.Fprintf(&b, "%*d", label, row+1)
		for col := 0; col < w; col++ {
			switch {
			case marked(row, col):
				b.WriteByte('[')
			case col > 0 && marked(row, col-1):
				b.WriteByte(']')
			default:
				b.WriteByte(' ')
			}
			b.WriteByte(cell(row, col))
		}
		if marked(row, w-1) {
			b.WriteByte(']')
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat(" ", label))
	for col := 0; col < w; col++ {
		b.WriteByte(' ')
		b.WriteByte(byte('a' + col))
	}
	fmt.Fprintf(&b, "\n%s to move\n", turn)
	return b.String()
}

// ParsePosition reads a board drawn by Render or String: one line per rank,
// top rank first, each a rank number and one x, o or . per file (brackets
// and spaces ignored); then the file letters; then "black to move" or
// "white to move". Blank lines and surrounding spaces are ignored. The
// size is the number of ranks. It is meant for tests and tools that set
// up positions by hand; the position need not be reachable in a game.
func ParsePosition(text string) (Position, error) {
	var lines []string
	var numbers []int
	for i, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimSpace(l))
			numbers = append(numbers, i+1)
		}
	}
	fail := func(i int, format string, args ...any) (Position, error) {
		return Position{}, fmt.Errorf("rules: diagram line %d: %s", numbers[i], fmt.Sprintf(format, args...))
	}
	if len(lines) < MinSize+2 || len(lines) > MaxSize+2 {
		return Position{}, fmt.Errorf("rules: diagram: %d lines, want %d..%d ranks, the file letters and the side to move", len(lines), MinSize, MaxSize)
	}
	n := len(lines) - 2
	p := Position{Size: uint8(n)}
	for i := 0; i < n; i++ {
		row := n - 1 - i
		cells := strings.Map(func(r rune) rune {
			if r == '[' || r == ']' || r == ' ' || r == '\t' {
				return -1
			}
			return r
		}, lines[i])
		rank := fmt.Sprint(row + 1)
		if !strings.HasPrefix(cells, rank) {
			return fail(i, "want rank %s first (top rank first, %d ranks)", rank, n)
		}
		cells = cells[len(rank):]
		if len(cells) != n {
			return fail(i, "rank %s has %d squares, want %d", rank, len(cells), n)
		}
		for col := 0; col < n; col++ {
			s := SquareAt(row, col)
			switch cells[col] {
			case blackChar:
				p.Black |= s.Bit()
			case whiteChar:
				p.White |= s.Bit()
			case emptyChar:
			default:
				return fail(i, "square %s: %q is not x (black), o (white) or . (empty)", s, cells[col])
			}
		}
	}
	files := strings.Join(strings.Fields(lines[n]), "")
	if want := "abcdefgh"[:n]; files != want {
		return fail(n, "file letters %s, want %q", Quote(lines[n]), strings.Join(strings.Split(want, ""), " "))
	}
	switch lines[n+1] {
	case "black to move":
		p.Turn = Black
	case "white to move":
		p.Turn = White
	default:
		return fail(n+1, "%s: want \"black to move\" or \"white to move\"", Quote(lines[n+1]))
	}
	return p, nil
}
