package rules

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// The wide path: every board up to MaxSide×MaxSide (256 squares), for the
// boards that Position (one 64-bit word per colour, stride 8) cannot hold.
// Its bit layout, stated once:
//
//	square = row*16 + col; word = square/64 (word 0 holds ranks 1..4),
//	bit = square%64; bit 0 of word 0 = a1, bit 15 = p1, bit 16 = a2, ...,
//	bit 63 of word 3 = p16.
//
// A board of W files and H ranks uses columns 0..W-1 of rows 0..H-1 and the
// other bits are always zero. The rules are those of Position, move for
// move and in the same order; the tests check the two against each other
// on every board both hold.
type WideBitboard [4]uint64

// WideSquare is a square of the wide layout (row*16 + col); every value
// 0..255 is a square, so there is no "none" value.
type WideSquare uint8

// WideSquareAt returns the square at row and col (both 0..15).
func WideSquareAt(row, col int) WideSquare { return WideSquare(row*16 + col) }

// Row is the square's row (0 = rank 1).
func (s WideSquare) Row() int { return int(s) >> 4 }

// Col is the square's column (0 = file a).
func (s WideSquare) Col() int { return int(s) & 15 }

// String writes the square in project notation ("h12").
func (s WideSquare) String() string { return fmt.Sprintf("%c%d", 'a'+s.Col(), s.Row()+1) }

func (b WideBitboard) has(s WideSquare) bool { return b[s>>6]>>(s&63)&1 != 0 }
func (b *WideBitboard) set(s WideSquare)     { b[s>>6] |= 1 << (s & 63) }
func (b *WideBitboard) clear(s WideSquare)   { b[s>>6] &^= 1 << (s & 63) }

// And is the intersection of b and o.
func (b WideBitboard) And(o WideBitboard) WideBitboard {
	return WideBitboard{b[0] & o[0], b[1] & o[1], b[2] & o[2], b[3] & o[3]}
}

// Or is the union of b and o.
func (b WideBitboard) Or(o WideBitboard) WideBitboard {
	return WideBitboard{b[0] | o[0], b[1] | o[1], b[2] | o[2], b[3] | o[3]}
}

// AndNot is b without the squares of o.
func (b WideBitboard) AndNot(o WideBitboard) WideBitboard {
	return WideBitboard{b[0] &^ o[0], b[1] &^ o[1], b[2] &^ o[2], b[3] &^ o[3]}
}

// IsZero reports whether b has no square.
func (b WideBitboard) IsZero() bool { return b[0]|b[1]|b[2]|b[3] == 0 }

// Count is the number of squares in b.
func (b WideBitboard) Count() int {
	return bits.OnesCount64(b[0]) + bits.OnesCount64(b[1]) + bits.OnesCount64(b[2]) + bits.OnesCount64(b[3])
}

const (
	wideFileA uint64 = 0x0001_0001_0001_0001 // column 0 of the four rows of a word
	wideFileP uint64 = wideFileA << 15
)

// Step moves every square of b one step in direction d, keeping the
// squares that land on the board valid: North, East, South or West.
func (b WideBitboard) Step(d Direction, valid WideBitboard) WideBitboard {
	switch d {
	case North:
		return b.North(valid)
	case East:
		return b.East(valid)
	case South:
		return b.South(valid)
	default:
		return b.West(valid)
	}
}

// North is Step(North, valid), small enough to be inlined.
func (b WideBitboard) North(valid WideBitboard) WideBitboard {
	return WideBitboard{b[0] << 16 & valid[0], (b[1]<<16 | b[0]>>48) & valid[1], (b[2]<<16 | b[1]>>48) & valid[2], (b[3]<<16 | b[2]>>48) & valid[3]}
}

// South is Step(South, valid).
func (b WideBitboard) South(valid WideBitboard) WideBitboard {
	return WideBitboard{(b[0]>>16 | b[1]<<48) & valid[0], (b[1]>>16 | b[2]<<48) & valid[1], (b[2]>>16 | b[3]<<48) & valid[2], b[3] >> 16 & valid[3]}
}

// East is Step(East, valid).
func (b WideBitboard) East(valid WideBitboard) WideBitboard {
	return WideBitboard{b[0] << 1 &^ wideFileA & valid[0], (b[1]<<1 | b[0]>>63) &^ wideFileA & valid[1], (b[2]<<1 | b[1]>>63) &^ wideFileA & valid[2], (b[3]<<1 | b[2]>>63) &^ wideFileA & valid[3]}
}

