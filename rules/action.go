package rules

// The action space of the policy network: a fixed, dense numbering of every
// move that can exist on a board of a given shape, whatever the position.
// The shape is a Position's Size: N on a square board N×N, 16*W + H on a
// rectangle of W files and H ranks (every board a Position holds).
//
// For a board of W files and H ranks with K = MaxHops(max(W, H)) possible
// hop counts:
//
//	0 .. W*H-1        removals, by square in row-major order (row*W + col)
//	W*H ..            jumps, by direction (north, east, south, west), then
//	                  hop count 1..K, then origin in row-major order, listing
//	                  only the origins whose landing square is on the board
//
// ActionIndex and ActionMove are inverse bijections between 0..NumActions-1
// and the removals and on-board jumps of the shape. On a square board this
// is the numbering it has always had.

// MaxHops returns the largest number of stones one jump can capture on a
// size×size board.
func MaxHops(size int) int { return (size - 1) / 2 }

// actionTables holds, for one size, the move of every action and the
// action of every (from, to) pair (-1 for none).
type actionTables struct {
	moves []Move
	index [64][64]int16
}

// actions[shape] is nil for a shape code that is no board of Position.
var actions [256]*actionTables

func init() {
	for w := MinSize; w <= MaxSize; w++ {
		for h := MinSize; h <= MaxSize; h++ {
			actions[shapeCode(w, h)] = newActionTables(w, h)
		}
	}
}

// newActionTables numbers the actions of a board of w files and h ranks.
func newActionTables(w, h int) *actionTables {
	t := &actionTables{}
	for a := range t.index {
		for b := range t.index[a] {
			t.index[a][b] = -1
		}
	}
	add := func(m Move) {
		t.index[m.From][m.To] = int16(len(t.moves))
		t.moves = append(t.moves, m)
	}
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			s := SquareAt(r, c)
			add(Move{s, s})
		}
	}
	dr := [4]int{1, 0, -1, 0} // north, east, south, west
	dc := [4]int{0, 1, 0, -1}
	for d := range Directions {
		for k := 1; k <= MaxHops(max(w, h)); k++ {
			for r := 0; r < h; r++ {
				for c := 0; c < w; c++ {
					tr, tc := r+2*k*dr[d], c+2*k*dc[d]
					if tr < 0 || tr >= h || tc < 0 || tc >= w {
						continue
					}
					add(Move{SquareAt(r, c), SquareAt(tr, tc)})
				}
			}
		}
	}
	return t
}

// tablesOf returns the tables of a shape code, nil for none.
func tablesOf(shape int) *actionTables {
	if shape < 0 || shape >= len(actions) {
		return nil
	}
	return actions[shape]
}

// NumActions returns the size of the action space of the board of the
// shape code (Position.Size: N for N×N), 0 for a shape no Position has.
func NumActions(shape int) int {
	t := tablesOf(shape)
	if t == nil {
		return 0
	}
	return len(t.moves)
}

// ActionIndex returns the action of move m on the board of the shape code
// (Position.Size: N for N×N), or -1 when m cannot be a move on that board
// (no such board, a square off the board, or squares that no single jump
// joins).
func ActionIndex(m Move, shape int) int {
	t := tablesOf(shape)
	if t == nil || m.From >= 64 || m.To >= 64 {
		return -1
	}
	return int(t.index[m.From][m.To])
}

// ActionMove returns the move of action a on the board of the shape code
// (Position.Size: N for N×N), or NoMove when a is outside
// 0..NumActions(shape)-1.
func ActionMove(a int, shape int) Move {
	t := tablesOf(shape)
	if t == nil || a < 0 || a >= len(t.moves) {
		return NoMove
	}
	return t.moves[a]
}

// ShapeCode returns the shape code of a board of w files and h ranks, or
// 0 when w or h is outside MinSide..MaxSide. A board a Position holds
// (both sides MinSize..MaxSize) has the code of its positions' Size: w on
// a square board, 16*w + h on a rectangle. A wider one (a WidePosition's
// board) has 256 + 32*w + h, so that every board has its own code and
// ShapeDims reads it back.
func ShapeCode(w, h int) int {
	switch {
	case w < MinSide || w > MaxSide || h < MinSide || h > MaxSide:
		return 0
	case narrowDims(w, h):
		return int(shapeCode(w, h))
	}
	return wideShapeBase + 32*w + h
}

// wideShapeBase is the first shape code of the boards no Position holds.
const wideShapeBase = 256

// ShapeDims returns the files and ranks of a shape code made by ShapeCode
// (0, 0 for another number).
func ShapeDims(shape int) (w, h int) {
	if shape >= wideShapeBase {
		w, h = (shape-wideShapeBase)>>5, (shape-wideShapeBase)&31
		if ShapeCode(w, h) != shape {
			return 0, 0
		}
		return w, h
	}
	if tablesOf(shape) == nil {
		return 0, 0
	}
	return shapeDims(uint8(shape))
}
