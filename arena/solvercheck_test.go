package arena

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
)

func TestSampleCritical4x4(t *testing.T) {
	crit, err := SampleCritical(context.Background(), SampleConfig{Size: 4, Positions: 40, Seed: 1, Parallel: 2, SolverEntries: 1 << 14})
	if err != nil {
		t.Fatal(err)
	}
	if len(crit) < 10 {
		t.Fatalf("only %d critical positions on 4x4", len(crit))
	}
	memo := map[rules.Position]bool{}
	seen := map[rules.Position]bool{}
	for _, c := range crit {
		var buf [rules.MaxMoves]rules.Move
		moves := c.Position.LegalMoves(buf[:0])
		if len(moves) != c.Moves || len(c.Winning) == 0 || len(c.Winning) >= c.Moves {
			t.Fatalf("%+v: %d winning of %d moves (%d legal): not critical", c.Position, len(c.Winning), c.Moves, len(moves))
		}
		for _, m := range moves {
			if wins := !rulestest.Wins(c.Position.Play(m), memo); wins != c.Keeps(m) {
				t.Fatalf("%+v: move %v wins=%v by negamax, labelled %v", c.Position, m, wins, c.Keeps(m))
			}
		}
		if k := c.Position.Canonical(); seen[k] {
			t.Fatalf("%+v sampled twice (up to symmetry)", c.Position)
		} else {
			seen[k] = true
		}
	}
}

func TestSolverCheck5x5(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 50
	}
	cfg := SampleConfig{Size: 5, Positions: n, Seed: 7, Parallel: 2, SolverEntries: 1 << 18}
	crit, err := SampleCritical(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(crit) != n {
		t.Fatalf("%d positions, want %d", len(crit), n)
	}
	// The sample depends on the seed only.
	cfg.Parallel = 1
	again, err := SampleCritical(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(again) != fmt.Sprint(crit) {
		t.Fatal("the same seed gave other positions with another parallelism")
	}
	rates := map[string]*CheckResult{}
	for _, spec := range []string{"perfect", "random", "alphabeta:depth=4"} {
		r, err := CheckPlayer(context.Background(), crit, factories(t, spec)[0], CheckConfig{Parallel: 2, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		rates[spec] = r
		t.Logf("%-18s kept %d of %d (%.1f%%, CI %.1f-%.1f%%); random expected %.1f%%", spec, r.Kept, r.Positions, 100*r.Rate, 100*r.Low, 100*r.High, 100*r.RandomRate)
	}
	if r := rates["perfect"]; r.Kept != r.Positions {
		t.Errorf("the perfect player kept %d of %d", r.Kept, r.Positions)
	}
	if r := rates["random"]; r.RandomRate < r.Low || r.RandomRate > r.High {
		t.Errorf("the random player kept %.1f%% [%.1f, %.1f], expected %.1f%%", 100*r.Rate, 100*r.Low, 100*r.High, 100*r.RandomRate)
	}
	if r := rates["random"]; r.RandomRate < 0.3 || r.RandomRate > 0.8 {
		t.Errorf("random expected rate %.1f%%, implausible", 100*r.RandomRate)
	}
	if rates["alphabeta:depth=4"].Rate <= rates["random"].RandomRate {
		t.Errorf("alpha-beta depth 4 keeps no more wins than random")
	}
}

// TestPaired: a known answer, and the refusals.
func TestPaired(t *testing.T) {
	a := &CheckResult{KeptAt: []bool{true, true, false, false, true}}
	b := &CheckResult{KeptAt: []bool{true, false, true, true, true}}
	p, err := Paired(a, b)
	if err != nil {
		t.Fatal(err)
	}
	// d = (2-1)/5; half = 1.96·√(3 − 1/5)/5.
	if p.OnlyA != 1 || p.OnlyB != 2 || math.Abs(p.Diff-0.2) > 1e-12 || math.Abs(p.Diff-p.Low-0.6559415) > 1e-6 || math.Abs(p.High-p.Diff-0.6559415) > 1e-6 {
		t.Errorf("Paired = %+v; want 0.2 ± 0.6559415, only a 1, only b 2", p)
	}
	// Identical checks: no difference, no width.
	if p, err := Paired(a, a); err != nil || p != (PairedDiff{}) {
		t.Errorf("Paired(a, a) = %+v, %v", p, err)
	}
	for _, c := range [][2]*CheckResult{{a, {KeptAt: []bool{true}}}, {{}, {}}} {
		if _, err := Paired(c[0], c[1]); err == nil {
			t.Errorf("Paired of %d and %d positions: no error", len(c[0].KeptAt), len(c[1].KeptAt))
		}
	}
}

func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{{50, 100, 0.4038, 0.5962}, {0, 10, 0, 0.2775}, {10, 10, 0.7225, 1}} {
		lo, hi := wilson(c.k, c.n)
		if d := lo - c.lo; d > 1e-4 || d < -1e-4 {
			t.Errorf("wilson(%d, %d) low %.4f, want %.4f", c.k, c.n, lo, c.lo)
		}
		if d := hi - c.hi; d > 1e-4 || d < -1e-4 {
			t.Errorf("wilson(%d, %d) high %.4f, want %.4f", c.k, c.n, hi, c.hi)
		}
	}
}

func TestSampleCriticalErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  SampleConfig
		want string
	}{
		{SampleConfig{Size: 3, Positions: 1, Parallel: 1}, "board size 3"},
		{SampleConfig{Size: 4, Positions: 0, Parallel: 1}, "0 positions: want 1..1048576"},
		{SampleConfig{Size: 4, Positions: math.MaxInt, Parallel: 1}, "positions: want 1..1048576"},
		{SampleConfig{Size: 4, Positions: 1, Parallel: 0}, "0 parallel"},
	} {
		if _, err := SampleCritical(context.Background(), tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v; want %q", tc.cfg, err, tc.want)
		}
	}
}