// West is Step(West, valid).
func (b WideBitboard) West(valid WideBitboard) WideBitboard {
	return WideBitboard{(b[0]>>1 | b[1]<<63) &^ wideFileP & valid[0], (b[1]>>1 | b[2]<<63) &^ wideFileP & valid[1], (b[2]>>1 | b[3]<<63) &^ wideFileP & valid[2], b[3] >> 1 &^ wideFileP & valid[3]}
}

// PopLSB returns the lowest square of *b and clears it; *b must not be
// empty.
func (b *WideBitboard) PopLSB() WideSquare {
	for i := range b {
		if b[i] != 0 {
			s := WideSquare(i*64 + bits.TrailingZeros64(b[i]))
			b[i] &= b[i] - 1
			return s
		}
	}
	panic("rules: popLSB of an empty WideBitboard")
}

// wideDelta is the change of square index for one step in each direction.
var wideDelta = [4]int{North: 16, East: 1, South: -16, West: -1}

// WideMove is a move of a WidePosition: a removal (From == To) or a jump
// from From to its final landing square To, as Move.
type WideMove struct {
	From, To WideSquare
}

// NoWideMove is a WideMove that is never legal (a1 to p16).
var NoWideMove = WideMove{0, 255}

// IsRemoval reports whether m is one of the two opening removals.
func (m WideMove) IsRemoval() bool { return m.From == m.To }

// String writes the move in project notation: "h6" or "h8-h6"; "none"
// for NoWideMove.
func (m WideMove) String() string {
	if m == NoWideMove {
		return "none"
	}
	if m.IsRemoval() {
		return m.From.String()
	}
	return m.From.String() + "-" + m.To.String()
}

// Direction returns the direction of a jump (meaningless for a removal),
// as Move.Direction.
func (m WideMove) Direction() Direction {
	return jumpDirection(m.From.Col(), m.From.Row(), m.To.Col(), m.To.Row())
}

// Hops returns the number of stones a jump captures (0 for a removal), as
// Move.Hops.
func (m WideMove) Hops() int {
	return jumpHops(m.From.Col(), m.From.Row(), m.To.Col(), m.To.Row())
}

// WideMaxMoves bounds the number of legal moves of any WidePosition: in
// each direction a line of 16 squares holds at most 56 pairs of an origin
// and a hop count that stay on it, 16 lines and 4 directions.
const WideMaxMoves = 4 * 16 * 56

// WidePosition is a complete game state on any board up to 16x16, a value
// type as Position: Play returns a new one.
type WidePosition struct {
	Black, White WideBitboard
	W, H         uint8 // files and ranks, MinSide..MaxSide
	Turn         Color
}

// wideValid[w][h] and wideOpening[w][h]: the squares, and the corners and
// central squares (IsOpeningSquare), of a w×h board.
var wideValid, wideOpening [MaxSide + 1][MaxSide + 1]WideBitboard

func init() {
	for w := MinSide; w <= MaxSide; w++ {
		for h := MinSide; h <= MaxSide; h++ {
			for r := 0; r < h; r++ {
				for c := 0; c < w; c++ {
					wideValid[w][h].set(WideSquareAt(r, c))
					if IsOpeningSquare(w, h, r, c) {
						wideOpening[w][h].set(WideSquareAt(r, c))
					}
				}
			}
		}
	}
}

// WidePosition returns b's starting position, or a *BoardError when b is
// invalid.
func (b Board) WidePosition() (WidePosition, error) {
	if err := b.Validate(); err != nil {
		return WidePosition{}, err
	}
	p := WidePosition{W: uint8(b.W), H: uint8(b.H), Turn: Black}
	for r := 0; r < b.H; r++ {
		for c := 0; c < b.W; c++ {
			if (r+c)%2 == 0 {
				p.Black.set(WideSquareAt(r, c))
			} else {
				p.White.set(WideSquareAt(r, c))
			}
		}
	}
	if gap, ok := b.GapSquares(); ok && b.Start == Gap {
		for _, rc := range gap {
			p.Black.clear(WideSquareAt(rc[0], rc[1]))
			p.White.clear(WideSquareAt(rc[0], rc[1]))
		}
	}
	return p, nil
}

