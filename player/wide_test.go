package player

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
	"github.com/konanezero/konane/solver"
)

// randomWide plays n random moves (fewer if the game ends) from the start
// of board b.
func randomWide(t *testing.T, b rules.Board, n int, rng *rand.Rand) rules.WidePosition {
	t.Helper()
	p, err := b.WidePosition()
	if err != nil {
		t.Fatal(err)
	}
	var buf [rules.WideMaxMoves]rules.WideMove
	for i := 0; i < n; i++ {
		moves := p.LegalMoves(buf[:0])
		if len(moves) == 0 {
			break
		}
		p = p.Play(moves[rng.IntN(len(moves))])
	}
	return p
}

// TestEvaluateWideAgrees: on every board Position holds, the wide
// evaluation of a position equals the one-word evaluation, feature for
// feature (every weight set apart).
func TestEvaluateWideAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 1))
	weights := []Weights{EvalDefault, EvalMobility, {Safe: 1}, {Potential: 1}, {Tempo: 1}, {Jumpers: 1}, {Region: 1}, {1, 2, 3, 4, 5, 6}}
	for _, name := range []string{"4", "5", "6", "7", "8", "7x6", "5x8", "8x4"} {
		b, err := rules.ParseBoard(name)
		if err != nil {
			t.Fatal(err)
		}
		start, err := b.Position()
		if err != nil {
			t.Fatal(err)
		}
		for g := 0; g < 20; g++ {
			ps, _ := rules.Playout(rng, start, -1)
			for _, p := range ps {
				if p.Phase() != rules.Jumping {
					continue
				}
				for _, w := range weights {
					s1, m1 := w.evaluate(p)
					s2, m2 := w.evaluateWide(p.Wide())
					if s1 != s2 || m1 != m2 {
						t.Fatalf("%s, weights %v: evaluate %d (%d moves), wide %d (%d)\n%v", name, w, s1, m1, s2, m2, p)
					}
				}
			}
		}
	}
}

// TestSearchWideAgrees: on the boards Position holds, SearchWide of a
// position's Wide form finds what Search finds, at a fixed depth and
// with the same seed: the same score and principal variation (the move
// lists come in the same order on both layouts), in both configurations.
func TestSearchWideAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 1))
	depth := 5
	if testing.Short() {
		depth = 4
	}
	for i, name := range []string{"8", "8", "7x6", "6", "5x8", "8"} {
		b, _ := rules.ParseBoard(name)
		start, _ := b.Position()
		_, ms := rules.Playout(rng, start, -1)
		p := start
		for _, m := range ms[:len(ms)/3] {
			p = p.Play(m)
		}
		for _, plain := range []bool{false, true} {
			mk := func() *Engine {
				if plain {
					return NewAlphaBeta(depth, 0, uint64(i))
				}
				e := newPVS(depth, 0, uint64(i), 16, 1<<10)
				e.SolveStones = 0
				return e
			}
			narrow := mk().Search(context.Background(), p, depth)
			wide := mk().SearchWide(context.Background(), p.Wide(), depth)
			same := narrow.Score == wide.Score && len(narrow.PV) == len(wide.PV) && narrow.Depth == wide.Depth
			for j := range min(len(narrow.PV), len(wide.PV)) {
				same = same && narrow.PV[j].Wide() == wide.PV[j]
			}
			if !same {
				t.Errorf("%s position %d (plain %v): search %v, wide score %d depth %d pv %v", name, i, plain, narrow, wide.Score, wide.Depth, wide.PV)
			}
		}
	}
}

// TestSearchWideAgreesWithSolver: searched to the end on the wide
// layout, small boards get the exact solver's result.
func TestSearchWideAgreesWithSolver(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 1))
	s := solver.New(solver.WithTableEntries(1 << 16))
	for i := 0; i < 12; i++ {
		size := 4 + i%2
		p := rulestest.Opening(rng, size, rng.IntN(6)+2)
		if !p.HasMoves() {
			continue
		}
		res := newPVS(0, 0, uint64(i), 16, 1<<10).SearchWide(context.Background(), p.Wide(), 0)
		solved, wins, _ := res.Solved()
		want, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if !solved || wins != want {
			t.Fatalf("%dx%d position %d: solved %v win %v, solver %v\n%v", size, size, i, solved, wins, want, p)
		}
	}
}

// shortestWin returns the least number of plies in which the side to
// move forces a win from p, by exhaustive search up to limit plies, or 0.
func shortestWin(p rules.WidePosition, limit int) int {
	for d := 1; d <= limit; d += 2 {
		if forcesWin(p, d) {
			return d
		}
	}
	return 0
}

