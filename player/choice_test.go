package player

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
)

// TestGuard checks Guard against its contract on positions of random
// games: the moves that win at once when there are any, else the one
// move that escapes an immediate loss when exactly one does, else nil;
// each case occurs.
func TestGuard(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var cases [3]int // wins, one escape, nil
	for _, size := range []int{4, 6, 8} {
		for _, p := range rulestest.Games(rng, size, games/3) {
			moves := p.LegalMoves(nil)
			var wins, escapes []rules.Move
			for _, m := range moves {
				c := p.Play(m)
				if c.CountMoves() == 0 {
					wins = append(wins, m)
				}
				lost := false
				for _, r := range c.LegalMoves(nil) {
					if c.Play(r).CountMoves() == 0 {
						lost = true
					}
				}
				if !lost {
					escapes = append(escapes, m)
				}
			}
			got := Guard(p)
			switch {
			case len(wins) > 0:
				cases[0]++
				if !slices.Equal(got, wins) {
					t.Fatalf("%v\nGuard = %v, want the wins %v", p, got, wins)
				}
			case len(escapes) == 1:
				cases[1]++
				if !slices.Equal(got, escapes) {
					t.Fatalf("%v\nGuard = %v, want the one escape %v", p, got, escapes)
				}
			default:
				cases[2]++
				if got != nil {
					t.Fatalf("%v\nGuard = %v, want nil (%d escapes)", p, got, len(escapes))
				}
			}
		}
	}
	for i, n := range cases {
		if n == 0 {
			t.Errorf("case %d never occurred: %v", i, cases)
		}
	}
}

// unguarded returns a position of a random 8x8 game where Guard leaves
// every move (and there are at least 4), and a search result over its
// moves with visits 0 and priors falling with the move's index.
func unguarded(t *testing.T, rng *rand.Rand) (rules.Position, mcts.Result) {
	t.Helper()
	for _, p := range rulestest.Games(rng, 8, 20) {
		moves := p.LegalMoves(nil)
		if len(moves) < 4 || Guard(p) != nil {
			continue
		}
		res := mcts.Result{Moves: moves, Visits: make([]int, len(moves)), Prior: make([]float32, len(moves))}
		for i := range moves {
			res.Prior[i] = 1 / float32(i+2)
		}
		res.Best = moves[0]
		return p, res
	}
	t.Fatal("no position without a guarded move")
	return rules.Position{}, mcts.Result{}
}

// TestChoiceDraw: the zero Choice plays Best; a draw keeps to the TopK
// moves of highest weight, in proportion to their weights; a low
// temperature plays the heaviest; the same seed draws the same moves.
func TestChoiceDraw(t *testing.T) {
	p, res := unguarded(t, rand.New(rand.NewPCG(1, 2)))
	res.Best = res.Moves[3]
	rng := rand.New(rand.NewPCG(3, 4))
	if m := (Choice{}).Draw(p, res, rng); m != res.Best {
		t.Errorf("zero Choice drew %v, want Best %v", m, res.Best)
	}
	if m := (Choice{Noise: 1}).Draw(p, res, rng); m != res.Best {
		t.Errorf("Noise alone drew %v, want Best %v (Noise is Slip's)", m, res.Best)
	}
	if m := (Choice{Temp: 0.01}).Draw(p, res, rng); m != res.Moves[0] {
		t.Errorf("temperature 0.01 drew %v, want the heaviest %v", m, res.Moves[0])
	}
	// Visits outweigh the prior.
	res.Visits[2] = 10
	if m := (Choice{Temp: 0.05}).Draw(p, res, rng); m != res.Moves[2] {
		t.Errorf("temperature 0.05 drew %v, want the most visited %v", m, res.Moves[2])
	}
	res.Visits[2] = 0

	const n = 6000
	c := Choice{Temp: 1, TopK: 2}
	count := map[rules.Move]int{}
	for range n {
		count[c.Draw(p, res, rng)]++
	}
	if len(count) != 2 || count[res.Moves[0]]+count[res.Moves[1]] != n {
		t.Fatalf("TopK 2 drew %v, want only %v and %v", count, res.Moves[0], res.Moves[1])
	}
	// Weights 1/2 and 1/3: the first 60% of the time (sd 0.6%).
	if share := float64(count[res.Moves[0]]) / n; share < 0.57 || share > 0.63 {
		t.Errorf("the heavier move drawn %.3f of the time, want 0.6", share)
	}
	// A high temperature spreads over every move.
	count = map[rules.Move]int{}
	for range n {
		count[(Choice{Temp: 50}).Draw(p, res, rng)]++
	}
	if len(count) != len(res.Moves) {
		t.Errorf("temperature 50 drew %d of %d moves", len(count), len(res.Moves))
	}

	draws := func(seed uint64) []rules.Move {
		r := rand.New(rand.NewPCG(seed, 0))
		var out []rules.Move
		for range 50 {
			out = append(out, Choice{Temp: 2}.Draw(p, res, r))
		}
		return out
	}
	if a, b := draws(9), draws(9); !slices.Equal(a, b) {
		t.Error("the same seed drew different moves")
	}
	if a, b := draws(9), draws(10); slices.Equal(a, b) {
		t.Error("two seeds drew the same 50 moves")
	}
}