// Wide returns p on the wide layout: the same position, square for square.
func (p Position) Wide() WidePosition {
	q := WidePosition{W: uint8(p.Width()), H: uint8(p.Height()), Turn: p.Turn}
	for b := p.Black; b != 0; {
		s := popLSB(&b)
		q.Black.set(WideSquareAt(s.Row(), s.Col()))
	}
	for b := p.White; b != 0; {
		s := popLSB(&b)
		q.White.set(WideSquareAt(s.Row(), s.Col()))
	}
	return q
}

// Wide returns m on the wide layout.
func (m Move) Wide() WideMove {
	return WideMove{WideSquareAt(m.From.Row(), m.From.Col()), WideSquareAt(m.To.Row(), m.To.Col())}
}

// Narrow returns m on the one-word layout of Position; its squares must
// lie in the first MaxSize files and ranks.
func (m WideMove) Narrow() Move {
	return Move{SquareAt(m.From.Row(), m.From.Col()), SquareAt(m.To.Row(), m.To.Col())}
}

// Valid returns the squares of the board.
func (p WidePosition) Valid() WideBitboard { return wideValid[p.W&31][p.H&31] }

// Empty returns the empty squares of the board.
func (p WidePosition) Empty() WideBitboard { return p.Valid().AndNot(p.Black.Or(p.White)) }

// Dims writes the board's dimensions, "15x12".
func (p WidePosition) Dims() string { return fmt.Sprintf("%dx%d", p.W, p.H) }

// Phase reports the stage of the game, as Position.Phase.
func (p WidePosition) Phase() Phase {
	switch p.Empty().Count() {
	case 0:
		return RemoveBlack
	case 1:
		return RemoveWhite
	default:
		return Jumping
	}
}

// At reports what stands on (row, col): Black, White, or ok=false when
// empty or off the board.
func (p WidePosition) At(row, col int) (c Color, ok bool) {
	if row < 0 || row >= int(p.H) || col < 0 || col >= int(p.W) {
		return 0, false
	}
	switch s := WideSquareAt(row, col); {
	case p.Black.has(s):
		return Black, true
	case p.White.has(s):
		return White, true
	}
	return 0, false
}

// Validate reports whether p is a position of a supported board with
// stones only on it, one per square at most.
func (p WidePosition) Validate() error {
	if p.W < MinSide || p.W > MaxSide || p.H < MinSide || p.H > MaxSide {
		return fmt.Errorf("rules: board %dx%d outside %dx%d..%dx%d", p.W, p.H, MinSide, MinSide, MaxSide, MaxSide)
	}
	if !p.Black.Or(p.White).AndNot(p.Valid()).IsZero() {
		return fmt.Errorf("rules: stones off the %s board", p.Dims())
	}
	if both := p.Black.And(p.White); !both.IsZero() {
		return fmt.Errorf("rules: square %s holds two stones", both.PopLSB())
	}
	if p.Turn > White {
		return fmt.Errorf("rules: side to move %d is neither black nor white", p.Turn)
	}
	return nil
}

// LegalMoves appends the legal moves of p to buf and returns it, in
// Position.LegalMoves' order; it does not allocate when buf has room (a
// [WideMaxMoves]WideMove array).
func (p WidePosition) LegalMoves(buf []WideMove) []WideMove {
	valid := p.Valid()
	switch p.Phase() {
	case RemoveBlack:
		for cand := wideOpening[p.W&31][p.H&31].And(p.Black); !cand.IsZero(); {
			s := cand.PopLSB()
			buf = append(buf, WideMove{s, s})
		}
		return buf
	case RemoveWhite:
		for cand := p.whiteRemovals(); !cand.IsZero(); {
			s := cand.PopLSB()
			buf = append(buf, WideMove{s, s})
		}
		return buf
	}
	own, opp := p.Black, p.White
	if p.Turn == White {
		own, opp = opp, own
	}
	empty := valid.AndNot(own.Or(opp))
	for _, d := range Directions {
		step := wideDelta[d] * 2
		land := own
		for hop := 1; ; hop++ {
			land = land.Step(d, valid).And(opp).Step(d, valid).And(empty)
			if land.IsZero() {
				break
			}
			for l := land; !l.IsZero(); {
				to := l.PopLSB()
				buf = append(buf, WideMove{WideSquare(int(to) - step*hop), to})
			}
		}
	}
	return buf
}

func (p WidePosition) whiteRemovals() WideBitboard {
	hole, valid := p.Empty(), p.Valid()
	var adj WideBitboard
	for _, d := range Directions {
		adj = adj.Or(hole.Step(d, valid))
	}
	return adj.And(p.White)
}