// forcesWin reports whether the side to move wins within d plies.
func forcesWin(p rules.WidePosition, d int) bool {
	if d <= 0 {
		return false
	}
	for _, m := range p.LegalMoves(nil) {
		c := p.Play(m)
		replies := c.LegalMoves(nil)
		if len(replies) == 0 {
			return true
		}
		all := d > 1
		for _, r := range replies {
			if !all {
				break
			}
			all = forcesWin(c.Play(r), d-2)
		}
		if all {
			return true
		}
	}
	return false
}

// TestSearchWideFindsForcedWins: late positions of random games on the
// large boards where the side to move forces a win within five plies
// (found by exhaustive search): the engine proves the win, in as many
// plies, and plays a move that keeps it.
func TestSearchWideFindsForcedWins(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 1))
	found := 0
	for _, name := range []string{"size-9", "size-11", "size-15", "16x16", "9x8/removal"} {
		b, _ := rules.ParseBoard(name)
		for g := 0; g < 30; g++ {
			start, _ := b.WidePosition()
			var ps []rules.WidePosition
			for p := start; p.HasMoves(); {
				ps = append(ps, p)
				moves := p.LegalMoves(nil)
				p = p.Play(moves[rng.IntN(len(moves))])
			}
			p := ps[max(0, len(ps)-6+rng.IntN(3))]
			if p.Phase() != rules.Jumping || p.CountMoves() > 12 {
				continue
			}
			plies := shortestWin(p, 5)
			if plies == 0 {
				continue
			}
			found++
			res := newPVS(7, 0, uint64(g), 16, 1<<10).SearchWide(context.Background(), p, 7)
			solved, wins, n := res.Solved()
			if !solved || !wins || n != plies {
				t.Fatalf("%s game %d: %v in %d, want a win in %d (score %d, pv %v)", name, g, wins, n, plies, res.Score, res.PV)
			}
			if !p.Legal(res.PV[0]) || plies > 1 && !forcesWinAfter(p.Play(res.PV[0]), plies-1) {
				t.Fatalf("%s game %d: move %v does not keep the win", name, g, res.PV[0])
			}
		}
	}
	t.Logf("%d positions with a forced win checked", found)
	if found < 10 {
		t.Errorf("only %d positions with a forced win checked", found)
	}
}

// forcesWinAfter reports whether every reply to the side to move of c
// leaves its opponent a win within d-1 plies (and c has replies).
func forcesWinAfter(c rules.WidePosition, d int) bool {
	for _, r := range c.LegalMoves(nil) {
		if !forcesWin(c.Play(r), d-1) {
			return false
		}
	}
	return true
}

// TestMoveWideLegal: the engine plays only legal moves on the large
// boards, at a depth and at a time per move, and a game between two of
// them ends.
func TestMoveWideLegal(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"size-9", "size-11", "size-15", "16x16", "10x10"} {
		b, _ := rules.ParseBoard(name)
		g, err := rules.NewWideGame(b)
		if err != nil {
			t.Fatal(err)
		}
		players := [2]*Engine{newPVS(2, 0, 1, 16, 1<<10), NewAlphaBeta(1, 0, 2)}
		limit := 12
		if name == "size-9" {
			limit = -1 // to the end
		}
		for !g.Over() && g.Len() != limit {
			e := players[g.Len()%2]
			m, err := e.MoveWide(ctx, g.Position())
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s: move %d: %v", name, g.Len()+1, err)
			}
		}
		if limit < 0 && !g.Over() {
			t.Errorf("%s: the game did not end", name)
		}
		timed := NewPVS(0, 30*time.Millisecond, 3)
		m, err := timed.MoveWide(ctx, g.Position())
		if g.Over() {
			if err != ErrNoMoves {
				t.Errorf("%s: a move in a finished game: %v %v", name, m, err)
			}
			continue
		}
		if err != nil || !g.Position().Legal(m) {
			t.Errorf("%s: timed move %v: %v", name, m, err)
		}
	}
}

