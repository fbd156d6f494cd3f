package player

import (
	"testing"

	"github.com/konanezero/konane/rules"
)

// TestEvalFeatures counts each feature on a position drawn by hand: black
// (x) has three jumps by two stones, one of them (a6) in a region where
// white has no jump; white (o) has two jumps by two stones.
func TestEvalFeatures(t *testing.T) {
	p, err := rules.ParsePosition(`
		6 x o . . . .
		5 . . . . . .
		4 . . . x o .
		3 . . . o . .
		2 . . . . . .
		1 . . . . . .
		  a b c d e f
		black to move`)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		w    Weights
		want int32
	}{
		{Weights{Mobility: 1}, 3 - 2},
		{Weights{Jumpers: 1}, 2 - 2},
		{Weights{Region: 1}, 1},
		{Weights{Tempo: 5}, 5},
	} {
		got, moves := c.w.evaluate(p)
		if got != c.want || moves != 3 {
			t.Errorf("%v: evaluate = %d, %d moves; want %d, 3", c.w, got, moves, c.want)
		}
	}
}

func TestParseWeights(t *testing.T) {
	for _, c := range []struct {
		text string
		want Weights
	}{
		{"mob", EvalMobility},
		{"full", EvalDefault},
		{"4/4/1/0", Weights{Mobility: 4, Safe: 4, Potential: 1}},
		{"4/4/0/0/2/3", Weights{Mobility: 4, Safe: 4, Jumpers: 2, Region: 3}},
	} {
		got, err := ParseWeights(c.text)
		if err != nil || got != c.want {
			t.Errorf("ParseWeights(%q) = %v, %v; want %v", c.text, got, err, c.want)
		}
		if back, err := ParseWeights(got.String()); err != nil || back != got {
			t.Errorf("ParseWeights(%q.String()) = %v, %v", c.text, back, err)
		}
	}
	for _, bad := range []string{"", "4/4", "4/4/0/0/1", "a/b/c/d"} {
		if _, err := ParseWeights(bad); err == nil {
			t.Errorf("ParseWeights(%q): no error", bad)
		}
	}
}

// TestEvalPlainIsEvaluate: the plain engine's evaluation is Evaluate, the
// mobility difference, on positions of random games.
func TestEvalPlainIsEvaluate(t *testing.T) {
	for seed := range uint64(20) {
		for plies := 3; plies < 40; plies += 4 {
			p := goldenOpening(8, plies, seed)
			if p.Phase() != rules.Jumping || !p.HasMoves() {
				continue
			}
			if got, _ := EvalPlain.evaluate(p); int(got) != Evaluate(p) {
				t.Fatalf("seed %d plies %d: EvalPlain %d, Evaluate %d", seed, plies, got, Evaluate(p))
			}
		}
	}
}
