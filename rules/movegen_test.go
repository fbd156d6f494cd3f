package rules

import "testing"

// TestLegalMovesOrder checks the documented order: removals by square;
// jumps by direction (north, east, south, west), then hop count, then
// landing square.
func TestLegalMovesOrder(t *testing.T) {
	dirRank := map[Direction]int{North: 0, East: 1, South: 2, West: 3}
	key := func(m Move) [3]int {
		if m.IsRemoval() {
			return [3]int{0, 0, int(m.From)}
		}
		return [3]int{dirRank[m.Direction()], m.Hops(), int(m.To)}
	}
	less := func(a, b [3]int) bool {
		for i := range a {
			if a[i] != b[i] {
				return a[i] < b[i]
			}
		}
		return false
	}
	for _, p := range testPositions(t, 10) {
		moves := p.LegalMoves(nil)
		for i := 1; i < len(moves); i++ {
			if !less(key(moves[i-1]), key(moves[i])) {
				t.Fatalf("position\n%v\nmoves out of order: %v before %v", p, moves[i-1], moves[i])
			}
		}
	}
}

// TestLegalMovesAppends: LegalMoves appends to what the buffer holds.
func TestLegalMovesAppends(t *testing.T) {
	p := NewPosition(8)
	got := p.LegalMoves([]Move{NoMove})
	if len(got) != 5 || got[0] != NoMove {
		t.Fatalf("LegalMoves([NoMove]) = %v", got)
	}
}

// benchPositions is a fixed sample of 8x8 game positions in the jumping
// phase.
func benchPositions() []Position {
	var out []Position
	rng := newRand(11)
	for _, o := range Openings(8) {
		for g := 0; g < 20; g++ {
			ps, _ := Playout(rng, o.Position, -1)
			out = append(out, ps...)
		}
	}
	return out
}

// BenchmarkLegalMoves generates the moves of 8x8 game positions into a
// stack buffer; it must not allocate (0 allocs/op).
func BenchmarkLegalMoves(b *testing.B) {
	ps := benchPositions()
	var buf [MaxMoves]Move
	moves := 0
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		moves += len(ps[i].LegalMoves(buf[:0]))
		i++
		if i == len(ps) {
			i = 0
		}
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkPlay plays every legal move of 8x8 game positions.
func BenchmarkPlay(b *testing.B) {
	type pm struct {
		p Position
		m Move
	}
	var work []pm
	for _, p := range benchPositions() {
		for _, m := range p.LegalMoves(nil) {
			work = append(work, pm{p, m})
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() { // b.Loop keeps the result of Play alive
		work[i].p.Play(work[i].m)
		i++
		if i == len(work) {
			i = 0
		}
	}
}

// BenchmarkCountMoves counts without building the list.
func BenchmarkCountMoves(b *testing.B) {
	ps := benchPositions()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ps[i].CountMoves()
		i++
		if i == len(ps) {
			i = 0
		}
	}
}
