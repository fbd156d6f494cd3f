package arena

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// runSPRT feeds results until the test decides; it returns the decision
// and the number of games.
func runSPRT(s SPRT, next func(i int) bool, limit int) (Decision, int) {
	w, l := 0, 0
	for i := 0; i < limit; i++ {
		if next(i) {
			w++
		} else {
			l++
		}
		if d := s.Test(w, l); d != Continue {
			return d, i + 1
		}
	}
	return Continue, limit
}

func TestSPRTKnownSequences(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	// Each win adds ln(p1/p0) = 0.13359; the upper bound ln(19) = 2.9444
	// is reached at the 23rd straight win.
	if d, n := runSPRT(s, func(int) bool { return true }, 1000); d != AcceptH1 || n != 23 {
		t.Errorf("all wins: %v after %d games, want accept H1 after 23", d, n)
	}
	// Each loss adds ln((1-p1)/(1-p0)) = -0.15423: 20 straight losses.
	if d, n := runSPRT(s, func(int) bool { return false }, 1000); d != AcceptH0 || n != 20 {
		t.Errorf("all losses: %v after %d games, want accept H0 after 20", d, n)
	}
	// Alternating wins and losses drift down by 0.02064 per pair: H0 after
	// 143 pairs.
	if d, n := runSPRT(s, func(i int) bool { return i%2 == 0 }, 10000); d != AcceptH0 || n != 286 {
		t.Errorf("50%%: %v after %d games, want accept H0 after 286", d, n)
	}
	// The LLR is the log ratio of the two binomial likelihoods.
	p0, p1 := WinProbability(0), WinProbability(50)
	want := math.Log(math.Pow(p1, 30)*math.Pow(1-p1, 20)) - math.Log(math.Pow(p0, 30)*math.Pow(1-p0, 20))
	if got := s.LLR(30, 20); math.Abs(got-want) > 1e-9 {
		t.Errorf("LLR(30, 20) = %v, want %v", got, want)
	}
	if lo, hi := s.Bounds(); math.Abs(lo+math.Log(19)) > 1e-12 || math.Abs(hi-math.Log(19)) > 1e-12 {
		t.Errorf("bounds %v %v, want ±ln 19", lo, hi)
	}
}

// TestSPRTErrorRates: simulated at Elo0 the test accepts H0, at Elo1 it
// accepts H1, each at least about 1-alpha of the time.
func TestSPRTErrorRates(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		elo  float64
		want Decision
	}{{0, AcceptH0}, {100, AcceptH1}} {
		p, right := WinProbability(c.elo), 0
		const runs = 300
		for r := 0; r < runs; r++ {
			if d, _ := runSPRT(s, func(int) bool { return rng.Float64() < p }, 100000); d == c.want {
				right++
			}
		}
		if right < runs*90/100 {
			t.Errorf("true elo %v: %s only %d of %d times", c.elo, c.want, right, runs)
		}
	}
}

func TestParseSPRT(t *testing.T) {
	s, err := ParseSPRT("0,50")
	if err != nil || s != (SPRT{0, 50, 0.05, 0.05}) {
		t.Errorf("0,50: %+v %v", s, err)
	}
	s, err = ParseSPRT("-10, 20, 0.1, 0.2")
	if err != nil || s != (SPRT{-10, 20, 0.1, 0.2}) {
		t.Errorf("-10,20,0.1,0.2: %+v %v", s, err)
	}
	for text, want := range map[string]string{
		"50":           "want elo0,elo1",
		"0,50,0.05":    "want elo0,elo1",
		"0,x":          `"x" is not a number`,
		"50,0":         "elo1 (0) must be greater than elo0 (50)",
		"0,50,0,0.05":  "alpha (0) and beta (0.05)",
		"0,50,0.05,.6": "strictly between 0 and 0.5",
		"0,5000":       "within ±2000",
	} {
		_, err := ParseSPRT(text)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "arena: sprt ") {
			t.Errorf("ParseSPRT(%q): %v, want %q", text, err, want)
		}
	}
}

// TestPairVerdictSticks: games that finish after the SPRT decided (they
// were under way with --parallel) count in the score but cannot undo the
// verdict. Before, B's losses after an accepted H1 pulled the LLR back
// inside the bounds and the report printed "continue".
func TestPairVerdictSticks(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	var p Pair
	for p.Decision == Continue {
		if p.Games() > 1000 {
			t.Fatal("no decision after 1000 games that B wins")
		}
		p.record(true, &s)
	}
	if p.Decision != AcceptH1 {
		t.Fatalf("B won every game: decision %v", p.Decision)
	}
	decided, llr := p.Games(), p.LLR
	if p.DecidedAfter != decided {
		t.Fatalf("decided after %d games (want %d), llr %.2f", p.DecidedAfter, decided, llr)
	}
	lo, hi := s.Bounds()
	if llr < hi {
		t.Fatalf("accepted H1 with llr %.2f below the bound %.2f", llr, hi)
	}
	for range 4 {
		p.record(false, &s)
	}
	if s.LLR(p.WinsB, p.WinsA) >= hi {
		t.Fatalf("test setup: four losses leave the llr at %.2f, not inside [%.2f, %.2f]", s.LLR(p.WinsB, p.WinsA), lo, hi)
	}
	if p.Decision != AcceptH1 || p.LLR != llr || p.DecidedAfter != decided || p.WinsA != 4 || p.WinsB != decided {
		t.Errorf("after four more games: %+v; want H1 kept with llr %.2f after %d games and the losses counted", p, llr, decided)
	}
}
