package rules

import "context"

// Perft counts move sequences from p: counts[i] receives the number of
// sequences of length i+1 (a game that ends earlier contributes nothing to
// the deeper levels). The last level is counted in bulk, without playing
// its moves. counts must have length ≥ 1; its length is the depth.
func Perft(p Position, counts []uint64) {
	w := perftWalk{}
	w.walk(p, counts)
}

// PerftContext is Perft that stops soon after ctx is done and then returns
// ctx.Err(), with counts holding the sequences counted so far. It looks at
// ctx at every node with at least two plies left below it (a non-blocking
// receive, no lock), so that it stops within microseconds at any depth.
func PerftContext(ctx context.Context, p Position, counts []uint64) error {
	w := perftWalk{done: ctx.Done()}
	w.walk(p, counts)
	if w.stopped {
		return ctx.Err()
	}
	return nil
}

// perftWalk is one Perft walk; done (nil: never) stops it.
type perftWalk struct {
	done    <-chan struct{}
	stopped bool
}

func (w *perftWalk) walk(p Position, counts []uint64) {
	var buf [MaxMoves]Move
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
	moves := p.LegalMoves(buf[:0])
	counts[0] += uint64(len(moves))
	for _, m := range moves {
		w.walk(p.Play(m), counts[1:])
		if w.stopped {
			return
		}
	}
}

// Opening is a pair of opening removals and the position after them.
type Opening struct {
	Black, White Move
	Position     Position
}

// Openings returns every legal pair of removals of a size×size board, in
// the order of Black's squares, then White's.
func Openings(size int) []Opening { return OpeningsFrom(NewPosition(size)) }

// OpeningsFrom returns every legal pair of removals from start (a full
// board, Black to move, as Board.Position gives with the removal start),
// in the order of Black's squares, then White's; none when start is not a
// full board.
func OpeningsFrom(start Position) []Opening {
	if start.Phase() != RemoveBlack {
		return nil
	}
	var out []Opening
	var b1, b2 [MaxMoves]Move
	for _, bm := range start.LegalMoves(b1[:0]) {
		p := start.Play(bm)
		for _, wm := range p.LegalMoves(b2[:0]) {
			out = append(out, Opening{bm, wm, p.Play(wm)})
		}
	}
	return out
}