// TestWideEngineMakesNoNarrowState: an engine that only searches the wide
// layout never makes Search's table or solver (32 MiB and 8 MiB with
// NewPVS), and Search makes them on its first call.
func TestWideEngineMakesNoNarrowState(t *testing.T) {
	e := newPVS(2, 0, 1, 10, 1<<10)
	b := rules.Board{W: 10, H: 10}
	p, err := b.WidePosition()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.MoveWide(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if e.tt.entries != nil || e.solver != nil {
		t.Errorf("a wide search made the narrow table (%d entries) or the solver (%v)", len(e.tt.entries), e.solver != nil)
	}
	if len(e.wide.tt.entries) != 1<<10 {
		t.Errorf("wide table of %d entries, want %d", len(e.wide.tt.entries), 1<<10)
	}
	e.Search(context.Background(), rules.NewPosition(6), 1)
	if len(e.tt.entries) != 1<<10 || e.solver == nil {
		t.Errorf("after Search: table of %d entries, solver %v", len(e.tt.entries), e.solver != nil)
	}
}

// TestGreedyRandomWide: greedy and random play whole games on boards
// above 8x8 through MoveWide, legally; greedy's mobility evaluation
// there agrees with Evaluate on the boards Position holds, and it takes a
// move that leaves the opponent none when there is one.
func TestGreedyRandomWide(t *testing.T) {
	ctx := context.Background()
	for _, text := range []string{"9x8", "15x12", "16x16/removal"} {
		b, err := rules.ParseBoard(text)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := b.WidePosition()
		players := [2]WidePlayer{NewGreedy(1), NewRandom(2)}
		for ply := 0; p.HasMoves(); ply++ {
			m, err := players[ply%2].MoveWide(ctx, p)
			if err != nil || !p.Legal(m) {
				t.Fatalf("%s ply %d: %v %v", b, ply, m, err)
			}
			p = p.Play(m)
		}
		if _, err := players[0].MoveWide(ctx, p); err != ErrNoMoves {
			t.Errorf("%s: at the end: %v", b, err)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		b := rules.Board{W: 7, H: 6, Start: rules.Gap}
		wp := randomWide(t, b, rng.IntN(20), rng)
		np, err := wp.Narrow()
		if err != nil {
			t.Fatal(err)
		}
		if EvaluateWide(wp) != Evaluate(np) {
			t.Fatalf("%s: EvaluateWide %d, Evaluate %d", b, EvaluateWide(wp), Evaluate(np))
		}
		if !wp.HasMoves() {
			continue
		}
		m, err := NewGreedy(5).MoveWide(ctx, wp)
		if err != nil {
			t.Fatal(err)
		}
		if c := wp.Play(m); c.Phase() == rules.Jumping && c.HasMoves() {
			// No winning move was missed: none leaves the opponent without a move.
			for _, o := range wp.LegalMoves(nil) {
				if oc := wp.Play(o); oc.Phase() == rules.Jumping && !oc.HasMoves() {
					t.Fatalf("%s: greedy played %v, missing the win %v", b, m, o)
				}
			}
		}
	}
}

// spy is a classical engine that records which of its methods played.
type spy struct {
	*Engine
	called []string
}

func (s *spy) Move(ctx context.Context, p rules.Position) (rules.Move, error) {
	s.called = append(s.called, "Move")
	return s.Engine.Move(ctx, p)
}

func (s *spy) MoveWide(ctx context.Context, p rules.WidePosition) (rules.WideMove, error) {
	s.called = append(s.called, "MoveWide")
	return s.Engine.MoveWide(ctx, p)
}

// narrowOnly is a Player that is no WidePlayer.
type narrowOnly struct{ Player }

// TestMoveAny: MoveAny asks the player's Move on the boards a Position
// holds (so the same move as before the wide layout) and MoveWide above,
// once, and gives that move; a player that is no WidePlayer gets an
// error naming the board above 8x8.
func TestMoveAny(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(45, 1))
	for i, name := range []string{"6", "7x6", "8", "9x8", "size-11"} {
		b, _ := rules.ParseBoard(name)
		p := randomWide(t, b, 6, rng)
		sp := &spy{Engine: newPVS(3, 0, uint64(i), 16, 1<<10)}
		got, err := MoveAny(ctx, sp, p)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"MoveWide"}
		if b.Narrow() {
			want = []string{"Move"}
		}
		if !slices.Equal(sp.called, want) || !p.Legal(got) {
			t.Errorf("%s: MoveAny called %v, want %v, and gave %v", name, sp.called, want, got)
		}
	}
	p, _ := rules.Board{W: 9, H: 8, Start: rules.Gap}.WidePosition()
	_, err := MoveAny(ctx, narrowOnly{newPVS(3, 0, 1, 16, 1<<10)}, p)
	if err == nil || err.Error() != "player: pvs plays boards of at most 8 files and ranks, not 9x8" {
		t.Errorf("a narrow player on 9x8: %v", err)
	}
}
