package rules

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// deepBoards is set (KONANE_DEEP_BOARDS=1) to run the cross-checks on
// every board deeper and on more positions (minutes instead of seconds).
var deepBoards = os.Getenv("KONANE_DEEP_BOARDS") != ""

func wideStrings(ms []WideMove) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

// On every board shape 4..16 × 4..16, the wide generator (and, on boards
// up to 8x8, the narrow one) lists exactly the reference generator's moves
// and plays each exactly as the reference does, on positions of random
// games from each start and on random positions.
func TestGeneratorsAgreeWithReference(t *testing.T) {
	games, random := 1, 6
	switch {
	case deepBoards:
		games, random = 20, 400
	case !testing.Short():
		games, random = 2, 40
	}
	rng := rand.New(rand.NewPCG(42, 1))
	var buf [WideMaxMoves]WideMove
	var nbuf [MaxMoves]Move
	checked := 0
	for w := MinSide; w <= MaxSide; w++ {
		for h := MinSide; h <= MaxSide; h++ {
			for _, g := range refSample(rng, w, h, games, random) {
				checked++
				wp := g.wide()
				if err := wp.Validate(); err != nil {
					t.Fatalf("%dx%d: %v", w, h, err)
				}
				want := g.refMoves()
				got := wp.LegalMoves(buf[:0])
				if !slices.Equal(sortedStrings(wideStrings(got)), sortedStrings(want)) {
					t.Fatalf("%dx%d %v to move: wide moves %v; reference %v", w, h, wp.Turn, wideStrings(got), want)
				}
				if n := wp.CountMoves(); n != len(want) {
					t.Fatalf("%dx%d: CountMoves %d; reference %d", w, h, n, len(want))
				}
				for _, m := range got {
					if next, ref := wp.Play(m), g.refPlay(m.String()).wide(); next != ref {
						t.Fatalf("%dx%d: Play(%v) differs from the reference", w, h, m)
					}
					if testing.Short() {
						continue
					}
					if pm, err := ParseWideMove(wp, m.String()); err != nil || pm != m {
						t.Fatalf("%dx%d: ParseWideMove(%q) = %v, %v", w, h, m, pm, err)
					}
				}
				if w > MaxSize || h > MaxSize {
					if _, err := wp.Narrow(); err == nil || !strings.Contains(err.Error(), "no Position holds it") {
						t.Fatalf("%dx%d: Narrow: %v", w, h, err)
					}
					continue
				}
				np := g.narrow()
				if err := np.Validate(); err != nil {
					t.Fatalf("%dx%d: %v", w, h, err)
				}
				if np.Wide() != wp {
					t.Fatalf("%dx%d: Position.Wide differs from the reference", w, h)
				}
				if back, err := wp.Narrow(); err != nil || back != np {
					t.Fatalf("%dx%d: WidePosition.Narrow: %v", w, h, err)
				}
				nm := np.LegalMoves(nbuf[:0])
				if !slices.Equal(MoveStrings(nm), wideStrings(got)) {
					t.Fatalf("%dx%d: narrow moves %v; wide %v (same order expected)", w, h, MoveStrings(nm), wideStrings(got))
				}
				for i, m := range nm {
					if m.Wide() != got[i] || np.Play(m).Wide() != wp.Play(got[i]) {
						t.Fatalf("%dx%d: narrow Play(%v) differs from the wide one", w, h, m)
					}
					if pm, err := ParseMove(np, m.String()); err != nil || pm != m {
						t.Fatalf("%dx%d: ParseMove(%q) = %v, %v", w, h, m, pm, err)
					}
				}
			}
		}
	}
	t.Logf("%d positions on %d boards", checked, (MaxSide-MinSide+1)*(MaxSide-MinSide+1))
}

// Perft from every start of every board shape: the wide walk, the narrow
// one (boards up to 8x8) and the reference agree.
func TestPerftEveryBoard(t *testing.T) {
	depth := 3
	switch {
	case deepBoards:
		depth = 6
	case testing.Short():
		depth = 2
	}
	for w := MinSide; w <= MaxSide; w++ {
		for h := MinSide; h <= MaxSide; h++ {
			for _, start := range []Start{Removal, Gap} {
				b, err := NewBoard(w, h, start)
				if err != nil {
					continue // gap not defined here
				}
				ref := make([]int, depth)
				refPerft(refStart(w, h, start == Gap), ref)
				wp, err := b.WidePosition()
				if err != nil {
					t.Fatal(err)
				}
				wide := make([]uint64, depth)
				WidePerft(wp, wide)
				if fmt.Sprint(wide) != fmt.Sprint(ref) {
					t.Errorf("%v: wide perft %v; reference %v", b, wide, ref)
				}
				if !b.Narrow() {
					continue
				}
				p, err := b.Position()
				if err != nil {
					t.Fatal(err)
				}
				narrow := make([]uint64, depth)
				Perft(p, narrow)
				if fmt.Sprint(narrow) != fmt.Sprint(ref) {
					t.Errorf("%v: narrow perft %v; reference %v", b, narrow, ref)
				}
			}
		}
	}
}