// CountMoves returns len(p.LegalMoves(nil)) without building the list.
func (p WidePosition) CountMoves() int {
	switch p.Phase() {
	case RemoveBlack:
		return wideOpening[p.W&31][p.H&31].And(p.Black).Count()
	case RemoveWhite:
		return p.whiteRemovals().Count()
	}
	valid := p.Valid()
	own, opp := p.Black, p.White
	if p.Turn == White {
		own, opp = opp, own
	}
	empty := valid.AndNot(own.Or(opp))
	n := 0
	for _, d := range Directions {
		for land := own; ; {
			land = land.Step(d, valid).And(opp).Step(d, valid).And(empty)
			if land.IsZero() {
				break
			}
			n += land.Count()
		}
	}
	return n
}

// Play returns the position after move m, which must be legal in p (Play
// does not validate).
func (p WidePosition) Play(m WideMove) WidePosition {
	if m.IsRemoval() {
		p.Black.clear(m.From)
		p.White.clear(m.From)
		p.Turn ^= 1
		return p
	}
	own, opp := &p.Black, &p.White
	if p.Turn == White {
		own, opp = opp, own
	}
	own.clear(m.From)
	own.set(m.To)
	step := 1
	if m.To.Row() != m.From.Row() {
		step = 16
	}
	if m.To < m.From {
		step = -step
	}
	for s := int(m.From) + step; s != int(m.To)+step; s += 2 * step {
		opp.clear(WideSquare(s)) // each jumped stone
	}
	p.Turn ^= 1
	return p
}

// turn is p.Turn, for the games (gamePosition).
func (p WidePosition) turn() Color { return p.Turn }

// ParseWideMove reads a move in project notation ("h6", "h8-h6", files
// a..p, ranks 1..16) and returns it if it is legal in p. Its errors are a
// *MoveError: malformed text or a square off the board as ParseMove's, or
// ErrIllegal with the phase's rule; the move is then NoWideMove.
func ParseWideMove(p WidePosition, text string) (WideMove, error) {
	m, err := parseWideMove(p, strings.TrimSpace(text))
	if err != nil {
		return NoWideMove, &MoveError{Text: text, Err: err}
	}
	return m, nil
}

func parseWideMove(p WidePosition, text string) (WideMove, error) {
	if text == "" {
		return WideMove{}, errors.New("empty")
	}
	from, to, isJump := strings.Cut(text, "-")
	r, c, err := parseCell(from, int(p.W), int(p.H))
	if err != nil {
		return WideMove{}, err
	}
	m := WideMove{WideSquareAt(r, c), WideSquareAt(r, c)}
	if isJump {
		if r, c, err = parseCell(to, int(p.W), int(p.H)); err != nil {
			return WideMove{}, err
		}
		m.To = WideSquareAt(r, c)
	}
	var buf [WideMaxMoves]WideMove
	for _, l := range p.LegalMoves(buf[:0]) {
		if l == m && l.IsRemoval() != isJump { // "a1-a1" is no removal
			return m, nil
		}
	}
	switch ph := p.Phase(); {
	case ph == RemoveBlack:
		return WideMove{}, fmt.Errorf("%w: Black must remove one of its own stones from a corner or a central square", ErrIllegal)
	case ph == RemoveWhite:
		return WideMove{}, fmt.Errorf("%w: White must remove one of its own stones orthogonally adjacent to the hole", ErrIllegal)
	case !isJump:
		return WideMove{}, fmt.Errorf("%w: the removals are over; a jump is written origin-landing, like f4-d4", ErrIllegal)
	}
	return WideMove{}, fmt.Errorf("%w: %s has no jump from %s to %s (straight over enemy stones, each into an empty square)", ErrIllegal, p.Turn, m.From, m.To)
}

// WideOpening is a pair of opening removals on a wide board and the
// position after them.
type WideOpening struct {
	Black, White WideMove
	Position     WidePosition
}

// WideOpenings returns every legal pair of removals from start (a full
// board, Black to move), in the order of Black's squares, then White's;
// none when start is not a full board.
func WideOpenings(start WidePosition) []WideOpening {
	if start.Phase() != RemoveBlack {
		return nil
	}
	var out []WideOpening
	var b1, b2 [WideMaxMoves]WideMove
	for _, bm := range start.LegalMoves(b1[:0]) {
		p := start.Play(bm)
		for _, wm := range p.LegalMoves(b2[:0]) {
			out = append(out, WideOpening{bm, wm, p.Play(wm)})
		}
	}
	return out
}

