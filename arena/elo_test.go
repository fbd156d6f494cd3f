package arena

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// simulate plays games round-robin games per pair between players of the
// given true ratings.
func simulate(elo []float64, games int, rng *rand.Rand) []Pair {
	var pairs []Pair
	for _, pr := range Pairings(len(elo), false) {
		p := Pair{A: pr[0], B: pr[1]}
		pa := WinProbability(elo[pr[0]] - elo[pr[1]])
		for g := 0; g < games; g++ {
			if rng.Float64() < pa {
				p.WinsA++
			} else {
				p.WinsB++
			}
		}
		pairs = append(pairs, p)
	}
	return pairs
}

var testNames = []string{"a", "b", "c", "d", "e"}

// TestFitEloRecoversKnownRatings: on synthetic results from known ratings,
// the estimates fall within their intervals, and over many repetitions the
// 95% intervals contain the truth about 95% of the time.
func TestFitEloRecoversKnownRatings(t *testing.T) {
	truth := []float64{0, 120, -80, 300, 40}
	rng := rand.New(rand.NewPCG(1, 2))
	reps, covered, total := 200, 0, 0
	for rep := 0; rep < reps; rep++ {
		r, err := FitElo(testNames, simulate(truth, 200, rng), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if r[0].Elo != 0 || r[0].SE != 0 {
			t.Fatalf("anchor rated %v ± %v, want 0 exactly", r[0].Elo, r[0].SE)
		}
		for i := 1; i < len(truth); i++ {
			if math.Abs(r[i].Elo-truth[i]) > 4*r[i].SE {
				t.Fatalf("rep %d: %s rated %.1f ± %.1f, truth %.0f", rep, r[i].Name, r[i].Elo, r[i].SE, truth[i])
			}
			if r[i].SE < 10 || r[i].SE > 40 {
				t.Fatalf("%s: standard error %.1f, implausible for 800 games", r[i].Name, r[i].SE)
			}
			total++
			if r[i].Low <= truth[i] && truth[i] <= r[i].High {
				covered++
			}
		}
	}
	if rate := float64(covered) / float64(total); rate < 0.92 || rate > 0.98 {
		t.Errorf("95%% intervals covered the truth %.1f%% of the time", 100*rate)
	}
}

// TestFitEloTwoPlayers checks the closed form: with a wins and b losses,
// the difference is 400·log10(a/b) and its standard error
// 400/ln10 / sqrt(n·p·(1-p)).
func TestFitEloTwoPlayers(t *testing.T) {
	r, err := FitElo([]string{"x", "y"}, []Pair{{A: 0, B: 1, WinsA: 25, WinsB: 75}}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	wantElo := 400 * math.Log10(3)
	wantSE := 400 / math.Ln10 / math.Sqrt(100*0.75*0.25)
	if math.Abs(r[1].Elo-wantElo) > 1e-6 || math.Abs(r[1].SE-wantSE) > 1e-6 {
		t.Errorf("y rated %.4f ± %.4f, want %.4f ± %.4f", r[1].Elo, r[1].SE, wantElo, wantSE)
	}
	if math.Abs(r[1].Low-(wantElo-1.96*wantSE)) > 1e-6 || r[1].Games != 100 || r[1].Wins != 75 {
		t.Errorf("y: %+v", r[1])
	}
	// Anchored on y instead, x is minus that.
	r, _ = FitElo([]string{"x", "y"}, []Pair{{A: 0, B: 1, WinsA: 25, WinsB: 75}}, 1, 0)
	if math.Abs(r[0].Elo+wantElo) > 1e-6 || r[1].Elo != 0 {
		t.Errorf("anchored on y: %+v", r)
	}
	// A prior of one virtual draw: 10-0 becomes 10.5-0.5.
	r, err = FitElo([]string{"x", "y"}, []Pair{{A: 0, B: 1, WinsA: 0, WinsB: 10}}, 0, 1)
	if err != nil || math.Abs(r[1].Elo-400*math.Log10(21)) > 1e-6 {
		t.Errorf("10-0 with prior 1: %+v, %v; want %.2f", r, err, 400*math.Log10(21))
	}
}

func TestFitEloErrors(t *testing.T) {
	tests := []struct {
		name   string
		pairs  []Pair
		anchor int
		prior  float64
		want   string
	}{
		{"all wins", []Pair{{A: 0, B: 1, WinsB: 10}, {A: 0, B: 2, WinsA: 3, WinsB: 4}, {A: 1, B: 2, WinsA: 5}}, 0, 0, "b rates infinitely above the anchor a"},
		{"all losses", []Pair{{A: 0, B: 1, WinsA: 10}}, 0, 0, "b rates infinitely below the anchor a"},
		{"unlinked", []Pair{{A: 0, B: 1, WinsA: 1, WinsB: 1}, {A: 2, B: 3, WinsA: 1, WinsB: 1}}, 0, 1, "c played no game linked to the anchor a"},
		{"bad anchor", []Pair{{A: 0, B: 1, WinsA: 1, WinsB: 1}}, 7, 1, "anchor 7 is not a player"},
		{"bad prior", []Pair{{A: 0, B: 1, WinsA: 1, WinsB: 1}}, 0, -1, "prior -1"},
		{"bad pair", []Pair{{A: 0, B: 9, WinsA: 1}}, 0, 1, "pair (0, 9)"},
	}
	for _, tt := range tests {
		names := testNames[:2]
		if tt.name == "unlinked" || tt.name == "all wins" {
			names = testNames[:4]
		}
		_, err := FitElo(names, tt.pairs, tt.anchor, tt.prior)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "arena: elo: ") {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestFitEloOnePlayer: a lone player is the anchor and rates 0 (this
// panicked in mat.NewSymDense(0, …) before); no players at all is an error.
func TestFitEloOnePlayer(t *testing.T) {
	r, err := FitElo(testNames[:1], nil, 0, 1)
	if err != nil || len(r) != 1 || r[0].Name != "a" || r[0].Elo != 0 || r[0].Low != 0 || r[0].High != 0 {
		t.Errorf("one player: %+v, %v; want a at 0", r, err)
	}
	if _, err := FitElo(nil, nil, 0, 1); err == nil || !strings.Contains(err.Error(), "no players") {
		t.Errorf("no players: error %v", err)
	}
}

// TestCholesky: the factor of a random symmetric positive definite matrix
// solves A·x = b and gives the diagonal of A⁻¹ (checked against solves
// of the unit vectors); a matrix that is not positive definite is
// refused.
func TestCholesky(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 9; n++ {
		a := make([][]float64, n)
		for i := range a {
			a[i] = make([]float64, n)
		}
		for range n + 2 { // a sum of outer products, plus the identity
			v := make([]float64, n)
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			for i := range a {
				for j := range a {
					a[i][j] += v[i] * v[j]
				}
			}
		}
		for i := range a {
			a[i][i]++
		}
		l, ok := factorize(a)
		if !ok {
			t.Fatalf("n=%d: a positive definite matrix refused", n)
		}
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		x := l.solve(b)
		for i := range a {
			var s float64
			for j := range a {
				s += a[i][j] * x[j]
			}
			if math.Abs(s-b[i]) > 1e-9 {
				t.Fatalf("n=%d: (A·x)[%d] = %v, want %v", n, i, s, b[i])
			}
		}
		for k := range n {
			e := make([]float64, n)
			e[k] = 1
			if got, want := l.inverseDiag(k), l.solve(e)[k]; math.Abs(got-want) > 1e-9*math.Abs(want) {
				t.Fatalf("n=%d: (A⁻¹)[%d,%d] = %v, want %v", n, k, k, got, want)
			}
		}
	}
	if _, ok := factorize([][]float64{{1, 2}, {2, 1}}); ok {
		t.Error("an indefinite matrix was factorized")
	}
	if _, ok := factorize([][]float64{{0}}); ok {
		t.Error("a zero matrix was factorized")
	}
}