// The rectangles' symmetries: the 4 that keep the axes map the board onto
// itself and commute with the rules; the others give the transposed board.
func TestRectangleSymmetries(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var b1, b2 [MaxMoves]Move
	for _, dims := range [][2]int{{7, 6}, {4, 5}, {8, 5}} {
		for _, g := range refSample(rng, dims[0], dims[1], 2, 10) {
			p := g.narrow()
			for s := Symmetry(0); s < NumSymmetries; s++ {
				q := s.Position(p)
				if err := q.Validate(); err != nil {
					t.Fatalf("%v of a %s position: %v", s, p.Dims(), err)
				}
				if want := fmt.Sprintf("%dx%d", dims[1], dims[0]); s.SwapsAxes() && q.Dims() != want {
					t.Fatalf("%v of %s gives %s; want %s", s, p.Dims(), q.Dims(), want)
				}
				if q.CountMoves() != p.CountMoves() || len(q.LegalMoves(b1[:0])) != len(p.LegalMoves(b2[:0])) {
					t.Fatalf("%v of a %s position has %d moves; the original %d", s, p.Dims(), q.CountMoves(), p.CountMoves())
				}
			}
			c := p.Canonical()
			for _, s := range []Symmetry{Rotate180, FlipFiles, FlipRanks} {
				if s.Position(p).Canonical() != c {
					t.Fatalf("Canonical of the %v image differs", s)
				}
			}
			if c.Dims() != p.Dims() {
				t.Fatalf("Canonical changed the board %s to %s", p.Dims(), c.Dims())
			}
		}
	}
}

// BenchmarkPerftBoards reports perft leaves per second from the start of
// the large boards (wide path) and of 7x6 (narrow path).
func BenchmarkPerftBoards(b *testing.B) {
	for _, bc := range []struct {
		board string
		depth int
	}{
		{"7x6", 7},
		{"9x8", 7},
		{"15x12", 7},
		{"16x16", 8},
	} {
		b.Run(bc.board, func(b *testing.B) {
			board, err := ParseBoard(bc.board)
			if err != nil {
				b.Fatal(err)
			}
			var leaves uint64
			for b.Loop() {
				counts := make([]uint64, bc.depth)
				if board.Narrow() {
					p, _ := board.Position()
					Perft(p, counts)
				} else {
					p, _ := board.WidePosition()
					WidePerft(p, counts)
				}
				leaves += counts[bc.depth-1]
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
			b.ReportMetric(float64(leaves)/float64(b.N), "leaves/op")
		})
	}
}

func FuzzParseBoard(f *testing.F) {
	for _, s := range []string{"8", "7x6", "size-15", "default", "", "6x7/gap", "8/gap", "16x16", "99x1", "7x6/removal"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		b, err := ParseBoard(text)
		if err != nil {
			return
		}
		if err := b.Validate(); err != nil {
			t.Fatalf("ParseBoard(%q) = %v, invalid: %v", text, b, err)
		}
		if again, err := ParseBoard(b.String()); err != nil || again != b {
			t.Fatalf("ParseBoard(%q) = %v; its String %q reads as %v, %v", text, b, b.String(), again, err)
		}
	})
}

func FuzzParseWideMove(f *testing.F) {
	for _, s := range []string{"h4-h6", "a1", "p16", "h12-h10", "-", "a", "q1", "a17", "h4-h6-h8"} {
		f.Add(s, uint8(15), uint8(12), uint8(3))
	}
	f.Fuzz(func(t *testing.T, text string, w, h, plies uint8) {
		board, err := NewBoard(MinSide+int(w)%(MaxSide-MinSide+1), MinSide+int(h)%(MaxSide-MinSide+1), Removal)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := board.WidePosition()
		for i := range int(plies % 8) {
			ms := p.LegalMoves(nil)
			if len(ms) == 0 {
				break
			}
			p = p.Play(ms[(i*7)%len(ms)])
		}
		m, err := ParseWideMove(p, text)
		if err != nil {
			return
		}
		if again, err := ParseWideMove(p, m.String()); err != nil || again != m {
			t.Fatalf("ParseWideMove(%q) = %v; its String reads as %v, %v", text, m, again, err)
		}
		if err := p.Play(m).Validate(); err != nil {
			t.Fatalf("after %v: %v", m, err)
		}
	})
}