// TestChoiceGuarded: a draw or a slip plays the one move that wins at
// once or escapes, however low its weight, and keeps to the moves that
// win at once when there are several.
func TestChoiceGuarded(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var one, several int
	for _, p := range rulestest.Games(rng, 6, 200) {
		keep := Guard(p)
		moves := p.LegalMoves(nil)
		if keep == nil || len(moves) < 2 {
			continue
		}
		res := mcts.Result{Moves: moves, Visits: make([]int, len(moves)), Prior: make([]float32, len(moves))}
		for i, m := range moves {
			if !slices.Contains(keep, m) {
				res.Prior[i], res.Visits[i] = 1, 100 // every weight on the moves Guard drops
			}
		}
		var bad rules.Move
		for _, m := range moves {
			if !slices.Contains(keep, m) {
				bad = m
			}
		}
		if bad == rules.NoMove {
			continue
		}
		res.Best = bad
		if len(keep) == 1 {
			one++
		} else {
			several++
		}
		for range 20 {
			if m := (Choice{Temp: 3}).Draw(p, res, rng); !slices.Contains(keep, m) {
				t.Fatalf("%v\ndrew %v, not one of %v", p, m, keep)
			}
			m := (Choice{Noise: 1}).Slip(p, bad, rng)
			if !slices.Contains(keep, m) {
				t.Fatalf("%v\nslipped to %v, not one of %v", p, m, keep)
			}
		}
	}
	if one == 0 || several == 0 {
		t.Errorf("positions with one guarded move %d, with several %d: want both", one, several)
	}
}

// TestChoiceSlip: without Noise the engine's move; with Noise that share
// of draws among the moves.
func TestChoiceSlip(t *testing.T) {
	p, res := unguarded(t, rand.New(rand.NewPCG(11, 12)))
	best := res.Moves[1]
	rng := rand.New(rand.NewPCG(1, 1))
	if m := (Choice{Temp: 5}).Slip(p, best, rng); m != best {
		t.Errorf("Temp alone slipped to %v, want %v (Temp is Draw's)", m, best)
	}
	const n = 4000
	others := 0
	seen := map[rules.Move]bool{}
	for range n {
		m := (Choice{Noise: 0.5}).Slip(p, best, rng)
		if !p.Legal(m) {
			t.Fatalf("slipped to illegal %v", m)
		}
		seen[m] = true
		if m != best {
			others++
		}
	}
	// Half the moves are drawn, and a draw is best 1 time in len(moves).
	k := float64(len(res.Moves))
	want := 0.5 * (k - 1) / k
	if share := float64(others) / n; share < want-0.03 || share > want+0.03 {
		t.Errorf("another move %.3f of the time, want %.3f", share, want)
	}
	if len(seen) != len(res.Moves) {
		t.Errorf("slipped to %d of %d moves", len(seen), len(res.Moves))
	}
}

// TestLimitsChoiceValidate: a Choice out of range is refused, named.
func TestLimitsChoiceValidate(t *testing.T) {
	for _, tc := range []struct {
		c     Choice
		field string
	}{
		{Choice{Temp: -1}, "temp"},
		{Choice{Temp: MaxTemp + 1}, "temp"},
		{Choice{TopK: -1}, "topk"},
		{Choice{Noise: 1.5}, "noise"},
		{Choice{Temp: 1, TopK: 5, Noise: 0.2}, ""},
	} {
		err := Limits{Sims: 1, Choice: tc.c}.Validate()
		le, _ := err.(*LimitsError)
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%+v: %v", tc.c, err)
		case tc.field != "" && (le == nil || le.Field != tc.field):
			t.Errorf("%+v: error %v, want field %s", tc.c, err, tc.field)
		}
	}
	if got := (Limits{Sims: 1, Choice: Choice{Temp: 1.5, TopK: 8}}).String(); got != "1 simulations per move, drawn at temperature 1.5 among the top 8" {
		t.Errorf("String = %q", got)
	}
}

// TestSlipWide: on the boards both layouts hold, GuardWide keeps the
// moves Guard keeps and SlipWide draws what Slip draws from the same
// seed; on a 15x12 game a slipping level plays legal moves, some of them
// not the engine's.
func TestSlipWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	c := Choice{Noise: 0.5}
	for _, size := range []int{5, 8} {
		for _, p := range rulestest.Games(rng, size, 20) {
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				continue
			}
			w := p.Wide()
			if got, want := moveStrings(GuardWide(w)), moveStrings(Guard(p)); !slices.Equal(got, want) {
				t.Fatalf("%v\nGuardWide = %v, Guard = %v", p, got, want)
			}
			a := c.Slip(p, moves[0], rand.New(rand.NewPCG(1, 2)))
			b := c.SlipWide(w, moves[0].Wide(), rand.New(rand.NewPCG(1, 2)))
			if a.String() != b.String() {
				t.Fatalf("%v\nSlipWide = %v, Slip = %v", p, b, a)
			}
		}
	}
	b, err := rules.ParseBoard("15x12")
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.WidePosition()
	if err != nil {
		t.Fatal(err)
	}
	slipped := 0
	for ply := 0; ply < 40; ply++ {
		moves := p.LegalMoves(nil)
		if len(moves) == 0 {
			break
		}
		m := c.SlipWide(p, moves[0], rng)
		if !p.Legal(m) {
			t.Fatalf("ply %d: SlipWide gave %v, not legal", ply, m)
		}
		if m != moves[0] {
			slipped++
		}
		p = p.Play(m)
	}
	if slipped == 0 {
		t.Error("a level with Noise 0.5 never slipped in 40 plies of 15x12")
	}
}

func moveStrings[M fmt.Stringer](ms []M) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}
