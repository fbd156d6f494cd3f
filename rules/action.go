package rules

// The action space of the policy network: a fixed, dense numbering of every
// move that can exist on a board of a given size, whatever the position.
//
// For a size-N board with H = (N-1)/2 possible hop counts:
//
//	0 .. N*N-1        removals, by square in row-major order (row*N + col)
//	N*N ..            jumps, by direction (north, east, south, west), then
//	                  hop count 1..H, then origin in row-major order, listing
//	                  only the origins whose landing square is on the board
//
// ActionIndex and ActionMove are inverse bijections between 0..NumActions-1
// and the removals and on-board jumps of the size.

// MaxHops returns the largest number of stones one jump can capture on a
// size×size board.
func MaxHops(size int) int { return (size - 1) / 2 }

// actionTables holds, for one size, the move of every action and the
// action of every (from, to) pair (-1 for none).
type actionTables struct {
	moves []Move
	index [64][64]int16
}

var actions [MaxSize + 1]*actionTables

func init() {
	for n := MinSize; n <= MaxSize; n++ {
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
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				s := SquareAt(r, c)
				add(Move{s, s})
			}
		}
		dr := [4]int{1, 0, -1, 0} // north, east, south, west
		dc := [4]int{0, 1, 0, -1}
		for d := range Directions {
			for h := 1; h <= MaxHops(n); h++ {
				for r := 0; r < n; r++ {
					for c := 0; c < n; c++ {
						tr, tc := r+2*h*dr[d], c+2*h*dc[d]
						if tr < 0 || tr >= n || tc < 0 || tc >= n {
							continue
						}
						add(Move{SquareAt(r, c), SquareAt(tr, tc)})
					}
				}
			}
		}
		actions[n] = t
	}
}

// NumActions returns the size of the action space of a size×size board
// (0 for an unsupported size).
func NumActions(size int) int {
	if size < MinSize || size > MaxSize {
		return 0
	}
	return len(actions[size].moves)
}

// ActionIndex returns the action of move m on a size×size board, or -1 when
// m cannot be a move on that board (unsupported size, a square off the
// board, or squares that no single jump joins).
func ActionIndex(m Move, size int) int {
	if size < MinSize || size > MaxSize || m.From >= 64 || m.To >= 64 {
		return -1
	}
	return int(actions[size].index[m.From][m.To])
}

// ActionMove returns the move of action a on a size×size board, or NoMove
// when a is outside 0..NumActions(size)-1.
func ActionMove(a int, size int) Move {
	if size < MinSize || size > MaxSize || a < 0 || a >= len(actions[size].moves) {
		return NoMove
	}
	return actions[size].moves[a]
}