// WidePerft is Perft on a WidePosition: counts[i] receives the number of
// move sequences of length i+1 from p; len(counts) ≥ 1 is the depth.
func WidePerft(p WidePosition, counts []uint64) {
	_ = WidePerftContext(context.Background(), p, counts)
}

// WidePerftContext is WidePerft that stops soon after ctx is done, as
// PerftContext.
func WidePerftContext(ctx context.Context, p WidePosition, counts []uint64) error {
	w := widePerftWalk{done: ctx.Done(), bufs: make([][]WideMove, len(counts))}
	for i := range w.bufs {
		w.bufs[i] = make([]WideMove, 0, WideMaxMoves)
	}
	w.walk(p, counts, w.bufs)
	if w.stopped {
		return ctx.Err()
	}
	return nil
}

type widePerftWalk struct {
	done    <-chan struct{}
	stopped bool
	bufs    [][]WideMove // one move list per level
}

func (w *widePerftWalk) walk(p WidePosition, counts []uint64, bufs [][]WideMove) {
	if len(counts) == 1 {
		counts[0] += uint64(p.CountMoves())
		return
	}
	if len(counts) > 2 && w.done != nil {
		select {
		case <-w.done:
			w.stopped = true
		default:
		}
	}
	if w.stopped {
		return
	}
	moves := p.LegalMoves(bufs[0][:0])
	counts[0] += uint64(len(moves))
	for _, m := range moves {
		w.walk(p.Play(m), counts[1:], bufs[1:])
		if w.stopped {
			return
		}
	}
}

// HasMoves reports whether the side to move has a legal move.
func (p WidePosition) HasMoves() bool { return p.CountMoves() > 0 }

// Legal reports whether m is a legal move in p.
func (p WidePosition) Legal(m WideMove) bool {
	var buf [WideMaxMoves]WideMove
	for _, l := range p.LegalMoves(buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}

// Hash returns a 64-bit key of the full position (stones, board, side to
// move), as Position.Hash: a keyed mix of the bitboards. A narrow
// position and its Wide form have different keys.
func (p WidePosition) Hash() uint64 {
	h := uint64(0x243f6a8885a308d3)
	for i := range p.Black {
		h = mix64(h ^ p.Black[i] ^ 0x9e3779b97f4a7c15)
		h = mix64(h ^ p.White[i] ^ 0xc2b2ae3d27d4eb4f)
	}
	return mix64(h ^ uint64(p.W)<<9 ^ uint64(p.H)<<1 ^ uint64(p.Turn))
}

// Stones returns the stones of color c.
func (p WidePosition) Stones(c Color) WideBitboard {
	if c == Black {
		return p.Black
	}
	return p.White
}

// Captured returns the opponent stones jump m of p captures (the squares
// strictly between its origin and landing square that hold one), as
// Position.Captured; it assumes m is a jump along a row or a column.
func (p WidePosition) Captured(m WideMove) WideBitboard {
	var b WideBitboard
	if m.IsRemoval() {
		return b
	}
	step := wideDelta[m.Direction()]
	for s := int(m.From) + step; s != int(m.To); s += step {
		b.set(WideSquare(s))
	}
	return b.And(p.Stones(p.Turn.Other()))
}

// Has reports whether s is a square of b.
func (b WideBitboard) Has(s WideSquare) bool { return b.has(s) }

// Bit is the square's bitboard.
func (s WideSquare) Bit() WideBitboard {
	var b WideBitboard
	b.set(s)
	return b
}

// IsNarrow reports whether a Position holds p's board (Board.Narrow): at
// most MaxSize files and ranks, where Narrow converts a valid p.
func (p WidePosition) IsNarrow() bool { return narrowDims(int(p.W), int(p.H)) }

// Narrow returns p as a Position, the same position square for square,
// or an error when its board has more than MaxSize files or ranks.
func (p WidePosition) Narrow() (Position, error) {
	w, h := int(p.W), int(p.H)
	if err := p.Validate(); err != nil {
		return Position{}, err
	}
	if !p.IsNarrow() {
		return Position{}, &BoardError{Text: p.Dims(), Err: fmt.Errorf("more than %d files or ranks: no Position holds it", MaxSize)}
	}
	q := Position{Size: shapeCode(w, h), Turn: p.Turn}
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			switch col, ok := p.At(r, c); {
			case ok && col == Black:
				q.Black |= SquareAt(r, c).Bit()
			case ok:
				q.White |= SquareAt(r, c).Bit()
			}
		}
	}
	return q, nil
}
