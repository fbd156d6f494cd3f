//go:build measure

package mcts

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
	"testing"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// movableStones counts the stones of both sides that have a jump.
func movableStones(p rules.Position) int {
	var from rules.Bitboard
	var buf [rules.MaxMoves]rules.Move
	for _, turn := range []rules.Color{rules.Black, rules.White} {
		q := p
		q.Turn = turn
		for _, m := range q.LegalMoves(buf[:0]) {
			from |= m.From.Bit()
		}
	}
	return bits.OnesCount64(uint64(from))
}

// spearman is the rank correlation of x and y.
func spearman(x, y []float64) float64 {
	rank := func(v []float64) []float64 {
		idx := make([]int, len(v))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
		r := make([]float64, len(v))
		for i := 0; i < len(idx); {
			j := i
			for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
				j++
			}
			for k := i; k <= j; k++ {
				r[idx[k]] = float64(i+j) / 2
			}
			i = j + 1
		}
		return r
	}
	rx, ry := rank(x), rank(y)
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	mx /= float64(len(rx))
	my /= float64(len(ry))
	var sxy, sxx, syy float64
	for i := range rx {
		sxy += (rx[i] - mx) * (ry[i] - my)
		sxx += (rx[i] - mx) * (rx[i] - mx)
		syy += (ry[i] - my) * (ry[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// TestMeasureSolveCost measures which cheap measure of a position predicts
// the cost of solving it exactly (8x8 positions of random games, a fresh
// solver with the Search's table each): the rank correlation of each
// measure with the solver's node count, and, per value of the best
// measure, how often the solve fits in a few budgets.
//
//	go test -tags measure -run MeasureSolveCost -v ./mcts/
func TestMeasureSolveCost(t *testing.T) {
	const cap = 1 << 17
	ps := samplePositions(8, 60, 5)
	type row struct {
		stones, moves, movable int
		nodes                  float64
	}
	var rows []row
	for i, p := range ps {
		if i%3 != 0 { // every third position: less correlated samples
			continue
		}
		s := solver.New(solver.WithTableEntries(endgameTable))
		pr, err := s.Prove(p, cap)
		if err != nil {
			t.Fatal(err)
		}
		b, w := p.StoneCount()
		nodes := float64(pr.Nodes)
		if !pr.Known {
			nodes = 2 * cap
		}
		rows = append(rows, row{b + w, p.Mobility(rules.Black) + p.Mobility(rules.White), movableStones(p), nodes})
	}
	col := func(f func(row) float64) []float64 {
		out := make([]float64, len(rows))
		for i, r := range rows {
			out[i] = f(r)
		}
		return out
	}
	nodes := col(func(r row) float64 { return r.nodes })
	t.Logf("%d positions", len(rows))
	t.Logf("rank correlation with solve nodes: stones %.3f, legal moves of both sides %.3f, movable stones %.3f",
		spearman(col(func(r row) float64 { return float64(r.stones) }), nodes),
		spearman(col(func(r row) float64 { return float64(r.moves) }), nodes),
		spearman(col(func(r row) float64 { return float64(r.movable) }), nodes))
	for _, m := range []struct {
		name string
		f    func(row) int
	}{{"moves", func(r row) int { return r.moves }}, {"movable", func(r row) int { return r.movable }}, {"stones", func(r row) int { return r.stones }}} {
		byV := map[int][]float64{}
		for _, r := range rows {
			byV[m.f(r)] = append(byV[m.f(r)], r.nodes)
		}
		var vs []int
		for v := range byV {
			vs = append(vs, v)
		}
		sort.Ints(vs)
		for _, v := range vs {
			ns := byV[v]
			sort.Float64s(ns)
			line := fmt.Sprintf("%s ≤ %2d: ", m.name, v)
			// cumulative: every position with measure ≤ v
			var all []float64
			for _, r := range rows {
				if m.f(r) <= v {
					all = append(all, r.nodes)
				}
			}
			for _, budget := range []float64{1000, 3000, 10000, 30000, 100000} {
				in := 0
				for _, n := range all {
					if n <= budget {
						in++
					}
				}
				line += fmt.Sprintf(" %gk:%3.0f%%", budget/1000, 100*float64(in)/float64(len(all)))
			}
			t.Logf("%s  (n=%d here, median %g)", line, len(ns), ns[len(ns)/2])
		}
	}
}