// FuzzParseMoveBoards: on every board of up to 8x8, from either start,
// ParseMove on a Position and ParseWideMove on the same WidePosition
// accept exactly the same text, as the same move, and only legal moves.
func FuzzParseMoveBoards(f *testing.F) {
	for _, s := range []string{"d6-d4", "b4-d4", "a1", "h8", "d4", "c1-c3", "", "-", "a1-a1", "a10"} {
		f.Add(uint64(len(s)*7), uint8(len(s)), s)
	}
	f.Fuzz(func(t *testing.T, game uint64, plies uint8, text string) {
		w, h := MinSize+int(game%5), MinSize+int(game/5%5)
		start := Removal
		if game/25%2 == 1 && GapDefined(w, h) {
			start = Gap
		}
		b, err := NewBoard(w, h, start)
		if err != nil {
			t.Fatal(err)
		}
		p0, err := b.Position()
		if err != nil {
			t.Fatal(err)
		}
		ps, _ := Playout(newRand(game), p0, int(plies%40))
		p := ps[len(ps)-1]
		m, err := ParseMove(p, text)
		wm, werr := ParseWideMove(p.Wide(), text)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%v: ParseMove(%q) = %v, %v; ParseWideMove = %v, %v", b, text, m, err, wm, werr)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "rules: move ") || !strings.HasPrefix(werr.Error(), "rules: move ") {
				t.Fatalf("errors %q and %q", err, werr)
			}
			return
		}
		if !p.Legal(m) || m.Wide() != wm {
			t.Fatalf("%v: ParseMove(%q) = %v (legal %v), ParseWideMove = %v", b, text, m, p.Legal(m), wm)
		}
	})
}

// On every board Position holds, WidePlayout plays the moves Playout
// plays from the same seed, and each jump's Direction, Hops and Captured
// stones are those of its narrow form. On 15x12 a jump's captured stones
// are the opponent stones its Play removes.
func TestWideMoveGeometry(t *testing.T) {
	for w := MinSize; w <= MaxSize; w++ {
		for h := MinSize; h <= MaxSize; h++ {
			b := Board{W: w, H: h, Start: DefaultStart(w, h)}
			p, err := b.Position()
			if err != nil {
				t.Fatal(err)
			}
			seed := uint64(16*w + h)
			ps, ms := Playout(rand.New(rand.NewPCG(seed, 1)), p, -1)
			wps, wms := WidePlayout(rand.New(rand.NewPCG(seed, 1)), p.Wide(), -1)
			if len(wms) != len(ms) {
				t.Fatalf("%s: WidePlayout played %d moves, Playout %d", b, len(wms), len(ms))
			}
			for i, m := range ms {
				wm := wms[i]
				if wm != m.Wide() || wps[i] != ps[i].Wide() {
					t.Fatalf("%s ply %d: WidePlayout played %v, Playout %v", b, i, wm, m)
				}
				if m.IsRemoval() {
					continue
				}
				if wm.Direction() != m.Direction() || wm.Hops() != m.Hops() {
					t.Errorf("%s %v: wide direction %v hops %d, narrow %v %d", b, m, wm.Direction(), wm.Hops(), m.Direction(), m.Hops())
				}
				if got, want := wps[i].Captured(wm), (Position{Size: p.Size, Black: ps[i].Captured(m)}).Wide().Black; got != want {
					t.Errorf("%s %v: wide captures %v, narrow %v", b, m, got, want)
				}
			}
		}
	}
	start, err := Board{W: 15, H: 12, Start: Gap}.WidePosition()
	if err != nil {
		t.Fatal(err)
	}
	ps, ms := WidePlayout(rand.New(rand.NewPCG(1512, 1)), start, -1)
	if len(ms) < 10 {
		t.Fatalf("15x12 game of %d moves", len(ms))
	}
	for i, m := range ms {
		opp := ps[i].Turn.Other()
		gone := ps[i].Stones(opp).AndNot(ps[i+1].Stones(opp))
		if c := ps[i].Captured(m); c != gone || c.Count() != m.Hops() {
			t.Fatalf("15x12 ply %d %v: Captured %v (%d), Play removed %v, hops %d", i, m, c, c.Count(), gone, m.Hops())
		}
	}
}
