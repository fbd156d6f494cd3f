package mcts

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/konanezero/konane/rules"
)

// TestHalvingSchedule checks Sequential Halving's schedule against
// hand-computed ones and its invariants on many (m, budget) pairs.
func TestHalvingSchedule(t *testing.T) {
	for _, tc := range []struct {
		m, budget int
		want      []int32
	}{
		// m=4, 16 sims: 2 phases; phase 1 gives each of 4 moves 16/(2·4)=2
		// visits, phase 2 each of 2 moves 16/(2·2)=4.
		{4, 16, []int32{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}},
		{1, 5, []int32{0, 1, 2, 3, 4}},
		// Fewer sims than moves: the first moves by score, once each.
		{16, 5, []int32{0, 0, 0, 0, 0}},
		// m=3: ⌈log2 3⌉=2 phases; 12/(2·3)=2 each, then 12/(2·2)=3 for two.
		{3, 12, []int32{0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4}},
	} {
		got, _ := halvingSchedule(tc.m, tc.budget, nil, nil)
		if !slices.Equal(got, tc.want) {
			t.Errorf("m=%d budget=%d: %v, want %v", tc.m, tc.budget, got, tc.want)
		}
	}
	for m := 1; m <= 32; m++ {
		for _, budget := range []int{1, 2, 7, 16, 50, 200, 801} {
			got, _ := halvingSchedule(m, budget, nil, nil)
			if len(got) != budget {
				t.Fatalf("m=%d budget=%d: %d entries", m, budget, len(got))
			}
			// Replaying the schedule with "any move having that count" must
			// always find one: count how many moves hold each visit count.
			held := map[int32]int{0: m}
			for i, v := range got {
				if held[v] == 0 {
					t.Fatalf("m=%d budget=%d: step %d wants a move with %d visits; none", m, budget, i, v)
				}
				held[v]--
				held[v+1]++
			}
		}
	}
}

// TestGumbelBudget: with m considered moves out of more, a fresh Gumbel
// search visits exactly m root moves, spends exactly the budget, and
// splits it as Sequential Halving prescribes.
func TestGumbelBudget(t *testing.T) {
	p := richPosition(t, 8, 10, 11)
	cfg := gumbelConfig()
	cfg.GumbelSampled = 4
	for _, noise := range []bool{false, true} {
		s := mustSearch(t, Uniform{}, cfg, 5)
		res := mustRun(t, s, p, RunOptions{Sims: 64, Noise: noise})
		var visited []int
		for _, v := range res.Visits {
			if v > 0 {
				visited = append(visited, v)
			}
		}
		slices.Sort(visited)
		// 64/(2·4) = 8 each for 4 moves, then 64/(2·2) = 16 more for 2.
		if want := []int{8, 8, 24, 24}; !slices.Equal(visited, want) {
			t.Errorf("noise %v: root visits %v, want %v", noise, visited, want)
		}
		if best := indexOf(res.Moves, res.Best); res.Visits[best] != 24 {
			t.Errorf("noise %v: best %v has %d visits, not among the finalists", noise, res.Best, res.Visits[best])
		}
	}
}

// skewed is an evaluator with distinct priors (proportional to 1, 2, ...
// in move order) and value 0.
type skewed struct{}

func (skewed) Evaluate(ctx context.Context, ps []rules.Position) ([]Prediction, error) {
	out, err := Uniform{}.Evaluate(ctx, ps)
	for _, pr := range out {
		n := float32(len(pr.Policy))
		for i := range pr.Policy {
			pr.Policy[i] = float32(i+1) / (n * (n + 1) / 2)
		}
	}
	return out, err
}

// TestGumbelConsidered: without noise the considered moves are the m with
// the highest priors; with noise they vary with the seed (Gumbel-top-k
// samples without replacement).
func TestGumbelConsidered(t *testing.T) {
	p := richPosition(t, 8, 10, 11)
	n := p.CountMoves()
	cfg := gumbelConfig()
	cfg.GumbelSampled = 4
	s := mustSearch(t, skewed{}, cfg, 1)
	res := mustRun(t, s, p, RunOptions{Sims: 16})
	for i, v := range res.Visits {
		if top := i >= n-4; top != (v > 0) {
			t.Errorf("no noise: move %d of %d (prior %.3f) has %d visits", i, n, res.Prior[i], v)
		}
	}
	seen := map[int]bool{}
	for seed := range uint64(20) {
		s := mustSearch(t, skewed{}, cfg, seed)
		res := mustRun(t, s, p, RunOptions{Sims: 16, Noise: true})
		for i, v := range res.Visits {
			if v > 0 {
				seen[i] = true
			}
		}
	}
	if len(seen) <= 6 {
		t.Errorf("with noise, 20 seeds considered only %d distinct moves of %d", len(seen), n)
	}
}

// TestImprovedPolicy recomputes the improved policy from the Result
// (priors, visits, Q; the Uniform evaluator's value 0) by the paper's
// formula and compares.
func TestImprovedPolicy(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		p := samplePositions(7, 1, seed)[2]
		cfg := gumbelConfig()
		s := mustSearch(t, RandomRollout{Seed: seed}, cfg, seed)
		res := mustRun(t, s, p, RunOptions{Sims: 100, Noise: true})
		// Mixed value: the root's own evaluation blended with the
		// prior-weighted Q of the visited moves.
		rootValue := float64(s.t.nodes[0].value)
		var sumN, maxN int
		var sumP, sumPQ float64
		for i, v := range res.Visits {
			if v > 0 {
				sumN += v
				maxN = max(maxN, v)
				sumP += float64(res.Prior[i])
				sumPQ += float64(res.Prior[i]) * float64(res.Q[i])
			}
		}
		mixed := (rootValue + float64(sumN)*sumPQ/sumP) / float64(sumN+1)
		want := make([]float64, len(res.Moves))
		var z float64
		for i := range want {
			q := mixed
			if res.Visits[i] > 0 {
				q = float64(res.Q[i])
			}
			sigma := (cfg.CVisit + float64(maxN)) * cfg.CScale * (q + 1) / 2
			want[i] = float64(res.Prior[i]) * math.Exp(sigma)
			z += want[i]
		}
		var total float64
		for i := range want {
			want[i] /= z
			total += float64(res.Policy[i])
			if math.Abs(want[i]-float64(res.Policy[i])) > 1e-4 {
				t.Errorf("seed %d: move %v: policy %v, want %v", seed, res.Moves[i], res.Policy[i], want[i])
			}
		}
		if math.Abs(total-1) > 1e-5 {
			t.Errorf("seed %d: improved policy sums to %v", seed, total)
		}
	}
}

// TestGumbelNoNoiseDeterministic: without noise, the seed does not matter
// in Gumbel mode.
func TestGumbelNoNoiseDeterministic(t *testing.T) {
	p := samplePositions(6, 1, 12)[1]
	a := mustRun(t, mustSearch(t, RandomRollout{Seed: 1}, gumbelConfig(), 1), p, RunOptions{Sims: 80})
	b := mustRun(t, mustSearch(t, RandomRollout{Seed: 1}, gumbelConfig(), 2), p, RunOptions{Sims: 80})
	if !reflect.DeepEqual(a, b) {
		t.Errorf("no noise, seeds 1 and 2: results differ")
	}
}
